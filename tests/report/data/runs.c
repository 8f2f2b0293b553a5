/* runs.c: a program whose profile depends on its argument, for the
 * tests of kpath merge, diff and show (tests/report/commands.sh).  Built
 * with -DV2, classify has one more branch: another CFG, another checksum,
 * same name and file. */
#include <stdio.h>
#include <stdlib.h>

static int classify(int x)
{
	int r = 0;
	for (int i = 0; i < x; i++) {
		if (i % 3 == 0)
			r += 2;
		else if (i % 3 == 1)
			r -= 1;
#ifdef V2
		else if (i % 7 == 0)
			r *= 2;
#endif
		else
			r++;
	}
	return r;
}

static int popcount(unsigned n)
{
	int s = 0;
	while (n > 0) {
		if (n & 1)
			s++;
		n >>= 1;
	}
	return s;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	printf("%d %d\n", classify(n), popcount((unsigned)n * 37u));
	return 0;
}
