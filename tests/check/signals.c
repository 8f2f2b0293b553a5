/*
 * A signal handler that runs instrumented code while the interrupted thread
 * may be inside the runtime (a tight instrumented loop emits constantly).
 * The runtime must drop such activations (counted as "dropped"), never
 * corrupt the forest.  Output is deterministic: the handler's results are
 * checked, not printed with timing-dependent counts.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static volatile sig_atomic_t handler_bad;
static volatile unsigned long sink;

static int collatz_len(unsigned x)
{
	int n = 0;
	while (x != 1) {
		if (x & 1)
			x = 3 * x + 1;
		else
			x /= 2;
		n++;
	}
	return n;
}

/* acyclic (kpath_rt_count, no cursor): the handler may interrupt its
 * inline count, or the library half of its first call */
static unsigned parity(unsigned x)
{
	if (x & 1)
		return 1;
	return 0;
}

static void on_alarm(int sig)
{
	(void)sig;
	/* instrumented work inside the handler */
	if (collatz_len(27) != 111 || parity(27) != 1)
		handler_bad = 1;
	ticks++;
}

static unsigned long work(unsigned from, unsigned to)
{
	unsigned long s = 0;
	for (unsigned i = from; i < to; i++)
		s += (unsigned long)collatz_len(i);
	return s;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = {{0, 200}, {0, 200}};
	setitimer(ITIMER_REAL, &it, NULL);
	unsigned long total = work(1, 5000);
	/* keep going (result not printed) until the handler ran often enough */
	unsigned long spin = 0;
	for (unsigned i = 1; ticks < 100 && i < 50000000u; i++)
		spin += (unsigned long)collatz_len(i % 1000 + 1) + parity(i);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	printf("total %lu\n", total);
	printf("handler %s, ran %s\n", handler_bad ? "wrong" : "right", ticks >= 100 ? "enough" : "too little");
	sink = spin;
	return 0;
}
