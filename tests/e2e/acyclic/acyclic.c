/*
 * Acyclic helper functions (no loop, no setjmp: instrumented without a
 * cursor, kpath_rt_count at their exits) called a known number of times
 * along each path, from a loop, from recursion, across a longjmp and from a
 * second thread.  acyclic_check.py holds the exact counts.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;

static int is_digit(int c)
{
	return c >= '0'
	       && c <= '9';
}

static unsigned rotr(unsigned x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static int fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static int sign(int x)
{
	if (x > 0)
		return 1;
	if (x < 0)
		return -1;
	return 0;
}

static void check(int x)
{
	if (x < 0)
		longjmp(env, 1);
}

static void *worker(void *arg)
{
	int *r = arg;
	for (int i = 0; i < 4; i++)
		r[0] += sign(5);
	for (int i = 0; i < 3; i++)
		r[1] += is_digit('7');
	return NULL;
}

int main(void)
{
	const char *s = "x1 22-333";
	int digits = 0, signs = 0, r[2] = {0, 0};
	unsigned h = 1;
	pthread_t t;
	for (int i = 0; s[i]; i++)
		digits += is_digit(s[i]);
	for (unsigned i = 0; i < 5; i++)
		h = rotr(h, i + 1) ^ i;
	for (int x = -2; x <= 3; x++)
		signs = signs * 3 + sign(x) + 1;
	check(1);
	check(1);
	if (setjmp(env) == 0)
		check(-1);
	if (pthread_create(&t, NULL, worker, r) != 0 || pthread_join(t, NULL) != 0)
		return 1;
	printf("digits %d rotr %u fib %d signs %d worker %d %d\n", digits, h, fib(5), signs, r[0], r[1]);
	return 0;
}
