/* A statement split by #if/#else: the ";" inside the skipped branch is not
 * the statement's end.  Code placed there disappears with the branch.
 * expect: instrumented=3 skipped=0 cut=0 */
#include <stdio.h>

static int body(int x)
{
	int y = 0;
	if (x)
		y = 1
#if 0
		+ 2;
#else
		+ 3;
#endif
	return y;
}

static int ret(int x)
{
	if (x > 1)
		return x
#ifdef NOT_DEFINED_ANYWHERE
			* 2;
#else
			* 3;
#endif
	return -x;
}

int main(void)
{
	for (int i = 0; i < 3; i++)
		printf("%d: %d %d\n", i, body(i), ret(i));
	return 0;
}
