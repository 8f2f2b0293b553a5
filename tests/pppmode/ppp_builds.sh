#!/bin/sh
# tests/pppmode/ppp_builds.sh KPATH KPATH-CC: --mode ppp through the build
# integrations (docs/ppp.md, "In builds"): kpath-cc with
# KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=PROFILE [KPATH_INTERESTING_TOP=P]
# and kpath instrument -p with --mode ppp --interesting PROFILE, on a
# two-file program.  The interesting set comes from a k = 1 run (kpath-cc's
# default mode) on input A; the ppp builds run on input B, which takes paths
# A did not: their output is the native one, every function is in ppp mode,
# and path for path the interesting counts plus the residual paths are the
# k = 1 counts of the default build on B, split by A's set.  A profile that
# is missing or not a profile, and malformed settings, stop the build with a
# reason (kpath-cc: exit status 2, nothing compiled, also without
# KPATH_CC_STRICT; -p: nothing written).
set -u
KPATH=$1
KPCC=$2
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
mkdir -p "$T/src" "$T/elsewhere"
cat >"$T/src/lib.c" <<'C'
int classify(int x)
{
	if (x % 3 == 0)
		return x % 2 ? 1 : 2;
	if (x > 10)
		return 3;
	return 4;
}

int walk(int n)
{
	int s = 0, i;
	for (i = 0; i < n; i++)
		s += i > 12 ? classify(i) : 1;
	return s;
}
C
cat >"$T/src/main.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int classify(int x);
int walk(int n);
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5, i, s = 0;
	for (i = 0; i < n; i++)
		s += classify(i);
	printf("%d %d\n", s, walk(n));
	return 0;
}
C
A=5
B=20
(cd "$T/src" && $CC -w -o "$T/native" lib.c main.c) || no "native build"
"$T/native" $B >"$T/native.out"
LIBS=$("$KPATH" config --libs)

# the default build: the interesting set (input A) and the reference (input B)
(cd "$T/src" && KPATH_CC_STRICT=1 "$KPCC" $CC -o "$T/k1" lib.c main.c) 2>"$T/err" || no "kpath-cc default: $(cat "$T/err")"
(cd "$T" && KPATH_K=1 KPATH_OUT=$T/a.json ./k1 $A >/dev/null) || no "k1 on A failed"
(cd "$T" && KPATH_K=1 KPATH_OUT=$T/b.json ./k1 $B >/dev/null) || no "k1 on B failed"

check() { # $1 ppp profile, $2 --interesting-top P or "", $3 what
	python3 - "$T/a.json" "$T/b.json" "$1" "$2" "$3" <<'PY' || fail=1
import json, sys
def funcs(p):
    return {f["name"]: f for f in json.load(open(p))["functions"]}
def level1(f):
    return {int(n["id"]): int(n["count"]) for n in f["kipf"] if int(n["count"])}
def top_ids(counts, pct):
    order = sorted(counts, key=lambda i: (-counts[i], i))
    total, acc, keep = sum(counts.values()), 0, set()
    for i in order:
        if pct <= 0 or acc * 100 >= pct * total:
            break
        keep.add(i)
        acc += counts[i]
    return keep
A, B, P = funcs(sys.argv[1]), funcs(sys.argv[2]), funcs(sys.argv[3])
top, what = sys.argv[4], sys.argv[5]
errs, nres = [], 0
if sorted(P) != ["classify", "main", "walk"]:
    errs.append("functions %s" % sorted(P))
for name, fb in B.items():
    fp = P.get(name)
    if fp is None or fp.get("mode") != "ppp":
        errs.append("%s: not in ppp mode" % name)
        continue
    want = level1(A[name]) if not top else top_ids(level1(A[name]), float(top))
    want = set(want)
    pi = {int(q["id"]): int(q["count"]) for q in fp["ppp"]["paths"] if int(q["count"])}
    res = {int(q["id"]): int(q["count"]) for q in fp["ppp"]["residual"] if int(q["count"])}
    nres += len(res)
    b = level1(fb)
    if fp["ppp"]["interesting"] != len(want):
        errs.append("%s: ppp_interesting %d, A's set %d" % (name, fp["ppp"]["interesting"], len(want)))
    if pi != {i: c for i, c in b.items() if i in want} or res != {i: c for i, c in b.items() if i not in want}:
        errs.append("%s: interesting %s residual %s, k=1 on B %s, A's set %s" % (name, pi, res, b, sorted(want)))
if nres == 0:
    errs.append("no residual path: input B takes none outside A's set")
for e in errs:
    print("FAIL: %s: %s" % (what, e))
sys.exit(1 if errs else 0)
PY
}

# kpath-cc, one command; the profile named relative to the build's directory
(cd "$T/src" && KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=../a.json KPATH_CC_STRICT=1 "$KPCC" $CC -o "$T/cc1" lib.c main.c) \
	2>"$T/err" || no "kpath-cc ppp build: $(cat "$T/err")"
