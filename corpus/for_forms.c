/* for_forms.c: every shape of loop header: for with every part empty,
 * declarations (several, of pointer type) in init, empty condition,
 * empty increment, comma expressions, empty bodies; do-while (including
 * do-while(0) and a do-while with continue); while with break. */
#include <stdio.h>

static int forever_until(int limit)
{
	int i = 0;
	for (;;) {
		if (++i >= limit)
			break;
	}
	return i;
}

static int decl_init(const char *s)
{
	int n = 0;
	for (const char *p = s, *q = s + 1; *p; p++, q++) {
		if (*q == '\0')
			break;
		if (*p == *q)
			n++;
	}
	return n;
}

static unsigned no_incr(unsigned x)
{
	unsigned steps;
	for (steps = 0; x > 1;)
		x = (x & 1) ? x + 1 : x / 2, steps++;
	return steps;
}

static int no_cond(int n)
{
	int s = 0;
	for (int i = 0;; i += 3) {
		if (i > n)
			return s;
		s += i;
	}
}

static int empty_body(const int *v)
{
	int i;
	for (i = 0; v[i] != 0; i++)
		;
	return i;
}

static int dowhile(int n)
{
	int r = 0, i = 0;
	do {
		i++;
		if (i % 4 == 0)
			continue;           /* jumps to the condition */
		r += i;
	} while (i < n);
	do {
		r = -r;
	} while (0);
	return r;
}

static long nested_do(int n)
{
	long t = 1;
	int i = 0;
	do {
		int j = i;
		do
			t += j;
		while (--j > 0);
		while (1) {
			if (t % 2)
				break;
			t /= 2;
		}
	} while (++i < n);
	return t;
}

int main(void)
{
	int zeros[] = {4, 5, 6, 7, 0};
	printf("forever_until(17) = %d\n", forever_until(17));
	printf("decl_init = %d\n", decl_init("aabbbcdeeffg"));
	printf("decl_init(\"\") = %d\n", decl_init(""));
	printf("no_incr(27) = %u\n", no_incr(27));
	printf("no_cond(40) = %d\n", no_cond(40));
	printf("empty_body = %d\n", empty_body(zeros));
	printf("dowhile(10) = %d, dowhile(0) = %d\n", dowhile(10), dowhile(0));
	printf("nested_do(12) = %ld\n", nested_do(12));
	return 0;
}
