#!/bin/sh
# instrument.include_reason: a label's address taken in text that an
# #include inside the body brings in, in a function without a computed
# goto, is skipped with that reason ("address of a label used outside a
# computed goto"), on the function's line; the reason was "an #include
# inside the function brings in code ... where kpath must insert code (a
# brace-less body, a condition)", which is false: nothing is inserted
# there (cfgbuild/expr.c, scan_node, found on Lua's ljumptab.h shape).
# usage: include_reason.sh KPATH WORKDIR
set -eu
kpath=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
cat > tab.inc <<'CEOF'
static const void *const where[2] = {&&l_a, &&l_b};
CEOF
cat > r.c <<'CEOF'
#include <stdio.h>
static int f(int x)
{
#include "tab.inc"
	if (x)
		goto l_b;
l_a:
	printf("a\n");
l_b:
	return where[0] != where[1];
}
int main(void)
{
	return f(1) - 1;
}
CEOF
"$kpath" instrument r.c -o r.kpath.c 2> log || fail "kpath instrument: $(cat log)"
grep -q "1 functions instrumented, 1 skipped" log || fail "want 1 instrumented, 1 skipped: $(cat log)"
want="r.c:2: warning: function 'f' not instrumented: address of a label used outside a computed goto (its value depends on inlining)"
grep -qxF "$want" log || fail "want: $want; got: $(grep 'not instrumented' log)"
echo "ok"
