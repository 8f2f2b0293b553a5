/* An expression-statement macro that carries its own ";" (no control flow):
 * used as the unbraced body of if/else/while/for.  The body ends inside the
 * macro; the braces the tool adds must not swallow the next statement.
 * expect: instrumented=3 skipped=0 cut=0 */
#include <stdio.h>

static int n_logs;
#define LOG printf("log %d\n", ++n_logs);
#define BUMP(v) (v) += 1;

static int f(int x)
{
	int y = 0;
	if (x > 1)
		LOG
	y += 10;
	if (x > 2)
		BUMP(y)
	else
		y += 100;
	return y;
}

static int g(int n)
{
	int s = 0;
	while (n-- > 0)
		BUMP(s)
	s *= 3;
	for (int i = 0; i < 2; i++)
		LOG
	return s;
}

int main(void)
{
	for (int i = 0; i < 4; i++)
		printf("%d: %d %d\n", i, f(i), g(i));
	return 0;
}
