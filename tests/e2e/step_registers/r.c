/* Every register busy across the loops' emits: thirteen 64-bit values,
 * a double and two long doubles (x87) live through loops whose path IDs
 * vary with the data, so that at k >= 2 new nodes (and in trace mode
 * every item) take the library half from inside the step's asm
 * (kpath_rt.h, KPATH_RT_STEP1), which saves rax, rdi and rsi itself. */
#include <stdio.h>
#include <stdint.h>

static uint64_t mix(uint64_t n, uint64_t seed)
{
	uint64_t a = seed, b = seed ^ 0x9e3779b97f4a7c15u, c = seed * 3, d = seed + 7, e = ~seed, f = seed << 3,
		 g = seed >> 5, h = 11, i = 13, j = 17, k = 19, l = 23, m = 29;
	double x = 0.5;
	long double p = 1.0L, q = 0.0L;
	for (uint64_t t = 0; t < n; t++) {
		a += b ^ t;
		if (a & 1)
			b = b * 5 + c;
		else
			c ^= d + (b >> 3);
		if ((a >> 2) % 3 == 0)
			d += e * 7;
		else if ((a >> 2) % 3 == 1)
			e ^= f + t;
		else
			f += g | 1;
		g ^= h + a;
		h += i * 3;
		i ^= j >> 1;
		j += k ^ t;
		k ^= l + m;
		l += m * 5 + (a & 7);
		m ^= a >> 7;
		x = x * 0.75 + (double)(a & 15);
		if (t % 5 == 2)
			p = p * 1.0000001L + (long double)(b & 3);
		q += (long double)(m & 1) / 3.0L;
	}
	return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ i ^ j ^ k ^ l ^ m ^ (uint64_t)(x * 1000) ^ (uint64_t)(p * 10) ^
	       (uint64_t)(q * 1000);
}

/* A nested loop: the inner one's emits, and the leave, with the outer
 * loop's values live. */
static uint64_t nest(uint64_t n)
{
	uint64_t s = 0, u = 1, v = 2, w = 3, y = 5, z = 7;
	for (uint64_t i = 0; i < n; i++) {
		for (uint64_t j = 0; j < (i & 7); j++) {
			if ((i ^ j) & 2)
				s += u * j;
			else
				u ^= v + j;
			v += w ^ s;
		}
		w += y * i;
		y ^= z + w;
		z += s >> 3;
		if (z & 16)
			return s ^ u ^ v ^ w ^ y ^ z;
	}
	return s + u + v + w + y + z;
}

int main(void)
{
	uint64_t r = 0;
	for (uint64_t s = 1; s <= 40; s++)
		r = r * 31 + mix(200 + s * 13, s) + nest(s * 50);
	printf("%016llx\n", (unsigned long long)r);
	return 0;
}
