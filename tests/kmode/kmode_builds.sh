#!/bin/sh
# tests/kmode/kmode_builds.sh KPATH KPATH-CC SRCDIR: --mode kiter through
# the build integrations (docs/kiter-mode.md, "In builds"): kpath-cc with
# KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=K, and kpath instrument -p with
# --mode kiter --kiter K, on a two-file program (tests/kmode/pragma.c and a
# second file with its main): the output is the native one, every function
# of the profile is in kiter mode at that K, pragmas apply; malformed
# settings stop with a reason and exit status 2.
set -u
KPATH=$1
KPCC=$2
SRC=$3
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
mkdir -p "$T/src"
sed 's/^int main(void)$/int pragma_main(void)/' "$SRC/tests/kmode/pragma.c" >"$T/src/walk.c"
cat >"$T/src/main.c" <<'C'
#include <stdio.h>
int pragma_main(void);
static int sum(int n)
{
	int s = 0;
	while (n-- > 0)
		s += n & 1 ? n : 1;
	return s;
}
int main(void)
{
	printf("%d\n", sum(20));
	return pragma_main();
}
C
(cd "$T/src" && $CC -w -o "$T/native" walk.c main.c) || no "native build"
"$T/native" >"$T/native.out"
LIBS=$("$KPATH" config --libs)

check() { # $1 profile, $2 K, $3 what
	python3 - "$1" "$2" "$3" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
k, what = int(sys.argv[2]), sys.argv[3]
got = sorted((f["name"], f.get("mode"), f.get("kiter", {}).get("k")) for f in d["functions"])
want = sorted((n, "kiter", k) for n in ("walk", "grid", "sum", "main", "pragma_main"))
loops = {f["name"]: [l["k"] for l in f.get("kiter", {}).get("loops", [])] for f in d["functions"]}
if got != want or loops["walk"] != [3, 1, 1] or loops["sum"] != [k]:
    print("FAIL: %s: got %s %s" % (what, got, loops))
    sys.exit(1)
PY
}

# kpath-cc, compile and link in one command and in two
(cd "$T/src" && KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=2 KPATH_CC_STRICT=1 "$KPCC" $CC -o "$T/cc1" walk.c main.c) 2>"$T/err" ||
	no "kpath-cc kiter build: $(cat "$T/err")"
(cd "$T" && KPATH_OUT=$T/cc1.json ./cc1 >"$T/cc1.out") || no "kpath-cc program failed"
cmp -s "$T/native.out" "$T/cc1.out" || no "kpath-cc kiter output differs"
check "$T/cc1.json" 2 "kpath-cc KPATH_KITER=2"
(cd "$T/src" && KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=3 KPATH_CC_STRICT=1 "$KPCC" $CC -c walk.c -o "$T/w.o" &&
 KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=3 KPATH_CC_STRICT=1 "$KPCC" $CC -c main.c -o "$T/m.o" &&
 KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=3 "$KPCC" $CC "$T/w.o" "$T/m.o" -o "$T/cc2") 2>"$T/err" ||
	no "kpath-cc -c kiter build: $(cat "$T/err")"
(cd "$T" && KPATH_OUT=$T/cc2.json ./cc2 >"$T/cc2.out") || no "kpath-cc -c program failed"
cmp -s "$T/native.out" "$T/cc2.out" || no "kpath-cc -c kiter output differs"
check "$T/cc2.json" 3 "kpath-cc KPATH_KITER=3"
# the default mode stays the default
(cd "$T/src" && KPATH_CC_STRICT=1 "$KPCC" $CC -o "$T/cc0" walk.c main.c) 2>"$T/err" || no "kpath-cc kipf: $(cat "$T/err")"
(cd "$T" && KPATH_OUT=$T/cc0.json ./cc0 >/dev/null) || no "kpath-cc kipf program failed"
grep -q '"kiter"' "$T/cc0.json" && no "kpath-cc without KPATH_INSTRUMENT_MODE made kiter code"
# malformed settings: a reason, exit status 2, no output
for env in "KPATH_INSTRUMENT_MODE=nonsense" "KPATH_INSTRUMENT_MODE=kiter" "KPATH_KITER=2" \
           "KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=0" "KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=17" \
           "KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=2x"; do
	rm -f "$T/bad"
	# shellcheck disable=SC2086
	(cd "$T/src" && env $env "$KPCC" $CC -o "$T/bad" walk.c main.c) 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || no "kpath-cc $env: exit status $rc"
	grep -q "^kpath-cc: KPATH_" "$T/err" || no "kpath-cc $env: $(cat "$T/err")"
	[ ! -e "$T/bad" ] || no "kpath-cc $env linked a program"
done

# kpath instrument -p
mkdir -p "$T/bdir"
python3 - "$T/src" "$CC" >"$T/bdir/compile_commands.json" <<'PY'
import json, shlex, sys
d, cc = sys.argv[1], shlex.split(sys.argv[2])
print(json.dumps([{"directory": d, "file": f, "arguments": cc + ["-c", f, "-o", f[:-2] + ".o"]}
                  for f in ("walk.c", "main.c")]))
PY
"$KPATH" instrument -p "$T/bdir" -o "$T/ptree" --mode kiter --kiter 2 --quiet 2>"$T/err" || no "-p kiter: $(cat "$T/err")"
grep -q "kpath kiter: .* loop line 18 K=3 (#pragma kpath kiter(3))" "$T/ptree/walk.c" || no "-p: walk.c has no kiter comment"
$CC -w "$T/ptree/walk.c" "$T/ptree/main.c" -o "$T/p" $LIBS || no "-p tree does not compile"
(cd "$T" && KPATH_OUT=$T/p.json ./p >"$T/p.out") || no "-p program failed"
cmp -s "$T/native.out" "$T/p.out" || no "-p kiter output differs"
check "$T/p.json" 2 "-p --kiter 2"
for args in "--mode kiter" "--kiter 2" "--mode kiter --kiter 0" "--mode nonsense --kiter 2"; do
	rm -rf "$T/ptree2"
	# shellcheck disable=SC2086
	"$KPATH" instrument -p "$T/bdir" -o "$T/ptree2" $args 2>"$T/err"
	rc=$?
	[ $rc -eq 2 ] || no "-p $args: exit status $rc"
	grep -q "^kpath instrument: " "$T/err" || no "-p $args: $(cat "$T/err")"
	[ ! -e "$T/ptree2" ] || no "-p $args wrote a tree"
done

[ $fail -eq 0 ] && echo "kmode_builds: ok"
exit $fail
