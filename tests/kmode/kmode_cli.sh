#!/bin/sh
# tests/kmode/kmode_cli.sh KPATH SRCDIR: `kpath instrument --mode kiter` on
# the paper's Figure 1 loop (tests/kmode/fig1.c), and its bad input.
#
# Figure 1 (Roy & Srikant, CGO 2009) at K = 2: 23 static paths, and the run
# 1-(2-3-5-2-4-5)^100-6 gives Table 2's profile: 2-4-5-2-3-5 99 times,
# 2-3-5-2-4-5 98 times, 1-2-3-5-2-4-5 and 2-3-5-2-4-5-6 once each.  The
# IDs 19, 16 and 15 are the paper's (Table 2); 1-2-3-5-2-4-5 is 4 here and
# 3 in the paper, because kpath's CFG orders the do-while's exit edge before
# its back edge in every iteration, the paper only in the last
# (docs/kiter-mode.md).  The blocks' first lines: 1 is 8 (the definition),
# 2 is 11 (do), 3 is 16 (else), 4 is 12 (then), 5 is 19 (while), 6 is 20.
set -u
KPATH=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# scripts/test sets CC for the sanitizer run: the runtime is built with it.
cc=${CC:-cc}
no() { echo "FAIL: $*"; fail=1; }

"$KPATH" instrument "$SRC/tests/kmode/fig1.c" -o "$T/fig1.k.c" --mode kiter --kiter 2 2>"$T/err" || no "instrument fig1: $(cat "$T/err")"
grep -q "1 functions instrumented (kiter K=2), 0 skipped, 0 with K lowered" "$T/err" || no "summary line: $(cat "$T/err")"
grep -q "/\* kpath kiter: 23 paths; loop line 11 K=2 \*/" "$T/fig1.k.c" || no "the loop's K is not in the output as a comment"
$cc -O1 -o "$T/fig1" "$T/fig1.k.c" $("$KPATH" config --libs) || no "cc fig1"
KPATH_OUT="$T/fig1.json" "$T/fig1" >"$T/out" || no "run fig1"
[ "$(cat "$T/out")" = "200 300" ] || no "fig1 printed $(cat "$T/out")"
python3 - "$T/fig1.json" <<'PY' || fail=1
import json, sys
f = json.load(open(sys.argv[1]))["functions"][0]
got = (f["num_paths"], [(n["id"], n["count"]) for n in f["kipf"]],
       {p["id"]: p["lines"] for p in f["paths"]})
want = (23, [(4, 1), (15, 1), (16, 98), (19, 99)],
        {4: [8, 11, 16, 19, 11, 12, 19],       # 1-2-3-5-2-4-5
         15: [11, 16, 19, 11, 12, 19, 20],     # 2-3-5-2-4-5-6
         16: [11, 16, 19, 11, 12, 19],         # 2-3-5-2-4-5
         19: [11, 12, 19, 11, 16, 19]})        # 2-4-5-2-3-5
if got != want:
    print("FAIL: Figure 1 profile\n got  %s\n want %s" % (got, want))
    sys.exit(1)
PY

# the profile extension survives accumulation; report names the mode; merge
# refuses a kiter and a kipf profile of one function, and two K
KPATH_OUT="$T/fig1.json" "$T/fig1" >/dev/null || no "second run of fig1"
python3 - "$T/fig1.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
f = d["functions"][0]
got = (d["runs"], f.get("mode"), f["kiter"]["k"], f["kiter"]["loops"], [(n["id"], n["count"]) for n in f["kipf"]])
want = (2, "kiter", 2, [{"line": 11, "k": 2}], [(4, 2), (15, 2), (16, 196), (19, 198)])
if got != want:
    print("FAIL: accumulated kiter profile\n got  %s\n want %s" % (got, want))
    sys.exit(1)
PY
"$KPATH" report "$T/fig1.json" 2>&1 | grep -q "k-iteration paths (kiter K=2): 4 executed" || no "report does not name the kiter paths"
"$KPATH" instrument "$SRC/tests/kmode/fig1.c" -o "$T/fig1.b.c" 2>/dev/null || no "instrument fig1 (kipf)"
$cc -O1 -o "$T/fig1b" "$T/fig1.b.c" $("$KPATH" config --libs) && KPATH_OUT="$T/kipf.json" "$T/fig1b" >/dev/null || no "kipf fig1"
"$KPATH" instrument "$SRC/tests/kmode/fig1.c" -o "$T/fig1.3.c" --mode kiter --kiter 3 2>/dev/null || no "instrument fig1 K=3"
$cc -O1 -o "$T/fig13" "$T/fig1.3.c" $("$KPATH" config --libs) && KPATH_OUT="$T/k3.json" "$T/fig13" >/dev/null || no "K=3 fig1"
"$KPATH" merge "$T/fig1.json" "$T/kipf.json" -o "$T/m.json" 2>"$T/err" && no "merge kiter + kipf accepted"
grep -q "a kiter and a kipf profile of the same function cannot be merged" "$T/err" || no "merge kiter + kipf: $(cat "$T/err")"
"$KPATH" merge "$T/fig1.json" "$T/k3.json" -o "$T/m.json" 2>"$T/err" && no "merge K=2 + K=3 accepted"
grep -q "kiter K=3 in .*, K=2 before; profiles of different K cannot be merged" "$T/err" || no "merge K: $(cat "$T/err")"
[ ! -e "$T/m.json" ] || no "a refused merge wrote its output"
"$KPATH" merge "$T/fig1.json" "$T/fig1.json" -o "$T/m.json" 2>"$T/err" || no "merge of two K=2 kiter profiles: $(cat "$T/err")"
grep -q '"mode": *"kiter"' "$T/m.json" || no "the merged profile lost the mode"

