/*
 * test_sequitur.c: runtime/sequitur.c against the worked examples of the
 * WPP paper (Larus, "Whole Program Paths", PLDI 1999) and against its own
 * definition on random streams.
 *
 *   - Figure 4's string 121213121214 and section 3.2's 11111211111, with
 *     plain SEQUITUR and with SEQUITUR(1), grammar printed exactly;
 *   - section 3.1's step "S -> abca, add b: S -> AcA, A -> ab";
 *   - property: thousands of seeded random and structured streams, both
 *     variants: the validator (both invariants, table, use counts) after
 *     every symbol, and expansion == input at the end.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "sequitur.h"

static int failures;

#include "../check.h"

/* Rule names as in the paper: S, then A, B, C, ... in order of creation
 * (a rule that is later deleted keeps its letter: section 3.2's C). */
static void put_name(const struct kp_sq *g, uint32_t r, char *out, size_t *len)
{
	uint32_t serial = g->rule[r].serial;
	out[(*len)++] = serial == 0 ? 'S' : (char)('A' + (serial - 1) % 26);
}

/* "S -> ...; A -> ...; ..." with terminals printed as their path ID
 * (the examples use one-character IDs), rules in creation order. */
static void render(const struct kp_sq *g, char *out, size_t cap)
{
	size_t len = 0;
	for (uint32_t serial = 0; serial < g->serials; serial++) {
		for (uint32_t r = 0; r < g->nrule; r++) {
			if (!kp_sq_live(g, r) || g->rule[r].serial != serial)
				continue;
			if (len)
				len += (size_t)snprintf(out + len, cap - len, "; ");
			put_name(g, r, out, &len);
			len += (size_t)snprintf(out + len, cap - len, " -> ");
			uint32_t gd = g->rule[r].guard;
			for (uint32_t s = g->node[gd].next; s != gd; s = g->node[s].next) {
				uint32_t sym = g->node[s].sym;
				if (KP_SQ_TAG(sym) == KP_SQ_RULE)
					put_name(g, KP_SQ_VAL(sym), out, &len);
				else
					out[len++] = (char)g->term[KP_SQ_VAL(sym)].id;
			}
			out[len] = 0;
		}
	}
	out[len] = 0;
}

static void example(const char *input, int lookahead, const char *expected)
{
	struct kp_sq g;
	char buf[512], why[256];
	CHECK(kp_sq_init(&g, lookahead) == 0);
	for (const char *p = input; *p; p++)
		CHECK(kp_sq_append(&g, 0, (uint64_t)(unsigned char)*p) == 0);
	kp_sq_finish(&g);
	render(&g, buf, sizeof buf);
	const char *bad = kp_sq_check(&g, why, sizeof why);
	if (bad)
		fprintf(stderr, "%s: %s\n", input, bad);
	CHECK(bad == NULL);
	if (strcmp(buf, expected) != 0) {
		fprintf(stderr, "%s (SEQUITUR%s): got\n  %s\nexpected\n  %s\n", input, lookahead ? "(1)" : "", buf,
			expected);
		failures++;
	}
	CHECK(g.length == strlen(input));
	kp_sq_free(&g);
}

/* xorshift64*: the same streams on every machine */
static uint64_t rng_state;
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

/* One stream of len symbols over an alphabet of k, in one of four shapes. */
static void make_stream(uint32_t *s, size_t len, unsigned k, unsigned shape)
{
	if (shape == 0) { /* uniform */
		for (size_t i = 0; i < len; i++)
			s[i] = (uint32_t)(rng() % k);
	} else if (shape == 1) { /* a random motif repeated, with mutations */
		uint32_t motif[8];
		size_t m = 1 + rng() % 8;
		for (size_t i = 0; i < m; i++)
			motif[i] = (uint32_t)(rng() % k);
		for (size_t i = 0; i < len; i++)
			s[i] = rng() % 16 == 0 ? (uint32_t)(rng() % k) : motif[i % m];
	} else if (shape == 2) { /* runs, "aaaa" stresses overlapping digrams */
		for (size_t i = 0; i < len;) {
			uint32_t v = (uint32_t)(rng() % k);
			for (size_t r = 1 + rng() % 7; r && i < len; r--)
				s[i++] = v;
		}
	} else { /* nested loops: (x y^n z)^m, like a loop around a loop */
		for (size_t i = 0; i < len;) {
			size_t inner = 1 + rng() % 5;
			s[i++] = 0;
			for (size_t j = 0; j < inner && i < len; j++)
				s[i++] = 1 + (uint32_t)(rng() % 2);
			if (i < len)
				s[i++] = 3 % k;
		}
	}
}

