/* A 16-round Feistel block cipher on 64-bit blocks (32-bit halves; the round
 * function mixes four 8x32 S-boxes generated from the key, Blowfish-style) in
 * CBC mode: encrypt a generated buffer, decrypt it, check the round trip.
 * Mostly straight-line code: the low end of branchiness in the set.
 * usage: feistel [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 16
#define BLOCKS 8192

struct cipher {
	uint32_t subkey[ROUNDS];
	uint32_t sbox[4][256];
};

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Du;
}

static void cipher_init(struct cipher *c, uint64_t key)
{
	rng_state = key | 1u;
	for (int r = 0; r < ROUNDS; r++)
		c->subkey[r] = (uint32_t)(rng_next() >> 32);
	for (int s = 0; s < 4; s++)
		for (int i = 0; i < 256; i++)
			c->sbox[s][i] = (uint32_t)rng_next();
}

static uint32_t round_f(const struct cipher *c, uint32_t x, uint32_t k)
{
	x ^= k;
	uint32_t y = (c->sbox[0][x >> 24] + c->sbox[1][x >> 16 & 0xFFu]) ^ c->sbox[2][x >> 8 & 0xFFu];
	y += c->sbox[3][x & 0xFFu];
	return y << 7 | y >> 25;
}

static uint64_t encrypt_block(const struct cipher *c, uint64_t b)
{
	uint32_t l = (uint32_t)(b >> 32), r = (uint32_t)b;
	for (int i = 0; i < ROUNDS; i++) {
		uint32_t t = r;
		r = l ^ round_f(c, r, c->subkey[i]);
		l = t;
	}
	return (uint64_t)r << 32 | l;
}

static uint64_t decrypt_block(const struct cipher *c, uint64_t b)
{
	uint32_t l = (uint32_t)(b >> 32), r = (uint32_t)b;
	for (int i = ROUNDS - 1; i >= 0; i--) {
		uint32_t t = r;
		r = l ^ round_f(c, r, c->subkey[i]);
		l = t;
	}
	return (uint64_t)r << 32 | l;
}

static void cbc_encrypt(const struct cipher *c, uint64_t iv, const uint64_t *in, uint64_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++)
		iv = out[i] = encrypt_block(c, in[i] ^ iv);
}

static void cbc_decrypt(const struct cipher *c, uint64_t iv, const uint64_t *in, uint64_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		out[i] = decrypt_block(c, in[i]) ^ iv;
		iv = in[i];
	}
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	static uint64_t plain[BLOCKS], enc[BLOCKS], dec[BLOCKS];
	static struct cipher c;
	uint64_t sum = 0;

	for (long round = 0; round < scale; round++) {
		cipher_init(&c, 0x0123456789ABCDEFu + (uint64_t)round);
		for (size_t i = 0; i < BLOCKS; i++)
			plain[i] = rng_next() & (i % 3 ? ~0u : 0xFFu); /* some low-entropy blocks */
		cbc_encrypt(&c, (uint64_t)round, plain, enc, BLOCKS);
		cbc_decrypt(&c, (uint64_t)round, enc, dec, BLOCKS);
		for (size_t i = 0; i < BLOCKS; i++) {
			if (dec[i] != plain[i]) {
				fprintf(stderr, "feistel: round %ld block %zu: round trip failed\n", round, i);
				return 1;
			}
			sum = (sum ^ enc[i]) * 0x100000001B3u;
		}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
