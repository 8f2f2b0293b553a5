#!/bin/sh
# Acyclic functions (kpath_rt_tally, no cursor) end to end on
# tests/e2e/acyclic/acyclic.c: the instrumented form; exact counts at k = 1
# and 4 (acyclic_check.py); trace mode: one ENTER + LEAVE per activation,
# kpcheck's trace checks, and kpath kipf of the trace equal to the online
# profiles at k = 4 and k = 1; the checking runtime replays every edge
# (recursion, a longjmp out of a helper, a second thread) with 0 mismatches.
# usage: acyclic.sh KPATH KPATH_CHECK_LIB SOURCE_DIR WORK
set -u
kpath=$1 checklib=$2 dir=$3 work=$4
cc=${CC:-cc}
py=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p "$work" && rm -f "$work"/*.json "$work"/*.trace || exit 1
cp "$dir/acyclic.c" "$work/acyclic.c" || exit 1
cd "$work" || exit 1
expected="digits 6 rotr 420610052 fib 5 signs 53 worker 4 3"

"$kpath" instrument acyclic.c -o acyclic.kpath.c 2>instrument.log || fail "$(cat instrument.log)"
for f in is_digit rotr fib sign check; do
	grep -q "kpath_rt_tally(&kp_fn_$f, &kp_cnt_$f, " acyclic.kpath.c || fail "$f: no kpath_rt_tally"
	grep -q "kpath_rt_begin\(_sj\|_t\)\?(&kp_fn_$f," acyclic.kpath.c && fail "$f: enters a cursor"
done
for f in main worker; do
	grep -q "kp_c = kpath_rt_begin\(_sj(&kp_fn_$f\|_t(&kp_fn_$f, &kp_tpl_$f\), kp_c)" acyclic.kpath.c || fail "$f: no cursor"
done
# shellcheck disable=SC2046
$cc -std=c11 -O2 -pthread acyclic.kpath.c -o acyclic $("$kpath" config --libs) || fail build

for k in 1 4; do
	out=$(KPATH_K=$k KPATH_OUT="$work/k$k.json" ./acyclic) || fail "k=$k: status $?"
	[ "$out" = "$expected" ] || fail "k=$k: output: $out"
	$py "$here/acyclic/acyclic_check.py" profile k$k.json $k || fail "k=$k: counts"
	$py "$here/kpcheck.py" profile k$k.json --k $k --src-root "$work" --functions 7 || fail "k=$k: kpcheck"
done

out=$(KPATH_K=4 KPATH_OUT="$work/t4.json" KPATH_TRACE="$work/t4.trace" ./acyclic) || fail "trace: status $?"
[ "$out" = "$expected" ] || fail "trace: output: $out"
$py "$here/acyclic/acyclic_check.py" profile t4.json 4 || fail "trace: counts"
$py "$here/acyclic/acyclic_check.py" trace t4.trace || fail "trace: activations"
$py "$here/kpcheck.py" profile t4.json --k 4 --src-root "$work" --trace t4.trace --functions 7 || fail "trace: kpcheck"
for k in 4 1; do
	"$kpath" kipf --k $k -o off$k.json t4.trace || fail "kipf --k $k"
	cmp -s off$k.json k$k.json || fail "kipf --k $k of the trace differs from the online k=$k profile"
done

"$kpath" instrument --check acyclic.c -o acyclic.check.c 2>check.log || fail "$(cat check.log)"
$cc -std=c11 -O2 -pthread acyclic.check.c -o acyclic.check "$checklib" || fail "check build"
KPATH_CHECK_OUT="$work/check.out" ./acyclic.check >/dev/null || fail "check run: status $?"
cat check.out
grep -q ", 0 mismatches" check.out || fail "check mismatches"
grep -q " 75 paths, " check.out || fail "check: expected 75 paths (main 22, worker 8, 45 helper activations)"
echo PASS
