#!/bin/sh
# deep_recursion.sh KPATH SRC_DIR WORK: 1,000,000-deep tail recursion under
# an 8 MB stack at -O2 runs instrumented as natively (the path ends before
# the tail call, docs/instrumented-code.md "Tail calls"), and its profile
# is exact (deep/check_deep.py).  (corpus/recursion.c has tail calls too:
# e2e.recursion replays its trace against the profile.)
set -u
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
py=${PYTHON:-python3}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.deep_recursion: $*"; status=1; }
"$kpath" instrument "$dir/deep.c" -o deep.kpath.c 2>instrument.log || { cat instrument.log; exit 1; }
grep -q 'return (kpath_rt_leave(&kp_c, [^)]*), walk(n - 1, acc));' deep.kpath.c || fail "walk's tail call is not after its path end"
grep -q 'return (kpath_rt_tally(&kp_fn_down, &kp_cnt_down, [0-9]*, 3), down(n - 1, acc + 1));' deep.kpath.c || fail "down's tail call is not after its count"
# AddressSanitizer keeps the frame of every function with an address-taken
# local (the copies of the cursor the library halves get): no tail call
# there, so a sanitizer run (scripts/test sets CC) checks the profile at a
# depth its frames fit in.
n=1000000
case $cc in *-fsanitize=*) n=5000 ;; esac
$cc -O2 "$dir/deep.c" -o native || exit 1
$cc -O2 deep.kpath.c -o deep $("$kpath" config --libs) || exit 1
(ulimit -s 8192 && ./native $n > native.out) || { echo "SKIP-like failure: the native build does not survive (compiler without tail calls?)"; exit 1; }
(ulimit -s 8192 && KPATH_OUT=deep.json KPATH_K=3 ./deep $n > deep.out) || fail "the instrumented program crashed (exit $?)"
cmp -s native.out deep.out || fail "output differs"
[ -f deep.json ] && { "$py" "$dir/check_deep.py" deep.json "$dir/deep.c" $n || status=1; }
[ $status = 0 ] && echo "e2e.deep_recursion: OK"
exit $status
