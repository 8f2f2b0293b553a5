#!/bin/sh
# licm.sh KPATH SRC_DIR WORK: instrumented loops stay loops without stores
# to the compiler (kpath_rt.h, KPATH_RT_CLOB_ITEM and KPATH_RT_INC), so
# that $CC -O2 still hoists a loop-invariant pure call out of them
# (licm.c: len_of, counting its own calls, and strlen: each loop calls it
# once natively, and did at every iteration instrumented, a quadratic
# loop); and the runtime runs none of the program's code from inside
# itself (own_malloc.c: a program defining malloc and free, instrumented
# with them, prints the counts of its native run at k = 1, 2, 4 and 8, and
# traced, where its profile is its trace's replay; it hung at its first
# traced call).  Under the sanitizers only the outputs and profiles are
# compared with native's where they can be (a sanitizer's own malloc).
set -u
kpath=$1 dir=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
PYTHON=${PYTHON:-python3}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.licm: $*"; status=1; }
san=0
case $cc in *-fsanitize=*) san=1 ;; esac
libs=$("$kpath" config --libs)
for p in licm own_malloc; do
	"$kpath" instrument "$dir/$p.c" -o $p.kpath.c 2>log || { cat log; exit 1; }
	$cc -O2 "$dir/$p.c" -o $p.native && $cc -O2 $p.kpath.c -o $p.k $libs || exit 1
done
./licm.native 4000 >n.out || fail "licm native run"
calls=$(sed -n 's/.*len_of calls \([0-9]*\)$/\1/p' n.out)
# (under AddressSanitizer gcc hoists nothing: only the outputs compare)
[ $san = 1 ] || { [ -n "$calls" ] && [ "$calls" -le 3 ]; } || fail "len_of was not hoisted natively ($calls calls): nothing to compare"
for k in 1 2 4; do
	KPATH_K=$k KPATH_OUT=licm$k.json ./licm.k 4000 >k.out || fail "licm run k=$k"
	cmp -s n.out k.out || fail "licm at k=$k: '$(cat k.out)', native '$(cat n.out)'"
done
if [ $san = 0 ]; then
	./own_malloc.native >n.out || fail "own_malloc native run"
	for k in 1 2 4 8; do
		KPATH_K=$k KPATH_OUT=om$k.json timeout 60 ./own_malloc.k >k.out || fail "own_malloc run k=$k"
		cmp -s n.out k.out || fail "own_malloc at k=$k: '$(cat k.out)', native '$(cat n.out)'"
	done
	# traced: the trace's FILE is the C library's (fdopen), allocated
	# with the program's malloc before main: only the sum is compared
	KPATH_K=2 KPATH_OUT=omt.json KPATH_TRACE=om.kpt timeout 60 ./own_malloc.k >k.out || fail "own_malloc traced run"
	[ "$(cut -d' ' -f1-2 k.out)" = "$(cut -d' ' -f1-2 n.out)" ] || fail "own_malloc traced: '$(cat k.out)'"
	"$PYTHON" "$here/kpcheck.py" profile omt.json --k 2 --src-root "$dir" --trace om.kpt --functions 5 ||
		fail "own_malloc's traced profile against its trace"
fi
[ $status = 0 ] && echo "e2e.licm: OK"
exit $status
