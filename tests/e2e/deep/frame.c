/* frame.c: bytes of stack per recursive activation (the largest stack
 * pointer distance over the depth), natively and instrumented: a
 * measurement for docs/instrumented-code.md ("Tail calls"), not a test.
 * usage: cc -O2 frame.c && ./a.out 1000 */
#include <stdio.h>
#include <stdlib.h>

static char *base;
static long maxgap;

/* non-tail recursion with a loop (a cursor) and a branch */
static unsigned long deep(long n, long k)
{
	char here;
	unsigned long s = 0, t;
	long i;
	if (base - &here > maxgap)
		maxgap = base - &here;
	for (i = 0; i < k; i++)
		s += (unsigned long)(i ^ n);
	if (n == 0)
		return s;
	if (n & 1)
		t = deep(n - 1, k);
	else
		t = deep(n - 2 < 0 ? 0 : n - 1, k + 1);
	return s * t + t / 7 + 1;
}

int main(int argc, char **argv)
{
	char top;
	long n = argc > 1 ? atol(argv[1]) : 1000;
	base = &top;
	printf("%lu\n", deep(n, 2) & 0xffff);
	printf("frame %ld\n", maxgap / (n + 1));
	return 0;
}
