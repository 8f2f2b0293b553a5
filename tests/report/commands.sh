#!/bin/sh
# commands.sh KPATH SRCDIR WORKDIR: end-to-end tests of kpath merge, diff,
# show and paths (and report on what they produce).
#
#  - merge of per-process profiles == the file the same runs accumulated
#    into (byte for byte); merge is commutative and associative (byte for
#    byte, any order and grouping);
#  - merging k = 4, 2, 3 profiles gives k = 2, and every count equals the
#    n-gram counts recomputed from the runs' traces (brute force), and the
#    profile `kpath kipf --k 2` rebuilds from the same traces;
#  - a function whose checksum differs is kept twice, never summed, and
#    reported; the others are summed;
#  - diff and show against hand-checked golden outputs (data/*.expected);
#  - show counts every line of a block (the profile's spans): exact counts
#    of corpus/alternate.c's period3, also after merge, and merge keeps the
#    spans of a newer profile over an older one without;
#  - paths: golden listing of corpus/alternate.c's figure1; every executed
#    path of a real profile has the lines `kpath paths` lists; a function
#    with too many paths needs --limit;
#  - bad input to every command: missing, truncated, wrong-schema profile
#    (exit 1, "FILE: reason", nothing written), usage errors (exit 2),
#    --help (exit 0); every --json output parses.
# Every profile produced is validated against docs/kpath-profile.schema.json.
set -u
KPATH=$1 SRC=$2 WORK=$3
CC=${CC:-cc}
CHECK="python3 $SRC/commands_check.py"
VALIDATE="python3 $SRC/validate_profile.py"
KPATH=$(cd "$(dirname "$KPATH")" && pwd)/$(basename "$KPATH")
SRC=$(cd "$SRC" && pwd)
CHECK="python3 $SRC/commands_check.py"
VALIDATE="python3 $SRC/validate_profile.py"
nfail=0
fail() { echo "FAIL: $*"; nfail=$((nfail + 1)); }
# expect_rc RC CMD...: runs CMD (stdout to out.txt, stderr to err.txt).
expect_rc() {
	want=$1; shift
	"$@" >out.txt 2>err.txt; got=$?
	[ "$got" = "$want" ] || { fail "exit $got, expected $want: $*"; cat err.txt; }
}
has() { grep -q -F -e "$2" "$1" || { fail "$1 lacks '$2'"; sed 's/^/    /' "$1"; }; }
same() { cmp -s "$1" "$2" || { fail "$1 and $2 differ ($3)"; diff "$1" "$2" | head -20; }; }

rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
cp "$SRC/data/runs.c" runs.c

# ---- build: runs.c as is, and with -DV2 (classify has another CFG) ----
"$KPATH" instrument runs.c -o runs.kpath.c 2>inst.log || { cat inst.log; exit 1; }
"$KPATH" instrument runs.c -o runs_v2.kpath.c -- -DV2 2>inst.log || { cat inst.log; exit 1; }
# shellcheck disable=SC2046
$CC -O1 runs.kpath.c -o runs $("$KPATH" config --libs) || exit 1
# shellcheck disable=SC2046
$CC -O1 -DV2 runs_v2.kpath.c -o runs_v2 $("$KPATH" config --libs) || exit 1

# ---- merge == accumulate; commutative, associative ----
for n in 10 25 7; do
	KPATH_K=4 KPATH_OUT=acc.json ./runs $n >/dev/null || fail "run $n"
	KPATH_K=4 KPATH_OUT=p$n.json ./runs $n >/dev/null || fail "run $n"
done
expect_rc 0 "$KPATH" merge p10.json p25.json p7.json -o m1.json
same m1.json acc.json "merge of per-process files vs accumulated file"
expect_rc 0 "$KPATH" merge p7.json p25.json p10.json -o m2.json
same m1.json m2.json "commutativity"
expect_rc 0 "$KPATH" merge p10.json p25.json -o t1.json
expect_rc 0 "$KPATH" merge t1.json p7.json -o m3.json
expect_rc 0 "$KPATH" merge p25.json p7.json -o t2.json
expect_rc 0 "$KPATH" merge t2.json p10.json -o m4.json
same m1.json m3.json "associativity ((10 25) 7)"
same m1.json m4.json "associativity ((25 7) 10)"
expect_rc 0 "$KPATH" merge p10.json -o one.json
same one.json p10.json "merge of one profile"
grep -q '"runs": *3' m1.json || fail "m1.json: runs is not 3"

