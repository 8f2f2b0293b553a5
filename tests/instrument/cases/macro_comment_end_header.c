/* As macro_comment_end.c, with the macros in a header: the write-out
 * runs the preprocessor without comments too (cc_damaged) only when some
 * file of the unit, a header included, has a line comment holding the
 * end of a block comment (frontend/pp_text.c,
 * pp_line_comment_may_end_block, which scans every file of the unit).
 * Without that run, bonus() would return 5 + 1 instead of 5 ("+ 1" came
 * out of the comment).
 * expect: instrumented=3 skipped=0 cut=0
 * expect-paths: check=3 bonus=2 */
#include <stdio.h>
#include "include_in_body/comment_end.h"

static int check(int x)
{
	HRET_IF(x < 0, -1);
	HRET_IF(x > 9, 9);
	return x;
}

static int bonus(int x)
{
	HBONUS_IF(x > 2);
	return 0;
}

int main(void)
{
	int s = 0;
	for (int i = -2; i < 12; i++)
		s += check(i) + bonus(i);
	printf("%d\n", s);
	return 0;
}
