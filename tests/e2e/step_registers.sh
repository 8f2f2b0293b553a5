#!/bin/sh
# step_registers.sh KPATH SRC_DIR WORK: the k >= 2 step's asm and a
# counting loop's flush (KPATH_RT_EMIT_N_ASM) call the library from inside
# themselves, saving rax, rdi and rsi below the red zone (kpath_rt.h,
# KPATH_RT_STEP1); the trampoline keeps the rest.  A program
# whose loops keep every general register busy (and the x87 stack) prints
# what the original prints at k = 1, 2, 8 and in trace mode (where every
# item takes the library half), built with $CC and clang-14 at -O0, -O1,
# -O2, -O3 and -Os.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.step_registers: $*"; status=1; }
. "$here/compilers.sh"
"$kpath" instrument "$dir/r.c" -o r.kpath.c 2>log || { fail "kpath instrument: $(cat log)"; exit 1; }
runs=0
IFS='|'
for c in $compilers; do
	unset IFS
	for o in -O0 -O1 -O2 -O3 -Os; do
		# shellcheck disable=SC2086
		$c $o "$dir/r.c" -o native || { fail "$c $o: the original does not build"; continue; }
		./native >native.out || fail "$c $o: native run"
		# shellcheck disable=SC2046,SC2086
		$c $o r.kpath.c -o inst $("$kpath" config --libs) || { fail "$c $o: the instrumented file does not build"; continue; }
		for k in 1 2 8; do
			KPATH_K=$k KPATH_OUT=$PWD/p$k.json ./inst >inst.out || fail "$c $o: k=$k: instrumented run"
			cmp -s native.out inst.out || fail "$c $o: k=$k: prints $(cat inst.out), native $(cat native.out)"
			runs=$((runs + 1))
		done
		rm -f pt.json
		KPATH_K=2 KPATH_OUT=$PWD/pt.json KPATH_TRACE=$PWD/t.trace ./inst >inst.out || fail "$c $o: trace: instrumented run"
		cmp -s native.out inst.out || fail "$c $o: trace: prints $(cat inst.out), native $(cat native.out)"
		"$kpath" kipf --k 2 -o off.json t.trace 2>/dev/null || fail "$c $o: kpath kipf of the trace"
		cmp -s off.json pt.json || fail "$c $o: the trace's replay differs from the profile"
		runs=$((runs + 1))
	done
	IFS='|'
done
unset IFS
[ "$runs" -gt 0 ] || fail "nothing ran"
[ $status = 0 ] && echo "e2e.step_registers: OK ($runs runs)"
exit $status
