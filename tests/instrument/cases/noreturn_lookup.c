/* Whether a callee never returns is read from its declaration's own text
 * (once per declaration).  A declaration that starts with a macro
 * (PRIVATE, as SQLite's SQLITE_PRIVATE) must not be read from the macro's
 * #define on: that text holds the _Noreturn of die(), and keep_going()
 * would be taken to never return (a path ending at its call, while the
 * function goes on).  A _Noreturn spelled by a macro (NORETURN) is still
 * found: it is an attribute of the declaration.
 * expect: instrumented=6 skipped=0 cut=0
 * expect-paths: keep_going=2 caller=4 caller2=3 */
#include <stdio.h>
#include <stdlib.h>

#define PRIVATE static
#define NORETURN _Noreturn

NORETURN static void fatal(int code);

_Noreturn static void die(int code)
{
	printf("die %d\n", code);
	exit(code);
}

PRIVATE int keep_going(int x)
{
	return x > 2 ? x - 1 : x + 1;
}

static int caller(int x)
{
	int r = 0;
	if (x > 5)
		r += keep_going(x);
	keep_going(r);
	if (x == 42)
		die(3);
	r += keep_going(r + x);
	return r;
}

static int caller2(int x)
{
	int r = 0;
	if (x == 99)
		fatal(1);
	if (x > 3)
		r = 1;
	return r;
}

static void fatal(int code)
{
	printf("fatal %d\n", code);
	exit(code);
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 8; i++)
		s += caller(i) + caller2(i);
	printf("%d\n", s);
	return 0;
}
