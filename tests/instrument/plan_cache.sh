#!/bin/sh
# instrument.plan_cache: after the first function whose macros must be
# written out, the first walk builds the rest of the file's CFGs once and
# keeps them, and the second walk takes them for the functions that are
# not written out (frontend/instrument_fn.c, struct plan_cache) instead of
# building them again.  A file of seven functions, two of them with a
# macro's return: KPATH_STATS=1 counts 9 CFGs built (7 in the first walk,
# the 2 written out again from the second unit; 14 before); all seven are
# instrumented and the program prints what the original prints.
# usage: plan_cache.sh KPATH WORKDIR
set -eu
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

cat >pc.c <<'SRC'
#include <stdio.h>
#define RET_IF(c, v) if (c) return (v)
static int first(int x)
{
	RET_IF(x < 0, -1);
	return x * 2;
}
static int a(int x) { return x > 3 ? x : -x; }
static int b(int x) { int s = 0; while (x-- > 0) s += x; return s; }
static int c(int x) { if (x & 1) return 1; return 2; }
static int d(int x) { return x + 1; }
static int e(int x) { RET_IF(x == 7, 70); return x; }
int main(void)
{
	int s = 0, i;
	for (i = -2; i < 9; i++)
		s += first(i) + a(i) + b(i) + c(i) + d(i) + e(i);
	printf("%d\n", s);
	return 0;
}
SRC
KPATH_STATS=1 "$kpath" instrument pc.c -o pc.kpath.c 2>log || fail "instrument: $(cat log)"
grep -q "pc.c: 7 functions instrumented, 0 skipped" log || fail "not all instrumented: $(cat log)"
grep -q "2 functions with macro control flow" log || fail "expected 2 functions written out: $(cat log)"
grep -q "; 9 CFGs built$" log || fail "expected 9 CFGs built: $(grep 'CFGs built' log)"
$cc -O2 pc.c -o native || fail "native build"
# shellcheck disable=SC2046
$cc -O2 pc.kpath.c -o instrumented $("$kpath" config --libs) || fail "instrumented build"
[ "$(./native)" = "$(KPATH_OUT="$work/p.json" ./instrumented)" ] || fail "outputs differ"
echo PASS
