/* Collatz chains and a bit-serial population count: the tightest loops of the
 * set, with branches that are strongly correlated across iterations (an odd
 * step 3n+1 is always followed by an even one; a chain's parity pattern
 * repeats), which is exactly what a k-iteration path profile shows and a
 * Ball-Larus profile cannot.  Early exit: a chain stops as soon as it falls
 * below its start (the rest is memoised).
 * usage: collatz [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MEMO 65536

static unsigned memo[MEMO];

/* Steps of the chain from n down to 1, using memo[] below MEMO. */
static unsigned chain_length(uint64_t n)
{
	uint64_t start = n;
	unsigned steps = 0;
	while (n != 1) {
		if (n < start && n < MEMO)
			return steps + memo[n];
		if (n & 1u)
			n = 3 * n + 1;
		else
			n >>= 1;
		steps++;
	}
	return steps;
}

static unsigned popcount_serial(uint64_t x)
{
	unsigned c = 0;
	while (x) {
		if (x & 1u)
			c++;
		x >>= 1;
	}
	return c;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0, best = 0, best_n = 0;

	memo[1] = 0;
	for (uint64_t n = 2; n < MEMO; n++)
		memo[n] = chain_length(n);
	uint64_t limit = (uint64_t)scale * 20000u;
	for (uint64_t n = MEMO; n < MEMO + limit; n++) {
		unsigned len = chain_length(n);
		if (len > best) {
			best = len;
			best_n = n;
		}
		sum += len * (uint64_t)popcount_serial(n * 0x9E3779B97F4A7C15u);
	}
	sum ^= best << 32 ^ best_n;
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
