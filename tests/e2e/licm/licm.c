/* A loop-invariant pure call in a loop condition (tests/e2e/licm.sh): gcc
 * -O2 calls it once per loop natively, since the loop stores nothing; the
 * instrumented loop must stay a loop without stores to the compiler (the
 * inline steps' counters and library calls), or the call runs at every
 * iteration and the loop becomes quadratic.  len_of counts its calls (a
 * side effect its "pure" attribute hides from the compiler, which is the
 * point): the output shows how often each loop called it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long calls;

__attribute__((noinline, pure)) static size_t len_of(const char *s)
{
	calls++;
	return strlen(s);
}

static unsigned count_a(const char *s)
{
	unsigned n = 0;
	for (size_t i = 0; i < len_of(s); i++)
		if (s[i] == 'a')
			n++;
	return n;
}

/* the same with strlen itself, and two branches a k-iteration path sees */
static unsigned long weigh(const char *s)
{
	unsigned long w = 0;
	size_t i = 0;
	while (i < strlen(s)) {
		if (s[i] == 'b')
			w += 3;
		else if (s[i] == 'c')
			w ^= i;
		i++;
	}
	return w;
}

int main(int argc, char **argv)
{
	size_t len = argc > 1 ? (size_t)atol(argv[1]) : 5000;
	char *s = malloc(len + 1);
	if (!s)
		return 1;
	for (size_t i = 0; i < len; i++)
		s[i] = "abcab"[i * 7 % 5];
	s[len] = 0;
	unsigned a = 0;
	for (int r = 0; r < 3; r++)
		a += count_a(s + r);
	printf("a %u weight %lu len_of calls %lu\n", a, weigh(s), calls);
	free(s);
	return 0;
}
