/* A source that starts with a UTF-8 byte-order mark: the output starts
 * with it too (in the middle of the file it is a stray character), also
 * when a macro's control flow is written out.
 * expect: instrumented=3 skipped=0 cut=0
 * expect-paths: plain=2 with_macro=13 */
#include <stdio.h>

#define RET_IF(c, v) do { if (c) return (v); } while (0)

static int plain(int x)
{
	if (x > 2)
		return 1;
	return 2;
}

static int with_macro(int x)
{
	RET_IF(x > 3, 10);
	RET_IF(x < 1, 20);
	return x;
}

int main(void)
{
	for (int i = 0; i < 6; i++)
		printf("%d %d\n", plain(i), with_macro(i));
	return 0;
}
