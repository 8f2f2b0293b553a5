#!/bin/sh
# tests/kmode/kmode_fork.sh KPATH SRCDIR: fork in kiter mode
# (tests/kmode/fork.c): the profile of the forking program (parent and
# child, runs 2) holds, for work, exactly the k-iteration path counts of the
# one-process build (-DNOFORK) that makes the same calls; the latter is
# checked against the trace by ctest kmode.fork_e2e.
set -u
KPATH=$1
SRC=$2
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
for K in 2 3; do
	for v in fork nofork; do
		d=; [ $v = nofork ] && d=-DNOFORK
		"$KPATH" instrument "$SRC/tests/kmode/fork.c" -o "$T/$v.c" --mode kiter --kiter $K --quiet -- $d 2>"$T/err" ||
			no "instrument ($v): $(cat "$T/err")"
		$CC -w $d -o "$T/$v" "$T/$v.c" $("$KPATH" config --libs) || no "cc $v"
		rm -f "$T/$v.json"
		KPATH_OUT="$T/$v.json" "$T/$v" >"$T/$v.out" || no "$v run"
	done
	[ "$(cat "$T/fork.out")" = 3255 ] && [ "$(cat "$T/nofork.out")" = 3255 ] || no "K=$K: outputs"
	python3 - "$T/fork.json" "$T/nofork.json" "$K" <<'PY' || fail=1
import json, sys
def work(p):
    d = json.load(open(p))
    f = [f for f in d["functions"] if f["name"] == "work"][0]
    return d["runs"], f.get("mode"), f.get("kiter", {}).get("k"), sorted((n["id"], n["count"]) for n in f["kipf"])
a, b, k = work(sys.argv[1]), work(sys.argv[2]), int(sys.argv[3])
if a[0] != 2 or b[0] != 1 or a[1:3] != ("kiter", k) or a[3] != b[3] or not a[3]:
    print("FAIL: K=%d fork %s\n       nofork %s" % (k, a, b))
    sys.exit(1)
PY
done
[ $fail -eq 0 ] && echo "kmode_fork: ok"
exit $fail
