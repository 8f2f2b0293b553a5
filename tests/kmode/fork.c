/* tests/kmode/fork.c: fork in kiter mode.  The child runs work(10) and
 * exits; its profile is merged into the parent's (runs 2).  Built with
 * -DNOFORK, one process makes the same calls, so work's k-iteration paths
 * must have the same counts in both profiles (kmode_fork.sh; the NOFORK
 * build is checked against the trace by kmode.fork too). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static long work(int n)
{
	long s = 0;
	int i;
	for (i = 0; i < n; i++)
		if (i % 3)
			s += i;
		else
			s -= 1;
	return s;
}

int main(void)
{
	long s = work(100);
#ifdef NOFORK
	s += work(10);
#else
	int status = 0;
	pid_t pid;
	fflush(stdout);
	pid = fork();
	if (pid == 0)
		exit(work(10) == 23 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 2;
	s += 23;
#endif
	s += work(1);
	printf("%ld\n", s);
	return 0;
}
