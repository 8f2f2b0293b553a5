/*
 * lifetime.c: the thread-local counter pointers of acyclic functions
 * (kpath_rt_tally, kpath_rt.h) across the ends of their arrays.
 *  - Four threads count parity() 1,000 times each (odd_below, a loop)
 *    and exit; a key destructor of the program, which runs after the
 *    runtime's own (its key is created later), runs odd_below(100) in
 *    each thread, when that thread's counter arrays and forests are gone
 *    (both pointers must be null by then).
 *  - The main thread counts it 10 times, then forks: the child counts it
 *    6 times with the array it inherited (zeroed for it) and writes its
 *    own profile.
 * Expected parity() counts: parent 4 * 1,100 + 10 = 4,410, half of them
 * odd; child 6, half odd.  odd_below's items: 4 * (1,001 + 101).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int parity(unsigned x)
{
	if (x & 1)
		return 1;
	return 0;
}

static pthread_key_t key;
static volatile unsigned sink;

/* a loop: a cursor, entered through its template pointer */
static unsigned odd_below(unsigned n)
{
	unsigned i, s = 0;
	for (i = 0; i < n; i++)
		s += (unsigned)parity(i);
	return s;
}

static void late(void *p)
{
	sink += odd_below(100) + (unsigned)(p != NULL);
}

static void *worker(void *arg)
{
	unsigned s = odd_below(1000);
	if (pthread_setspecific(key, arg) != 0)
		exit(3);
	return (void *)(size_t)s;
}

int main(void)
{
	pthread_t t[4];
	unsigned i, s = 0;
	int st;
	pid_t pid;
	void *r;
	if (pthread_key_create(&key, late) != 0)
		return 2;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, &t[i]) != 0)
			return 2;
	for (i = 0; i < 4; i++) {
		if (pthread_join(t[i], &r) != 0)
			return 2;
		s += (unsigned)(size_t)r;
	}
	for (i = 0; i < 10; i++)
		s += (unsigned)parity(i);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		unsigned c = 0;
		for (i = 0; i < 6; i++)
			c += (unsigned)parity(i);
		printf("child %u\n", c);
		return 0;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 4;
	printf("parent %u late %u\n", s, sink);
	return 0;
}
