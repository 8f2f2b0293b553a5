#!/bin/sh
# instrument.macro_warnings: a macro invocation written out (its control
# flow instrumented) compiles with the warnings its invocation compiled
# with.  Compilers leave some warnings out inside macro expansions: clang
# -Wparentheses-equality ("if ((c))" with c "x == 1"), -Wself-assign,
# -Wtautological-compare; gcc -Wtautological-compare ("(a) == (a)").  Written out, the same text warned, and with -Werror the
# instrumented file did not compile (kpath-cc then built the original,
# unprofiled).  The program compiles cleanly as written under -Wall
# -Wextra -Werror (-std=c89 -pedantic, -std=c99, -std=gnu17), with $CC
# and clang-14; instrumented it must too (kpath_rt.h: kpath_rt_xq_begin
# around each expansion for clang, kpath_rt_xf_begin around each
# function for gcc), and print what the original prints.
# usage: macro_warnings.sh KPATH WORKDIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
status=0
fail() { echo "FAIL: instrument.macro_warnings: $*"; status=1; }
. "$here/../e2e/compilers.sh"

cat >mw.c <<'SRC'
#include <stdio.h>
#define RET_IF(c) if ((c)) return -1
#define SELF(v) do { (v) = (v); } while (0)
#define SAME(a) do { if ((a) == (a)) n++; } while (0)
#define PICK(a, b) ((a) > (b) ? (a) : (b))
static int f(int x, unsigned u)
{
	int n = 0;
	RET_IF(x == 1);
	SELF(x);
	SAME(x);
	n += (int)u;
	n += PICK(x, x);
	return n + x;
}
int main(void)
{
	printf("%d %d %d\n", f(1, 1u), f(2, 2u), f(3, 3u));
	return 0;
}
SRC
"$kpath" instrument mw.c -o mw.kpath.c 2>log || fail "instrument: $(cat log)"
grep -q "mw.c: 2 functions instrumented, 0 skipped" log || fail "not instrumented: $(cat log)"
grep -q "kpath_rt_xq_begin" mw.kpath.c || fail "no kpath_rt_xq_begin in the output"
IFS='|'
for c in $compilers; do
	unset IFS
	for std in "-std=c89 -pedantic" -std=c99 -std=gnu17; do
		# shellcheck disable=SC2086
		$c $std -Wall -Wextra -Werror -c mw.c -o orig.o 2>orig.log || { fail "$c $std: the original warns: $(cat orig.log)"; continue; }
		# shellcheck disable=SC2086
		$c $std -Wall -Wextra -Werror -c mw.kpath.c -o inst.o 2>inst.log ||
			fail "$c $std: the instrumented file warns: $(grep -m3 error inst.log)"
	done
	# shellcheck disable=SC2046
	$c -O2 mw.c -o native && $c -O2 mw.kpath.c -o instrumented $("$kpath" config --libs) ||
		{ fail "$c: build"; continue; }
	[ "$(./native)" = "$(KPATH_OUT="$work/p.json" ./instrumented)" ] || fail "$c: outputs differ"
	IFS='|'
done
unset IFS

# An invocation that ends one function and begins the next: each function's
# gcc bracket stays at file scope (frontend/reparse.c, in_invocation).
cat >two.c <<'SRC'
#include <stdio.h>
#define CHK(c) if ((c)) return 7
#define NEXT(name) return x; } static int name(int x) { CHK(x == (x));
static int a(int x)
{
	CHK(x == 3);
NEXT(b)
	return x * 2;
}
int main(void)
{
	printf("%d %d %d\n", a(3), a(4), b(2));
	return 0;
}
SRC
"$kpath" instrument two.c -o two.kpath.c 2>log2 || fail "instrument two.c: $(cat log2)"
IFS='|'
for c in $compilers; do
	unset IFS
	$c -Wall -Wextra -Werror -Wno-tautological-compare two.c -o two.native 2>orig.log ||
		{ fail "$c: two.c warns: $(cat orig.log)"; continue; }
	# shellcheck disable=SC2046
	$c -Wall -Wextra -Werror -Wno-tautological-compare two.kpath.c -o two.instrumented $("$kpath" config --libs) 2>inst.log ||
		{ fail "$c: two.kpath.c: $(grep -m3 error inst.log)"; continue; }
	[ "$(./two.native)" = "$(KPATH_OUT="$work/p2.json" ./two.instrumented)" ] || fail "$c: two.c outputs differ"
	IFS='|'
done
unset IFS
[ $status = 0 ] && echo PASS
exit $status
