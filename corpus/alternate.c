/* alternate.c: correlated branches across loop iterations.
 * The loop of Roy & Srikant's Figure 1: inside the loop the two acyclic
 * paths 2-3-5 and 2-4-5 execute alternately, so the 2-iteration paths
 * 2-3-5-2-4-5 and 2-4-5-2-3-5 are hot while (2-3-5)^2 never happens. */
#include <stdio.h>

static int figure1(int n)
{
	int acc = 0;                    /* node 1 */
	int i = 0;
	while (i < n) {                 /* node 2: loop head */
		if (i % 2 == 0)
			acc += 3;               /* node 3 */
		else
			acc -= 1;               /* node 4 */
		i++;                        /* node 5: loop tail */
	}
	return acc;                     /* node 6 */
}

/* A branch whose outcome depends on the previous iteration's outcome:
 * the flag toggles, so the path sequence is periodic with period 3. */
static unsigned period3(unsigned n)
{
	unsigned state = 0, h = 7;
	for (unsigned i = 0; i < n; i++) {
		if (state == 0) {
			h = h * 31 + i;
			state = 1;
		} else if (state == 1) {
			h ^= h >> 3;
			state = 2;
		} else {
			h += 0x9e37u;
			state = 0;
		}
	}
	return h;
}

/* Two branches in the same iteration that are perfectly correlated
 * (the second repeats the first's test), plus a rarely taken exit. */
static long correlated(const int *v, int n)
{
	long s = 0;
	for (int i = 0; i < n; i++) {
		int neg = v[i] < 0;
		if (neg)
			s -= v[i];
		else
			s += v[i];
		if (neg)
			s *= 2;
		if (s > 1000000L)
			break;
	}
	return s;
}

int main(void)
{
	int v[40];
	for (int i = 0; i < 40; i++)
		v[i] = (i % 5 == 0) ? -i : i;
	printf("figure1(200) = %d\n", figure1(200));
	printf("figure1(7) = %d\n", figure1(7));
	printf("figure1(0) = %d\n", figure1(0));
	printf("period3(100) = %u\n", period3(100));
	printf("correlated = %ld\n", correlated(v, 40));
	return 0;
}
