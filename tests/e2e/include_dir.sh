#!/bin/sh
# include_dir.sh KPATH KPATH_CC CHECKLIB PROJECT WORKDIR
#
# kpath instrument --include-dir end to end, on PROJECT (tests/e2e/include_dir:
# src/a.c and src/b.c both include include/lib/util.h, which includes
# base.h; the headers define static inline functions):
#   1. kpath instrument a.c and b.c --include-dir include: the copies are in
#      OUT/kpath-include/lib/, the program prints what the original prints
#      (including __FILE__ inside a header function), the profile has the
#      header functions once per including file, with no invalid path,
#      and kpath coverage and kpath show read the headers' sources;
#   2. the same with --check and the checking runtime: 0 mismatches;
#   3. kpath-cc with KPATH_INCLUDE_DIR: same output, header functions profiled,
#      dependency files (-MD) name the original headers;
#   4. kpath instrument -p with --include-dir on a compile_commands.json;
#   5. b.c instrumented with -DUTIL_EXTRA into the same output after a.c:
#      the header copy changes, and compiling a.c's output now stops with
#      kpath's #error instead of recording wrong paths;
#   6. a missing --include-dir: exit status 1, nothing written;
#   7. src/tmpl.c includes include/lib/tmpl.h twice as a template (each
#      inclusion defines FN(max) for its TYPE at the same place): those
#      functions are skipped with their reason (one copy cannot hold the
#      code of each; instrumenting both gave "redefinition of 'kp_r'" and
#      kpath-cc compiled the file unprofiled), the header's other function
#      is instrumented, and the program prints what the original prints;
#   8. src/table.c includes include/lib/table.h three times (rows of a
#      table, each time with another ROW, as libiconv's iconv.c includes
#      aliases2.h), and table.h includes table_more.h: the copy of table.h
#      redirects that #include once (it was once per inclusion, nested
#      comments that do not compile), and the program prints what the
#      original prints;
#   9. src/gen.c includes include/lib/gen.h, whose functions a macro defines
#      (no control flow in them): they are skipped with the true reason (the
#      body is the macro's, and a header's invocations are not written
#      out; it said "control flow inside a macro expansion"), and the
#      program prints what the original prints.
set -u
TEST=include_dir
. "$(dirname "$0")/lib.sh"
KPATH=$1
KPATH_CC=$2
CHECKLIB=$3
PROJECT=$(cd "$4" && pwd)
W=$5
CC=${CC:-cc}
PY=${PYTHON:-python3}
rm -rf "$W"
mkdir -p "$W"
W=$(cd "$W" && pwd)
LIBS=$("$KPATH" config --libs)
cd "$PROJECT" || fatal "no project $PROJECT"

# the reference, natively
$CC -I include src/a.c src/b.c -o "$W/native" || fatal "native build failed"
"$W/native" >"$W/native.out" || fatal "native run failed"

# profile_check PROFILE: every function has invalid_paths 0; prints "name|file" lines
profile_funcs() {
	$PY - "$1" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
for f in p["functions"]:
    if f.get("invalid_paths", 0):
        print("INVALID %s" % f["name"])
    print("%s|%s|%d" % (f["name"], f["file"], f.get("emitted", 0)))
EOF
}

# 1. kpath instrument --include-dir
O=$W/out
for f in a b; do
	"$KPATH" instrument src/$f.c -o "$O/$f.c" --include-dir include -- -I include 2>"$W/$f.log" ||
		{ show "$W/$f.log"; fatal "kpath instrument src/$f.c --include-dir include failed"; }
done
grep -q '4 functions instrumented, 0 skipped' "$W/a.log" || { show "$W/a.log"; fail "a.c: expected 4 functions instrumented (main, clampi, sum_odd, say)"; }
for h in util.h base.h; do
	[ -f "$O/kpath-include/lib/$h" ] || fail "no copy $O/kpath-include/lib/$h"
done
grep -q '^#include [a-z0-9_]*inc_[0-9a-f]* /\*<lib/util.h>\*/$' "$O/a.c" || fail "a.c's #include not redirected to the copy"
$CC -Wall -I include "$O/a.c" "$O/b.c" -o "$W/prog" $LIBS 2>"$W/cc.err" || { show "$W/cc.err"; fatal "the instrumented files do not compile"; }
(cd "$W" && KPATH_OUT=$W/p1.json ./prog >"$W/p1.out") || fail "instrumented run failed"
cmp -s "$W/native.out" "$W/p1.out" || { show "$W/p1.out"; fail "output differs from the original"; }
profile_funcs "$W/p1.json" >"$W/p1.funcs" || fatal "cannot read the profile"
grep -q INVALID "$W/p1.funcs" && fail "invalid paths: $(grep INVALID "$W/p1.funcs")"
grep -q '^sum_odd|include/lib/util.h (via src/a.c)|[1-9]' "$W/p1.funcs" || { show "$W/p1.funcs"; fail "no profiled sum_odd via a.c"; }
grep -q '^sum_odd|src/../include/lib/util.h (via src/b.c)|[1-9]' "$W/p1.funcs" || { show "$W/p1.funcs"; fail "no profiled sum_odd via b.c"; }
grep -q '^say|src/../include/lib/base.h (via src/b.c)|[1-9]' "$W/p1.funcs" || { show "$W/p1.funcs"; fail "no profiled say via b.c"; }
[ "$(grep -c "|" "$W/p1.funcs")" = 8 ] || { show "$W/p1.funcs"; fail "expected 8 profile entries: main, b_main, and clampi, sum_odd, say via each file"; }
# the readers find a header function's source under its name without " (via src/a.c)"
"$KPATH" coverage "$W/p1.json" >"$W/cov1.out" 2>"$W/cov1.err" || { show "$W/cov1.err"; fail "kpath coverage failed"; }
[ -s "$W/cov1.err" ] && { show "$W/cov1.err"; fail "kpath coverage did not read every source"; }
"$KPATH" show "$W/p1.json" --function sum_odd >"$W/show1.out" 2>&1 || { show "$W/show1.out"; fail "kpath show failed"; }
[ "$(grep -c 'static inline int sum_odd(int n)$' "$W/show1.out")" = 2 ] ||
	{ show "$W/show1.out"; fail "kpath show: sum_odd's source not shown for both including files"; }

