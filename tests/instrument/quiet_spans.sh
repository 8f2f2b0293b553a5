#!/bin/sh
# instrument.quiet_spans: the macro expansion's preprocessor runs read the
# file with everything but the directives and the functions written out
# blanked, and the second parse the file with the other functions' bodies
# blanked (frontend/quiet.c, frontend/reparse.c).  Checks, on files that try to fool the
# directive finder (directive-like lines in comments, strings and a
# spliced line comment, #if inside initialisers and bodies, a macro
# redefined between functions): the number of preprocessor runs (3) and
# parses (KPATH_STATS=1), that most of the file was blanked, that the
# output is byte-identical to the one read off the whole file
# (KPATH_QUIET=0), and that it compiles and prints what the original
# prints.  With __COUNTER__ in the file nothing may be blanked (in a
# comment it does not count), nor with _Pragma("push_macro"); a #pragma
# push_macro directive and __asan_poison_memory_region do not count.
# usage: quiet_spans.sh KPATH WORKDIR
set -eu
kpath=$1 work=$2
cc=${CC:-cc}
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*"; exit 1; }

cat > q.c <<'SRC'
/* a comment whose lines look like directives, naming __COUNTER__ and poison
# define RET_IF 0
%: define NOPE 1
*/
#include <stdio.h>

#define RET_IF(c, v) if (c) return (v)
static const char *names[] = {"#not a directive", "a", /* # neither */ "b"};
// a line comment ending in a splice \
# define SPLICED 1
static int table[] = {
#ifdef NOPE
	-1,
#endif
	1, 2, 3};

static int plain(int x)
{
	int s = 0;
#ifndef SPLICED
	s += table[0];
#endif
	for (int i = 0; i < x; i++)
		s += i;
	return s;
}

#undef RET_IF
#define RET_IF(c, v) if (c) return (v) + 1

static int guarded(int x)
{
	RET_IF(x < 0, -1);
	RET_IF(x > 10, 10);
	return plain(x) + __LINE__;
}

int main(void)
{
	printf("%s %d %d %d\n", names[0], guarded(-5), guarded(20), guarded(3));
	return 0;
}
SRC
sed 's|^int main|static int counted = __COUNTER__;\nint main|' q.c > c.c
cp q.c w.c # with -Werror: the blanked bodies' warnings (no return value) must not fail the parse
# #pragma push_macro / pop_macro directives are kept in every copy, and an
# identifier holding "poison" poisons nothing (zstd's xxhash.h and
# compiler.h turned blanking off for all of zstd): p.c blanks as q.c does;
# _Pragma in the text can change the macro table: d.c blanks nothing.
sed -e 's|^#undef RET_IF|#pragma push_macro("RET_IF")\n#undef RET_IF|' \
    -e 's|^int main|#pragma pop_macro("RET_IF")\nvoid __asan_poison_memory_region(const volatile void *a, unsigned long n);\nint main|' q.c > p.c
sed -e 's|^#undef RET_IF|_Pragma("push_macro(\\"RET_IF\\")")\n#undef RET_IF|' \
    -e 's|^int main|_Pragma("pop_macro(\\"RET_IF\\")")\nint main|' q.c > d.c
grep -q '^#pragma push_macro("RET_IF")' p.c && grep -q '^_Pragma("pop_macro(\\"RET_IF\\")")' d.c ||
	fail "p.c or d.c not made"

for f in q c w p d; do
	flags=
	[ $f = w ] && flags="-- -Wall -Werror -Wno-comment"
	# the same output name both times (it is in the #line directives)
	if [ $f != c ] && [ $f != d ]; then # c.c and d.c blank nothing anyway
		KPATH_QUIET=0 KPATH_STATS=1 "$kpath" instrument $f.c -o $f.out.c $flags 2> $f.whole.log ||
			fail "$f.c: KPATH_QUIET=0"
		grep '^kpath: stats:' $f.whole.log | grep -q " 0 of .*again (0 bytes" || fail "$f.c: KPATH_QUIET=0 still blanked"
		mv $f.out.c $f.whole.c
	fi
	KPATH_STATS=1 "$kpath" instrument $f.c -o $f.out.c $flags 2> $f.log || { cat $f.log; fail "$f.c: kpath instrument failed"; }
	[ $f = c ] || [ $f = d ] || cmp $f.out.c $f.whole.c || fail "$f.c: output differs from the one read off the whole file"
	grep -q "expansion of RET_IF" $f.out.c || fail "$f.c: RET_IF not written out"
	stats=$(grep '^kpath: stats:' $f.log) || fail "$f.c: no stats line"
	echo "$stats"
	echo "$stats" | grep -q ": 1 functions with macro control flow, .* 3 preprocessor runs, .* 1 parses again (" ||
		fail "$f.c: expected 3 preprocessor runs (the original, the marked copy, the edited file: no line comment holds a block comment's end, so no run without comments, cc_damaged) and one parse"
	blanked=$(echo "$stats" | sed 's/.* runs, \([0-9]*\) of \([0-9]*\) bytes.*again (\([0-9]*\) bytes.*/\1 \2 \3/')
	set -- $blanked
	if [ $f != c ] && [ $f != d ]; then
		[ "$1" -gt $(($2 / 2)) ] || fail "$f.c: only $1 of $2 bytes blanked"
		# the parse again blanks plain's and main's bodies but the #ifndef
		[ "$3" -gt 50 ] || fail "$f.c: only $3 bytes blanked in the parse again"
	else
		[ "$1" -eq 0 ] && [ "$3" -eq 0 ] || fail "$f.c names __COUNTER__ or has _Pragma(\"push_macro\"): $1 and $3 bytes blanked"
	fi
	[ $f = q ] || [ $f = p ] || continue # c.c, w.c and d.c only change how kpath reads
	$cc -o $f.native $f.c && ./$f.native > $f.native.txt
	$cc -o $f.kp $f.out.c $("$kpath" config --libs) && KPATH_OUT=$f.json ./$f.kp > $f.kp.txt
	cmp $f.native.txt $f.kp.txt || fail "$f.c: the instrumented program prints something else"
done
echo "quiet_spans: ok"
