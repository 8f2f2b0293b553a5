/*
 * Figure 1 of Roy & Srikant, "Profiling k-Iteration Paths": nodes 1..6,
 * 1 -> 2, 2 -> 3 | 4, 3 -> 5, 4 -> 5, 5 -> 2 (back edge) | 6, run on the trace
 * 1-(2-3-5-2-4-5)^100-6: the acyclic paths 2-3-5 and 2-4-5 alternate.  The
 * digits in the comments name the nodes for tests/cfg/papers_e2e.py, which
 * checks the paper's acyclic and 2-iteration frequencies exactly.
 */
#include <stdio.h>

static int fig1(int n) /* 1 */
{
	int i = 0, s = 0;
	do { /* 2 */
		if (i % 2 == 0)
			s += 3; /* 3 */
		else
			s -= 1; /* 4 */
	} while (++i < n); /* 5 */
	return s; /* 6 */
}

int main(void)
{
	printf("%d\n", fig1(200));
	return 0;
}
