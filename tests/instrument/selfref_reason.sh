#!/bin/sh
# instrument.selfref_reason: a function skipped because its written-out
# macro invocation reads differently when preprocessed again names the
# identifier that expands once more when the reason is a self-referential
# macro (tcc's tccelf.c: "#define symtab_section
# TCC_STATE_VAR(symtab_section)" in a for_each_elem(symtab_section, ...)
# loop; the skip said only "(a self-referential macro, __COUNTER__?)"), and
# keeps the general reason for a __COUNTER__ shift, where the token that
# differs is a number (frontend/expand.c, try_set).  The line is the
# invocation that expands once more, not the function's first macro
# control flow (PCRE2 10.42's pcre2test.c, process_pattern: toupper, from
# glibc's ctype.h at -O2, at line 5336; the skip said "(line 5190)", a
# PATCTXCPY(...) that is written out well); retry's is the __COUNTER__
# whose number differs once RETRY's is written out (line 21, not 20).
# usage: selfref_reason.sh KPATH WORKDIR
set -eu
kpath=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
cat > r.c <<'CEOF'
#include <stdio.h>
struct state { int *symtab; int n; };
static struct state st0 = { 0, 0 };
static struct state *s1 = &st0;
#define STATE_VAR(sym) s1->sym
#define symtab STATE_VAR(symtab)
#define for_each(p, tab, n) for (p = tab; p < tab + (n); p++)
#define RETRY(x) do { if ((x) < 0) return __COUNTER__; } while (0)

static int sum(void)
{
	int *p, s = 0;
	for_each(p, symtab, s1->n)
		s += *p;
	return s;
}

static int retry(int x)
{
	RETRY(x);
	return __COUNTER__ + 100;
}

static int plain(int x)
{
	return x > 0 ? x : -x;
}

#define CLAMP(x) do { if ((x) < 0) (x) = 0; } while (0)

static int late(int x)
{
	int *p;
	CLAMP(x);
	for_each(p, symtab, s1->n)
		x += *p;
	return x;
}

int main(void)
{
	static int v[3] = { 1, 2, 3 };
	symtab = v;
	s1->n = 3;
	printf("%d %d %d %d\n", sum(), retry(1) > 0, plain(-4), late(-1));
	return 0;
}
CEOF
"$kpath" instrument r.c -o r.kpath.c 2> log || fail "kpath instrument: $(cat log)"
grep -q "2 functions instrumented, 3 skipped" log || fail "want 2 instrumented, 3 skipped: $(cat log)"
want="r.c:10: warning: function 'sum' not instrumented: control flow inside a macro expansion; it cannot be written out: its expansion reads differently when preprocessed again (symtab expands once more: a self-referential macro?) (line 13)"
grep -qxF "$want" log || fail "want the skip of sum naming symtab, got: $(grep 'not instrumented' log)"
want="r.c:18: warning: function 'retry' not instrumented: control flow inside a macro expansion; it cannot be written out: its expansion reads differently when preprocessed again (a self-referential macro, __COUNTER__?) (line 21)"
grep -qxF "$want" log || fail "want the general skip of retry, got: $(grep 'not instrumented' log)"
want="r.c:31: warning: function 'late' not instrumented: control flow inside a macro expansion; it cannot be written out: its expansion reads differently when preprocessed again (symtab expands once more: a self-referential macro?) (line 35)"
grep -qxF "$want" log || fail "want the skip of late at the for_each line, got: $(grep 'not instrumented' log)"
$cc -O1 r.c -o native || fail "the original does not build"
# shellcheck disable=SC2046
$cc -O1 r.kpath.c -o inst $("$kpath" config --libs) || fail "the instrumented file does not build"
./native > native.out
KPATH_OUT=r.json ./inst > inst.out || fail "instrumented run"
cmp -s native.out inst.out || fail "output differs"
echo "selfref_reason: ok"
