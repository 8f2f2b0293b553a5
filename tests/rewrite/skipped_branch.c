/* A function body chosen by a compiler test (tests/realcode/repro/
 * gcc_only_branch.c, SQLite's #if GCC_VERSION bodies): libclang parses with
 * __clang__ defined and instruments the #else branches; gcc builds the #if
 * branches, where every declaration kpath inserts at a function's top is
 * unused.  Every mode must mark them KPATH_RT_UNUSED (gcc -Wall -Werror). */
#include <stdio.h>

#if defined(__GNUC__) && !defined(__clang__)
#define GCC_ONLY 1
#else
#define GCC_ONLY 0
#endif

static int leaf(int x)
{
#if GCC_ONLY
	return x;
#else
	if (x > 3)
		return x - 1;
	return x + 1;
#endif
}

static int work(int n)
{
	int s = 0;
#if GCC_ONLY
	s = n * leaf(n);
#else
	int i;
	for (i = 0; i < n; i++) {
		if (i & 1)
			s += leaf(i);
		else
			s -= leaf(i);
	}
#endif
	return s;
}

int main(void)
{
	int i, t = 0;
	for (i = 0; i < 5; i++)
		t += work(i);
	printf("%d\n", t);
	return 0;
}
