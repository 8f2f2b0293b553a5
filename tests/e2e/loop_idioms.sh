#!/bin/sh
# loop_idioms.sh KPATH SRC_DIR WORK: repeat counting in its deferred form
# (docs/instrumented-code.md, "Repeat counting") leaves a straight loop's
# body without a branch or a call, so that $CC -O2 still turns byte loops
# into memset/memcpy (issue 14, item 2), and it changes no count: the
# profile at k = 1 and k = 3 equals that of the same file instrumented with
# --no-repeat (every item emitted where it is taken), and the output is
# native's.  Under the sanitizers only the outputs and profiles are checked.
set -u
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.loop_idioms: $*"; status=1; }
san=0
case $cc in *-fsanitize=*) san=1 ;; esac
"$kpath" instrument "$dir/idioms.c" -o rep.c 2>log || { cat log; exit 1; }
"$kpath" instrument --no-repeat "$dir/idioms.c" -o norep.c 2>>log || { cat log; exit 1; }
deferred=$(grep -c 'kpath_rt_exit_loop' rep.c)
[ "$deferred" -ge 4 ] || fail "only $deferred lines with a deferred loop exit in rep.c"
$cc -O2 -c "$dir/idioms.c" -o native.o && $cc -O2 -c rep.c -o rep.o && $cc -O2 -c norep.c -o norep.o || exit 1
$cc native.o -o native && $cc rep.o -o rep $("$kpath" config --libs) && $cc norep.o -o norep $("$kpath" config --libs) || exit 1
./native > n.out || fail "native run"
for k in 1 3; do
	KPATH_K=$k KPATH_OUT=rep$k.json ./rep > r.out || fail "rep run k=$k"
	KPATH_K=$k KPATH_OUT=norep$k.json ./norep > nr.out || fail "norep run k=$k"
	cmp -s n.out r.out && cmp -s n.out nr.out || fail "output differs (k=$k)"
	python3 - rep$k.json norep$k.json <<'PY' || fail "profiles differ at k=$k"
import json, sys
def funcs(path):
    p = json.load(open(path))
    return {f["name"]: (f["emitted"], f["invalid_paths"], json.dumps(f["paths"], sort_keys=True),
                        json.dumps(f.get("kipf"), sort_keys=True)) for f in p["functions"]}
a, b = funcs(sys.argv[1]), funcs(sys.argv[2])
if set(a) != {"fill", "copy", "find", "mul3", "main"} or a != b:
    print("rep:", a, "\nnorep:", b)
    sys.exit(1)
PY
done
if [ $san = 0 ]; then
	checked=0
	for f in memset memcpy; do
		nm -u native.o | awk '{print $2}' | grep -x "$f" >/dev/null || continue
		checked=$((checked + 1))
		nm -u rep.o | awk '{print $2}' | grep -x "$f" >/dev/null || fail "$f: a library call natively, not instrumented"
	done
	[ $checked -ge 1 ] || fail "no loop became memset or memcpy natively: nothing to compare"
fi
[ $status = 0 ] && echo "e2e.loop_idioms: OK"
exit $status
