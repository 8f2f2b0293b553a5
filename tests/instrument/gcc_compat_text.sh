#!/bin/sh
# instrument.gcc_compat_text: the macros kp_run defines for the parse only
# (gcc's __float128 builtins named by clang's _Float128 ones, frontend/
# pipeline.c, gcc_compat) stay out of the text kpath writes: a macro
# invocation written out (it holds control flow) keeps __builtin_huge_valq
# as the source spells it, not __builtin_huge_valf128 (before: the write-
# out's preprocessor runs had the -D flags too).  The file compiles with
# -Wall -Wextra -Werror and prints what the original prints.
# usage: gcc_compat_text.sh KPATH WORKDIR
set -u
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: instrument.gcc_compat_text: $*"; status=1; }
cat >hv.c <<'SRC'
#include <stdio.h>
#define HUGE_IF(c) do { if (c) return __builtin_huge_valq(); } while (0)
static __float128 clip(__float128 y)
{
	HUGE_IF(y > 3);
	return y;
}
int main(void)
{
	printf("%d %d\n", clip(1) == 1, clip(4) == __builtin_huge_valq());
	return 0;
}
SRC
"$kpath" instrument hv.c -o hv.kpath.c 2>log || { fail "kpath instrument: $(cat log)"; exit 1; }
grep -q "expansion of HUGE_IF" hv.kpath.c || fail "HUGE_IF was not written out"
grep -q "valf128" hv.kpath.c && fail "the parse's macro went into the text: $(grep valf128 hv.kpath.c)"
$cc -Wall -Wextra -Werror hv.c -o native && ./native >native.out || fail "the original"
# shellcheck disable=SC2046
$cc -Wall -Wextra -Werror hv.kpath.c -o inst $("$kpath" config --libs) || fail "the instrumented file does not build"
KPATH_OUT=p.json ./inst >inst.out || fail "instrumented run"
cmp -s native.out inst.out || fail "output differs"
[ $status = 0 ] && echo "instrument.gcc_compat_text: OK"
exit $status
