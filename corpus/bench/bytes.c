/* Byte loops: a packet framer that builds frames with hand-written byte fill
 * and byte copy loops (header fill, payload copy, padding), escapes them the
 * way HDLC does (byte stuffing), unstuffs them and checks the round trip,
 * plus a run-length coder whose expansion is a byte-fill loop.  Loops of the
 * form "for (i = 0; i < n; i++) d[i] = s[i]" and "d[i] = c" are the ones a
 * compiler turns into memcpy / memset calls or vectorises: instrumentation
 * must leave them recognisable.
 * usage: bytes [SCALE]   (work is proportional to SCALE) */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 1500
#define FLAG 0x7e
#define ESC 0x7d

static unsigned char payload[MAXP], frame[2 * MAXP + 64], stuffed[4 * MAXP + 128], back[2 * MAXP + 64];
static unsigned char rle[4 * MAXP], unrle[2 * MAXP + 64];

static uint32_t rng = 2463534242u;

static unsigned next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static void fill_bytes(unsigned char *d, size_t n, unsigned char c)
{
	for (size_t i = 0; i < n; i++)
		d[i] = c;
}

static void copy_bytes(unsigned char *restrict d, const unsigned char *restrict s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
}

/* header (16 bytes: length, sequence, fill), payload, padding to 64 */
static size_t build_frame(size_t len, unsigned seq)
{
	fill_bytes(frame, 16, 0);
	frame[0] = (unsigned char)(len >> 8);
	frame[1] = (unsigned char)len;
	frame[2] = (unsigned char)seq;
	copy_bytes(frame + 16, payload, len);
	size_t n = 16 + len;
	size_t padded = (n + 63) & ~(size_t)63;
	fill_bytes(frame + n, padded - n, 0xa5);
	return padded;
}

static size_t stuff(const unsigned char *s, size_t n, unsigned char *d)
{
	size_t j = 0;
	d[j++] = FLAG;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		if (c == FLAG || c == ESC) {
			d[j++] = ESC;
			d[j++] = c ^ 0x20;
		} else {
			d[j++] = c;
		}
	}
	d[j++] = FLAG;
	return j;
}

static size_t unstuff(const unsigned char *s, size_t n, unsigned char *d)
{
	size_t j = 0;
	for (size_t i = 1; i + 1 < n; i++) {
		if (s[i] == ESC)
			d[j++] = s[++i] ^ 0x20;
		else
			d[j++] = s[i];
	}
	return j;
}

/* (count, byte) pairs; count 1..255 */
static size_t rle_encode(const unsigned char *s, size_t n, unsigned char *d)
{
	size_t j = 0;
	for (size_t i = 0; i < n;) {
		size_t run = 1;
		while (i + run < n && run < 255 && s[i + run] == s[i])
			run++;
		d[j++] = (unsigned char)run;
		d[j++] = s[i];
		i += run;
	}
	return j;
}

static size_t rle_decode(const unsigned char *s, size_t n, unsigned char *d)
{
	size_t j = 0;
	for (size_t i = 0; i + 1 < n; i += 2) {
		fill_bytes(d + j, s[i], s[i + 1]);
		j += s[i];
	}
	return j;
}

static int same(const unsigned char *a, const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0;
	for (long t = 0; t < scale * 64; t++) {
		size_t len = 64 + next_rand() % (MAXP - 64);
		/* runs of equal bytes, some of them flag or escape bytes */
		for (size_t i = 0; i < len;) {
			size_t run = 1 + next_rand() % 24;
			unsigned r = next_rand();
			unsigned char c = (unsigned char)(r % 7 == 0 ? FLAG : r % 11 == 0 ? ESC : r >> 8);
			for (size_t k = 0; k < run && i < len; k++)
				payload[i++] = c;
		}
		size_t fn = build_frame(len, (unsigned)t);
		size_t sn = stuff(frame, fn, stuffed);
		size_t bn = unstuff(stuffed, sn, back);
		size_t rn = rle_encode(frame, fn, rle);
		size_t un = rle_decode(rle, rn, unrle);
		if (bn != fn || !same(back, frame, fn) || un != fn || !same(unrle, frame, fn)) {
			fprintf(stderr, "bytes: round trip failed at frame %ld\n", t);
			return 1;
		}
		uint32_t h = 2166136261u;
		for (size_t i = 0; i < sn; i++)
			h = (h ^ stuffed[i]) * 16777619u;
		sum = sum * 1000003u + h + sn * 7 + rn;
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
