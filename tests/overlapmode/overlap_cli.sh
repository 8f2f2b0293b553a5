#!/bin/sh
# tests/overlapmode/overlap_cli.sh KPATH SRCDIR: `kpath instrument --mode
# overlap` and `kpath overlap` on tests/overlapmode/table4.c: argument
# errors (exit 2, nothing written), strict C89 output, accumulation (two
# runs into one profile: every OL count doubled, the check still passes),
# merge refusals (another degree, the default mode), report and show on an
# overlap profile, estimate's text and JSON, check's errors (EXACT with
# k = 1, a profile without overlap functions).
set -u
KPATH=$1
SRC=$(cd "$2" && pwd)
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
P="$SRC/tests/overlapmode/table4.c"
LIBS=$("$KPATH" config --libs)

for bad in "--degree 1" "--mode overlap" "--mode overlap --degree 65" "--mode overlap --degree x" \
           "--mode overlap --degree -1" "--mode overlap --degree 1 --check" "--mode kiter --kiter 2 --degree 1"; do
	"$KPATH" instrument "$P" -o "$T/bad.c" $bad 2>"$T/err"
	rc=$?
	[ $rc = 2 ] || no "'$bad': exit $rc, expected 2"
	[ -e "$T/bad.c" ] && no "'$bad': output written"
	grep -q "kpath instrument: .*degree\|kpath instrument: --check" "$T/err" || no "'$bad': message: $(cat "$T/err")"
done

for d in 1 2; do
	"$KPATH" instrument "$P" -o "$T/d$d.c" --mode overlap --degree $d 2>"$T/err" || no "instrument degree $d"
	grep -q "2 functions instrumented (overlap degree $d), 0 skipped" "$T/err" || no "summary: $(cat "$T/err")"
	$CC -std=c89 -pedantic -Wall -Wextra -Werror -o "$T/d$d" "$T/d$d.c" $LIBS || no "cc degree $d (strict c89)"
	KPATH_K=2 KPATH_OUT="$T/d$d.json" "$T/d$d" >"$T/out" || no "run degree $d"
	[ "$(cat "$T/out")" = 160500 ] || no "output degree $d: $(cat "$T/out")"
done
grep -q "/\* kpath overlap: degree 1; loop line 10: 2 OL graph paths, entry: [0-9]* I-OL graph paths \*/" "$T/d1.c" || no "no comment after {"

# accumulation: a second run into the same profile doubles every count
KPATH_K=2 KPATH_OUT="$T/d1.json" "$T/d1" >/dev/null || no "second run"
"$KPATH" overlap check "$T/d1.json" "$T/d1.json" --json >"$T/c.json" || no "check after two runs: $(cat "$T/c.json")"
python3 - "$T/c.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
l = [l for f in r["functions"] if f["name"] == "loop" for l in f["loops"]][0]
if (l["flow"], l["definite"], l["potential"], r["unsound"], r["of_mismatch"]) != (2000, 1000, 3000, 0, 0):
    print("FAIL: two runs: %s" % ((l["flow"], l["definite"], l["potential"], r["unsound"], r["of_mismatch"]),))
    sys.exit(1)
PY

# merge refuses another degree and the default mode
"$KPATH" merge -o "$T/m.json" "$T/d1.json" "$T/d2.json" 2>"$T/err" && no "merge of degrees 1 and 2 accepted"
grep -q "in mode overlap degree 2, the profiles before in mode overlap degree 1; OL counts of different modes or degrees cannot be merged" "$T/err" || no "merge message: $(cat "$T/err")"
"$KPATH" instrument "$P" -o "$T/k.c" --quiet 2>/dev/null && $CC -w -o "$T/k" "$T/k.c" $LIBS && KPATH_K=2 KPATH_OUT="$T/k.json" "$T/k" >/dev/null || no "default build"
"$KPATH" merge -o "$T/m.json" "$T/k.json" "$T/d2.json" 2>"$T/err" && no "merge of kipf and overlap accepted"
grep -q "in mode overlap degree 2, the profiles before in mode kipf" "$T/err" || no "merge message (kipf): $(cat "$T/err")"
# but an overlap profile checks against a default-mode run of the same input
"$KPATH" overlap check "$T/d2.json" "$T/k.json" >"$T/out" || no "check against a default-mode run: $(cat "$T/out")"
grep -q "check: 0 unsound bounds, 0 not exact at maximum overlap, 0 OL counts below" "$T/out" || no "check text: $(cat "$T/out")"

