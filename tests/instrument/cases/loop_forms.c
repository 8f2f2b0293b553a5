/* Loops: do-while with continue, for with each part empty, comma
 * expressions, declarations, while(0), for(;;) left via return/goto.
 * expect: instrumented=11 skipped=0 cut=0 */
#include <stdio.h>

static int do_continue(int n)
{
	int s = 0, i = 0;
	do {
		i++;
		if (i % 2)
			continue;
		s += i;
	} while (i < n);
	return s;
}

static int for_parts(int n)
{
	int i = 0, s = 0;
	for (; i < n; i++)
		s += 1;
	for (i = 0;; i++) {
		if (i >= n)
			break;
		s += 2;
	}
	for (i = 0; i < n;) {
		i += 2;
		s += 3;
	}
	for (;;) {
		if (--i < 0)
			break;
	}
	for (;; i++)
		if (i > 3)
			break;
	for (i = 0;;)
		if (++i > 2)
			break;
	for (; i < 10;)
		i++;
	for (; ; ) { break; }
	return s + i;
}

static int for_comma_decl(int n)
{
	int s = 0;
	for (int i = 0, j = n; i < j; i++, j--)
		s += j - i;
	for (int i = 0; i < n; i++)
		for (int i2 = i, k = 0; k < 2; k++)
			s += i2;
	int a, b;
	for (a = 0, b = 1; a < n && b < 100; a++, b *= 2)
		;
	for (a = 0; a++, a < n;)
		s++;
	struct { int x, y; } p;
	for (p.x = 0, p.y = n; p.x < p.y; p.x++)
		s += p.y;
	return s + a + b;
}

static int while_zero(int n)
{
	int s = 0;
	while (0)
		s = -1;
	while (0) {
		s = -2;
		continue;
	}
	do s += n; while (0);
	do { s++; } while (0);
	do {
		if (n > 2)
			break;
		s += 100;
	} while (0);
	for (; 0;)
		s = -3;
	return s;
}

static int forever_return(int n)
{
	for (;;) {
		if (n <= 0)
			return 7;
		n -= 3;
	}
}

static int forever_goto(int n)
{
	int k = 0;
	for (;;) {
		while (1) {
			if (++k > n)
				goto out;
			if (k % 2)
				break;
		}
	}
out:
	return k;
}

static int while1_return(int n)
{
	while (1) {
		do {
			if (n == 0)
				return 1;
		} while (n-- > 5);
		if (n < 2)
			return 2;
	}
}

static int cond_side(const int *v)
{
	int s = 0, x;
	while ((x = *v++) != 0)
		s += x;
	for (int i = 0; (x = v[i]) >= 0 && i < 3; ++i)
		s += x * 10;
	return s;
}

static int empty_loops(int n)
{
	int i;
	for (i = 0; i < n; i++);
	while (i-- > 2);
	do ; while (i++ < 5);
	do {} while (i++ < 7);
	return i;
}

static int nested_break_continue(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (i == 1)
			continue;
		for (int j = 0; j < n; j++) {
			if (j > i)
				break;
			if (j == 2)
				continue;
			int k = 0;
			while (k < j) {
				if (k++ == 3)
					break;
				s += k;
			}
		}
		if (s > 200)
			break;
	}
	return s;
}

int main(void)
{
	int v[] = {3, 4, 5, 0, 1, 2, -1, 9};
	for (int i = 0; i < 9; i++)
		printf("%d: %d %d %d %d %d %d %d %d %d\n", i, do_continue(i), for_parts(i), for_comma_decl(i), while_zero(i),
		       forever_return(i), forever_goto(i), while1_return(i), empty_loops(i), nested_break_continue(i));
	printf("cond_side %d\n", cond_side(v));
	return 0;
}
