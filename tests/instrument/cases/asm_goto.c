/* asm goto transfers control to a C label the statement-level CFG does not
 * see: such a function must be skipped (or its edge instrumented), never
 * instrumented with wrong paths.
 * expect: instrumented=1 skipped=1 cut=0
 * expect-skip: jump */
#include <stdio.h>

static int jump(int x)
{
	int r = 0;
	if (x) {
		asm goto("jmp %l[out]" : : : : out);
	}
	r += 1;
out:
	r += 2;
	return r;
}

int main(void)
{
	printf("%d %d\n", jump(0), jump(1));
	return 0;
}