# above the hard limit K is lowered loop by loop, and said (tokenizer's
# next_token: 557901 Ball-Larus paths, 8341017 at K = 2)
"$KPATH" instrument "$SRC/corpus/bench/tokenizer.c" -o "$T/tok.c" --mode kiter --kiter 2 -- -std=c11 2>"$T/err" || no "instrument tokenizer"
grep -q "note: function 'next_token': K lowered to fit 1000000 k-iteration paths: loop at line 104 to K=1, loop at line 162 to K=1, loop at line 167 to K=1 (768615 paths)" "$T/err" || no "no note for next_token: $(cat "$T/err")"
grep -q "functions instrumented (kiter K=2), 0 skipped, 1 with K lowered" "$T/err" || no "tokenizer summary: $(cat "$T/err")"
grep -q "loop line 104 K=1 (lowered to fit 1000000 paths)" "$T/tok.c" || no "the lowered K is not in the output"
# a function whose control flow a macro spells makes a second walk (over
# the text with the macro written out): K lowered is still counted once
{ cat "$SRC/corpus/bench/tokenizer.c"; printf '#define RET_IF(c) if (c) return 1\nint extra_fn(int x)\n{\n\tRET_IF(x > 2);\n\treturn 0;\n}\n'; } > "$T/tok2.c"
"$KPATH" instrument "$T/tok2.c" -o "$T/tok2.kpath.c" --mode kiter --kiter 2 -- -std=c11 2>"$T/err" || no "instrument tokenizer + macro"
grep -q "expansion of RET_IF" "$T/tok2.kpath.c" || no "RET_IF not written out"
grep -q "functions instrumented (kiter K=2), 0 skipped, 1 with K lowered" "$T/err" || no "tokenizer + macro summary: $(cat "$T/err")"

# bad input: a clear error, a non-zero exit, nothing written
for args in "--kiter 0" "--kiter abc" "--kiter 2x" "--kiter -1" "--kiter 99" "--kiter" \
            "--mode nonsense --kiter 2" "--mode kiter" "--mode" "--mode kipf --kiter 2" "--mode kiter --kiter 2 --check"; do
	rm -f "$T/bad.c"
	# shellcheck disable=SC2086
	"$KPATH" instrument "$SRC/tests/kmode/fig1.c" -o "$T/bad.c" --mode kiter $args 2>"$T/err" >/dev/null
	rc=$?
	case "$args" in --mode*) "$KPATH" instrument "$SRC/tests/kmode/fig1.c" -o "$T/bad.c" $args 2>"$T/err" >/dev/null; rc=$?;; esac
	[ $rc -ne 0 ] || no "'$args' was accepted"
	[ ! -e "$T/bad.c" ] || no "'$args' wrote an output"
	grep -q "kpath instrument: " "$T/err" || no "'$args': no message: $(cat "$T/err")"
done
# --kiter-loop FILE:LINE=K: one loop's K (the head's line, as the comment shows)
NL="$SRC/corpus/nested_loops.c"
"$KPATH" instrument "$NL" -o "$T/nl.c" --mode kiter --kiter 2 --kiter-loop nested_loops.c:12=3 \
	--kiter-loop corpus/nested_loops.c:81=1 2>"$T/err" || no "--kiter-loop: $(cat "$T/err")"
grep -q "loop line 10 K=1 (not innermost: acyclic), loop line 12 K=3 \*/" "$T/nl.c" || no "--kiter-loop 12=3 not applied"
grep -q "loop line 75 K=2, loop line 81 K=1, loop line 91 K=2 \*/" "$T/nl.c" || no "--kiter-loop 81=1 not applied"
rm -f "$T/nl.c"
"$KPATH" instrument "$NL" -o "$T/nl.c" --mode kiter --kiter 2 --kiter-loop nested_loops.c:13=3 2>"$T/err"
[ $? -eq 1 ] || no "--kiter-loop naming no loop head: not an error"
grep -q "^nested_loops.c:13: error: --kiter-loop nested_loops.c:13=3: no loop head starts on this line" "$T/err" || no "no-loop message: $(cat "$T/err")"
[ ! -e "$T/nl.c" ] || no "--kiter-loop naming no loop wrote an output"
for spec in x f.c:0=2 f.c:3=0 f.c:3=99 :3=2 f.c:=2 f.c:3= f.c:3=2x f.c:-3=2; do
	"$KPATH" instrument "$NL" -o "$T/nl.c" --mode kiter --kiter 2 --kiter-loop "$spec" 2>"$T/err"
	[ $? -eq 2 ] || no "--kiter-loop '$spec' accepted"
	grep -q "kpath instrument: --kiter-loop '$spec': expected FILE:LINE=K" "$T/err" || no "'$spec': $(cat "$T/err")"
	[ ! -e "$T/nl.c" ] || no "--kiter-loop '$spec' wrote an output"
done
"$KPATH" instrument "$NL" -o "$T/nl.c" --kiter-loop f.c:3=2 2>"$T/err" && no "--kiter-loop without --mode kiter accepted"
[ ! -e "$T/nl.c" ] || no "--kiter-loop without --mode kiter wrote an output"

[ $fail -eq 0 ] && echo "kmode_cli: ok"
exit $fail
