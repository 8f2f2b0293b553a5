/* The loop of Tallam, Zhang & Gupta's Table 2 / Table 4 (CGO 2004,
 * section 2.2.3): P1 (the head), B1 or P2 then B2 or B3, then P3 (the
 * loop test).  The run of 2.2.3: the loop is entered 500 times; 250 times
 * its iterations take loop paths 1, 1, 3 and 250 times 2, 2, 3. */
#include <stdio.h>

static int loop(const int *kind, int n)
{
	int i = 0, s = 0;
	do {
		if (kind[i] == 1)
			s += 1;
		else if (kind[i] == 2)
			s += 20;
		else
			s += 300;
		i++;
	} while (i < n);
	return s;
}

int main(void)
{
	static const int a[3] = {1, 1, 3}, b[3] = {2, 2, 3};
	long sum = 0;
	int r;
	for (r = 0; r < 250; r++)
		sum += loop(a, 3);
	for (r = 0; r < 250; r++)
		sum += loop(b, 3);
	printf("%ld\n", sum);
	return 0;
}
