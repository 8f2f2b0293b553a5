/* bench/overlap-xfile.sh: a hot loop calling two small functions of
 * xbench_b.c, a leaf and one with a loop (calls across files). */
#include <stdio.h>
#include <stdlib.h>

unsigned xb_leaf(unsigned x);
unsigned xb_sum(unsigned x, unsigned n);

int main(int argc, char **argv)
{
	unsigned i, n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 100000u, s = 0;
	for (i = 0; i < n; i++) {
		if (i & 2u)
			s += xb_leaf(i ^ s);
		else
			s ^= xb_sum(i, 3u);
	}
	printf("%u\n", s);
	return 0;
}
