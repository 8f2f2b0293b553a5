#!/bin/sh
# tests/pppmode/ppp_cli.sh KPATH SRCDIR: `kpath instrument --mode ppp` on
# corpus/state_machine.c: the profile's ppp fields exactly (interesting set
# from a k = 1 run, every path of the same run interesting: no residual;
# then the hottest 50%: residual paths), the readers, accumulation, merge
# refusals, kpath residual on a ppp profile, and bad interesting profiles
# (missing, truncated, another schema, another program, a changed function).
set -u
KPATH=$1
SRC=$(cd "$2" && pwd)
CC=${CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }
P="$SRC/corpus/state_machine.c"
LIBS=$("$KPATH" config --libs)

"$KPATH" instrument "$P" -o "$T/k1.c" --quiet 2>/dev/null || no "instrument k1"
$CC -w -o "$T/k1" "$T/k1.c" $LIBS || no "cc k1"
KPATH_K=1 KPATH_OUT="$T/a.json" "$T/k1" >/dev/null || no "run k1"

# every path of the run interesting: compactness 1 on this program, no residual path
"$KPATH" instrument "$P" -o "$T/all.c" --mode ppp --interesting "$T/a.json" 2>"$T/err" || no "instrument ppp: $(cat "$T/err")"
grep -Eq "4 functions instrumented \(ppp: 4, [0-9]+ interesting paths; plain Ball-Larus: 0\), 0 skipped" "$T/err" || no "summary: $(cat "$T/err")"
grep -q "kp_ps_tokenize\[" "$T/all.c" || no "no slot check in the output"
$CC -std=c11 -pedantic -Wall -Wextra -Werror -o "$T/all" "$T/all.c" $LIBS || no "cc ppp (strict)"
KPATH_OUT="$T/all.json" "$T/all" >"$T/out" || no "run ppp"
cmp -s "$T/out" "$SRC/corpus/state_machine.expected" || no "ppp output differs"
python3 - "$T/a.json" "$T/all.json" <<'PY' || fail=1
import json, sys
a = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
b = {f["name"]: f for f in json.load(open(sys.argv[2]))["functions"]}
for n, f in b.items():
    want = sorted((x["id"], x["count"]) for x in a[n]["kipf"])
    got = sorted((x["id"], x["count"]) for x in f["ppp"]["paths"])
    if (f["mode"], f["ppp"]["interesting"], f["ppp"]["residual"], got) != ("ppp", len(want), [], want):
        print("FAIL: %s: %s" % (n, (f["mode"], f["ppp"]["interesting"], f["ppp"]["residual"], got, want)))
        sys.exit(1)
    if f["ppp"]["interval"] < f["ppp"]["interesting"] or f["ppp"]["interval"] > f["num_paths"]:
        print("FAIL: %s: interval %d" % (n, f["ppp"]["interval"]))
        sys.exit(1)
PY

# the hottest 50%: residual paths; readers; accumulation; residual; merge
"$KPATH" instrument "$P" -o "$T/top.c" --mode ppp --interesting "$T/a.json" --interesting-top 50 --quiet 2>/dev/null || no "instrument top 50"
$CC -w -o "$T/top" "$T/top.c" $LIBS || no "cc top"
KPATH_OUT="$T/top.json" "$T/top" >/dev/null || no "run top"
KPATH_OUT="$T/top.json" "$T/top" >/dev/null || no "run top again"
python3 - "$T/a.json" "$T/top.json" <<'PY' || fail=1
import json, sys
a = {f["name"]: f for f in json.load(open(sys.argv[1]))["functions"]}
d = json.load(open(sys.argv[2]))
if d["runs"] != 2:
    print("FAIL: runs %d" % d["runs"]); sys.exit(1)
res = 0
for f in d["functions"]:
    want = {x["id"]: 2 * x["count"] for x in a[f["name"]]["kipf"]}
    got = {x["id"]: x["count"] for x in f["ppp"]["paths"] + f["ppp"]["residual"] if x["count"]}
    res += len(f["ppp"]["residual"])
    if got != want or {x["id"]: x["count"] for x in f["kipf"]} != want:
        print("FAIL: %s: %s != %s" % (f["name"], got, want)); sys.exit(1)
if not res:
    print("FAIL: --interesting-top 50 left no residual path"); sys.exit(1)
PY
python3 "$SRC/tests/report/validate_profile.py" "$T/top.json" "$T/all.json" || no "the ppp profiles do not validate against docs/kpath-profile.schema.json"
"$KPATH" report "$T/top.json" --json >/dev/null 2>&1 || no "report --json"
"$KPATH" report "$T/top.json" >"$T/rep" 2>&1 || no "report: $(cat "$T/rep")"
grep -q "ppp: .* interesting, interval .*, residual paths" "$T/rep" || no "report does not show the ppp fields: $(head -20 "$T/rep")"
"$KPATH" show "$T/top.json" --source-dir / >"$T/show" 2>"$T/err" || no "show: $(cat "$T/err")"
grep -q "switch" "$T/show" || no "show printed no source"
"$KPATH" residual "$T/a.json" "$T/top.json" --fail-under 100 >"$T/res" 2>&1 || no "residual of a ppp profile against its own tests: $(cat "$T/res")"
"$KPATH" merge "$T/top.json" "$T/a.json" -o "$T/m.json" 2>"$T/err" && no "merge ppp + kipf accepted"
grep -q "profiles of ppp mode merge only with the same interesting set" "$T/err" || no "merge message: $(cat "$T/err")"
"$KPATH" merge "$T/top.json" "$T/all.json" -o "$T/m.json" 2>"$T/err" && no "merge of two interesting sets accepted"
"$KPATH" merge "$T/top.json" "$T/top.json" -o "$T/m.json" 2>"$T/err" || no "merge of one interesting set refused: $(cat "$T/err")"

