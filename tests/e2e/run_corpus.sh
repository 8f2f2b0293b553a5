#!/bin/sh
# run_corpus.sh KPATH CORPUS_DIR WORK_DIR NAME
#
# End-to-end test of one corpus program: instrument corpus/NAME.c (compile
# flags from corpus/FLAGS), compile and link it against the runtime, run it,
# and check its output, exit status, profile and trace.  Exit status 0 = pass,
# 1 = fail (every failed check is reported as "FAIL: ..."), 2 = usage.
#
# Environment: CC (default cc), PYTHON (default python3).
set -u

if [ $# -ne 4 ]; then
	echo "usage: $0 KPATH CORPUS_DIR WORK_DIR NAME" >&2
	exit 2
fi
KPATH=$1
CORPUS=$2
WORK=$3
NAME=$4
CC=${CC:-cc}
PYTHON=${PYTHON:-python3}
HERE=$(cd "$(dirname "$0")" && pwd)
CHECK="$PYTHON $HERE/kpcheck.py"

TEST=$NAME
# shellcheck source=tests/e2e/lib.sh
. "$HERE/lib.sh"
check_inputs
[ -f "$CORPUS/$NAME.expected" ] || fatal "no $CORPUS/$NAME.expected"
command -v "$PYTHON" >/dev/null 2>&1 || fatal "$PYTHON not found (install python3)"

if ! grep -q "^$NAME:" "$CORPUS/FLAGS"; then
	fatal "no line '$NAME:' in $CORPUS/FLAGS"
fi
FLAGS=$(sed -n "s/^$NAME:[[:space:]]*//p" "$CORPUS/FLAGS")

mkdir -p "$WORK" || fatal "cannot create work dir $WORK"
W=$(cd "$WORK" && pwd)/$NAME
rm -rf "$W"
mkdir -p "$W" || fatal "cannot create $W"

# Everything runs from the corpus directory so that relative flags such as
# "-I include" work and the profile's "file" is "NAME.c".
cd "$CORPUS" || fatal "cannot cd to $CORPUS"

# --- the original program, natively: reference output and exit status
# shellcheck disable=SC2086
$CC -std=c11 -O2 $FLAGS "$NAME.c" -o "$W/native" >"$W/native.cc.log" 2>&1 ||
	{ show "$W/native.cc.log"; fatal "the original program does not compile: $CC -std=c11 -O2 $FLAGS $NAME.c"; }
"$W/native" >"$W/native.out" 2>"$W/native.err"
NATIVE_RC=$?
cmp -s "$W/native.out" "$NAME.expected" ||
	fatal "the ORIGINAL program's output differs from $NAME.expected (corpus problem): $(diff "$NAME.expected" "$W/native.out" | head -5)"

# --- instrument
# shellcheck disable=SC2086
"$KPATH" instrument "$NAME.c" -o "$W/$NAME.kpath.c" -- $FLAGS >"$W/instrument.out" 2>"$W/instrument.err"
rc=$?
if [ $rc -ne 0 ]; then
	show "$W/instrument.out"
	show "$W/instrument.err"
	fatal "kpath instrument exited with $rc: $KPATH instrument $NAME.c -o $W/$NAME.kpath.c -- $FLAGS"
fi
[ -s "$W/$NAME.kpath.c" ] || fatal "kpath instrument wrote no output file"
cat "$W/instrument.out" "$W/instrument.err" >"$W/instrument.log"
SUMMARY=$(grep -E '[0-9]+ functions? instrumented' "$W/instrument.log" | head -n 1)
NFUNCS=
if [ -z "$SUMMARY" ]; then
	show "$W/instrument.log"
	fail "no summary line ('N functions instrumented, ...') from kpath instrument"
else
	echo "summary: $SUMMARY"
	NFUNCS=$(echo "$SUMMARY" | sed -E 's/.*[^0-9]([0-9]+) functions? instrumented.*/\1/; s/^([0-9]+) functions? instrumented.*/\1/')
	SKIPPED=$(echo "$SUMMARY" | sed -n -E 's/.*[^0-9]([0-9]+) skipped.*/\1/p')
	if [ "$NFUNCS" = 0 ]; then
		fail "no function instrumented"
	fi
	if [ -n "$SKIPPED" ] && [ "$SKIPPED" != 0 ]; then
		grep -i 'not instrumented' "$W/instrument.log" | sed 's/^/    /'
		fail "$SKIPPED function(s) skipped (every corpus function should be instrumentable)"
	fi
fi
if grep -q -i 'warning' "$W/instrument.log"; then
	grep -i 'warning' "$W/instrument.log" | head -n 10 | sed 's/^/    /'
	fail "kpath instrument printed warnings"
fi

# --- compile and link the instrumented file
LIBS=$("$KPATH" config --libs) || fatal "kpath config --libs failed"
[ -n "$LIBS" ] || fatal "kpath config --libs printed nothing"
# shellcheck disable=SC2086
$CC -std=c11 -O2 -Werror=implicit-function-declaration $FLAGS "$W/$NAME.kpath.c" -o "$W/$NAME.kpath" $LIBS >"$W/cc.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	show "$W/cc.log" 60
	fatal "the instrumented file does not compile/link: $CC -std=c11 -O2 -Werror=implicit-function-declaration $FLAGS $W/$NAME.kpath.c -o $W/$NAME.kpath $LIBS"
fi

# run K OUT [TRACE]: runs the instrumented program; checks stdout and status.
run() {
	rm -f "$2"
	if [ -n "${3:-}" ]; then
		rm -f "$3"
		env KPATH_K="$1" KPATH_OUT="$2" KPATH_TRACE="$3" "$W/$NAME.kpath" >"$W/run.k$1.out" 2>"$W/run.k$1.err"
	else
		env -u KPATH_TRACE KPATH_K="$1" KPATH_OUT="$2" "$W/$NAME.kpath" >"$W/run.k$1.out" 2>"$W/run.k$1.err"
	fi
	rc=$?
	if [ $rc -ne $NATIVE_RC ]; then
		show "$W/run.k$1.err"
		fail "instrumented program (KPATH_K=$1) exited with $rc, the original with $NATIVE_RC"
	fi
	if ! cmp -s "$W/run.k$1.out" "$NAME.expected"; then
		diff "$NAME.expected" "$W/run.k$1.out" | head -n 20 | sed 's/^/    /'
		fail "instrumented program (KPATH_K=$1): stdout differs from $NAME.expected"
	fi
	if [ -s "$W/run.k$1.err" ] && ! cmp -s "$W/run.k$1.err" "$W/native.err"; then
		show "$W/run.k$1.err"
		fail "instrumented program (KPATH_K=$1) wrote to stderr (the original did not)"
	fi
	[ -s "$2" ] || { fail "KPATH_K=$1: no profile written to $2"; return 1; }
	if [ -n "${3:-}" ] && [ ! -s "$3" ]; then
		fail "KPATH_K=$1: no trace written to $3"
		return 1
	fi
	return 0
}

FUNCOPT=
[ -n "$NFUNCS" ] && FUNCOPT="--functions $NFUNCS"

# --- k = 4 with a trace: structure, trace agreement, offline replay
if run 4 "$W/k4.json" "$W/k4.trace"; then
	# shellcheck disable=SC2086
	$CHECK profile "$W/k4.json" --k 4 --src-root "$CORPUS" --trace "$W/k4.trace" $FUNCOPT ||
		fail "profile k=4 (checked against the trace) is wrong, see kpcheck output above"
	for k in 4 1 8; do
		if "$KPATH" kipf --k $k -o "$W/off$k.json" "$W/k4.trace" >"$W/kipf$k.log" 2>&1; then
			$CHECK profile "$W/off$k.json" --k $k --src-root "$CORPUS" --trace "$W/k4.trace" ||
				fail "offline profile (kpath kipf --k $k) is wrong"
		else
			show "$W/kipf$k.log"
			fail "kpath kipf --k $k -o $W/off$k.json $W/k4.trace failed"
		fi
	done
	[ -s "$W/off4.json" ] && { $CHECK same "$W/k4.json" "$W/off4.json" ||
		fail "offline profile (kpath kipf --k 4 trace) differs from the online KPATH_K=4 profile"; }
fi

# --- k = 1: level 1 of the k-IPF is exactly the Ball-Larus path profile
if run 1 "$W/k1.json"; then
	$CHECK profile "$W/k1.json" --k 1 --src-root "$CORPUS" ||
		fail "profile k=1 is malformed"
	$CHECK level1 "$W/k1.json" "$W/k4.json" ||
		fail "KPATH_K=1 counts differ from level 1 of the KPATH_K=4 profile"
	[ -s "$W/off1.json" ] && { $CHECK same "$W/k1.json" "$W/off1.json" ||
		fail "offline kpath kipf --k 1 (from the k=4 trace) differs from the online KPATH_K=1 profile"; }
fi

# --- k = 1 with a trace: the trampolines' trace steps (runtime/abi.c,
# KP_TR_TRACE, KP_TR_TRACE_COUNT) write the records and counts the library
# would: the profile agrees with its trace and with the trace's replay
if run 1 "$W/k1t.json" "$W/k1t.trace"; then
	# shellcheck disable=SC2086
	$CHECK profile "$W/k1t.json" --k 1 --src-root "$CORPUS" --trace "$W/k1t.trace" $FUNCOPT ||
		fail "profile k=1 (traced; checked against its trace) is wrong"
	if "$KPATH" kipf --k 1 -o "$W/off1t.json" "$W/k1t.trace" >"$W/kipf1t.log" 2>&1; then
		$CHECK same "$W/k1t.json" "$W/off1t.json" ||
			fail "offline kpath kipf --k 1 of the k=1 trace differs from the online KPATH_K=1 profile"
	else
		show "$W/kipf1t.log"
		fail "kpath kipf --k 1 -o $W/off1t.json $W/k1t.trace failed"
	fi
fi

# --- k = 8: the 4-IPF is the 8-IPF cut at depth 4
if run 8 "$W/k8.json"; then
	$CHECK profile "$W/k8.json" --k 8 --src-root "$CORPUS" ||
		fail "profile k=8 is malformed"
	$CHECK prefix "$W/k4.json" "$W/k8.json" ||
		fail "the KPATH_K=4 profile is not the KPATH_K=8 profile cut at depth 4"
	[ -s "$W/off8.json" ] && { $CHECK same "$W/k8.json" "$W/off8.json" ||
		fail "offline kpath kipf --k 8 (from the k=4 trace) differs from the online KPATH_K=8 profile"; }
fi

# --- accumulation: a second run into the same KPATH_OUT doubles everything
if [ -s "$W/k4.json" ]; then
	cp "$W/k4.json" "$W/acc.json"
	env -u KPATH_TRACE KPATH_K=4 KPATH_OUT="$W/acc.json" "$W/$NAME.kpath" >"$W/acc.out" 2>"$W/acc.err"
	rc=$?
	[ $rc -eq $NATIVE_RC ] || fail "second run (accumulating) exited with $rc"
	if [ -s "$W/acc.err" ] && ! cmp -s "$W/acc.err" "$W/native.err"; then
		show "$W/acc.err"
		fail "second run (accumulating into an existing profile) wrote to stderr"
	fi
	$CHECK doubled "$W/k4.json" "$W/acc.json" ||
		fail "accumulating a second run into KPATH_OUT did not give runs=2 and doubled counts"
	# kpath merge of the two runs' files == the file they accumulated into
	if "$KPATH" merge "$W/k4.json" "$W/k4.json" -o "$W/merged.json" 2>"$W/merge.err"; then
		cmp -s "$W/merged.json" "$W/acc.json" ||
			fail "kpath merge k4.json k4.json differs from the accumulated acc.json"
	else
		show "$W/merge.err"
		fail "kpath merge k4.json k4.json failed"
	fi
	# merging k = 4 with k = 1 gives k = 1: the k=1 profile doubled
	if [ -s "$W/k1.json" ]; then
		"$KPATH" merge "$W/k4.json" "$W/k1.json" -o "$W/merged1.json" 2>"$W/merge.err" &&
			$CHECK doubled "$W/k1.json" "$W/merged1.json" ||
			fail "kpath merge of the k=4 and k=1 profiles is not the k=1 profile doubled"
	fi
	# the reading commands accept every profile (and its sources)
	for cmd in "report --top 0" "report --json" "show" "show --json"; do
		# shellcheck disable=SC2086
		"$KPATH" $cmd "$W/acc.json" >"$W/cmd.out" 2>"$W/cmd.err" ||
			{ show "$W/cmd.err"; fail "kpath $cmd acc.json failed"; }
	done
fi

if [ $nfail -ne 0 ]; then
	echo "FAILED: $NAME ($nfail failure(s)); files in $W"
	exit 1
fi
echo "PASSED: $NAME"
exit 0