# 2. --check: the checking runtime verifies every path ID, header functions included
C=$W/chk
for f in a b; do
	"$KPATH" instrument --check src/$f.c -o "$C/$f.c" --include-dir include -- -I include 2>/dev/null ||
		fatal "kpath instrument --check src/$f.c failed"
done
$CC -I include "$C/a.c" "$C/b.c" -o "$W/chkprog" "$CHECKLIB" 2>"$W/chk.err" || { show "$W/chk.err"; fatal "check build failed"; }
"$W/chkprog" >"$W/chk.out" 2>"$W/chk.stderr" || fail "check run failed"
cmp -s "$W/native.out" "$W/chk.out" || fail "check run output differs"
grep -q 'kpath-check: .*[1-9][0-9]* paths, 0 mismatches' "$W/chk.stderr" || { show "$W/chk.stderr"; fail "check runtime did not report 0 mismatches"; }

# 3. kpath-cc
(cd "$PROJECT" && KPATH_INCLUDE_DIR=include "$KPATH_CC" $CC -I include src/a.c src/b.c -o "$W/cc_prog") 2>"$W/kcc.err" ||
	{ show "$W/kcc.err"; fatal "kpath-cc build failed"; }
grep -q 'not profiled' "$W/kcc.err" && { show "$W/kcc.err"; fail "kpath-cc fell back to the original"; }
(cd "$W" && KPATH_OUT=$W/p3.json ./cc_prog >"$W/p3.out") || fail "kpath-cc program failed"
cmp -s "$W/native.out" "$W/p3.out" || fail "kpath-cc program output differs"
profile_funcs "$W/p3.json" >"$W/p3.funcs"
grep -q '^sum_odd|include/lib/util.h (via src/a.c)|[1-9]' "$W/p3.funcs" || { show "$W/p3.funcs"; fail "kpath-cc: no profiled header function"; }
ls "$W"/kpath-cc.* >/dev/null 2>&1 && fail "kpath-cc left temporary files"
# a dependency file names the original headers, not the (deleted) copies
(cd "$PROJECT" && KPATH_INCLUDE_DIR=include "$KPATH_CC" $CC -I include -MD -c src/a.c -o "$W/a.o") 2>"$W/kccd.err" ||
	{ show "$W/kccd.err"; fatal "kpath-cc -MD -c failed"; }
grep -q 'include/lib/util.h' "$W/a.d" || { show "$W/a.d"; fail "dependency file does not name include/lib/util.h"; }
grep -q 'kpath-include' "$W/a.d" && { show "$W/a.d"; fail "dependency file names a temporary header copy"; }

# 4. kpath instrument -p
mkdir -p "$W/bdir"
$PY - "$PROJECT" "$CC" >"$W/bdir/compile_commands.json" <<'EOF'
import json, sys
root, cc = sys.argv[1], sys.argv[2]
print(json.dumps([{"directory": root, "file": "src/%s.c" % f,
                   "arguments": [cc, "-I", "include", "-c", "src/%s.c" % f, "-o", "/tmp/%s.o" % f]}
                  for f in ("a", "b")]))
EOF
"$KPATH" instrument -p "$W/bdir" -o "$W/ptree" --include-dir include 2>"$W/p.err" || { show "$W/p.err"; fatal "kpath instrument -p --include-dir failed"; }
[ -f "$W/ptree/kpath-include/lib/util.h" ] || fail "-p: no header copy in the output tree"
$CC -I include "$W/ptree/a.c" "$W/ptree/b.c" -o "$W/pprog" $LIBS 2>"$W/pcc.err" || { show "$W/pcc.err"; fatal "-p tree does not compile"; }
(cd "$W" && KPATH_OUT=$W/p4.json ./pprog >"$W/p4.out") || fail "-p program failed"
# -p names each source by its absolute path (as its compile_commands.json
# entry resolves it), so __FILE__ is absolute there, in headers as in .c files
sed 's|from /.*/include_dir/src/|from src/|' "$W/p4.out" >"$W/p4.rel.out"
cmp -s "$W/native.out" "$W/p4.rel.out" || { show "$W/p4.out"; fail "-p program output differs"; }