# bad interesting profiles: nothing written, the file named
for bad in missing truncated schema; do
	case $bad in
	missing) f="$T/none.json" ;;
	truncated) f="$T/trunc.json"; head -c 300 "$T/a.json" >"$f" ;;
	schema) f="$T/schema.json"; echo '{"schema": "something-else/1"}' >"$f" ;;
	esac
	rm -f "$T/bad.c"
	"$KPATH" instrument "$P" -o "$T/bad.c" --mode ppp --interesting "$f" 2>"$T/err"
	[ $? -eq 3 ] || no "$bad interesting profile: exit status (3: kpath-cc fails the build on it)"
	[ -e "$T/bad.c" ] && no "$bad interesting profile: output written"
	grep -q "$f" "$T/err" || no "$bad interesting profile: the file is not named: $(cat "$T/err")"
done
# another program: every function plain, each named, and the whole said
"$KPATH" instrument "$SRC/corpus/duff.c" -o "$T/other.c" --mode ppp --interesting "$T/a.json" 2>"$T/err" || no "other program: exit status"
grep -q "warning: function 'main' instrumented in plain Ball-Larus mode, not ppp: it has no entry" "$T/err" || no "other program: function not named: $(cat "$T/err")"
grep -q "none of its 4 functions is in" "$T/err" || no "other program: no summary warning: $(cat "$T/err")"
grep -q "kpath_rt_ppp_register" "$T/other.c" && no "other program: something in ppp mode"
# a changed function (checksum): that one plain, named; the others ppp
python3 - "$T/a.json" "$T/chg.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["functions"]:
    if f["name"] == "classify":
        f["checksum"] = "0123456789abcdef"
json.dump(d, open(sys.argv[2], "w"))
PY
"$KPATH" instrument "$P" -o "$T/chg.c" --mode ppp --interesting "$T/chg.json" 2>"$T/err" || no "changed: exit status"
grep -q "function 'classify' instrumented in plain Ball-Larus mode, not ppp: its checksum there is 0123456789abcdef" "$T/err" || no "changed: $(cat "$T/err")"
grep -q "ppp: 3, .*plain Ball-Larus: 1" "$T/err" || no "changed: summary: $(cat "$T/err")"
# options
"$KPATH" instrument "$P" -o "$T/x.c" --interesting "$T/a.json" 2>/dev/null; [ $? -eq 2 ] || no "--interesting without --mode ppp"
"$KPATH" instrument "$P" -o "$T/x.c" --mode ppp 2>/dev/null; [ $? -eq 2 ] || no "--mode ppp without --interesting"
"$KPATH" instrument "$P" -o "$T/x.c" --mode ppp --interesting "$T/a.json" --interesting-top 101 2>/dev/null; [ $? -eq 2 ] || no "--interesting-top 101"
# a ppp profile whose counts disagree with its k-IPF is refused
python3 - "$T/top.json" "$T/lie.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["functions"][0]["ppp"]["paths"][0]["count"] += 1
json.dump(d, open(sys.argv[2], "w"))
PY
"$KPATH" report "$T/lie.json" >/dev/null 2>"$T/err" && no "report accepted inconsistent ppp counts"
grep -q "functions\[0\]\.ppp\.paths\[0\]\.count: " "$T/err" || no "inconsistent ppp counts: field not named: $(cat "$T/err")"
# strict C90: the inserted code of a ppp build adds no warning (tests/flags/c89.c)
C89="$SRC/tests/flags/c89.c"
"$KPATH" instrument "$C89" -o "$T/c89.k.c" --quiet 2>/dev/null && $CC -w -o "$T/c89k" "$T/c89.k.c" $LIBS &&
	KPATH_K=1 KPATH_OUT="$T/c89.json" "$T/c89k" >/dev/null || no "c89.c default build"
"$KPATH" instrument "$C89" -o "$T/c89.p.c" --quiet --mode ppp --interesting "$T/c89.json" --interesting-top 50 2>/dev/null || no "c89.c ppp"
$CC -std=c89 -pedantic -Wall -Wextra -Wc++-compat -Wunused-macros -Wdeclaration-after-statement -Wlong-long -Wshadow \
	-Wconversion -Wsign-conversion -Wmissing-prototypes -Wstrict-prototypes -Wredundant-decls -Wcast-qual -Wundef -Werror \
	-c "$T/c89.p.c" -o "$T/c89.o" || no "c89.c in ppp mode does not compile warning-free under -std=c89 -pedantic"
[ $fail -eq 0 ] && echo "ppp_cli: all checks passed"
exit $fail
