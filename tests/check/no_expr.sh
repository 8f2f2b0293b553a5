#!/bin/sh
# --no-expr-branches: conditions are atomic.  The instrumented program must
# still be exact (checking runtime: 0 mismatches, same output), and it must
# have fewer edges than the default build, whose &&, || and ?: branch.
# usage: no_expr.sh KPATH CHECKLIB SOURCE WORK
set -u
kpath=$1 checklib=$2 src=$3 work=$4/no_expr
cc=${CC:-cc}
mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
$cc -std=gnu11 -O1 -w "$src" -o "$work/native" || fail "native build"
"$work/native" >"$work/native.out"
for mode in default atomic; do
	opt=; [ $mode = atomic ] && opt=--no-expr-branches
	# shellcheck disable=SC2086
	"$kpath" instrument --check $opt "$src" -o "$work/$mode.c" 2>"$work/$mode.log" || fail "instrument $mode"
	$cc -std=gnu11 -O1 -w "$work/$mode.c" "$checklib" -o "$work/$mode" || fail "build $mode"
	rm -f "$work/$mode.sum"
	KPATH_CHECK_OUT="$work/$mode.sum" "$work/$mode" >"$work/$mode.out" 2>/dev/null
	cmp -s "$work/native.out" "$work/$mode.out" || fail "$mode: output differs"
	grep -q " 0 mismatches" "$work/$mode.sum" || fail "$mode: $(cat "$work/$mode.sum")"
done
d=$(grep -o 'kpath_chk_edge(' "$work/default.c" | wc -l)
a=$(grep -o 'kpath_chk_edge(' "$work/atomic.c" | wc -l)
echo "edge sites: $d with expression branches, $a without"
[ "$a" -lt "$d" ] || fail "--no-expr-branches did not make conditions atomic"
echo "PASS"
