/* tests/profile/schema2/threads.c: main and three threads run instrumented code,
 * so a run's program.totals.threads is 4 (docs/profile-schema.md,
 * "program").  Prints the sum of work(0..2). */
#include <pthread.h>
#include <stdio.h>

static int work(int n)
{
	int s = 0;
	for (int i = 0; i <= n; i++)
		s += i % 2 ? i : 1;
	return s;
}

static void *run(void *arg)
{
	int *n = arg;
	*n = work(*n);
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	int n[3] = { 3, 5, 8 }, s = work(2);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, run, &n[i]) != 0)
			return 1;
	for (int i = 0; i < 3; i++) {
		pthread_join(t[i], NULL);
		s += n[i];
	}
	printf("%d\n", s);
	return 0;
}
