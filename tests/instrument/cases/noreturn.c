/* Calls that do not return end the path there: _Noreturn functions, exit,
 * abort (not reached), noreturn attributes; the exit status is kept.
 * expect: instrumented=4 skipped=0 cut=0 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noreturn)) static void fail(const char *m)
{
	printf("fail %s\n", m);
	exit(4);
}

_Noreturn static void die(int c)
{
	printf("die %d\n", c);
	if (c > 100)
		fail("big");
	exit(c);
}

static int f(int x)
{
	for (int i = 0; i < 10; i++) {
		if (i == x)
			die(3);
	}
	return 0;
}

int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 5)
		abort();
	printf("%d\n", f(20));
	f(4);
	return 0;
}
