/* goto_loops.c: loops built from goto (backward gotos, a goto out of
 * nested loops, a goto-based retry), and an irreducible loop: a cycle
 * between two blocks that can each be entered from outside the cycle. */
#include <stdio.h>

static int gcd(int a, int b)
{
again:
	if (b == 0)
		return a;
	{
		int t = a % b;
		a = b;
		b = t;
	}
	goto again;
}

/* Irreducible: the cycle A <-> B has two entries (A and B). */
static unsigned irreducible(unsigned x, int n)
{
	unsigned acc = 1;
	if (x & 1)
		goto B;
A:
	acc = acc * 3 + x;
	if (--n <= 0)
		goto out;
B:
	acc ^= acc >> 2;
	x += 7;
	if (--n > 0)
		goto A;
out:
	return acc;
}

/* goto leaving two nested loops; a label inside a loop body. */
static int search(int m[8][8], int want, int *row)
{
	int i, j;
	for (i = 0; i < 8; i++) {
		for (j = 0; j < 8; j++) {
			if (m[i][j] == want)
				goto found;
			if (m[i][j] < 0)
				goto next_row;
		}
next_row:
		;
	}
	return -1;
found:
	*row = i;
	return j;
}

static int collatz_steps(unsigned long n)
{
	int steps = 0;
loop:
	if (n == 1)
		goto done;
	if (n % 2 == 0) {
		n /= 2;
	} else {
		n = 3 * n + 1;
	}
	steps++;
	goto loop;
done:
	return steps;
}

int main(void)
{
	int m[8][8];
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 8; j++)
			m[i][j] = (i * 8 + j) % 11 == 10 ? -1 : i * 8 + j;
	int row = -1;
	int col = search(m, 50, &row);
	printf("search(50) = (%d, %d)\n", row, col);
	col = search(m, 10, &row);
	printf("search(10) = %d\n", col);
	printf("gcd(1071, 462) = %d\n", gcd(1071, 462));
	printf("gcd(17, 5) = %d\n", gcd(17, 5));
	unsigned s = 0;
	for (unsigned x = 0; x < 10; x++)
		s += irreducible(x, 5 + (int)x);
	printf("irreducible = %u\n", s);
	int total = 0;
	for (unsigned long n = 1; n <= 30; n++)
		total += collatz_steps(n);
	printf("collatz total = %d\n", total);
	return 0;
}
