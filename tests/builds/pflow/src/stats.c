#include <math.h>

#include "stats.h"

double stats_rms(const int *v, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += (double)v[i] * v[i];
	return n ? sqrt(s / n) : 0;
}

int stats_odd(const int *v, int n)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		if (v[i] & 1)
			c++;
	return c;
}
