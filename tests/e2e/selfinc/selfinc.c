/* A file that includes itself, as libiberty's regex.c does: the second
 * pass defines the helper, the first the callers. */
#ifndef SECOND_PASS
#include <stdio.h>
#define SECOND_PASS
#include "selfinc.c"
#undef SECOND_PASS
static int twice(int x)
{
	return x > 0 ? inner(x) * 2 : 0;
}
int main(void)
{
	int s = 0;
	for (int i = 0; i < 5; i++)
		s += twice(i);
	printf("%d\n", s);
	return 0;
}
#else
static int inner(int x)
{
	int r = 0;
	while (x--)
		r += x & 1 ? 1 : 2;
	return r;
}
#endif
