#include <stdio.h>

#include "stats.h"

int main(void)
{
	int v[PFLOW_N];
	for (int i = 0; i < PFLOW_N; i++)
		v[i] = i % 7 == 0 ? -i : 3 * i + 1;
	printf("rms %.3f odd %d\n", stats_rms(v, PFLOW_N), stats_odd(v, PFLOW_N));
	return 0;
}
