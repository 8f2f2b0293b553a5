#!/bin/sh
# openmp_reason.sh KPATH SRC_DIR WORK: a function with an OpenMP directive,
# parsed with -fopenmp, is skipped with a reason a reader understands (it
# said "unsupported statement kind 238"), at the directive's line; the
# file still builds with $CC -fopenmp and prints what the original prints.
# Without -fopenmp the pragma is not parsed, and the function is
# instrumented as plain C.
set -u
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: instrument.openmp_reason: $*"; status=1; }
"$kpath" instrument "$dir/omp.c" -o omp.kpath.c -- -fopenmp 2>log || { fail "kpath instrument: $(cat log)"; exit 1; }
grep -q "omp.c:4: warning: function 'work' not instrumented: an OpenMP directive (OMPParallelForDirective): its code may run in a team of threads, which the function's path register cannot follow (line 7)" log ||
	fail "work: not skipped with the OpenMP reason at its directive's line: $(cat log)"
grep -q "1 functions instrumented, 1 skipped" log || fail "want main instrumented, work skipped: $(cat log)"
$cc -O2 -fopenmp "$dir/omp.c" -o native || { fail "the original does not build with -fopenmp"; exit 1; }
./native >native.out || fail "native run"
# shellcheck disable=SC2046
$cc -O2 -fopenmp omp.kpath.c -o inst $("$kpath" config --libs) || fail "the instrumented file does not build with -fopenmp"
OMP_NUM_THREADS=4 KPATH_OUT=$PWD/p.json ./inst >inst.out || fail "instrumented run"
cmp -s native.out inst.out || fail "output differs: $(cat inst.out)"
"$kpath" instrument "$dir/omp.c" -o plain.kpath.c 2>plain.log || fail "kpath instrument without -fopenmp: $(cat plain.log)"
grep -q "2 functions instrumented, 0 skipped" plain.log || fail "without -fopenmp: $(cat plain.log)"
[ $status = 0 ] && echo "instrument.openmp_reason: OK"
exit $status
