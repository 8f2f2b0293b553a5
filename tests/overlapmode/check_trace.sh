#!/bin/sh
# tests/overlapmode/check_trace.sh KPATH SRCDIR: `kpath overlap check`
# against a trace of the run (docs/overlap-mode.md, "kpath overlap check")
# on tests/overlapmode/table4.c at degree 1: the trace alone (loops from its
# k-IPF k = 2, calls from its events), a k = 2 profile and the trace, text
# and JSON, and the errors: a truncated trace, a trace and a profile of
# another program, a profile of two runs, two traces, a missing file.
set -u
KPATH=$1
SRC=$(cd "$2" && pwd)
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
LIBS=$("$KPATH" config --libs)
"$KPATH" instrument "$SRC/tests/overlapmode/table4.c" -o "$T/d1.c" --mode overlap --degree 1 --quiet 2>/dev/null &&
	$CC -w -o "$T/d1" "$T/d1.c" $LIBS || no "build at degree 1"
KPATH_TRACE="$T/t.trace" KPATH_OUT="$T/t.json" "$T/d1" >/dev/null || no "traced run"
"$KPATH" kipf --k 2 -o "$T/t2.json" "$T/t.trace" || no "kipf from the trace"
for i in 1 2; do KPATH_OUT="$T/two.json" "$T/d1" >/dev/null || no "run $i into two.json"; done

# check against a trace (docs/overlap-mode.md, "Checking against a trace"): the trace alone (loops from its
# k-IPF k = 2, calls from its events), or a k = 2 profile and the trace; main's two sites of loop, 250 calls each in one run
"$KPATH" overlap check "$T/t.json" "$T/t.trace" >"$T/out" || no "check against the trace alone: $(cat "$T/out")"
grep -q "^  call line 28 to loop: 250 calls, 250 in the trace: sound$" "$T/out" || no "check site text: $(cat "$T/out")"
grep -q "^check, calls: 4 site types and [0-9]* pairs checked against the trace: 0 unsound, 0 not exact at maximum overlap, 0 counts differ from the trace's; 0 ambiguous sites, 0 left in mid-path (not checked)$" "$T/out" || no "check calls total: $(cat "$T/out")"
grep -q "flow 1000, definite 500 (-50.0%), potential 1500 (+50.0%)" "$T/out" || no "check (trace alone) loop text: $(cat "$T/out")"
"$KPATH" overlap check "$T/t.json" "$T/t2.json" "$T/t.trace" --json >"$T/c.json" || no "check with a profile and a trace"
python3 - "$T/c.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["calls_check"]
s = [s for f in r["functions"] if f["name"] == "main" for s in f["calls"]]
if (c["site_types"], c["unsound"], c["mismatch"], [x["verdict"] for x in s], [x["trace_calls"] for x in s],
        r["calls_type1"]["flow"]) != (4, 0, 0, ["sound", "sound"], [250, 250], 500):
    print("FAIL: check --json with a trace: %s" % json.dumps(c))
    sys.exit(1)
PY
# a trace cut short, a trace of another program, two traces, an unreadable file
head -c 200 "$T/t.trace" >"$T/cut.trace"
"$KPATH" overlap check "$T/t.json" "$T/cut.trace" >/dev/null 2>"$T/err" && no "a truncated trace accepted"
grep -q "cut.trace: truncated trace (the program was cut short?)" "$T/err" || no "truncated message: $(cat "$T/err")"
"$KPATH" overlap check "$T/t.json" "$T/t2.json" "$T/cut.trace" >/dev/null 2>"$T/err" && no "a truncated trace accepted (calls)"
grep -q "cut.trace: truncated at byte [0-9]* (the program was cut short?)" "$T/err" || no "truncated message (calls): $(cat "$T/err")"
printf 'int main(void) { return 0; }\n' >"$T/other.c"
"$KPATH" instrument "$T/other.c" -o "$T/other.i.c" --quiet && $CC -w -o "$T/other" "$T/other.i.c" $LIBS &&
	KPATH_TRACE="$T/other.trace" KPATH_OUT="$T/other.json" "$T/other" || no "build of another program"
"$KPATH" overlap check "$T/t.json" "$T/t2.json" "$T/other.trace" >/dev/null 2>"$T/err" && no "a trace of another program accepted"
grep -q "other.trace: the trace holds none of the profile's --mode overlap functions (a trace of another program?)" "$T/err" || no "other-program message: $(cat "$T/err")"
"$KPATH" overlap check "$T/t.json" "$T/other.trace" >/dev/null 2>"$T/err" && no "a trace of another program accepted (alone)"
"$KPATH" overlap check "$T/t.json" "$T/other.json" >/dev/null 2>"$T/err" && no "a profile of another program accepted"
grep -q "other.json: none of the profile's --mode overlap functions is in the exact counts" "$T/err" || no "other-profile message: $(cat "$T/err")"
"$KPATH" overlap check "$T/t.json" "$T/t.trace" "$T/t.trace" >/dev/null 2>"$T/err"; [ $? = 2 ] || no "two traces: not exit 2"
grep -q "a second trace" "$T/err" || no "two traces message: $(cat "$T/err")"
"$KPATH" overlap check "$T/two.json" "$T/t.trace" >/dev/null 2>"$T/err" && no "a profile of two runs checked against one trace"
grep -q "t.trace: the profile holds 2 runs, a trace one" "$T/err" || no "two runs message: $(cat "$T/err")"
"$KPATH" overlap check "$T/t.json" "$T/none.trace" >/dev/null 2>"$T/err" && no "a missing trace accepted"
grep -q "none.trace: No such file" "$T/err" || no "missing file message: $(cat "$T/err")"
[ "$fail" = 0 ] && echo "check_trace: passed"
exit $fail