# or against the k-IPF (k = 2) replayed from a trace of the same run (docs/trace-format.md)
KPATH_TRACE="$T/t.trace" KPATH_OUT="$T/t.json" "$T/d1" >/dev/null || no "traced run"
"$KPATH" kipf --k 2 -o "$T/t2.json" "$T/t.trace" || no "kipf from the trace"
"$KPATH" overlap check "$T/t.json" "$T/t2.json" >"$T/out" || no "check against the trace: $(cat "$T/out")"
grep -q "flow 1000, definite 500 (-50.0%), potential 1500 (+50.0%)" "$T/out" || no "check (trace) text: $(cat "$T/out")"
python3 -c "import json,sys; f=json.load(open(sys.argv[1]))['functions']; sys.exit(any('overlap' in x['name'] for x in f))" "$T/t2.json" || no "the companion is in the replayed profile"

# the readers
"$KPATH" report "$T/d2.json" >"$T/out" 2>&1 || no "report: $(cat "$T/out")"
"$KPATH" show "$T/d2.json" --source-dir "$SRC" >"$T/out" 2>&1 || no "show: $(cat "$T/out")"

# estimate
"$KPATH" overlap estimate "$T/d1.json" >"$T/out" || no "estimate"
grep -q "loop line 10 (maximum overlap 2): flow 2000, definite 1000 (-50.0%), potential 3000 (+50.0%)" "$T/out" || no "estimate text: $(cat "$T/out")"
grep -q "^    \[10 13 14 17 18 ! 10 13 16 17 18\]  500..1000$" "$T/out" || no "estimate pair: $(cat "$T/out")"
# calls (docs/overlap-mode.md, Calls): main calls loop at lines 28 and 30, 250 times each per run
grep -q "^  call line 28 to loop: 500 calls$" "$T/out" || no "estimate call site: $(cat "$T/out")"
grep -q "^program, calls type I: flow 1000, " "$T/out" || no "estimate calls total: $(cat "$T/out")"
python3 - "$T/d1.json" "$T/bad.json" <<'PY' || no "no overlap.calls in the profile"
import json, sys
p = json.load(open(sys.argv[1]))
m = [f for f in p["functions"] if f["name"] == "main"][0]
assert [s["line"] for s in m["overlap"]["calls"]] == [28, 30], m["overlap"]["calls"]
m["overlap"]["calls"][0]["radix"] += 1
json.dump(p, open(sys.argv[2], "w"))
PY
"$KPATH" report "$T/bad.json" >/dev/null 2>"$T/err" && no "a bad overlap_calls radix accepted"
grep -q "functions\[[0-9]*\]\.overlap\.calls: " "$T/err" && grep -q "radix is not the function's num_paths" "$T/err" || no "overlap_calls message: $(cat "$T/err")"
# calls across files (docs/profile-schema.md): across is true or absent, callee_file only with it
for case in 'x["across"] = False:across: expected true' 'x["callee_file"] = "b.c":callee_file: expected a string, on a site across files' \
	'x["across"] = True; x["callee_file"] = 3:callee_file: expected a string'; do
	python3 - "$T/d1.json" "$T/bad.json" "${case%%:*}" <<'PY' || no "across case"
import json, sys
p = json.load(open(sys.argv[1]))
x = [f for f in p["functions"] if f["name"] == "main"][0]["overlap"]["calls"][0]
exec(sys.argv[3])
json.dump(p, open(sys.argv[2], "w"))
PY
	"$KPATH" report "$T/bad.json" >/dev/null 2>"$T/err" && no "a bad overlap_calls site accepted (${case%%:*})"
	grep -q "functions\[[0-9]*\]\.overlap\.calls: .*${case#*:}" "$T/err" || no "across message (${case%%:*}): $(cat "$T/err")"
done

# check's errors
KPATH_K=1 KPATH_OUT="$T/k1.json" "$T/k" >/dev/null
"$KPATH" overlap check "$T/d2.json" "$T/k1.json" 2>"$T/err" && no "check with k = 1 accepted"
grep -q "k is 1: the exact two-iteration counts need a profile with k >= 2" "$T/err" || no "k=1 message: $(cat "$T/err")"
"$KPATH" overlap estimate "$T/k.json" 2>"$T/err" && no "estimate of a kipf profile accepted"
grep -q "no function instrumented with --mode overlap" "$T/err" || no "kipf message: $(cat "$T/err")"
"$KPATH" overlap frob "$T/k.json" 2>/dev/null; [ $? = 2 ] || no "bad subcommand: not exit 2"

exit $fail