static int property(unsigned streams, size_t maxlen, size_t check_every)
{
	uint32_t *in = malloc(maxlen * sizeof *in), *out = malloc(maxlen * sizeof *out);
	char why[256];
	int bad = 0;
	uint64_t symbols = 0, size = 0;
	for (unsigned n = 0; n < streams && !bad; n++) {
		size_t len = rng() % (maxlen + 1);
		unsigned k = 1 + (unsigned)(rng() % 6), shape = (unsigned)(rng() % 4);
		int lookahead = (int)(n & 1);
		make_stream(in, len, k, shape);
		struct kp_sq g;
		if (kp_sq_init(&g, lookahead) != 0)
			return 1;
		/* a symbol is (func, id): spread the alphabet over two functions */
		for (size_t i = 0; i < len && !bad; i++) {
			kp_sq_append(&g, in[i] & 1, in[i] >> 1);
			const char *msg = i % check_every == 0 ? kp_sq_check(&g, why, sizeof why) : NULL;
			if (msg) {
				fprintf(stderr, "stream %u (shape %u, k %u, lookahead %d), after symbol %zu: %s\n", n, shape,
					k, lookahead, i, msg);
				bad = 1;
			}
		}
		kp_sq_finish(&g);
		const char *msg = bad ? NULL : kp_sq_check(&g, why, sizeof why);
		uint64_t got = kp_sq_expand(&g, 0, out, maxlen);
		int same = got == len && g.length == len;
		for (size_t i = 0; same && i < len; i++)
			same = g.term[out[i]].func == (in[i] & 1) && g.term[out[i]].id == in[i] >> 1;
		if (msg || !same) {
			fprintf(stderr, "stream %u (shape %u, k %u, lookahead %d, length %zu): %s\n", n, shape, k,
				lookahead, len, msg ? msg : "expansion differs from the input");
			bad = 1;
		}
		if (bad) {
			for (size_t i = 0; i < len && i < 200; i++)
				fprintf(stderr, "%u%s", in[i], i + 1 < len && i + 1 < 200 ? " " : "\n");
		}
		symbols += len;
		size += kp_sq_size(&g);
		kp_sq_free(&g);
	}
	printf("property: %u streams, %" PRIu64 " symbols, grammar size %" PRIu64 "\n", streams, symbols, size);
	free(in);
	free(out);
	return bad;
}

/* Allocation failures (alloc.c's hook): the grammar keeps a lossless
 * record of the prefix it took, and drops (and counts) the rest. */
static void out_of_memory(void)
{
	enum { LEN = 5000 };
	static uint32_t in[LEN], out[LEN];
	char why[256];
	make_stream(in, LEN, 4, 1);
	for (unsigned long every = 3; every < 3000; every *= 3) {
		struct kp_sq g;
		kp_alloc_fail_every = every;
		int ok = kp_sq_init(&g, 1) == 0;
		for (size_t i = 0; ok && i < LEN; i++)
			kp_sq_append(&g, 0, in[i]);
		if (ok)
			kp_sq_finish(&g);
		kp_alloc_fail_every = 0;
		if (!ok)
			continue;
		uint64_t got = kp_sq_expand(&g, 0, out, LEN);
		CHECK(got == g.length && g.length + g.dropped == LEN);
		for (size_t i = 0; i < got && i < LEN; i++)
			CHECK(g.term[out[i]].id == in[i]);
		if (!g.degraded) {
			const char *msg = kp_sq_check(&g, why, sizeof why);
			if (msg)
				fprintf(stderr, "out of memory every %lu: %s\n", every, msg);
			CHECK(msg == NULL);
		}
		kp_sq_free(&g);
	}
}

int main(void)
{
	/* WPP paper, section 3.1: "S -> abca; after adding b ... S -> AcA, A -> ab" */
	example("abcab", 0, "S -> AcA; A -> ab");
	/* section 3.2, plain SEQUITUR: "S -> AB2BA" with A -> 11, B -> A1 */
	example("11111211111", 0, "S -> AB2BA; A -> 11; B -> A1");
	/* section 3.2, SEQUITUR(1): "S -> C2C, A -> 11, C -> AA1" (B -> AA was
	 * made and then eliminated by rule utility, so the letters are the
	 * paper's) */
	example("11111211111", 1, "S -> C2C; A -> 11; C -> AA1");
	/* Figure 4, 121213121214.  SEQUITUR(1) gives the figure's WPP: the rule
	 * for "two executions of the path 12 followed by path 1" (section 3.3,
	 * node B; C here, since a temporary B -> AA came and went) used twice
	 * by S.  Plain SEQUITUR misses the second 12121, as in section 3.2. */
	example("121213121214", 1, "S -> C3C4; A -> 12; C -> AA1");
	example("121213121214", 0, "S -> AB3B214; A -> 12; B -> A1");
	rng_state = 0x9e3779b97f4a7c15ULL;
	if (property(4000, 300, 1) != 0)
		failures++;
	/* fewer, longer streams: deeper grammars, table growth */
	if (property(40, 20000, 997) != 0)
		failures++;
	out_of_memory();
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	else
		printf("ok\n");
	return failures != 0;
}
