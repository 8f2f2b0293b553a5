/* tests/kmode/sig.c: signal handlers that run instrumented loops, nested in
 * an activation of the interrupted function (raise: synchronous, so the
 * trace and the kiter profile see the same run).  Each handler activation
 * has its own k-iteration state (docs/kiter-mode.md). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t hits;
static volatile long acc;

static void handler(int sig)
{
	int i;
	(void)sig;
	for (i = 0; i < 5 + hits % 3; i++)
		if (i & 1)
			acc += i;
		else
			acc -= 1;
	hits++;
}

int main(void)
{
	struct sigaction sa;
	long s = 0;
	int i;
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < 40; i++) {
		if (i % 7 == 3)
			raise(SIGUSR1);
		else if (i % 2)
			s += i;
		else
			s -= 2;
	}
	printf("%ld %ld %d\n", s, (long)acc, (int)hits);
	return 0;
}