# 5. a header copy rewritten for another file is caught at compile time
"$KPATH" instrument src/b.c -o "$O/b.c" --include-dir include -- -I include -DUTIL_EXTRA 2>/dev/null ||
	fatal "kpath instrument b.c -DUTIL_EXTRA failed"
if $CC -I include -c "$O/a.c" -o "$W/a_stale.o" 2>"$W/stale.err"; then
	fail "a.c compiled against a header copy made for b.c -DUTIL_EXTRA"
else
	grep -q 'rewritten for another file' "$W/stale.err" || { show "$W/stale.err"; fail "no kpath #error for the stale copy"; }
fi

# 6. a missing --include-dir
if "$KPATH" instrument src/a.c -o "$W/bad/a.c" --include-dir no/such/dir -- -I include 2>"$W/bad.err"; then
	fail "a missing --include-dir was accepted"
fi
grep -q 'include-dir no/such/dir' "$W/bad.err" || { show "$W/bad.err"; fail "no clear error for a missing --include-dir"; }
[ -e "$W/bad/a.c" ] && fail "output written despite the error"

# src/$1.c built natively and run (its output in $W/$1_native.out), then
# instrumented with --include-dir include into $2 (the log in $W/$1.log).
native_and_instrument() {
	$CC -I include "src/$1.c" -o "$W/$1_native" || fatal "native build of src/$1.c failed"
	"$W/$1_native" >"$W/$1_native.out" || fatal "native run of src/$1.c failed"
	"$KPATH" instrument "src/$1.c" -o "$2" --include-dir include -- -I include 2>"$W/$1.log" ||
		{ show "$W/$1.log"; fatal "kpath instrument src/$1.c --include-dir include failed"; }
}

# The instrumented $2 of src/$1.c compiles with -Wall and prints what the
# original prints (its profile in $W/$1.json); 1 if it does not compile.
run_instrumented() {
	if ! $CC -Wall -I include "$2" -o "$W/$1_prog" $LIBS 2>"$W/$1_cc.err"; then
		show "$W/$1_cc.err"
		fail "$1.c: the instrumented file does not compile"
		return 1
	fi
	(cd "$W" && KPATH_OUT=$W/$1.json "./$1_prog" >"$W/$1.out") || fail "$1.c: instrumented run failed"
	cmp -s "$W/$1_native.out" "$W/$1.out" || fail "$1.c: output differs from the original"
}

# 7. a header included twice as a template
T=$W/tmpl
native_and_instrument tmpl "$T/tmpl.c"
for f in max_int max_double; do
	grep -q "tmpl.h:8: warning: function '$f' not instrumented: its header defines 2 functions here" "$W/tmpl.log" ||
		{ show "$W/tmpl.log"; fail "tmpl.c: no skip of $f with its reason"; }
done
grep -q '2 functions instrumented, 2 skipped' "$W/tmpl.log" || { show "$W/tmpl.log"; fail "tmpl.c: expected main and tmpl_once instrumented, the two max skipped"; }
if run_instrumented tmpl "$T/tmpl.c"; then
	profile_funcs "$W/tmpl.json" >"$W/p7.funcs" || fatal "cannot read the profile of tmpl.c"
	grep -q '^tmpl_once|include/lib/tmpl.h (via src/tmpl.c)|[1-9]' "$W/p7.funcs" || { show "$W/p7.funcs"; fail "tmpl.c: no profiled tmpl_once"; }
fi
[ -s "$W/tmpl_cc.err" ] && { show "$W/tmpl_cc.err"; fail "tmpl.c: the instrumented file compiles with warnings"; }

# 8. a header included three times that includes another
native_and_instrument table "$W/table/table.c"
[ "$(grep -c '^#include [a-z0-9_]*inc_[0-9a-f]* /\*"lib/table_more.h"\*/$' "$W/table/kpath-include/lib/table.h")" = 1 ] ||
	{ show "$W/table/kpath-include/lib/table.h"; fail "table.h's copy: its #include not redirected exactly once"; }
run_instrumented table "$W/table/table.c"

# 9. functions a macro defines in a header
native_and_instrument gen "$W/gen/gen.c"
for f in set_0 get_0 set_1 get_1; do
	grep -q "gen.h:[0-9]*: warning: function '$f' not instrumented: function body inside a macro expansion (in a header: only the main file's macro invocations are written out)" "$W/gen.log" ||
		{ show "$W/gen.log"; fail "gen.c: no skip of $f with its reason"; }
done
grep -q '2 functions instrumented, 4 skipped' "$W/gen.log" || { show "$W/gen.log"; fail "gen.c: expected main and plain_gen instrumented, 4 skipped"; }
run_instrumented gen "$W/gen/gen.c"

if [ $nfail -gt 0 ]; then
	echo "FAILED: $TEST ($nfail failure(s)); files in $W"
	exit 1
fi
echo "PASSED: $TEST"
