#!/bin/sh
# instrument.header_macro_reason: with --include-dir, a header's function
# whose control flow is inside a macro expansion is skipped (the write-out
# edits only the file instrumented), and its reason says so; the same
# macro in the file itself is written out and instrumented.  Before, the
# reason was "control flow inside a macro expansion" alone, which the
# same code in the .c file contradicts (libdecnumber's decBasic.c, which
# decQuad.c includes: 20 functions).
# usage: header_macro_reason.sh KPATH WORKDIR
set -u
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work/inc" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: instrument.header_macro_reason: $*"; status=1; }
cat >inc/h.h <<'SRC'
#define CLAMP(x) do { if ((x) > 9) (x) = 9; } while (0)
static int in_header(int x)
{
	CLAMP(x);
	return x;
}
SRC
cat >m.c <<'SRC'
#include <stdio.h>
#include "inc/h.h"
static int in_file(int x)
{
	CLAMP(x);
	return x + 1;
}
int main(void)
{
	printf("%d %d\n", in_header(12), in_file(20));
	return 0;
}
SRC
"$kpath" instrument m.c -o m.kpath.c --include-dir inc 2>log || { fail "kpath instrument: $(cat log)"; exit 1; }
grep -q "function 'in_header' not instrumented: control flow inside a macro expansion (in a header: only the main file's macro invocations are written out)" log ||
	fail "in_header: not skipped with its reason: $(cat log)"
grep -q "in_file" log && fail "in_file: not instrumented: $(cat log)"
grep -q "2 functions instrumented, 1 skipped" log || fail "counts: $(cat log)"
$cc -Wall -Wextra -Werror m.c -o native && ./native >native.out || fail "the original"
# shellcheck disable=SC2046
$cc -Wall -Wextra -Werror m.kpath.c -o inst $("$kpath" config --libs) || fail "the instrumented file does not build"
KPATH_OUT=p.json ./inst >inst.out || fail "instrumented run"
cmp -s native.out inst.out || fail "output differs"
[ $status = 0 ] && echo "instrument.header_macro_reason: OK"
exit $status
