/* threads.c: several POSIX threads run the same instrumented functions
 * (loops, a recursive helper) concurrently; results are stored per thread
 * and printed after all threads are joined, so output is deterministic. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>

#define NTHREADS 4

struct job {
	unsigned lo, hi;
	unsigned long steps;
	unsigned primes;
	long depth;
};

static int is_prime(unsigned n)
{
	if (n < 2)
		return 0;
	for (unsigned d = 2; d * d <= n; d++)
		if (n % d == 0)
			return 0;
	return 1;
}

static unsigned collatz(unsigned long n)
{
	unsigned s = 0;
	while (n != 1) {
		n = (n % 2) ? 3 * n + 1 : n / 2;
		s++;
	}
	return s;
}

static long digits_rec(unsigned n)
{
	if (n < 10)
		return 1;
	return 1 + digits_rec(n / 10);
}

static void *worker(void *arg)
{
	struct job *j = arg;
	for (unsigned n = j->lo; n < j->hi; n++) {
		j->steps += collatz(n);
		if (is_prime(n))
			j->primes++;
		j->depth += digits_rec(n * 7919u);
	}
	return NULL;
}

int main(void)
{
	pthread_t tid[NTHREADS];
	struct job jobs[NTHREADS];
	for (int t = 0; t < NTHREADS; t++) {
		jobs[t].lo = 1 + 300u * (unsigned)t;
		jobs[t].hi = 1 + 300u * (unsigned)(t + 1);
		jobs[t].steps = 0;
		jobs[t].primes = 0;
		jobs[t].depth = 0;
		if (pthread_create(&tid[t], NULL, worker, &jobs[t]) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	}
	for (int t = 0; t < NTHREADS; t++)
		pthread_join(tid[t], NULL);
	unsigned long total = 0;
	for (int t = 0; t < NTHREADS; t++) {
		printf("thread %d: [%u, %u) steps=%lu primes=%u depth=%ld\n", t,
		       jobs[t].lo, jobs[t].hi, jobs[t].steps, jobs[t].primes,
		       jobs[t].depth);
		total += jobs[t].steps;
	}
	printf("total steps = %lu\n", total);
	return 0;
}