(cd "$T" && KPATH_OUT=$T/cc1.json ./cc1 $B >"$T/cc1.out") || no "kpath-cc ppp program failed"
cmp -s "$T/native.out" "$T/cc1.out" || no "kpath-cc ppp output differs"
check "$T/cc1.json" "" "kpath-cc ppp"
# compile and link apart, from another directory, the hottest 50%
(cd "$T/elsewhere" && export KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=$T/a.json KPATH_INTERESTING_TOP=50 KPATH_CC_STRICT=1 &&
 "$KPCC" $CC -c "$T/src/lib.c" -o "$T/l.o" && "$KPCC" $CC -c "$T/src/main.c" -o "$T/m.o" &&
 "$KPCC" $CC "$T/l.o" "$T/m.o" -o "$T/cc2") 2>"$T/err" || no "kpath-cc -c ppp build: $(cat "$T/err")"
(cd "$T" && KPATH_OUT=$T/cc2.json ./cc2 $B >"$T/cc2.out") || no "kpath-cc -c ppp program failed"
cmp -s "$T/native.out" "$T/cc2.out" || no "kpath-cc -c ppp output differs"
check "$T/cc2.json" 50 "kpath-cc KPATH_INTERESTING_TOP=50"

# malformed settings, a missing profile, a file that is not a profile:
# a reason, exit status 2, nothing compiled (without KPATH_CC_STRICT too)
head -c 100 "$T/a.json" >"$T/trunc.json"
echo '{"schema": "something-else"}' >"$T/other.json"
for env in "KPATH_INSTRUMENT_MODE=ppp" "KPATH_INTERESTING=$T/a.json" "KPATH_INTERESTING_TOP=50" \
           "KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=2 KPATH_INTERESTING=$T/a.json" \
           "KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=$T/missing.json" \
           "KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=$T" \
           "KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=$T/trunc.json" \
           "KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=$T/other.json" \
           "KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=$T/a.json KPATH_INTERESTING_TOP=101" \
           "KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=$T/a.json KPATH_INTERESTING_TOP=x"; do
	for cmd in "-o $T/bad lib.c main.c" "-c lib.c -o $T/bad"; do
		rm -f "$T/bad"
		# shellcheck disable=SC2086
		(cd "$T/src" && env -u KPATH_CC_STRICT $env "$KPCC" $CC $cmd) 2>"$T/err"
		rc=$?
		[ $rc -eq 2 ] || no "kpath-cc $env ($cmd): exit status $rc: $(cat "$T/err")"
		grep -q "^kpath-cc: KPATH_" "$T/err" || no "kpath-cc $env: $(cat "$T/err")"
		[ ! -e "$T/bad" ] || no "kpath-cc $env ($cmd) wrote $T/bad"
	done
	case $env in *MODE=ppp*json) grep -q "${env##*=}" "$T/err" || no "kpath-cc $env: the file is not named: $(cat "$T/err")" ;; esac
done

# kpath instrument -p, the profile named relative to the working directory
mkdir -p "$T/bdir"
python3 - "$T/src" "$CC" >"$T/bdir/compile_commands.json" <<'PY'
import json, shlex, sys
d, cc = sys.argv[1], shlex.split(sys.argv[2])
print(json.dumps([{"directory": d, "file": f, "arguments": cc + ["-c", f, "-o", f[:-2] + ".o"]}
                  for f in ("lib.c", "main.c")]))
PY
(cd "$T" && "$KPATH" instrument -p bdir -o ptree --mode ppp --interesting a.json --quiet) 2>"$T/err" || no "-p ppp: $(cat "$T/err")"
$CC -w "$T/ptree/lib.c" "$T/ptree/main.c" -o "$T/p" $LIBS || no "-p tree does not compile"
(cd "$T" && KPATH_OUT=$T/p.json ./p $B >"$T/p.out") || no "-p program failed"
cmp -s "$T/native.out" "$T/p.out" || no "-p ppp output differs"
check "$T/p.json" "" "-p --mode ppp"
for args in "--mode ppp" "--interesting $T/a.json" "--mode kiter --kiter 2 --interesting $T/a.json" \
            "--mode ppp --interesting $T/a.json --interesting-top 101" \
            "--mode ppp --interesting $T/missing.json" "--mode ppp --interesting $T/trunc.json" \
            "--mode ppp --interesting $T/other.json"; do
	rm -rf "$T/ptree2"
	# shellcheck disable=SC2086
	"$KPATH" instrument -p "$T/bdir" -o "$T/ptree2" $args 2>"$T/err"
	rc=$?
	[ $rc -eq 1 ] || [ $rc -eq 2 ] || no "-p $args: exit status $rc"
	grep -q "^kpath instrument: " "$T/err" || no "-p $args: $(cat "$T/err")"
	[ ! -e "$T/ptree2" ] || no "-p $args wrote a tree"
done

[ $fail -eq 0 ] && echo "ppp_builds: ok"
exit $fail
