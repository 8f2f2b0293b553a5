#!/bin/sh
# vector_target.sh KPATH SRC_DIR WORK: a function with
# __attribute__((target("avx2"))) in a file compiled without AVX keeps
# ymm values across the library calls of the inline halves, which name
# only what the file's own flags use as clobbered.  The trampolines used
# to keep xmm0-15 only, and the C library's AVX2 routines the library
# calls end in vzeroupper: at k >= 2 the program printed another sum.
# Now they keep the whole vector state (XSAVE, runtime/abi.c).  The
# instrumented program prints what the native one prints at k = 1, 2, 4,
# 8 and in trace mode, with $CC -O3 and clang-14 -O3 (not under the
# sanitizers).  Skipped (exit 77) on a CPU without AVX2.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
grep -qw avx2 /proc/cpuinfo 2>/dev/null || { echo "e2e.vector_target: SKIP: no AVX2 on this CPU"; exit 77; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.vector_target: $*"; status=1; }
. "$here/compilers.sh"
"$kpath" instrument "$dir/v.c" -o v.kpath.c 2>log || { fail "kpath instrument: $(cat log)"; exit 1; }
IFS='|'
for c in $compilers; do
	unset IFS
	# shellcheck disable=SC2086
	$c -O3 "$dir/v.c" -o native || { fail "$c: the original does not build"; IFS='|'; continue; }
	./native >native.out || fail "$c: native run"
	# shellcheck disable=SC2046,SC2086
	$c -O3 v.kpath.c -o inst $("$kpath" config --libs) || { fail "$c: the instrumented file does not build"; IFS='|'; continue; }
	for k in 1 2 4 8; do
		KPATH_K=$k KPATH_OUT=$PWD/p$k.json ./inst >inst.out || fail "$c: k=$k: instrumented run"
		cmp -s native.out inst.out || fail "$c: k=$k: prints $(cat inst.out), native $(cat native.out)"
	done
	KPATH_K=4 KPATH_OUT=$PWD/pt.json KPATH_TRACE=$PWD/t.trace ./inst >inst.out || fail "$c: trace: instrumented run"
	cmp -s native.out inst.out || fail "$c: trace: prints $(cat inst.out), native $(cat native.out)"
	IFS='|'
done
unset IFS
[ $status = 0 ] && echo "e2e.vector_target: OK"
exit $status
