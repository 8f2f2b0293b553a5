#!/bin/sh
# run.sh KPATH SRC_DIR WORK_DIR
#
# kpath coverage end to end (docs/coverage.md):
#  - constructs.c (every construct coverage counts) instrumented, run as
#    "constructs A" and "constructs B": the summary of each profile and of
#    both is the hand-checked golden (constructs*.expected: the covered
#    lines, branches and functions are gcov's on the same runs, see
#    docs/coverage.md; kpath counts two lines more, 64 "int r;" and 70
#    "} else {" - difference 1), and the JSON names the uncovered lines;
#  - kpath merge of the two profiles gives the same coverage as both;
#  - the --fail-under gates both ways (exit 3 below, 0 at or above), and bad
#    arguments (exit 2);
#  - bad input: a missing, truncated or foreign profile, a cfg that breaks
#    a rule or does not decode a recorded path: exit 1, the file and the
#    JSON path named on stderr, nothing on stdout;
#  - a profile without cfg: function and path coverage only, with a warning;
#  - the exports: the lcov tracefile read back by lcov --summary and
#    genhtml (when lcov is installed), the Cobertura XML validated against
#    coverage-04.dtd with xmllint; their figures are the summary's.
set -u
KPATH=$1
SRC=$2
WORK=$3
nfail=0
fail() {
	echo "FAIL: coverage: $*"
	nfail=$((nfail + 1))
}
rm -rf "$WORK" && mkdir -p "$WORK" || exit 2
cp "$SRC/constructs.c" "$WORK/" || exit 2
cd "$WORK" || exit 2

"$KPATH" instrument constructs.c >/dev/null 2>&1 || { echo "FAIL: instrument"; exit 1; }
# shellcheck disable=SC2046
${CC:-cc} -std=c11 -O0 constructs.kpath.c -o cons $("$KPATH" config --libs) || { echo "FAIL: cc"; exit 1; }
KPATH_OUT=a.json ./cons A >/dev/null || fail "run A"
KPATH_OUT=b.json ./cons B >/dev/null || fail "run B"

golden() { # NAME ARGS...: kpath coverage ARGS must print SRC/NAME.expected
	name=$1
	shift
	"$KPATH" coverage "$@" >"$name.out" 2>"$name.err"
	rc=$?
	[ $rc -eq 0 ] || fail "$name: exit $rc: $(cat "$name.err")"
	cmp -s "$name.out" "$SRC/$name.expected" || fail "$name: differs from $name.expected: $(diff "$SRC/$name.expected" "$name.out")"
}
golden constructs_a a.json
golden constructs_b b.json
golden constructs a.json b.json
golden constructs b.json a.json

# the union through merge is the same union
"$KPATH" merge a.json b.json -o m.json >/dev/null 2>&1 || fail "merge"
golden constructs m.json
golden constructs a.json b.json m.json

# JSON: the uncovered lines and the per-function figures
"$KPATH" coverage --json a.json b.json >both.json || fail "--json"
python3 - both.json <<'EOF' || fail "--json content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "kpath-coverage/1", d["schema"]
f = d["files"][0]
assert f["uncovered_lines"] == [14, 15, 38, 54, 56, 57, 58, 67], f["uncovered_lines"]
assert (f["lines"]["covered"], f["lines"]["total"]) == (41, 49), f["lines"]
assert (f["branches"]["covered"], f["branches"]["total"]) == (19, 30), f["branches"]
fl = {x["name"]: (x["entries"], x["paths_run"], x["num_paths"]) for x in f["function_list"]}
assert fl["never_called"] == (0, 0, 2), fl
assert fl["classify"][0] == 2 and fl["logic"][0] == 3 and fl["find"][0] == 1, fl
# the switch: 4 branches (a, b, z, default), a and default taken
sw = [b["count"] for b in f["branch_list"] if b["function"] == "classify"]
assert sorted(sw) == [0, 0, 1, 1], sw
# line 34 "again:" runs once per iteration of the goto loop: 3 times
lc = dict((l, c) for l, c in f["line_counts"])
assert lc[34] == 3 and lc[46] == 4 and lc[47] == 3, lc
assert d["total"]["functions"]["percent"] > 83.3 and d["total"]["functions"]["covered"] == 5
EOF

