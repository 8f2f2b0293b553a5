#!/bin/sh
# run_cases.sh KPATH CHECKLIB RUNTIMELIB CASESDIR WORKDIR [NAME...]
#
# Adversarial instrumentation tests (tests/instrument/cases/NAME.c).  For
# each case (all of CASESDIR/*.c when no NAME is given):
#   1. the original, natively (cc -std=gnu11 -O1): reference stdout + status;
#   2. kpath instrument --check, linked with CHECKLIB (tests/check/checkrt.c):
#      same stdout and status, and "kpath-check: ..., 0 mismatches";
#   3. kpath instrument (plain), linked with $(kpath config --libs), run with
#      KPATH_OUT: same stdout and status, a profile with "invalid_paths": 0
#      for every function;
#      that validates against the schema (tests/report/validate_profile.py),
#      and the same k-IPF as kpath kipf replaying the
#      trace of a KPATH_TRACE run (inline steps agree with the library);
#   4. the summary line's instrumented/skipped/cut counts equal the case's
#      expectation comment:  /* expect: instrumented=N skipped=M cut=C */
#      and every function named in  /* expect-skip: f g ... */  is reported
#      as "not instrumented" (with a non-empty reason);
#      and, with  /* expect-paths: f=N ... */, that the profile gives f
#      N paths (tests/cfg's golden NAME.cfg pins every case's CFG);
#   (the outputs are compiled with -I CASESDIR: the quoted includes of a
#   case, e.g. inside a function body, are found as for the original)
#   5. cc -std=gnu11 -Wall -Wextra gives no warning on the instrumented file
#      that it does not give on the original (compared by file:line + text),
#      and every -Wimplicit-fallthrough warning of the original also on the
#      instrumented file, but for  /* expect-lost-fallthrough: N */  of them.
# RUNTIMELIB is the runtime archive (it must exist; the link itself uses
# "kpath config --libs", as users do).
# Exit status: 0 = all passed, 1 = some failed, 2 = usage.
# Environment: CC (default gcc), KPATH_CASE_TIMEOUT (seconds, default 30),
# KPATH_TEST_SKIP_WARNINGS=1: step 5 is left out.  scripts/test sets it for
# the sanitizer pass, whose CC only adds -fsanitize flags: the comparison of
# diagnostics is the unsanitized pass's (the same cases, the same gcc), and
# gcc at -O1 with UBSan on a long instrumented case takes ~20 s a compile.
# python3 is required (a declared dependency): without it the checks of 3
# and 4 cannot run, and the run fails rather than pass having skipped them.
set -u
LC_ALL=C
export LC_ALL

