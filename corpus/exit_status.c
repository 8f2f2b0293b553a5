/* exit_status.c: the program ends through exit(3) called from a nested
 * function while several instrumented activations are still live (their
 * leave is never reached); the profile and the trace must still be
 * written at exit, and the exit status (3) preserved. */
#include <stdio.h>
#include <stdlib.h>

static int budget = 1000;

static void spend(int amount)
{
	budget -= amount;
	if (budget < 0) {
		printf("over budget by %d\n", -budget);
		fflush(stdout);
		exit(3);
	}
}

static int work(int depth)
{
	int done = 0;
	for (int i = 0; i < 3; i++) {
		spend(depth + i);
		done++;
		if (depth < 3)
			done += work(depth + 1);
	}
	return done;
}

int main(void)
{
	int total = 0;
	for (int round = 0; round < 5; round++) {
		total += work(0);
		printf("round %d total %d budget %d\n", round, total, budget);
	}
	printf("not reached\n");
	return 0;
}
