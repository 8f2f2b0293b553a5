/* A function compiled for AVX2 in a file compiled without it (so the
 * inline halves do not name the vector registers as clobbered): gcc -O3
 * keeps k broadcast in a ymm register across the outer loop, whose
 * emits reach the library at the first activation and at new paths
 * (tests/e2e/vector_target.sh). */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#define N 64
static int a[N], b[N];
__attribute__((target("avx2"), noinline)) static long work(int k, int m)
{
	long s = 0;
	for (int j = 0; j < m; j++) {
		if ((j * 7) % 5 == 0)
			s += j;
		else if ((j * 3) % 7 == 1)
			s -= 2;
		for (int i = 0; i < N; i++)
			a[i] = b[i] * k + j;
		s += a[j % N] + a[N - 1 - j % N];
	}
	return s;
}
int main(int argc, char **argv)
{
	for (int i = 0; i < N; i++)
		b[i] = i + 1;
	long t = 0;
	for (int r = 0; r < 20; r++)
		t += work(argc + 2 + r, 300 + r);
	printf("%ld\n", t);
	return 0;
}