gate() { # EXPECTED_STATUS ARGS...
	want=$1
	shift
	"$KPATH" coverage a.json b.json "$@" >gate.out 2>gate.err
	rc=$?
	[ $rc -eq "$want" ] || fail "gate $*: exit $rc, expected $want: $(cat gate.err)"
}
gate 0 --fail-under-line 83
gate 3 --fail-under-line 84
gate 0 --fail-under-branch 63.3
gate 3 --fail-under-branch 63.4
grep -q "branch coverage 63.33% is below 63.4%" gate.err || fail "gate message: $(cat gate.err)"
[ -s gate.out ] || fail "a failing gate prints no summary"
gate 0 --fail-under-function=83
gate 3 --fail-under-function 100
gate 0 --fail-under-path 37
gate 3 --fail-under-path 38
gate 3 --fail-under-line 50 --fail-under-path 90
gate 0 --fail-under-line 0 --fail-under-branch 0 --fail-under-path 0
gate 2 --fail-under-line 101
gate 2 --fail-under-line abc
gate 2 --fail-under-line
gate 2 --fail-under-lines 5
"$KPATH" coverage >/dev/null 2>&1
[ $? -eq 2 ] || fail "no profile: not a usage error"

bad() { # NAME PATTERN: kpath coverage NAME fails (1) naming PATTERN
	"$KPATH" coverage "$1" >bad.out 2>bad.err
	rc=$?
	[ $rc -eq 1 ] || fail "$1: exit $rc, expected 1"
	[ -s bad.out ] && fail "$1: wrote to stdout"
	grep -q -- "$2" bad.err || fail "$1: message '$(cat bad.err)' lacks '$2'"
}
bad missing.json "missing.json"
head -c 300 a.json >trunc.json
bad trunc.json "trunc.json: [0-9]*:[0-9]*: invalid JSON"
echo '{"schema": "kpath-report/1", "functions": []}' >foreign.json
bad foreign.json "foreign.json: .*schema"
python3 - a.json <<'EOF' || fail "making broken profiles"
import json, sys
p = json.load(open(sys.argv[1]))
def save(name, f):
    q = json.loads(json.dumps(p))
    f(q["functions"][0]["cfg"], q["functions"][0])
    json.dump(q, open(name, "w"))
save("edge_out.json", lambda c, f: c["edges"][0].__setitem__(1, len(c["blocks"])))
save("edge_order.json", lambda c, f: c["edges"].reverse())
save("span.json", lambda c, f: c["blocks"][2].__setitem__(1, 0))
save("val.json", lambda c, f: c["edges"][-1].__setitem__(2, int(f["num_paths"])))
save("type.json", lambda c, f: c["edges"][0].__setitem__(2, "x"))
save("noblocks.json", lambda c, f: c.pop("blocks"))
# a graph that no longer decodes the recorded paths: every val 0
save("nodecode.json", lambda c, f: [e.__setitem__(2, 0) for e in c["edges"]])
EOF
bad edge_out.json "edge_out.json: .*functions\[0\]\.cfg\.edges\[0\]: an edge's ends are blocks"
bad edge_order.json "functions\[0\]\.cfg\.edges\[[0-9]*\]: .*grouped by increasing src"
bad span.json "functions\[0\]\.cfg\.blocks\[2\]: a block's span"
bad val.json "functions\[0\]\.cfg\.edges\[[0-9]*\]: an edge's val is below num_paths"
bad type.json "functions\[0\]\.cfg\.edges\[0\]: expected a \[src, dst, val\] triple"
bad noblocks.json "functions\[0\]\.cfg\.blocks: expected an array"
bad nodecode.json "functions\[[0-9]*\]\.kipf (.*): path [0-9]* does not decode"

# a profile from before "cfg": functions and paths only, and a warning
python3 - a.json <<'EOF' || fail "making a profile without cfg"
import json, sys
p = json.load(open(sys.argv[1]))
for f in p["functions"]:
    del f["cfg"]
