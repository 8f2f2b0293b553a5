#!/bin/sh
# run.sh KPATH KPATH_CC WORK_DIR CASE
#
# The runtime (lib/libkpath_rt.a) as instrumented programs meet it: its
# symbols, its profile file (KPATH_OUT), its environment, shared libraries.
# Each CASE is a function below; see its comment.  Exit status 0 = pass.
set -u
if [ $# -ne 4 ]; then
	echo "usage: $0 KPATH KPATH_CC WORK_DIR CASE" >&2
	exit 2
fi
KPATH=$1
KPATH_CC=$2
WORK=$3
CASE=$4
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
TEST=rtuse.$CASE
. "$HERE/../e2e/lib.sh"
case $KPATH in /*) ;; *) KPATH=$(pwd)/$KPATH ;; esac
case $KPATH_CC in /*) ;; *) KPATH_CC=$(pwd)/$KPATH_CC ;; esac
mkdir -p "$WORK" || fatal "cannot create $WORK"
W=$(cd "$WORK" && pwd)/$CASE
rm -rf "$W"
mkdir -p "$W" || fatal "cannot create $W"
cd "$W" || fatal "cannot cd to $W"
LIBS=$("$KPATH" config --libs) || fatal "kpath config --libs failed"
unset KPATH_OUT KPATH_K KPATH_STATS KPATH_TRACE KPATH_FOREST

# build NAME [CFLAGS...]: instruments NAME.c (in $W) and links NAME.
build() {
	b=$1
	shift
	"$KPATH" instrument "$b.c" -o "$b.kpath.c" -- "$@" 2>"$b.instr.err" || { show "$b.instr.err"; fatal "kpath instrument $b.c failed"; }
	$CC -O1 "$@" "$b.kpath.c" -o "$b" $PRE_LIBS $LIBS $EXTRA_LIBS 2>"$b.cc.err" || { show "$b.cc.err"; fatal "cannot build $b"; }
}
PRE_LIBS=
EXTRA_LIBS=

# profile_has FILE RUNS FUNC...: FILE is a kpath profile with "runs" RUNS
# holding an entry for each FUNC with at least one path.
profile_has() {
	"$PYTHON" - "$@" <<'PYEOF' || fail "profile check of $1 failed"
import json, sys
path, runs, funcs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
try:
    p = json.load(open(path))
except Exception as e:
    sys.exit("%s: %s" % (path, e))
if p.get("schema") != "kpath-profile/1":
    sys.exit("%s: not a kpath profile" % path)
if p["runs"] != runs:
    sys.exit("%s: runs %s, expected %d" % (path, p["runs"], runs))
have = {f["name"]: f for f in p["functions"]}
for f in funcs:
    if f not in have or not have[f]["kipf"]:
        sys.exit("%s: no paths of %s" % (path, f))
PYEOF
}

# A small program with a loop and a branch.
write_prog() {
	cat >"$1.c" <<'CEOF'
#include <stdio.h>
static int classify(int i)
{
	if (i % 3 == 0)
		return 1;
	return 2;
}
int main(int argc, char **argv)
{
	int s = 0;
	(void)argv;
	for (int i = 0; i < 10 + argc; i++)
		s += classify(i);
	printf("%d\n", s);
	return 0;
}
CEOF
}

# nm: every global symbol the runtime defines starts with kpath_, so no
# program symbol can clash with the runtime's internals or its JSON code.
case_nm() {
	lib=${LIBS%% *}
	[ -f "$lib" ] || fatal "kpath config --libs names no library: $LIBS"
	nm -g --defined-only "$lib" >nm.txt || fatal "nm $lib failed"
	grep -E '^[0-9a-f]+ [A-Za-z] ' nm.txt | awk '$3 !~ /^kpath_/' >foreign.txt
	if [ -s foreign.txt ]; then
		show foreign.txt 20
		fail "$(wc -l <foreign.txt) global symbol(s) of $lib do not start with kpath_"
	fi
	grep -q ' T kpath_rt_register$' nm.txt || fail "kpath_rt_register is not defined by $lib"
	case " $LIBS " in *-ljansson*) fail "kpath config --libs still needs jansson: $LIBS" ;; esac
}

# json_names: a program that defines jansson's function names itself (as the
# parson library and others do) still gets its profile, and its own
# functions are the ones it calls.
case_json_names() {
	cat >p.c <<'CEOF'
#include <stdio.h>
#include <stdlib.h>
/* The program's own JSON "library", with jansson's names. */
typedef struct json_t { int kind; } json_t;
static json_t fake = { 42 };
int used;
json_t *json_object(void) { used++; return &fake; }
json_t *json_array(void) { used++; return &fake; }
json_t *json_string(const char *s) { (void)s; used++; return NULL; }
json_t *json_integer(long long v) { (void)v; used++; return NULL; }
json_t *json_object_get(const json_t *o, const char *k) { (void)o; (void)k; used++; return NULL; }
int json_object_set_new(json_t *o, const char *k, json_t *v) { (void)o; (void)k; (void)v; used++; return -1; }
int json_array_append_new(json_t *a, json_t *v) { (void)a; (void)v; used++; return -1; }
void json_delete(json_t *j) { (void)j; used++; }
json_t *json_load_file(const char *p, size_t f, void *e) { (void)p; (void)f; (void)e; used++; return NULL; }
json_t *json_loadf(void *fp, size_t f, void *e) { (void)fp; (void)f; (void)e; used++; return NULL; }
int json_dumpf(const json_t *j, void *fp, size_t f) { (void)j; (void)fp; (void)f; used++; return -1; }
int hashtable_init(void *h) { (void)h; used++; return -1; }
int main(void)
{
	int n = 0;
	for (int i = 0; i < 5; i++)
		if (json_object()->kind == 42)
			n++;
	printf("%d %d\n", n, used);
	return 0;
}
CEOF
	build p
	./p >out1.txt 2>err1.txt || fail "p exited with $?"
	[ "$(cat out1.txt)" = "5 5" ] || fail "p printed '$(cat out1.txt)', expected '5 5' (its own json_object was not the one called)"
	./p >out2.txt 2>err2.txt || fail "second run of p exited with $?"
	[ -s err1.txt ] && { show err1.txt; fail "stderr of the first run is not empty"; }
	[ -s err2.txt ] && { show err2.txt; fail "stderr of the second run is not empty"; }
	profile_has kpath.json 2 main json_object
	ls kpath.*.json >/dev/null 2>&1 && fail "a fallback profile was written: $(ls kpath.*.json)"
}

