/* Small branchy helpers called in a hot loop (issue 14, item 1): gcc -O2
 * inlines every one natively, and must still inline them instrumented
 * (tests/e2e/inline_helpers.sh). */
#include <stdio.h>

static int iabs(int x)
{
	return x < 0 ? -x : x;
}

static int clamp_px(int v)
{
	if (v < 0)
		return 0;
	if (v > 255)
		return 255;
	return v;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static int sign(int x)
{
	if (x > 0)
		return 1;
	if (x < 0)
		return -1;
	return 0;
}

static unsigned rng = 12345u;

static unsigned next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Each helper has several callers, so that gcc inlines it for its size
 * (max-inline-insns-auto), not because it is called once. */
static unsigned sad_row(int n)
{
	unsigned sad = 0;
	int j;
	for (j = 0; j < n; j++) {
		int a = (int)(next_rand() % 600) - 300, b = (int)(next_rand() % 600) - 300;
		sad += (unsigned)iabs(a - clamp_px(b)) + (unsigned)(sign(a) + 1);
	}
	return sad;
}

static unsigned blend_row(int n)
{
	unsigned s = 0;
	int j;
	for (j = 0; j < n; j++) {
		int a = (int)(next_rand() % 900) - 300;
		s = min_u(s + (unsigned)clamp_px(a) + (unsigned)iabs(sign(a) * a), 1u << 30);
	}
	return s;
}

int main(void)
{
	unsigned s = 0, best = ~0u;
	int i;
	for (i = 0; i < 200; i++) {
		unsigned sad = sad_row(500), bl = blend_row(300);
		best = min_u(best, sad);
		s += sad + (unsigned)iabs((int)bl - 5000) + (unsigned)clamp_px((int)(bl & 511));
	}
	printf("%u %u\n", s, best);
	return 0;
}