json.dump(p, open("old.json", "w"))
EOF
"$KPATH" coverage old.json >old.out 2>old.err || fail "old profile: exit $?"
grep -q "6 functions without a static graph" old.err || fail "old profile: no warning: $(cat old.err)"
grep -q "^constructs.c  *0/0  *-  *0/0  *-  *4/6  *66.7%  *6/35  *17.1%$" old.out || fail "old profile: $(cat old.out)"

# exports: lcov read back by lcov itself (--summary, genhtml), Cobertura
# validated against coverage-04.dtd and its totals read back
"$KPATH" coverage a.json b.json --lcov both.info --cobertura both.xml >exp.out 2>exp.err ||
	fail "exports: exit $?: $(cat exp.err)"
cmp -s exp.out "$SRC/constructs.expected" || fail "exports change the summary"
"$KPATH" export --format lcov a.json b.json >export.info 2>/dev/null || fail "kpath export --format lcov"
cmp -s export.info both.info || fail "kpath export --format lcov differs from --lcov"
"$KPATH" export --format cobertura -o export.xml a.json b.json || fail "kpath export --format cobertura -o"
cmp -s export.xml both.xml || fail "kpath export -o differs from --cobertura"
"$KPATH" export a.json >/dev/null 2>&1
[ $? -eq 2 ] || fail "export without --format: not a usage error"
"$KPATH" export --format lcov -o out.info missing.json >/dev/null 2>&1
[ $? -eq 1 ] || fail "export of a missing profile: not exit 1"
[ -e out.info ] && fail "export of a missing profile wrote out.info"
[ "$(grep -c '^DA:' both.info)" -eq 49 ] || fail "lcov: DA lines: $(grep -c '^DA:' both.info)"
grep -qx 'LH:41' both.info || fail "lcov: LH"
grep -qx 'BRF:30' both.info && grep -qx 'BRH:19' both.info || fail "lcov: BRF/BRH"
grep -qx 'FNDA:0,never_called' both.info || fail "lcov: FNDA never_called"
grep -qx 'FNDA:3,logic' both.info || fail "lcov: FNDA logic"
if command -v lcov >/dev/null 2>&1; then
	lcov --summary both.info --rc lcov_branch_coverage=1 >lcov.out 2>&1 || fail "lcov --summary: $(cat lcov.out)"
	grep -q "lines\.*: 83.7% (41 of 49 lines)" lcov.out || fail "lcov --summary lines: $(cat lcov.out)"
	grep -q "functions\.*: 83.3% (5 of 6 functions)" lcov.out || fail "lcov --summary functions: $(cat lcov.out)"
	grep -q "branches\.*: 63.3% (19 of 30 branches)" lcov.out || fail "lcov --summary branches: $(cat lcov.out)"
	genhtml -q --branch-coverage -o html both.info >genhtml.out 2>&1 || fail "genhtml: $(cat genhtml.out)"
	[ -f html/index.html ] || fail "genhtml wrote no index.html"
else
	echo "coverage: lcov not installed: the tracefile is checked by grep only (scripts/test installs lcov)"
fi
xmllint --noout --nonet --dtdvalid "$SRC/coverage-04.dtd" both.xml >xml.out 2>&1 || fail "Cobertura XML does not validate: $(cat xml.out)"
python3 - both.xml <<'EOF' || fail "Cobertura content"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
a = r.attrib
assert (a["lines-covered"], a["lines-valid"], a["branches-covered"], a["branches-valid"]) == ("41", "49", "19", "30"), a
cls = r.find("packages/package/classes/class")
assert cls.get("filename") == "constructs.c"
ls = {int(l.get("number")): l for l in cls.find("lines")}
assert len(ls) == 49 and sum(1 for l in ls.values() if int(l.get("hits")) > 0) == 41
assert ls[24].get("branch") == "true" and ls[24].get("condition-coverage") == "75% (3/4)", ls[24].attrib
assert ls[8].get("condition-coverage") == "50% (2/4)", ls[8].attrib
m = {x.get("name"): x for x in cls.find("methods")}
assert m["never_called"].get("line-rate") == "0.0" and m["logic"].get("line-rate") == "1.0"
EOF

[ $nfail -eq 0 ] || exit 1
echo "coverage: all checks passed"
