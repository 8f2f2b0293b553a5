/* CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) of generated buffers,
 * computed bit by bit and with a 256-entry table; the two must agree.
 * The bitwise inner loop is the tight loop with a data-dependent branch on
 * the low bit of the register, correlated with the previous iterations'
 * shifts.  usage: crc32 [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define BUF_SIZE 16384

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Du;
}

static uint32_t crc_bitwise(uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	for (size_t i = 0; i < n; i++) {
		crc ^= p[i];
		for (int b = 0; b < 8; b++) {
			if (crc & 1u)
				crc = (crc >> 1) ^ 0xEDB88320u;
			else
				crc >>= 1;
		}
	}
	return ~crc;
}

static void make_table(uint32_t table[256])
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int b = 0; b < 8; b++)
			c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
		table[i] = c;
	}
}

static uint32_t crc_table(const uint32_t table[256], uint32_t crc, const unsigned char *p, size_t n)
{
	crc = ~crc;
	while (n--)
		crc = table[(crc ^ *p++) & 0xFFu] ^ (crc >> 8);
	return ~crc;
}

/* Text-like data: runs of one byte, words from a small alphabet, and noise. */
static void fill(unsigned char *buf, size_t n)
{
	size_t i = 0;
	while (i < n) {
		uint64_t r = rng_next();
		size_t len = 1 + (size_t)(r >> 60);
		switch (r & 3u) {
		case 0: /* a run */
			for (size_t j = 0; j < len && i < n; j++)
				buf[i++] = (unsigned char)(r >> 8);
			break;
		case 1: /* a word */
		case 2:
			for (size_t j = 0; j < len && i < n; j++)
				buf[i++] = (unsigned char)('a' + (r >> ((8 + 4 * j) % 64)) % 26u);
			if (i < n)
				buf[i++] = ' ';
			break;
		default: /* noise */
			buf[i++] = (unsigned char)(r >> 16);
			break;
		}
	}
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	static unsigned char buf[BUF_SIZE];
	uint32_t table[256];
	uint64_t sum = 0;

	make_table(table);
	if (crc_table(table, 0, (const unsigned char *)"123456789", 9) != 0xCBF43926u) {
		fprintf(stderr, "crc32: check value wrong\n");
		return 1;
	}
	for (long round = 0; round < 4 * scale; round++) {
		fill(buf, sizeof buf);
		uint32_t a = crc_bitwise(0, buf, sizeof buf);
		uint32_t b = crc_table(table, 0, buf, sizeof buf);
		if (a != b) {
			fprintf(stderr, "crc32: bitwise %08lx != table %08lx\n", (unsigned long)a, (unsigned long)b);
			return 1;
		}
		sum = sum * 1000003u + a;
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
