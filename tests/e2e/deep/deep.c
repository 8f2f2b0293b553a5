/* deep.c: tail recursion 1,000,000 deep (tests/e2e/deep_recursion.sh).
 * Natively, gcc -O2 turns each self-call into a jump; instrumented, the
 * path ends before the call ("return (leave(ID), f(x));"), so it still
 * can, and the program survives an 8 MB stack.  The markers name the
 * lines whose counts the test checks. */
#include <stdio.h>
#include <stdlib.h>

/* acyclic: counted without a cursor */
static long down(long n, long acc)
{
	if (n == 0)
		return acc; /* DOWN_BASE */
	if (n % 3 == 0)
		return down(n - 1, acc + 2); /* DOWN_THREE */
	return down(n - 1, acc + 1); /* DOWN_OTHER */
}

/* a loop: a cursor, left before the call */
static long walk(long n, long acc)
{
	long i;
	for (i = 0; i < 2; i++)
		acc += i + (n & 1);
	if (n == 0)
		return acc; /* WALK_BASE */
	return walk(n - 1, acc); /* WALK_TAIL */
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	printf("%ld %ld\n", down(n, 0), walk(n, 0));
	return 0;
}
