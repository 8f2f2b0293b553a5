#!/bin/sh
# instrument.quiet_inits: the second parse (the file with macros written
# out) reads file-scope brace initialisers of arrays, structs and unions
# blanked (frontend/quiet.c, init_span): an array's becomes
# "= {[N - 1] = 0}", which keeps its element count, so sizeof and the
# types the functions written out see stay.  A generated file with a
# 24 KB table, an array of structs with an #if inside, a 2-D array with a
# second declarator, vectors, a struct and an array of typedef'd
# incomplete type; the function written out reads their sizes in case
# labels and loops.  Checks: the table is blanked (the bytes blanked in the
# parse again, KPATH_STATS=1: 23,000 now, under 200 before), one parse,
# the output byte-identical to the one read off the whole file
# (KPATH_QUIET=0), and the program prints what the original prints.  A
# second file puts a directive first in its initialisers (the fill must
# not land in an #if 0 group): the same output as KPATH_QUIET=0.
# usage: quiet_inits.sh KPATH WORKDIR
set -eu
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

{
cat <<'SRC'
#include <stdio.h>

#define RET_IF(c, v) if (c) return (v)
#define COUNT(a) (sizeof (a) / sizeof (a)[0])
typedef int row_t[];
struct pt { int x, y; const char *name; };
typedef int v4 __attribute__((vector_size(16)));

static const row_t row = {5, 6, 7};
static const struct pt origin = {1, 2, "origin"};
static const struct pt pts[] = {{1, 2, "a"}, {3, 4, "b"},
#if 1
	{5, 6, "c"},
#endif
	{7, 8, "d"}};
static const int grid[3][2] = {{1, 2}, {3, 4}, {5, 6}}, *corner = &grid[2][1];
static const v4 vs[2] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
static const unsigned short big[] = {
SRC
i=0
while [ $i -lt 1500 ]; do
	printf '\t%d, %d, %d, %d,\n' $((i * 7 % 1000)) $((i * 11 % 1000)) $((i % 13)) $i
	i=$((i + 1))
done
cat <<'SRC'
};

static long sum(int x)
{
	long s = 0;
	unsigned i;
	RET_IF(x < 0, -1);
	switch (x) {
	case COUNT(row):
		s += row[2];
		break;
	case COUNT(pts):
		s += pts[3].y;
		break;
	case sizeof grid / sizeof grid[0][0]:
		s += *corner;
		break;
	default:
		break;
	}
	for (i = 0; i < COUNT(big); i++)
		if (big[i] % 7 == 0)
			s += big[i];
	RET_IF(x > 100, s);
	return s + origin.x + vs[1][2] + (long)sizeof big;
}

int main(void)
{
	printf("%ld %ld %ld %ld %ld\n", sum(-1), sum(3), sum(4), sum(6), sum(200));
	return 0;
}
SRC
} > qi.c

cat > d.c <<'SRC'
#include <stdio.h>
#define RET_IF(c, v) if (c) return (v)
static const int t[] = {
#if 0
	1, 9, 9,
#else
	2,
#endif
	3};
static const int u[] = {4, 5,
#ifdef NOPE
	6,
#endif
	7};
static int f(int x)
{
	RET_IF(x < 0, -1);
	return (int)(sizeof t / sizeof t[0]) * 10 + (int)(sizeof u / sizeof u[0]) + x;
}
int main(void)
{
	printf("%d %d\n", f(-1), f(1));
	return 0;
}
SRC

for f in qi d; do
	KPATH_QUIET=0 "$kpath" instrument $f.c -o $f.out.c 2> $f.whole.log || { cat $f.whole.log; fail "$f.c: KPATH_QUIET=0"; }
	mv $f.out.c $f.whole.c # the same output name both times (it is in the #line directives)
	KPATH_STATS=1 "$kpath" instrument $f.c -o $f.out.c 2> $f.log || { cat $f.log; fail "$f.c: kpath instrument failed"; }
	cmp $f.out.c $f.whole.c || fail "$f.c: output differs from the one read off the whole file"
	stats=$(grep '^kpath: stats:.*parses again' $f.log) || fail "$f.c: no stats line"
	echo "$stats"
	echo "$stats" | grep -q " 1 parses again (" || fail "$f.c: expected one parse again"
	again=$(echo "$stats" | sed 's/.*again (\([0-9]*\) bytes.*/\1/')
	[ $f = d ] || [ "$again" -gt 20000 ] || fail "qi.c: only $again bytes blanked in the parse again: the table was read"
	$cc -w -o $f.native $f.c && ./$f.native > $f.native.txt
	$cc -w -o $f.kp $f.out.c $("$kpath" config --libs) && KPATH_OUT=$f.json ./$f.kp > $f.kp.txt
	cmp $f.native.txt $f.kp.txt || fail "$f.c: the instrumented program prints something else"
done
echo "quiet_inits: ok"
