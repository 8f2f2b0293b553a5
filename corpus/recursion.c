/* recursion.c: direct recursion (fib, Ackermann, quicksort, Hanoi) and
 * mutual recursion (is_even/is_odd, a Hofstadter female/male pair).
 * Each activation's path sequence must stay separate from its caller's. */
#include <stdio.h>

static int is_odd(unsigned n);

static int is_even(unsigned n)
{
	if (n == 0)
		return 1;
	return is_odd(n - 1);
}

static int is_odd(unsigned n)
{
	if (n == 0)
		return 0;
	return is_even(n - 1);
}

static int male(int n);

static int female(int n)
{
	return n == 0 ? 1 : n - male(female(n - 1));
}

static int male(int n)
{
	if (n == 0)
		return 0;
	return n - female(male(n - 1));
}

static long fib(int n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

static unsigned ack(unsigned m, unsigned n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

static void quicksort(int *v, int lo, int hi)
{
	while (lo < hi) {
		int p = v[(lo + hi) / 2], i = lo, j = hi;
		while (i <= j) {
			while (v[i] < p)
				i++;
			while (v[j] > p)
				j--;
			if (i <= j) {
				int t = v[i];
				v[i++] = v[j];
				v[j--] = t;
			}
		}
		/* recurse on the smaller half, loop on the larger one */
		if (j - lo < hi - i) {
			quicksort(v, lo, j);
			lo = i;
		} else {
			quicksort(v, i, hi);
			hi = j;
		}
	}
}

static unsigned moves;

static void hanoi(int n, int from, int to, int via)
{
	if (n == 0)
		return;
	hanoi(n - 1, from, via, to);
	moves++;
	hanoi(n - 1, via, to, from);
}

int main(void)
{
	printf("is_even(37) = %d, is_odd(37) = %d\n", is_even(37), is_odd(37));
	int fs = 0, ms = 0;
	for (int i = 0; i < 15; i++) {
		fs += female(i);
		ms += male(i);
	}
	printf("female sum = %d, male sum = %d\n", fs, ms);
	printf("fib(18) = %ld\n", fib(18));
	printf("ack(2, 3) = %u\n", ack(2, 3));
	int v[64];
	for (int i = 0; i < 64; i++)
		v[i] = (i * 37 + 11) % 64 - 20;
	quicksort(v, 0, 63);
	int ok = 1;
	for (int i = 1; i < 64; i++)
		if (v[i - 1] > v[i])
			ok = 0;
	printf("sorted = %d, min = %d, max = %d\n", ok, v[0], v[63]);
	hanoi(8, 1, 3, 2);
	printf("hanoi(8) moves = %u\n", moves);
	return 0;
}