if [ $# -lt 5 ]; then
	echo "usage: $0 KPATH CHECKLIB RUNTIMELIB CASESDIR WORKDIR [NAME...]" >&2
	exit 2
fi
KPATH=$1
CHECKLIB=$2
RTLIB=$3
CASES=$4
WORK=$5
shift 5
CC=${CC:-gcc}
command -v python3 >/dev/null 2>&1 || { echo "$0: python3 not found (install python3)" >&2; exit 2; }
VALIDATE=$(cd "$(dirname "$0")" && pwd)/../report/validate_profile.py
TMO=${KPATH_CASE_TIMEOUT:-30}
STD="-std=gnu11"

abspath() { case $1 in /*) echo "$1" ;; *) echo "$(pwd)/$1" ;; esac; }
KPATH=$(abspath "$KPATH")
CHECKLIB=$(abspath "$CHECKLIB")
RTLIB=$(abspath "$RTLIB")
for f in "$KPATH" "$CHECKLIB" "$RTLIB"; do
	[ -e "$f" ] || { echo "FAIL: '$f' not found"; exit 1; }
done
CASES=$(cd "$CASES" 2>/dev/null && pwd) || { echo "FAIL: no cases dir '$4'"; exit 1; }
mkdir -p "$WORK" || { echo "FAIL: cannot create $WORK"; exit 1; }
WORK=$(cd "$WORK" && pwd)
TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout $TMO"

show() {
	if [ -s "$1" ]; then
		echo "--- $1:"
		head -n "${2:-30}" "$1" | sed 's/^/    /'
	fi
}

# Warnings of a compile log as "file:line: text [-Wflag]" (no column: the
# instrumented file's #line directives map lines, not columns), sorted.
# -Wimplicit-fallthrough names the statement before the label, which may be
# inserted code: those warnings are compared by number only.
warnings() {
	sed -n -E 's/^([^:]+):([0-9]+):([0-9]+:)? warning: (.*)$/\1:\2: \4/p' "$1" |
		sed -E 's/^[^:]*\///; s/^.*(this statement may fall through).*$/(somewhere): \1 [-Wimplicit-fallthrough=]/' | sort
}

run_case() {
	NAME=$1
	SRC=$CASES/$NAME.c
	W=$WORK/$NAME
	nfail=0
	fail() {
		echo "FAIL: $NAME: $*"
		nfail=$((nfail + 1))
	}
	[ -f "$SRC" ] || { echo "FAIL: $NAME: no $SRC"; return 1; }
	rm -rf "$W"
	mkdir -p "$W" || { echo "FAIL: $NAME: cannot create $W"; return 1; }
	cd "$CASES" || return 1

	# --- reference
	if ! $CC $STD -O1 "$NAME.c" -o "$W/native" -lm >"$W/native.cc.log" 2>&1; then
		show "$W/native.cc.log"
		echo "FAIL: $NAME: the original does not compile"
		return 1
	fi
	$TIMEOUT "$W/native" >"$W/native.out" 2>"$W/native.err"
	NRC=$?
	if [ -n "$TIMEOUT" ] && [ $NRC -eq 124 ]; then
		echo "FAIL: $NAME: the original program timed out (case problem)"
		return 1
	fi

	# --- instrument --check
	"$KPATH" instrument "$NAME.c" -o "$W/$NAME.check.c" --check -- $STD >"$W/check.ilog" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$W/$NAME.check.c" ]; then
		show "$W/check.ilog"
		fail "kpath instrument --check exited with $rc"
	elif ! $CC $STD -I"$CASES" -O1 "$W/$NAME.check.c" -o "$W/check" "$CHECKLIB" -lm >"$W/check.cc.log" 2>&1; then
		show "$W/check.cc.log"
		fail "the --check output does not compile: $CC $STD -O1 $W/$NAME.check.c $CHECKLIB"
	else
		rm -f "$W/check.sum"
		KPATH_CHECK_OUT="$W/check.sum" $TIMEOUT "$W/check" >"$W/check.out" 2>"$W/check.err"
		rc=$?
		[ $rc -eq $NRC ] || { show "$W/check.err"; fail "--check build exited with $rc, the original with $NRC"; }
		cmp -s "$W/native.out" "$W/check.out" ||
			{ diff "$W/native.out" "$W/check.out" | head -n 10 | sed 's/^/    /'; fail "--check build: stdout differs"; }
		if [ ! -s "$W/check.sum" ]; then
			show "$W/check.err"
			fail "--check build wrote no kpath-check summary"
		elif grep -v -q ' 0 mismatches$' "$W/check.sum"; then
			cat "$W/check.sum" | sed 's/^/    /'
			grep 'kpath-check' "$W/check.err" | head -n 10 | sed 's/^/    /'
			fail "the checking runtime found mismatches"
		else
			echo "check: $(cat "$W/check.sum")"
		fi
	fi

	# --- plain instrument
	"$KPATH" instrument "$NAME.c" -o "$W/$NAME.kpath.c" -- $STD >"$W/instrument.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$W/$NAME.kpath.c" ]; then
		show "$W/instrument.log"
		fail "kpath instrument exited with $rc"
		echo "FAILED: $NAME ($nfail failure(s)); files in $W"
		return 1
	fi
	grep 'warning:' "$W/instrument.log" | sed 's/^/    /'
	LIBS=$("$KPATH" config --libs)
	if ! $CC $STD -I"$CASES" -O1 "$W/$NAME.kpath.c" -o "$W/kpath" $LIBS -lm >"$W/cc.log" 2>&1; then
		show "$W/cc.log"
		fail "the instrumented file does not compile/link: $CC $STD -O1 $W/$NAME.kpath.c $LIBS"
	else
		rm -f "$W/profile.json"
		env -u KPATH_TRACE KPATH_OUT="$W/profile.json" $TIMEOUT "$W/kpath" >"$W/run.out" 2>"$W/run.err"
		rc=$?
		[ $rc -eq $NRC ] || { show "$W/run.err"; fail "instrumented program exited with $rc, the original with $NRC"; }
		cmp -s "$W/native.out" "$W/run.out" ||
			{ diff "$W/native.out" "$W/run.out" | head -n 10 | sed 's/^/    /'; fail "instrumented program: stdout differs"; }
		if [ ! -s "$W/profile.json" ]; then
			fail "no profile written (KPATH_OUT=$W/profile.json)"
		elif grep -E -q '"invalid_paths": *[1-9]' "$W/profile.json"; then
			grep -E '"name"|"invalid_paths": *[1-9]' "$W/profile.json" | grep -B1 -E '"invalid_paths": *[1-9]' | sed 's/^/    /'
			fail "the profile has invalid paths"
		elif ! grep -q '"invalid_paths"' "$W/profile.json"; then
			fail "the profile has no functions"
		elif ! python3 "$VALIDATE" "$W/profile.json"; then
			fail "profile does not validate against the schema"
		else
			# 3b. the inline steps and the library agree: the same run
			# traced (every item through the library), replayed offline by
			# kpath kipf, gives the same k-IPF for every function
			rm -f "$W/trace.kpt" "$W/replay.json"
			KPATH_TRACE="$W/trace.kpt" KPATH_OUT="$W/traced.json" $TIMEOUT "$W/kpath" >/dev/null 2>&1
			K=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["k"])' "$W/profile.json")
			if ! "$KPATH" kipf --k "$K" -o "$W/replay.json" "$W/trace.kpt" >"$W/replay.log" 2>&1; then
				show "$W/replay.log"
				fail "kpath kipf could not replay the trace"
			else
				python3 - "$W/profile.json" "$W/replay.json" <<'PYEOF' || fail "the k-IPF differs from the replay of the trace"
import json, sys
def forests(path):
    return {(f["name"], f["checksum"]): f["kipf"] for f in json.load(open(path))["functions"]}
a, b = forests(sys.argv[1]), forests(sys.argv[2])
bad = 0
for key in sorted(set(a) | set(b)):
    # functions never run may be listed in one and not the other
    if a.get(key, []) != b.get(key, []):
        print("    %s: k-IPF %s, replayed %s" % (key[0], a.get(key), b.get(key)))
        bad = 1
sys.exit(bad)
PYEOF
			fi
		fi
	fi

	# --- summary against the expectation
	SUMMARY=$(grep -E '^kpath: .*functions? instrumented' "$W/instrument.log" | head -n 1)
	EXPECT=$(sed -n -E 's/.*expect: *(instrumented=[0-9]+ skipped=[0-9]+ cut=[0-9]+).*/\1/p' "$NAME.c" | head -n 1)
	if [ -z "$EXPECT" ]; then
		fail "no '/* expect: instrumented=N skipped=M cut=C */' line in $NAME.c"
	elif [ -z "$SUMMARY" ]; then
		fail "no summary line from kpath instrument"
	else
		GOT=$(echo "$SUMMARY" | sed -n -E 's/.* ([0-9]+) functions? instrumented, ([0-9]+) skipped, ([0-9]+) cut.*/instrumented=\1 skipped=\2 cut=\3/p')
		if [ "$GOT" != "$EXPECT" ]; then
			grep -E 'not instrumented|note:' "$W/instrument.log" | head -n 20 | sed 's/^/    /'
			fail "summary: got '$GOT', expected '$EXPECT'"
		else
			echo "summary: $GOT"
		fi
	fi
	for fn in $(sed -n -E 's/.*expect-skip: *([A-Za-z0-9_ ]*[A-Za-z0-9_]).*/\1/p' "$NAME.c"); do
		grep -q -E "warning: function '$fn' not instrumented: .+" "$W/instrument.log" ||
			fail "function '$fn' should be skipped with a reason"
	done
	# /* expect-paths: f=N g=M */ : num_paths of those functions in the
	# profile (pins the CFG's shape: a wrong CFG still gives valid IDs)
	EP=$(sed -n -E 's/.*expect-paths: *([A-Za-z0-9_= ]*[0-9]).*/\1/p' "$NAME.c")
	if [ -n "$EP" ] && [ -s "$W/profile.json" ]; then
		python3 - "$W/profile.json" $EP <<'PYEOF' || fail "num_paths differ from expect-paths"
import json, sys
prof = json.load(open(sys.argv[1]))
got = {f["name"]: int(f["num_paths"]) for f in prof["functions"]}
bad = 0
for kv in sys.argv[2:]:
    k, v = kv.split("=")
    if got.get(k) != int(v):
        print("    %s: num_paths %s, expected %s" % (k, got.get(k), v))
        bad = 1
sys.exit(bad)
PYEOF
	fi
	# every skip must give a non-empty reason
	if grep -E "not instrumented: *$" "$W/instrument.log" >/dev/null; then
		fail "a skip without reason"
	fi

	# --- no new warnings with -Wall -Wextra (not in the sanitizer pass:
	# KPATH_TEST_SKIP_WARNINGS=1, see the header)
	if [ "${KPATH_TEST_SKIP_WARNINGS:-0}" = 1 ]; then
		echo "warnings: not compared (KPATH_TEST_SKIP_WARNINGS=1)"
	else
		$CC $STD -Wall -Wextra -O1 -c "$NAME.c" -o /dev/null >"$W/orig.wall.log" 2>&1
		$CC $STD -I"$CASES" -Wall -Wextra -O1 -c "$W/$NAME.kpath.c" -o /dev/null >"$W/kpath.wall.log" 2>&1
		warnings "$W/orig.wall.log" >"$W/orig.warn"
		warnings "$W/kpath.wall.log" >"$W/kpath.warn"
		comm -13 "$W/orig.warn" "$W/kpath.warn" >"$W/new.warn"
		if [ -s "$W/new.warn" ]; then
			sed 's/^/    /' "$W/new.warn" | head -n 10
			fail "$CC -Wall -Wextra warns about the instrumented file, not about the original"
		fi
		# fall-through warnings the instrumented file lacks (other warnings
		# may go: the braces kpath adds quiet -Wempty-body, -Wdangling-else)
		comm -23 "$W/orig.warn" "$W/kpath.warn" | grep 'may fall through' >"$W/lost.warn"
		LOST=$(sed -n -E 's/.*expect-lost-fallthrough: *([0-9]+).*/\1/p' "$NAME.c")
		if [ "$(wc -l <"$W/lost.warn")" -ne "${LOST:-0}" ]; then
			sed 's/^/    /' "$W/lost.warn" | head -n 10
			fail "$CC -Wall -Wextra: $(wc -l <"$W/lost.warn") fall-through warning(s) of the original missing from the instrumented file, expected ${LOST:-0}"
		fi
	fi

	if [ $nfail -ne 0 ]; then
		echo "FAILED: $NAME ($nfail failure(s)); files in $W"
		return 1
	fi
	echo "PASSED: $NAME"
	return 0
}

if [ $# -eq 0 ]; then
	set -- $(cd "$CASES" && ls *.c 2>/dev/null | sed 's/\.c$//')
fi
total=0
failed=
for n in "$@"; do
	total=$((total + 1))
	run_case "$n" || failed="$failed $n"
done
if [ -n "$failed" ]; then
	echo "instrument cases: $total run, failed:$failed"
	exit 1
fi
echo "instrument cases: $total run, all passed"
exit 0
