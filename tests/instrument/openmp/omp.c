#include <stdio.h>
#define N 1000
static double a[N], b[N];
static double work(void)
{
	double s = 0;
#pragma omp parallel for reduction(+:s)
	for (int i = 0; i < N; i++) {
		if (i % 3)
			a[i] = b[i] * 2;
		else
			a[i] = b[i] + 1;
		s += a[i];
	}
	return s;
}
int main(void)
{
	for (int i = 0; i < N; i++)
		b[i] = i;
	printf("%.1f\n", work());
	return 0;
}
