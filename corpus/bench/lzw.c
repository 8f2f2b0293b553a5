/* LZW compression (12-bit codes, dictionary reset when full) of generated
 * English-like text, and decompression; the round trip must be exact.
 * The compressor's dictionary is an open-addressing hash table keyed by
 * (prefix code, byte): probe loops with early exits.  The decompressor has
 * the KwKwK special case.  usage: lzw [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE 65536
#define MAX_CODES 4096
#define HASH_SIZE 8191 /* prime, > 2 * MAX_CODES */
#define NONE 0xFFFFu

static uint64_t rng_state = 0x2545F4914F6CDD1Du;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Du;
}

static const char *const words[] = {
	"the", "of", "and", "a", "to", "in", "is", "path", "profile", "loop",
	"branch", "iteration", "forest", "counter", "function", "compiler", "edge",
	"block", "number", "that", "with", "for", "which", "each", "program",
};

/* Words drawn with a skewed distribution, some punctuation and newlines. */
static size_t make_text(unsigned char *t, size_t n)
{
	size_t i = 0;
	const size_t nwords = sizeof words / sizeof words[0];
	for (;;) {
		uint64_t r = rng_next();
		size_t w = (size_t)((r & 0xFFu) * (r >> 8 & 0xFFu) / 256u * nwords / 256u);
		size_t len = strlen(words[w]);
		if (i + len + 2 > n)
			return i;
		memcpy(t + i, words[w], len);
		i += len;
		if ((r >> 20) % 13u == 0)
			t[i++] = (r >> 24) & 1u ? '.' : ',';
		t[i++] = (r >> 28) % 11u == 0 ? '\n' : ' ';
	}
}

struct dict {
	uint16_t prefix[HASH_SIZE];
	unsigned char byte[HASH_SIZE];
	uint16_t code[HASH_SIZE];
	unsigned next_code;
};

static void dict_reset(struct dict *d)
{
	for (size_t i = 0; i < HASH_SIZE; i++)
		d->code[i] = NONE;
	d->next_code = 256;
}

/* Slot of (prefix, byte): either the slot holding it or the empty slot where
 * it belongs (linear probing; the table is never more than half full). */
static size_t dict_slot(const struct dict *d, unsigned prefix, unsigned byte)
{
	size_t h = ((size_t)prefix << 8 ^ byte) * 2654435761u % HASH_SIZE;
	while (d->code[h] != NONE) {
		if (d->prefix[h] == prefix && d->byte[h] == byte)
			return h;
		if (++h == HASH_SIZE)
			h = 0;
	}
	return h;
}

static size_t compress(const unsigned char *in, size_t n, uint16_t *out, struct dict *d)
{
	size_t m = 0;
	if (n == 0)
		return 0;
	dict_reset(d);
	unsigned w = in[0];
	for (size_t i = 1; i < n; i++) {
		unsigned c = in[i];
		size_t s = dict_slot(d, w, c);
		if (d->code[s] != NONE) {
			w = d->code[s];
			continue;
		}
		out[m++] = (uint16_t)w;
		if (d->next_code < MAX_CODES) {
			d->prefix[s] = (uint16_t)w;
			d->byte[s] = (unsigned char)c;
			d->code[s] = (uint16_t)d->next_code++;
		} else {
			dict_reset(d);
		}
		w = c;
	}
	out[m++] = (uint16_t)w;
	return m;
}

/* Decoder tables: code -> (prefix code, last byte, first byte, length). */
static uint16_t dprefix[MAX_CODES];
static unsigned char dlast[MAX_CODES], dfirst[MAX_CODES];
static uint16_t dlen[MAX_CODES];

/* Writes the string of code c at out (length dlen[c]); returns its length. */
static size_t emit_string(unsigned c, unsigned char *out)
{
	size_t len = dlen[c];
	for (size_t i = len; i-- > 0;) {
		out[i] = dlast[c];
		c = dprefix[c];
	}
	return len;
}

/* Returns the decoded length, or (size_t)-1 on a corrupt stream. */
static size_t decompress(const uint16_t *in, size_t m, unsigned char *out, size_t cap)
{
	size_t o = 0;
	unsigned next = 256, prev = NONE;
	for (unsigned c = 0; c < 256; c++) {
		dlast[c] = dfirst[c] = (unsigned char)c;
		dlen[c] = 1;
	}
	for (size_t i = 0; i < m; i++) {
		unsigned c = in[i];
		if (prev == NONE) {
			if (c > 255 || o >= cap)
				return (size_t)-1;
			out[o++] = (unsigned char)c;
			prev = c;
			continue;
		}
		unsigned char first;
		if (c < next)
			first = dfirst[c];
		else if (c == next)
			first = dfirst[prev]; /* KwKwK: the code being defined */
		else
			return (size_t)-1;
		if (next < MAX_CODES) {
			dprefix[next] = (uint16_t)prev;
			dlast[next] = first;
			dfirst[next] = dfirst[prev];
			dlen[next] = (uint16_t)(dlen[prev] + 1);
			next++;
			if (o + dlen[c] > cap)
				return (size_t)-1;
			o += emit_string(c, out + o);
			prev = c;
		} else {
			/* the encoder reset its dictionary after sending prev */
			next = 256;
			if (c > 255 || o >= cap)
				return (size_t)-1;
			out[o++] = (unsigned char)c;
			prev = c;
		}
	}
	return o;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	static unsigned char text[TEXT_SIZE], back[TEXT_SIZE];
	static uint16_t codes[TEXT_SIZE];
	static struct dict d;
	uint64_t sum = 0;

	for (long round = 0; round < scale; round++) {
		size_t n = make_text(text, sizeof text);
		size_t m = compress(text, n, codes, &d);
		size_t r = decompress(codes, m, back, sizeof back);
		if (r != n || memcmp(text, back, n) != 0) {
			fprintf(stderr, "lzw: round %ld: round trip failed\n", round);
			return 1;
		}
		for (size_t i = 0; i < m; i++)
			sum = sum * 31u + codes[i];
		sum += m;
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
