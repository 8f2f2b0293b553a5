/* fork: the child's profile must not count again what the parent had
 * recorded before the fork (checked by fork.sh: work's flow is exactly
 * parent 101 + 2 and child 11, over runs = 2). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static long work(int n)
{
	long s = 0;
	for (int i = 0; i < n; i++)
		s += i;
	return s;
}

int main(void)
{
	long s = work(100);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		s += work(10);
		int code = s == 4995 ? 0 : 1;
		exit(code);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	s += work(1);
	printf("%ld %d\n", s, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
