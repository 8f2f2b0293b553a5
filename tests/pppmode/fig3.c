/*
 * tests/pppmode/fig3.c: the PPP paper's Figure 3 (Vaswani, Nori & Chilimbi,
 * POPL 2007) as C.  Its DAG: s -> a | b, a -> c | b, b -> c, c -> d | t,
 * d -> t, each node's first out-edge first (the Ball-Larus IDs of the
 * paper's text: sacdt 0, sact 1, sabcdt 2, sabct 3, sbcdt 4, sbct 5).
 * fig3(x, y, z): s goes to a when x, a to c when y, c to d when z (kpath
 * numbers a condition's false edge, the fall-through, first).  "A" runs
 * the interesting paths sacdt, sact, sbct (1, 2 and 3 times); "B" runs the
 * path of Ball-Larus ID i i + 1 times (sacdt 1, sact 2, sabcdt 3, sabct 4,
 * sbcdt 5, sbct 6).  tests/pppmode/ppp_fig3.py checks the profiles.
 */
#include <stdio.h>
#include <string.h>

static int fig3(int x, int y, int z)
{
	int r = 0;
	if (!x)
		goto b;
	r += 1; /* a */
	if (!y)
		goto b;
	goto c;
b:
	r += 2; /* b */
c:
	r += 4; /* c */
	if (!z)
		return r; /* t */
	r += 8;   /* d */
	return r; /* t */
}

static int run(int x, int y, int z, int times)
{
	int s = 0;
	while (times-- > 0)
		s += fig3(x, y, z);
	return s;
}

int main(int argc, char **argv)
{
	int b = argc > 1 && !strcmp(argv[1], "B"), s = 0;
	s += run(1, 1, 1, 1);     /* sacdt */
	s += run(1, 1, 0, 2);     /* sact */
	if (b) {
		s += run(1, 0, 1, 3); /* sabcdt */
		s += run(1, 0, 0, 4); /* sabct */
		s += run(0, 0, 1, 5); /* sbcdt */
		s += run(0, 0, 0, 6); /* sbct */
	} else {
		s += run(0, 0, 0, 3); /* sbct */
	}
	printf("%d\n", s);
	return 0;
}
