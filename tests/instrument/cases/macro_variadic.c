/* Variadic macros with control flow, written out: the line at the end of
 * the file that keeps -Wunused-macros quiet ("#if defined(A) + ...") must
 * not name __VA_ARGS__ (gcc warns on it outside a variadic macro's
 * definition, by default; duktape's DUK_DPRINT), nor "defined", nor the
 * words of a line comment ending a definition.
 * expect: instrumented=3 skipped=0 cut=0
 * expect-paths: check_all=16 */
#include <stdio.h>

#define CHECK(c, ...) do { if (!(c)) { printf(__VA_ARGS__); return -1; } } while (0) // defined when it's needed
#define LOG_IF(c, ...) if (c) printf(__VA_ARGS__)

static int check_all(int x)
{
	CHECK(x >= 0, "negative: %d\n", x);
	CHECK(x < 100, "too big: %d\n", x);
	LOG_IF(x == 7, "seven\n");
	return x * 2;
}

static int sum(int n)
{
	int s = 0;
	for (int i = -2; i < n; i++)
		s += check_all(i * 13);
	return s;
}

int main(void)
{
	printf("%d\n", sum(12));
	return 0;
}
