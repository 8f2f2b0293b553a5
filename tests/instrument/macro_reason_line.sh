#!/bin/sh
# instrument.macro_reason_line: a function skipped because one of its macro
# invocations cannot be written out names that invocation's line, not the
# line of its first macro control flow (hiredis's test.c: a test(...) macro
# with braces, then a multi-line assert() whose __LINE__ gcc and clang
# disagree on; the skip said "(line 467)", the test(...) line, where the
# assert is at 484).  The reason stays on the function's own line; g, with
# the same test(...) invocation and no assert, is written out and
# instrumented, alone (the culprit found by its token) and beside f.
# usage: macro_reason_line.sh KPATH WORKDIR
set -eu
kpath=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
cat > r.c <<'CEOF'
#include <stdio.h>
#include <assert.h>
static int tests;
#define test(_s) { printf("#%02d ", ++tests); printf(_s); }

static void g(int x)
{
	test("zero: ");
	if (x > 2)
		x--;
}

static void f(int x)
{
	test("one: ");
	if (x > 2)
		x--;
	assert(x == 1 ||
	       x == 2);
	printf("%d\n", x);
}

int main(void)
{
	f(1);
	g(1);
	f(3);
	return 0;
}
CEOF
"$kpath" instrument r.c -o r.kpath.c -- -std=c99 2> log || fail "kpath instrument: $(cat log)"
grep -q "2 functions instrumented, 1 skipped" log || fail "want 2 instrumented, 1 skipped: $(cat log)"
want="r.c:13: warning: function 'f' not instrumented: control flow inside a macro expansion; it cannot be written out: its expansion depends on the invocation's layout (__LINE__ in a multi-line invocation?) or on tokens after it (line 18)"
grep -qxF "$want" log || fail "want the skip of f on its line 13 naming the assert's line 18, got: $(grep 'not instrumented' log)"
$cc -std=c99 -O1 r.c -o native || fail "the original does not build"
# shellcheck disable=SC2046
$cc -std=c99 -O1 r.kpath.c -o inst $("$kpath" config --libs) || fail "the instrumented file does not build"
./native > native.out
KPATH_OUT=r.json ./inst > inst.out || fail "instrumented run"
cmp -s native.out inst.out || fail "output differs"
# f alone (no set to halve): the same reason, the assert's line
sed '/^static void g/,/^}/d; /^\tg(1);$/d' r.c > f.c
fl=$(grep -n '^static void f' f.c | cut -d: -f1) al=$(grep -n 'assert(x' f.c | cut -d: -f1)
"$kpath" instrument f.c -o f.kpath.c -- -std=c99 2> logf || fail "kpath instrument f.c: $(cat logf)"
grep -q "^f.c:$fl: warning: function 'f' not instrumented: .*(line $al)$" logf ||
	fail "f alone: want line $fl naming the assert's line $al, got: $(grep 'not instrumented' logf)"
echo "instrument.macro_reason_line: OK"