# ---- different k: merged at the smallest, checked against the traces ----
KPATH_K=4 KPATH_OUT=k4.json KPATH_TRACE=k4.trace ./runs 25 >/dev/null || fail "k4 run"
KPATH_K=2 KPATH_OUT=k2.json KPATH_TRACE=k2.trace ./runs 10 >/dev/null || fail "k2 run"
KPATH_K=3 KPATH_OUT=k3.json KPATH_TRACE=k3.trace ./runs 7 >/dev/null || fail "k3 run"
expect_rc 0 "$KPATH" merge k4.json k2.json k3.json -o mk.json
has err.txt "kpath merge: note: k2.json has k 2, the profiles before it k 4: merging at k 2"
$CHECK brute 2 mk.json k4.trace k2.trace k3.trace || fail "merged k=2 profile != n-gram counts of the traces"
for k in 4 2 3; do
	"$KPATH" kipf --k 2 -o x$k.json k$k.trace || fail "kipf k$k"
done
expect_rc 0 "$KPATH" merge x4.json x2.json x3.json -o mx.json
same mk.json mx.json "merge at k 2 vs profiles rebuilt at k 2 from the traces"
expect_rc 0 "$KPATH" merge k4.json k3.json -o m43.json
$CHECK brute 3 m43.json k4.trace k3.trace || fail "merged k=3 profile != n-gram counts"

# ---- checksum conflict: kept separate, reported ----
KPATH_K=4 KPATH_OUT=v2.json ./runs_v2 10 >/dev/null || fail "v2 run"
expect_rc 0 "$KPATH" merge p10.json v2.json -o mc.json
has err.txt "kpath merge: warning: classify (runs.c:8): checksum"
has err.txt "in v2.json"
has err.txt "the code changed; kept separate, not summed"
$CHECK conflict mc.json p10.json v2.json classify || fail "checksum conflict"
# merging the merged file again with one version: summed into its own entry,
# no new conflict
expect_rc 0 "$KPATH" merge mc.json p10.json -o mc2.json
grep -q "kept separate" err.txt && fail "merging a version already present reports a conflict"
[ "$(grep -c '"name": *"classify"' mc2.json)" = 2 ] || fail "mc2.json: classify is not listed twice"
expect_rc 0 "$KPATH" report mc.json --function classify
[ "$(grep -c '^classify  runs.c:8' out.txt)" = 2 ] || fail "report of mc.json does not list classify twice"

# ---- report/diff/show/paths --json parse ----
expect_rc 0 "$KPATH" report m1.json --json
cp out.txt r.json && $CHECK json r.json kpath-report/1 || fail "report --json"
expect_rc 0 "$KPATH" diff p10.json p25.json --json
cp out.txt d.json && $CHECK json d.json kpath-diff/1 || fail "diff --json"
expect_rc 0 "$KPATH" show m1.json --json
cp out.txt s.json && $CHECK json s.json kpath-show/1 || fail "show --json"
expect_rc 0 "$KPATH" paths runs.c --function classify --json
cp out.txt pc.json && $CHECK json pc.json kpath-paths/1 || fail "paths --json"
$CHECK paths pc.json m1.json || fail "kpath paths vs the profile's decoded paths"
expect_rc 0 "$KPATH" paths runs.c --function popcount --json
cp out.txt pp.json && $CHECK paths pp.json m1.json || fail "kpath paths (popcount) vs the profile"

# ---- diff ----
expect_rc 0 "$KPATH" diff p10.json p10.json
has out.txt "unchanged: 3 functions"
expect_rc 0 "$KPATH" diff p10.json v2.json
has out.txt "classify  runs.c:8  code changed (checksum"
expect_rc 0 "$KPATH" diff p10.json p25.json --function classify --top 2
has out.txt "classify  runs.c:8"
[ "$(grep -c '^      [0-9]  ' out.txt)" = 2 ] || fail "diff --top 2 does not show 2 rows"
cd "$SRC/data" || exit 1
"$KPATH" diff diff_old.json diff_new.json --top 0 >"$WORK/diff.out" 2>&1 || fail "diff golden: exit $?"
same "$WORK/diff.out" diff.expected "diff golden"

