#!/bin/sh
# frame_cost.sh KPATH SRC_DIR WORK: what an activation costs in stack at
# -O2 (issue 13; docs/instrumented-code.md "Tail calls"), on two non-tail
# recursions with a real function's frame (deep/frame_cost.c): walk keeps
# a cursor (loops), mix is acyclic (a count), deep is frame.c's.  Each is measured natively
# and instrumented (stack bytes per activation), the difference checked
# against a bound, then run under a fixed stack limit at a depth native
# survives with a margin: the instrumented program must survive it too,
# with the native output.
set -u
kpath=$1 dir=$2 work=$3
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: e2e.frame_cost: $*"; status=1; }
# The sanitizers keep larger frames and a stack of their own: there the
# programs run at a small depth and only the outputs are compared.
san=0
case $cc in *-fsanitize=*) san=1 ;; esac
"$kpath" instrument "$dir/frame_cost.c" -o fc.kpath.c 2>instrument.log || { cat instrument.log; exit 1; }
$cc -O2 "$dir/frame_cost.c" -o native || exit 1
$cc -O2 fc.kpath.c -o inst $("$kpath" config --libs) || exit 1
frame() { sed -n 's/.* frame \([0-9]*\)$/\1/p' "$1"; }
# which name bound [depth run]: issue 13's bound, 32 bytes more, for
# each.  The depth run is for the functions whose frame is large enough
# that the bound is a small margin (deep's native frame is 32 bytes).
for spec in "0 walk 32 1" "1 mix 32 1" "2 deep 32 0"; do
	set -- $spec
	./native $1 1000 > n$1.out || fail "$2: native run"
	KPATH_OUT=p$1.json ./inst $1 1000 > i$1.out || fail "$2: instrumented run"
	fn=$(frame n$1.out) fi=$(frame i$1.out)
	[ -n "$fn" ] && [ -n "$fi" ] || { fail "$2: no frame size printed"; continue; }
	sed 's/ frame.*//' n$1.out > a && sed 's/ frame.*//' i$1.out > b && cmp -s a b || fail "$2: output differs"
	[ $san = 1 ] && { [ -s p$1.json ] || fail "$2: no profile written"; continue; }
	echo "e2e.frame_cost: $2: $fn bytes per activation natively, $fi instrumented"
	[ $((fi - fn)) -le $3 ] || fail "$2: the instrumented frame costs $((fi - fn)) bytes more than native (at most $3)"
	[ $4 = 1 ] || continue
	# a 2 MB stack, and a depth that leaves native a quarter of it
	depth=$((2 * 1024 * 1024 * 3 / 4 / fn))
	(ulimit -s 2048 && ./native $1 $depth > nd$1.out) || fail "$2: native does not survive depth $depth"
	(ulimit -s 2048 && KPATH_OUT=pd$1.json ./inst $1 $depth > id$1.out) ||
		fail "$2: the instrumented program crashed at depth $depth (native survives it)"
	sed 's/ frame.*//' nd$1.out > a && sed 's/ frame.*//' id$1.out > b && cmp -s a b || fail "$2: output differs"
	[ -s pd$1.json ] || fail "$2: no profile written"
done
[ $status = 0 ] && echo "e2e.frame_cost: OK"
exit $status
