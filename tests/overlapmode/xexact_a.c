/* Exact Type I / II counts across files (calls_e2e.py, check_xexact):
 * main calls ex_g, defined in xexact_b.c, ten times from one site. */
#include <stdio.h>

unsigned ex_g(unsigned x);

int main(void)
{
	unsigned i, s = 0;
	for (i = 0; i < 10u; i++) {
		if (i % 3u == 0)
			s += 1u;
		s += ex_g(i);
	}
	printf("%u\n", s);
	return 0;
}
