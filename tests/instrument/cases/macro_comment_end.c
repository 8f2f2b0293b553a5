/* A macro whose line comment holds the end of a block comment ("*" "/"):
 * clang -E -CC writes a macro's line comment as a block comment, which
 * then ends early, and the rest of the comment reads as tokens.  The
 * write-out compares the original's tokens with and without comments
 * (frontend/expand.c, cc_damaged) and, as they differ, preprocesses this
 * file without comments: every function is written out and instrumented
 * with its own tokens.  Without the comparison, check() was skipped, and
 * bonus() returned 5 + 1 instead of 5 ("+ 1" came out of the comment).
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: check=3 bonus=2 */
#include <stdio.h>

#define RET_IF(c, v) if (c) return (v) // as in "src/*.c */ odd"
#define EACH(i, n) for ((i) = 0; (i) < (n); (i)++) /* plain */
#define BONUS_IF(c) if (c) return 5 // note */ + 1 /* more

static int check(int x)
{
	RET_IF(x < 0, -1);
	RET_IF(x > 9, 9);
	return x;
}

static int bonus(int x)
{
	BONUS_IF(x > 2);
	return 0;
}

static int scan(int n)
{
	int i, s = 0;
	EACH(i, n)
		if (check(i - 2) > 0)
			s += i;
	return s;
}

int main(void)
{
	printf("%d %d %d %d %d\n", check(-4), check(12), scan(14), bonus(3), bonus(1));
	return 0;
}
