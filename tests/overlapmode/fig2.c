/* Figure 2 of Tallam, Zhang & Gupta (CGO 2004, section 3): f reaches the
 * call C1 of g by 3 paths and goes on after it by 2 (its predicate P3 is
 * C1's block here); g has 5 paths with 3 predicates on the longest (P1,
 * P2, P3).  So 15 Type I and 10 Type II paths, the maximum overlap is 3
 * for Type I and 1 for Type II, and Tables 6 and 7 count 3, 6, 6 + 3,
 * 12 + 3 I-OL and 5, 10 II-OL paths at degrees 0..3 (the "+ 3": the I-OL
 * paths that end at gEx before the (theta+1)-th predicate).  main calls f
 * with every x in 0..63 (each combination of the branches). */
#include <stdio.h>

static int g(int x)
{
	int r = 0;
	if (x & 1) {
		r = 1;
	} else {
		if (x & 2)
			r += 2;
		if (x & 4)
			r += 4;
		else
			r += 8;
	}
	return r;
}

static int f(int x)
{
	int s;
	if (x & 8) {
		if (x & 16)
			s = 1;
		else
			s = 2;
	} else {
		s = 3;
	}
	s += g(x);
	if (x & 32)
		s *= 2;
	else
		s -= 1;
	return s;
}

int main(void)
{
	long t = 0;
	int i;
	for (i = 0; i < 1280; i++)
		t += f(i % 64);
	printf("%ld\n", t);
	return 0;
}