# ---- show ----
"$KPATH" show diff_new.json --function f >"$WORK/show.out" 2>&1 || fail "show golden: exit $?"
same "$WORK/show.out" show_f.expected "show golden (pipe: no colour)"
"$KPATH" show diff_new.json --function f --color=always >"$WORK/show_c.out" 2>&1 || fail "show --color=always"
grep -q "$(printf '\033')\[" "$WORK/show_c.out" || fail "show --color=always has no escape sequence"
sed 's/\x1b\[[0-9;]*m//g' "$WORK/show_c.out" >"$WORK/show_c.plain"
same "$WORK/show_c.plain" show_f.expected "show --color=always without its escapes"
NO_COLOR=1 "$KPATH" show diff_new.json --function f --color=auto >"$WORK/show_nc.out" 2>&1
same "$WORK/show_nc.out" show_f.expected "show with NO_COLOR"
# --color=auto on a terminal (script(1) gives one): colour unless NO_COLOR
if command -v script >/dev/null 2>&1; then
	# a run that did not produce show's output at all (under load the
	# pty's shell has printed the kpath binary itself) is run again, at
	# most twice; the colour check is on one that did
	for try in 1 2 3; do
		script -qc "exec '$KPATH' show diff_new.json --function f" /dev/null >"$WORK/show_tty.out" 2>&1
		grep -q "of the flow" "$WORK/show_tty.out" && break
	done
	grep -q "$(printf '\033')\[" "$WORK/show_tty.out" || fail "show on a terminal has no colour"
	NO_COLOR=1 script -qc "'$KPATH' show diff_new.json --function f" /dev/null >"$WORK/show_tty_nc.out" 2>&1
	grep -q "$(printf '\033')\[" "$WORK/show_tty_nc.out" && fail "show on a terminal with NO_COLOR=1 has colour"
	tr -d '\r' <"$WORK/show_tty_nc.out" >"$WORK/show_tty_nc.plain"
	same "$WORK/show_tty_nc.plain" show_f.expected "show on a terminal with NO_COLOR"
else
	echo "note: script(1) not found, --color=auto on a terminal not tested"
fi
cd "$WORK" || exit 1
cp "$SRC/data/diff_new.json" .
expect_rc 0 "$KPATH" show diff_new.json --function f --source-dir "$SRC/data" --color never
same out.txt "$SRC/data/show_f.expected" "show --source-dir"
expect_rc 1 "$KPATH" show diff_new.json --function f
has err.txt "kpath show: f (t.c): source unavailable: "
has err.txt "t.c: No such file or directory (see --source-dir)"
# Ball-Larus path totals that add up past 2^64 (functions with cut edges,
# binutils' dwarf.c) read ">= 2^64", not as the saturated sum
sed 's/"num_paths": [234]/"num_paths": 9000000000000000000/' diff_new.json >bigpaths.json
expect_rc 0 "$KPATH" report bigpaths.json
has out.txt "Ball-Larus paths   5 / >= 2^64"
expect_rc 0 "$KPATH" coverage bigpaths.json
has out.txt "5/>= 2^64"
grep -q 18446744073709551615 out.txt && fail "coverage prints the saturated sum"
# a source outside the profile's directory: the reason names --source-dir once
sed "s|\"file\": \"t.c\"|\"file\": \"$SRC/data/t.c\"|" diff_new.json >outside.json
expect_rc 1 "$KPATH" show outside.json --function f
has err.txt "t.c: outside the source root"
grep -q -F -e "--source-dir) (see --source-dir)" err.txt && fail "show names --source-dir twice: $(cat err.txt)"
expect_rc 2 "$KPATH" show diff_new.json --color=sometimes
has err.txt "--color: auto, always or never, not: sometimes"
expect_rc 0 "$KPATH" show m1.json --function classify
has out.txt "classify  runs.c:8  flow"

# ---- show: every line of a block (spans) ----
# period3(100): state 0 (lines 28-29) in iterations i % 3 == 0 (34), state 1
# (31-32) and 2 (34-35) in 33 each; the else-if test (30) in 66; line 27's
# block ("{" of the loop body, the if test) in all 100; 26: 100 iterations +
# the exit; 23-25 (entry block, up to the for's init) once; braces none.
cd "$SRC/../.." || exit 1
ROOT=$(pwd)
"$KPATH" instrument corpus/alternate.c -o "$WORK/alt.kpath.c" 2>"$WORK/alt.log" || { fail "instrument alternate.c"; cat "$WORK/alt.log"; }
cd "$WORK" || exit 1
# shellcheck disable=SC2046
$CC -O1 alt.kpath.c -o alt $("$KPATH" config --libs) || fail "build alternate"
KPATH_K=4 KPATH_OUT=alt.json ./alt >/dev/null || fail "run alternate"
P3="23=1 24=1 25=1 26=101 27=100 28=34 29=34 30=66 31=33 32=33 33=33 34=33 35=33 36=- 37=- 38=1"
expect_rc 0 "$KPATH" show alt.json --function period3 --json --source-dir "$ROOT"
cp out.txt alt_show.json
$CHECK linecounts alt_show.json period3 $P3 || fail "show: period3 line counts"
expect_rc 0 "$KPATH" show alt.json --function correlated --json --source-dir "$ROOT"
$CHECK linecounts out.txt correlated 47=40 49=7 50=- 51=33 53=7 55=- 57=1 || fail "show: correlated line counts"
expect_rc 0 "$KPATH" merge alt.json alt.json -o alt2.json
expect_rc 0 "$KPATH" show alt2.json --function period3 --json --source-dir "$ROOT"
$CHECK linecounts out.txt period3 23=2 27=200 28=68 29=68 30=132 36=- || fail "show: period3 line counts after merge"
# without spans only first lines count: 27 is where the then-block starts
$CHECK strip_spans alt.json alt_old.json
expect_rc 0 "$KPATH" show alt_old.json --function period3 --json --source-dir "$ROOT"
$CHECK linecounts out.txt period3 26=101 27=34 28=- 29=- 30=66 31=- 33=33 34=- || fail "show: a profile without spans counts first lines"
expect_rc 0 "$KPATH" merge alt_old.json alt.json -o alt3.json
expect_rc 0 "$KPATH" show alt3.json --function period3 --json --source-dir "$ROOT"
$CHECK linecounts out.txt period3 28=68 29=68 || fail "show: merge takes the spans of the newer profile"
expect_rc 0 "$KPATH" merge alt.json alt_old.json -o alt4.json
same alt3.json alt4.json "merge with and without spans is commutative"

