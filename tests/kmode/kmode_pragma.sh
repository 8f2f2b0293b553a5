#!/bin/sh
# tests/kmode/kmode_pragma.sh KPATH SRCDIR: #pragma kpath kiter(K) on loop
# statements (docs/kiter-mode.md): each loop's K in the output's comment and
# in the profile, --kiter-loop winning over a pragma, the default mode
# ignoring pragmas, and malformed pragmas: FILE:LINE: error: and the reason,
# exit status 1, nothing written.  (Exactness of the counts of
# tests/kmode/pragma.c against the trace: ctest kmode.pragma_e2e.)
set -u
KPATH=$1
SRC=$2
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
P="$SRC/tests/kmode/pragma.c"

"$KPATH" instrument "$P" -o "$T/p.c" --mode kiter --kiter 2 2>"$T/err" || no "instrument pragma.c: $(cat "$T/err")"
grep -q "3 functions instrumented (kiter K=2), 0 skipped, 0 with K lowered" "$T/err" || no "summary: $(cat "$T/err")"
grep -q "warning" "$T/err" && no "warnings: $(cat "$T/err")"
grep -q "/\* kpath kiter: 92 paths; loop line 18 K=3 (#pragma kpath kiter(3)), loop line 25 K=1 (#pragma kpath kiter(0)), loop line 32 K=1 (#pragma kpath kiter(1)) \*/" "$T/p.c" || no "walk's comment: $(grep 'kpath kiter:' "$T/p.c")"
grep -q "/\* kpath kiter: 106 paths; loop line 42 K=1 (#pragma kpath kiter(2)) (not innermost: acyclic), loop line 44 K=4 (#pragma kpath kiter(4)), loop line 46 K=2 \*/" "$T/p.c" || no "grid's comment: $(grep 'kpath kiter:' "$T/p.c")"
$CC -O1 -o "$T/p" "$T/p.c" $("$KPATH" config --libs) || no "cc pragma.c"
$CC -O1 -w -o "$T/native" "$P" || no "cc pragma.c (native)"
KPATH_OUT="$T/p.json" "$T/p" >"$T/out" || no "run"
[ "$(cat "$T/out")" = "$("$T/native")" ] || no "pragma.c printed $(cat "$T/out")"
python3 - "$T/p.json" <<'PY' || fail=1
import json, sys
d = {f["name"]: f["kiter"]["loops"] for f in json.load(open(sys.argv[1]))["functions"]}
want = {"walk": [{"line": 18, "k": 3}, {"line": 25, "k": 1}, {"line": 32, "k": 1}],
        "grid": [{"line": 42, "k": 1, "lowered": "not innermost: acyclic"}, {"line": 44, "k": 4}, {"line": 46, "k": 2}],
        "main": []}
if d != want:
    print("FAIL: kiter.loops\n got  %s\n want %s" % (d, want))
    sys.exit(1)
PY

# --kiter-loop wins over the pragma of the same loop
"$KPATH" instrument "$P" -o "$T/p.c" --mode kiter --kiter 2 --kiter-loop pragma.c:18=2 2>"$T/err" || no "--kiter-loop over a pragma"
grep -q "paths; loop line 18 K=2, loop line 25 K=1 (#pragma kpath kiter(0))" "$T/p.c" || no "--kiter-loop did not win: $(grep 'kpath kiter:' "$T/p.c")"
# the default mode ignores pragmas: no kiter code, and it instruments the file
"$KPATH" instrument "$P" -o "$T/d.c" 2>"$T/err" || no "kipf on pragma.c: $(cat "$T/err")"
grep -q "3 functions instrumented, 0 skipped" "$T/err" || no "kipf summary: $(cat "$T/err")"
grep -q "kpath kiter:" "$T/d.c" && no "the default mode wrote kiter code"

# malformed: FILE:LINE: error: REASON, exit 1, nothing written
bad() { # $1: the pragma line, $2: the reason expected
	printf 'int f(int n)\n{\n\tint x = 0;\n%s\n\tfor (; n > 0; n--)\n\t\tx++;\n\treturn x;\n}\n' "$1" >"$T/bad.c"
	rm -f "$T/bad.k.c"
	"$KPATH" instrument "$T/bad.c" -o "$T/bad.k.c" --mode kiter --kiter 2 2>"$T/err" >/dev/null
	rc=$?
	[ $rc -eq 1 ] || no "'$1': exit status $rc"
	grep -qF "$T/bad.c:4: error: $2" "$T/err" || no "'$1': $(cat "$T/err")"
	grep -q "nothing written" "$T/err" || no "'$1': does not say nothing is written"
	[ ! -e "$T/bad.k.c" ] || no "'$1' wrote an output"
}
bad '#pragma kpath kiter(17)' "K of kiter(K) must be in 0..16 (0: acyclic)"
bad '#pragma kpath kiter(x)' "K of kiter(K) must be a decimal integer"
bad '#pragma kpath kiter(2.0)' "K of kiter(K) must be a decimal integer"
bad '#pragma kpath kiter(0x2)' "K of kiter(K) must be a decimal integer"
bad '#pragma kpath kiter(-1)' "expected kiter(K), K an integer"
bad '#pragma kpath kiter(2' "expected kiter(K) after '#pragma kpath'"
bad '#pragma kpath kiter' "expected kiter(K) after '#pragma kpath'"
bad '#pragma kpath' "expected kiter(K) after '#pragma kpath'"
bad '#pragma kpath kipf(2)' "unknown '#pragma kpath' directive (the one kpath knows is kiter(K))"
bad '#pragma kpath kiter(2) kiter(3)' "unexpected text after kiter(K)"
bad '#pragma kpath kiter(2)
	x = 1;' "#pragma kpath kiter(K) must come just before a loop statement (for, while or do)"
bad '#pragma kpath kiter(2)
	return 0;
}
int g(int n)
{
	int x = 0;' "#pragma kpath kiter(K) must come just before a loop statement (for, while or do)"
# blank lines and comments may come between the pragma and its loop
printf 'int f(int n)\n{\n\tint x = 0;\n#pragma kpath kiter(3)\n\n\t/* the loop */\n\twhile (n-- > 0)\n\t\tx++;\n\treturn x;\n}\n' >"$T/ok.c"
"$KPATH" instrument "$T/ok.c" -o "$T/ok.k.c" --mode kiter --kiter 2 2>"$T/err" || no "ok.c: $(cat "$T/err")"
grep -q "loop line 7 K=3 (#pragma kpath kiter(3))" "$T/ok.k.c" || no "ok.c comment: $(grep 'kpath kiter:' "$T/ok.k.c")"

[ $fail -eq 0 ] && echo "kmode_pragma: ok"
exit $fail
