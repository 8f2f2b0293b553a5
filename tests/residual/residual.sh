#!/bin/sh
# residual.sh KPATH SRCDIR PROJECT WORKDIR: end-to-end tests of kpath residual.
#
#  - runs.c (tests/report/data) run with 2 (TESTS) and 10 (PROD): the
#    hand-checked golden runs.expected (classify's header->r+=2 and else
#    paths ran 3 times each in PROD only: 6 of PROD's 22 path runs);
#    PROD built with -DV2 (classify's code differs): every classify path
#    residual, golden runs_v2.expected;
#  - corpus/project (the stk interpreter) run on tests/hanoi.stk (TESTS) and
#    tests/primes.stk (PROD): golden stk.expected (--top 3), and the --json
#    result recomputed from the two raw profiles by residual_check.py
#    (every residual path with its count, nothing else, the summary sums);
#  - the gate both ways: --fail-under just below and just above the tested
#    share, 0 and 100, and a profile against itself (100% tested);
#  - bad input: missing, truncated, wrong-schema and foreign profiles exit 1
#    naming the file and the reason; usage errors exit 2; --help exits 0.
set -u
KPATH=$1 SRC=$2 PROJECT=$3 WORK=$4
CC=${CC:-cc}
KPATH=$(cd "$(dirname "$KPATH")" && pwd)/$(basename "$KPATH")
SRC=$(cd "$SRC" && pwd)
PROJECT=$(cd "$PROJECT" && pwd)
CHECK="python3 $SRC/residual_check.py"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
expect_rc() {
	want=$1; shift
	"$@" >out.txt 2>err.txt; got=$?
	[ "$got" = "$want" ] || { fail "exit $got, expected $want: $*"; cat err.txt; }
}
has() { grep -q -F -e "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/    /' "$1"; }; }
same() { cmp -s "$1" "$2" || { fail "$1 and $2 differ ($3)"; diff "$1" "$2" | head -20; }; }

rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

# ---- runs.c: hand-checked goldens ----
cp "$SRC/../report/data/runs.c" runs.c
"$KPATH" instrument runs.c -o runs.kpath.c 2>inst.log || { cat inst.log; exit 1; }
"$KPATH" instrument runs.c -o runs_v2.kpath.c -- -DV2 2>inst.log || { cat inst.log; exit 1; }
# shellcheck disable=SC2046
$CC -O1 runs.kpath.c -o runs $("$KPATH" config --libs) || exit 1
# shellcheck disable=SC2046
$CC -O1 -DV2 runs_v2.kpath.c -o runs_v2 $("$KPATH" config --libs) || exit 1
KPATH_OUT=tests.json ./runs 2 >/dev/null || fail "run 2"
KPATH_K=3 KPATH_OUT=prod.json ./runs 10 >/dev/null || fail "run 10"
KPATH_OUT=prod_v2.json ./runs_v2 10 >/dev/null || fail "run v2 10"

expect_rc 0 "$KPATH" residual tests.json prod.json
same out.txt "$SRC/runs.expected" "runs golden"
expect_rc 0 "$KPATH" residual tests.json prod_v2.json
same out.txt "$SRC/runs_v2.expected" "runs -DV2 golden"
expect_rc 0 "$KPATH" residual tests.json prod.json --json
cp out.txt runs.res.json
$CHECK tests.json prod.json runs.res.json || fail "runs --json against the raw profiles"
expect_rc 0 "$KPATH" residual tests.json prod_v2.json --json
cp out.txt runs_v2.res.json
$CHECK tests.json prod_v2.json runs_v2.res.json || fail "runs -DV2 --json against the raw profiles"

# ---- the gate: 16 of 22 path runs tested = 72.727...% ----
expect_rc 0 "$KPATH" residual tests.json prod.json --fail-under 72.7
has out.txt "gate: tested paths 72.7% >= --fail-under 72.7: ok"
expect_rc 3 "$KPATH" residual tests.json prod.json --fail-under 72.8
has out.txt "gate: tested paths 72.7% < --fail-under 72.8: FAIL"
has err.txt "kpath residual: tested paths carry 72.7% of prod.json's flow, under --fail-under 72.8"
expect_rc 0 "$KPATH" residual tests.json prod.json --fail-under 0
expect_rc 3 "$KPATH" residual tests.json prod.json --fail-under=100
expect_rc 3 "$KPATH" residual tests.json prod.json --json --fail-under 90
$CHECK tests.json prod.json out.txt || fail "gate --json"
grep -q '"passed": false' out.txt || fail "--json gate: passed false expected"
expect_rc 0 "$KPATH" residual prod.json prod.json --fail-under 100
has out.txt "summary: 0 residual paths in 0 of 3 functions that ran; 0 of 22 (0.0%) of PROD's flow on untested paths, 100.0% on tested paths"
# PROD's paths all ran in the tests the other way round (classify(2) runs
# only paths that classify(10) runs... except none: check by the script)
expect_rc 0 "$KPATH" residual prod.json tests.json --json
$CHECK prod.json tests.json out.txt || fail "reverse --json"

# ---- corpus/project: stk on two programs ----
mkdir stk && cd stk || exit 1
for f in "$PROJECT"/*.c; do
	b=$(basename "$f" .c)
	"$KPATH" instrument "$f" -o "$b.kpath.c" -- -I "$PROJECT" -std=c99 2>>inst.log || { cat inst.log; exit 1; }
done
# shellcheck disable=SC2046
$CC -O1 -std=c99 -I "$PROJECT" ./*.kpath.c -o stk $("$KPATH" config --libs) || exit 1
(cd "$PROJECT" && KPATH_OUT="$WORK/stk/hanoi.json" "$WORK/stk/stk" tests/hanoi.stk >/dev/null) || fail "stk hanoi"
(cd "$PROJECT" && KPATH_OUT="$WORK/stk/primes.json" "$WORK/stk/stk" tests/primes.stk >/dev/null) || fail "stk primes"
expect_rc 0 "$KPATH" residual hanoi.json primes.json --top 3
sed "s|$PROJECT/|PROJECT/|g" out.txt >stk.out
same stk.out "$SRC/stk.expected" "stk golden"
expect_rc 0 "$KPATH" residual hanoi.json primes.json --json
cp out.txt stk.res.json
$CHECK hanoi.json primes.json stk.res.json || fail "stk --json against the raw profiles"
expect_rc 0 "$KPATH" residual primes.json hanoi.json --json
$CHECK primes.json hanoi.json out.txt || fail "stk reverse --json"
cd .. || exit 1

# ---- bad input ----
expect_rc 1 "$KPATH" residual nope.json prod.json
has err.txt "kpath residual: nope.json: "
expect_rc 1 "$KPATH" residual tests.json "$SRC/../report/truncated.json"
has err.txt "truncated.json: "
expect_rc 1 "$KPATH" residual "$SRC/../report/wrong_schema.json" prod.json
has err.txt "wrong_schema.json: "
expect_rc 1 "$KPATH" residual tests.json "$SRC/foreign.json"
has err.txt "no function in common (by name and file): not profiles of the same program"
expect_rc 1 "$KPATH" residual stk/hanoi.json prod.json
has err.txt "not profiles of the same program"
[ -s out.txt ] && fail "output written for a foreign profile"
expect_rc 2 "$KPATH" residual tests.json
has err.txt "two profiles needed"
expect_rc 2 "$KPATH" residual tests.json prod.json --fail-under 101
has err.txt "--fail-under: not a percentage from 0 to 100"
expect_rc 2 "$KPATH" residual tests.json prod.json --fail-under 5x
expect_rc 2 "$KPATH" residual tests.json prod.json --fail-under
expect_rc 2 "$KPATH" residual tests.json prod.json --bogus
expect_rc 0 "$KPATH" residual --help
has out.txt "usage: kpath residual TESTS.json PROD.json"

if [ "$nfail" -ne 0 ]; then
	echo "$nfail failure(s)"
	exit 1
fi
echo "residual: ok"