# ---- paths ----
cd "$SRC/../.." || exit 1
"$KPATH" paths corpus/alternate.c --function figure1 >"$WORK/paths.out" 2>"$WORK/paths.err" || fail "paths golden: exit $?"
same "$WORK/paths.out" "$SRC/data/paths_figure1.expected" "paths golden"
cd "$WORK" || exit 1
{
	echo "int wide(int x)"; echo "{"; echo "	int s = 0;"
	for i in 0 1 2 3 4 5 6 7 8 9 10; do echo "	if (x & (1 << $i)) s += $i;"; done
	echo "	return s;"; echo "}"
} >wide.c
expect_rc 1 "$KPATH" paths wide.c --function wide
has err.txt "function 'wide' has 2048 paths, more than 1000; give --limit N to list the first N"
expect_rc 0 "$KPATH" paths wide.c --function wide --limit 3
has out.txt "listing the first 3 (--limit)"
[ "$(grep -c '^  *[0-9][0-9]*  entry' out.txt)" = 3 ] || fail "paths --limit 3 does not list 3 paths"
expect_rc 1 "$KPATH" paths wide.c --function nosuch
has err.txt "no function 'nosuch' could be numbered"
expect_rc 2 "$KPATH" paths wide.c
has err.txt "--function NAME is required"
expect_rc 1 "$KPATH" paths missing.c --function f
has err.txt "cannot read 'missing.c'"

# ---- bad profiles: every command ----
head -c 200 p10.json >truncated.json
sed 's|kpath-profile/[12]|kpath-profile/9|' p10.json >wrong.json
for bad in missing.json truncated.json wrong.json; do
	expect_rc 1 "$KPATH" merge p10.json $bad -o never.json
	has err.txt "kpath merge: $bad:"
	[ ! -e never.json ] || fail "merge wrote never.json despite $bad"
	expect_rc 1 "$KPATH" report $bad
	has err.txt "kpath report: $bad:"
	expect_rc 1 "$KPATH" diff p10.json $bad
	has err.txt "kpath diff: $bad:"
	expect_rc 1 "$KPATH" diff $bad p10.json
	has err.txt "kpath diff: $bad:"
	expect_rc 1 "$KPATH" show $bad
	has err.txt "kpath show: $bad:"
done
expect_rc 1 "$KPATH" merge wrong.json -o never.json
has err.txt "schema"
expect_rc 1 "$KPATH" show truncated.json
has err.txt "truncated.json:"
expect_rc 2 "$KPATH" merge p10.json p25.json
has err.txt "kpath merge: no output (-o OUT.json)"
expect_rc 2 "$KPATH" merge -o x.json
has err.txt "kpath merge: no input profile"
expect_rc 2 "$KPATH" merge p10.json -o a.json -o b.json
expect_rc 2 "$KPATH" diff p10.json
has err.txt "two profiles needed"
expect_rc 2 "$KPATH" show
has err.txt "no profile given"
expect_rc 2 "$KPATH" diff p10.json p25.json --frob
has err.txt "unknown option: --frob"
for cmd in report merge diff show paths; do
	expect_rc 0 "$KPATH" $cmd --help
	has out.txt "usage: kpath $cmd"
done

# ---- every profile this test wrote validates against the schema ----
$VALIDATE acc.json m1.json m2.json m3.json m4.json one.json mk.json mx.json m43.json mc.json mc2.json v2.json \
	alt.json alt2.json alt_old.json alt3.json ||
	fail "a profile does not validate against docs/kpath-profile.schema.json"

if [ $nfail -ne 0 ]; then
	echo "$nfail failure(s)"
	exit 1
fi
echo PASS
