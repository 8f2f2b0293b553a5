/*
 * The control-flow graph of the k-BLPP paper's running example (Figure
 * "kblpp-example"): A -> B, B -> C | D, C -> E, D -> E, E -> B (back edge) | F,
 * eight Ball-Larus paths.  The branch pattern CCDDCCDDCCDDCC makes the
 * paper's stream 6 2 0 0 2 2 0 0 2 2 0 0 2 3 (in the paper's numbering):
 * ABCE BCE BDE BDE BCE BCE BDE BDE BCE BCE BDE BDE BCE BCEF.
 * The letters in the comments name the blocks for tests/cfg/papers_e2e.py.
 */
#include <stdio.h>

static int example(const char *pattern) /* A */
{
	int i = 0, s = 0;
	do { /* B */
		if (pattern[i] == 'C')
			s += 1; /* C */
		else
			s += 2; /* D */
	} while (pattern[++i]); /* E */
	return s; /* F */
}

int main(void)
{
	printf("%d\n", example("CCDDCCDDCCDDCC"));
	return 0;
}