# json_c: a program linked with json-c (which exports json_object_get and
# other names jansson also has) writes its profile, and a second run
# accumulates into it (reads it back) instead of writing kpath.PID.json;
# with -ljson-c before and after the runtime on the command line.
case_json_c() {
	cat >jc.c <<'CEOF'
#include <stdio.h>
#include <json-c/json.h>
int main(void)
{
	struct json_object *o = json_object_new_object();
	for (int i = 0; i < 3; i++)
		json_object_object_add(o, i ? "b" : "a", json_object_new_int(i));
	struct json_object *again = json_object_get(o);
	printf("%s\n", json_object_to_json_string(o));
	json_object_put(again);
	json_object_put(o);
	return 0;
}
CEOF
	for order in before after; do
		rm -f kpath.json kpath.*.json
		if [ $order = before ]; then PRE_LIBS=-ljson-c EXTRA_LIBS=; else PRE_LIBS= EXTRA_LIBS=-ljson-c; fi
		build jc
		./jc >out1.txt 2>err1.txt || fail "jc ($order) exited with $?"
		./jc >out2.txt 2>err2.txt || fail "second run of jc ($order) exited with $?"
		grep -q '"a": 0' out1.txt || fail "json-c output wrong: $(cat out1.txt)"
		[ -s err1.txt ] && { show err1.txt; fail "-ljson-c $order: stderr of the first run is not empty"; }
		[ -s err2.txt ] && { show err2.txt; fail "-ljson-c $order: stderr of the second run is not empty"; }
		profile_has kpath.json 2 main
		ls kpath.*.json >/dev/null 2>&1 && fail "-ljson-c $order: a fallback profile was written: $(ls kpath.*.json)"
	done
}

type "case_$CASE" >/dev/null 2>&1 || fatal "unknown case $CASE"
"case_$CASE"
if [ "$nfail" -ne 0 ]; then
	echo "FAILED: $TEST ($nfail failure(s))"
	exit 1
fi
echo "PASSED: $TEST"
