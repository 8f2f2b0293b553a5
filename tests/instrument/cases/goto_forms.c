/* goto forward, backward, into a loop body, out of nested loops,
 * irreducible loops, labels on empty statements and at block ends.
 * expect: instrumented=10 skipped=0 cut=0 */
#include <stdio.h>

static int forward(int x)
{
	int r = 0;
	if (x)
		goto skip;
	r += 1;
skip:
	r += 2;
	goto end;
	r += 100; /* unreachable */
end:;
	return r;
}

static int backward(int n)
{
	int s = 0;
again:
	s += n;
	if (--n > 0)
		goto again;
	return s;
}

static int into_loop(int n)
{
	int i = 5, s = 0;
	if (n & 1)
		goto inside;
	for (i = 0; i < n; i++) {
		s += 1;
	inside:
		s += 10;
	}
	return s + i;
}

static int into_while(int n)
{
	int s = 0;
	goto mid;
	while (n > 0) {
		s += 100;
	mid:
		s += n--;
	}
	return s;
}

static int out_of_nested(int lim)
{
	int i, j, k, c = 0;
	for (i = 0; i < 10; i++)
		for (j = 0; j < 10; j++)
			for (k = 0; k < 10; k++) {
				c++;
				if (i * j * k >= lim)
					goto done;
			}
done:
	return c;
}

static int irreducible(int n, int start)
{
	int s = 0;
	if (start)
		goto B;
A:
	s += 1;
	if (--n <= 0)
		return s;
B:
	s += 2;
	if (--n <= 0)
		return s;
	if (n % 3 == 0)
		goto B;
	goto A;
}

static int labels_empty(int x)
{
	int r = 0;
	{
		if (x)
			goto inner_end;
		r = 1;
	inner_end:;
	}
	{
		if (x > 1)
			goto e2;
		r += 2;
	e2:
		;
	}
	L1: L2: /* comment after labels */ L3:
	r += 4;
	if (x == 3) {
		x = 6;
		goto L2;
	}
	if (x == 4) {
		x = 0;
		goto L1;
	}
	if (x == 5) {
		x = 3;
		goto L3;
	}
	return r;
}

static int dead_if_label(int x)
{
	int r = 0;
	if (x)
		goto in;
	if (0) {
	in:
		r = 42;
	}
	while (0) {
		r = -1;
	}
	return r;
}

static int goto_loop_ends(int n)
{
	int i = 0, s = 0;
top:
	if (i >= n)
		goto bottom;
	for (int j = 0; j < i; j++) {
		if (j == 3)
			goto next;
		s += j;
	}
next:
	i++;
	goto top;
bottom:
	return s;
}

int main(void)
{
	int i;
	for (i = 0; i < 7; i++)
		printf("%d: f%d b%d il%d iw%d o%d i%d/%d le%d d%d g%d\n", i, forward(i), backward(i + 1), into_loop(i),
		       into_while(i), out_of_nested(i * 10), irreducible(i + 1, 0), irreducible(i + 1, 1),
		       labels_empty(i), dead_if_label(i), goto_loop_ends(i));
	return 0;
}
