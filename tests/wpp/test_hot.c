/*
 * test_hot.c: wpp/wpp_hot.c, the minimal hot subpaths of Larus, "Whole
 * Program Paths" (PLDI 1999; the "WPP paper"), section 4.2, Figure 7.
 *
 *   - Figure 5: abbcabbcabbc as S -> AAA, A -> BC, B -> ab, C -> bc, path
 *     costs 1, lengths 2..3, minimum cost 6: exactly ab and bc by Figure 7,
 *     exactly ab, bb, bc and cab by the exact search;
 *   - the exact search (WPP_HOT_EXACT, the default) equals a brute-force
 *     enumeration of all substrings, on seeded random, motif and nested
 *     streams compressed by runtime/sequitur.c;
 *   - Figure 7 (WPP_HOT_FIGURE7): soundness, on thousands of seeded random and structured streams
 *     compressed by runtime/sequitur.c: every reported subpath has a length
 *     in [min_len, max_len], occurs in the stream at least `frequency`
 *     times (brute-force count over the expansion), so its true cost is at
 *     least min_cost, and its reported cost is frequency x its paths' cost;
 *   - equality where the paper's claim is exact: a grammar that is one rule
 *     (every subpath has frequency 1, the LCA is S) gives exactly the
 *     greedy left-to-right scan for the shortest hot window;
 *   - how far the approximation is from brute force (all hot substrings,
 *     with their true counts) is measured and printed, not asserted
 *     (docs/wpp.md).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "sequitur.h"
#include "wpp.h"

static int failures;

#include "../check.h"

#define T(t) ((uint32_t)(t) << 1)
#define R(r) ((uint32_t)(r) << 1 | 1)

/* Figure 5: terminals a = 0, b = 1, c = 2. */
static void figure5(void)
{
	uint32_t syms[] = { R(1), R(1), R(1), /* S -> AAA */
			    R(2), R(3),       /* A -> BC */
			    T(0), T(1),       /* B -> ab */
			    T(1), T(2) };     /* C -> bc */
	uint64_t start[] = { 0, 3, 5, 7, 9 };
	struct wpp_term terms[] = { { 0, 'a' }, { 0, 'b' }, { 0, 'c' } };
	struct wpp_grammar g = { .length = 12, .nterms = 3, .terms = terms, .nrules = 4, .start = start,
				 .syms = syms };
	uint64_t cost[] = { 1, 1, 1 };
	struct wpp_hot_opts o = { .min_len = 2, .max_len = 3, .min_cost = 6, .term_cost = cost,
				  .method = WPP_HOT_FIGURE7 };
	struct wpp_hot *h;
	size_t n;
	CHECK(wpp_grammar_check(&g, 1) == NULL);
	uint64_t *freq = wpp_frequencies(&g);
	CHECK(freq && freq[0] == 1 && freq[1] == 3 && freq[2] == 3 && freq[3] == 3);
	free(freq);
	CHECK(wpp_hot_find(&g, &o, &h, &n) == 0);
	CHECK(n == 2);
	if (n == 2) {
		CHECK(h[0].len == 2 && h[0].terms[0] == 0 && h[0].terms[1] == 1); /* ab */
		CHECK(h[0].freq == 3 && h[0].cost == 6 && h[0].rule == 2);
		CHECK(h[1].len == 2 && h[1].terms[0] == 1 && h[1].terms[1] == 2); /* bc */
		CHECK(h[1].freq == 3 && h[1].cost == 6 && h[1].rule == 3);
	}
	printf("figure 5, Figure 7: %zu hot subpaths (expected ab, bc)\n", n);
	wpp_hot_free(h, n);
	/* exact: abbcabbcabbc has ab x3, bb x3, bc x3 (cost 6), ca x2 (cost 4,
	 * not hot) and cab x2 (cost 6, minimal: its prefix ca is not hot) */
	o.method = WPP_HOT_EXACT;
	CHECK(wpp_hot_find(&g, &o, &h, &n) == 0);
	CHECK(n == 4);
	static const char *want[] = { "ab", "bb", "bc", "cab" };
	unsigned seen = 0;
	for (size_t i = 0; i < n; i++) {
		char str[4] = { 0 };
		for (unsigned j = 0; j < h[i].len && j < 3; j++)
			str[j] = (char)('a' + h[i].terms[j]);
		for (unsigned k = 0; k < 4; k++)
			if (!strcmp(str, want[k]) && h[i].cost == 6 && h[i].freq == (k == 3 ? 2u : 3u))
				seen |= 1u << k;
	}
	CHECK(seen == 15);
	printf("figure 5, exact: %zu hot subpaths (expected ab, bb, bc, cab)\n", n);
	wpp_hot_free(h, n);
}

/* The WPP writer's conversion (runtime/wpp.c), for grammars built here. */
static void to_wpp(const struct kp_sq *g, struct wpp_grammar *w)
{
	uint32_t *num = calloc(g->nrule + 1, sizeof *num), n = 0;
	uint64_t size = kp_sq_size(g);
	memset(w, 0, sizeof *w);
	w->length = g->length;
	w->nterms = g->nterm;
	w->terms = malloc((g->nterm + 1) * sizeof *w->terms);
	for (uint32_t t = 0; t < g->nterm; t++)
		w->terms[t] = (struct wpp_term){ 0, g->term[t].id };
	for (uint32_t r = 0; r < g->nrule; r++)
		if (kp_sq_live(g, r))
			num[r] = n++;
	w->nrules = n;
	w->start = malloc((n + 1) * sizeof *w->start);
	w->syms = malloc((size + 1) * sizeof *w->syms);
	uint64_t k = 0;
	for (uint32_t r = 0; r < g->nrule; r++) {
		if (!kp_sq_live(g, r))
			continue;
		w->start[num[r]] = k;
		uint32_t gd = g->rule[r].guard;
		for (uint32_t s = g->node[gd].next; s != gd; s = g->node[s].next) {
			uint32_t sym = g->node[s].sym;
			w->syms[k++] = KP_SQ_TAG(sym) == KP_SQ_RULE ? R(num[KP_SQ_VAL(sym)]) : T(KP_SQ_VAL(sym));
		}
	}
	w->start[n] = k;
	free(num);
}

static void wpp_grammar_release(struct wpp_grammar *w)
{
	free(w->terms);
	free(w->start);
	free(w->syms);
}

/* Occurrences of s[0..m) in x[0..n), overlapping ones included. */
static uint64_t count(const uint32_t *x, size_t n, const uint32_t *s, unsigned m)
{
	uint64_t c = 0;
	for (size_t i = 0; i + m <= n; i++)
		c += memcmp(x + i, s, m * sizeof *s) == 0;
	return c;
}

static uint64_t rng_state = 0x853c49e6748fea9bULL;
static uint64_t rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

struct collect {
	uint32_t *x;
	size_t n;
};

static int collect_term(void *arg, uint32_t t)
{
	struct collect *c = arg;
	c->x[c->n++] = t;
	return 0;
}

/* Brute force over one stream x[0..n): every substring's occurrence count
 * (overlapping ones included) and its first occurrence, for lengths up to
 * BF_MAXM, by sorting the start positions of each length. */
enum { BF_MAXLEN = 512, BF_MAXM = 8 };
static struct bf {
	const uint32_t *x;
	size_t n;
	uint64_t cnt[BF_MAXM + 1][BF_MAXLEN];
	uint32_t first[BF_MAXM + 1][BF_MAXLEN];
} bf;
static unsigned bf_m;

static int bf_cmp(const void *a, const void *b)
{
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int c = memcmp(bf.x + i, bf.x + j, bf_m * sizeof *bf.x);
	return c ? c : (i > j) - (i < j);
}

static void bf_init(const uint32_t *x, size_t n)
{
	static uint32_t idx[BF_MAXLEN];
	bf.x = x;
	bf.n = n;
	for (bf_m = 1; bf_m <= BF_MAXM && bf_m <= n; bf_m++) {
		size_t k = n - bf_m + 1;
		for (uint32_t i = 0; i < k; i++)
			idx[i] = i;
		qsort(idx, k, sizeof *idx, bf_cmp);
		for (size_t a = 0, b; a < k; a = b) {
			for (b = a + 1; b < k && memcmp(x + idx[a], x + idx[b], bf_m * sizeof *x) == 0; b++)
				;
			for (size_t i = a; i < b; i++) {
				bf.cnt[bf_m][idx[i]] = b - a;
				bf.first[bf_m][idx[i]] = idx[a]; /* the smallest: ties sort by position */
			}
		}
	}
}

/* Is x[i..i+m) hot (true count x cost >= C) and minimal (no proper prefix
 * of length >= min_len is hot)? */
static int brute_minimal(const uint32_t *x, size_t n, size_t i, unsigned m, const struct wpp_hot_opts *o)
{
	uint64_t c = 0;
	assert(bf.x == x && bf.n == n && m <= BF_MAXM);
	(void)n;
	for (unsigned j = 0; j < o->min_len - 1; j++)
		c += o->term_cost[x[i + j]];
	for (unsigned len = o->min_len; len <= m; len++) {
		c += o->term_cost[x[i + len - 1]];
		if (bf.cnt[len][i] * c >= o->min_cost)
			return len == m;
	}
	return 0;
}

static void soundness(unsigned streams)
{
	enum { MAXLEN = 400 }; /* <= BF_MAXLEN */
	uint32_t x[MAXLEN];
	uint64_t reported = 0, exact = 0, brute = 0, brute_found = 0;
	for (unsigned s = 0; s < streams; s++) {
		size_t len = 1 + rng() % MAXLEN;
		unsigned k = 1 + (unsigned)(rng() % 5), motif = 1 + (unsigned)(rng() % 6);
		struct kp_sq g;
		kp_sq_init(&g, 1);
		uint32_t m[6];
		for (unsigned i = 0; i < motif; i++)
			m[i] = (uint32_t)(rng() % k);
		for (size_t i = 0; i < len; i++)
			kp_sq_append(&g, 0, s % 2 ? rng() % k : (rng() % 8 ? m[i % motif] : rng() % k));
		kp_sq_finish(&g);
		struct wpp_grammar w;
		to_wpp(&g, &w);
		CHECK(wpp_grammar_check(&w, 1) == NULL);
		struct collect c = { x, 0 };
		wpp_expand(&w, 0, collect_term, &c);
		CHECK(c.n == len);
		bf_init(x, len);
		uint64_t cost[8];
		for (uint32_t t = 0; t < w.nterms; t++)
			cost[t] = 1 + rng() % 3;
		struct wpp_hot_opts o = { .min_len = 1 + (unsigned)(rng() % 3), .term_cost = cost,
					  .method = WPP_HOT_FIGURE7 };
		o.max_len = o.min_len + (unsigned)(rng() % 4);
		o.min_cost = 1 + rng() % (len / 2 + 2);
		struct wpp_hot *h;
		size_t n;
		CHECK(wpp_hot_find(&w, &o, &h, &n) == 0);
		for (size_t i = 0; i < n; i++) {
			uint64_t sum = 0, cnt = count(x, len, h[i].terms, h[i].len);
			for (unsigned j = 0; j < h[i].len; j++)
				sum += cost[h[i].terms[j]];
			int ok = h[i].len >= o.min_len && h[i].len <= o.max_len && cnt >= h[i].freq &&
				 h[i].cost == h[i].freq * sum && cnt * sum >= o.min_cost && h[i].cost >= o.min_cost;
			if (!ok) {
				fprintf(stderr, "stream %u: unsound hot subpath %zu (len %u, freq %" PRIu64 ", count %" PRIu64
					", cost %" PRIu64 ")\n", s, i, h[i].len, h[i].freq, cnt, h[i].cost);
				failures++;
				break;
			}
			/* minimal in the brute-force sense, and found with its true count? */
			for (size_t p = 0; p + h[i].len <= len; p++)
				if (memcmp(x + p, h[i].terms, h[i].len * sizeof *x) == 0) {
					exact += brute_minimal(x, len, p, h[i].len, &o) && cnt == h[i].freq;
					break;
				}
		}
		reported += n;
		/* distinct brute-force minimal hot substrings, and how many the
		 * traversal reported (any frequency) */
		for (size_t p = 0; p < len; p++)
			for (unsigned m2 = o.min_len; m2 <= o.max_len && p + m2 <= len; m2++) {
				if (bf.first[m2][p] != p || !brute_minimal(x, len, p, m2, &o))
					continue; /* distinct: counted at its first occurrence */
				brute++;
				for (size_t i = 0; i < n; i++)
					if (h[i].len == m2 && memcmp(h[i].terms, x + p, m2 * sizeof *x) == 0) {
						brute_found++;
						break;
					}
			}
		wpp_hot_free(h, n);
		wpp_grammar_release(&w);
		kp_sq_free(&g);
	}
	printf("soundness: %u streams, %" PRIu64 " hot subpaths reported, all sound; %" PRIu64
	       " of them brute-force minimal with their true count\n"
	       "brute force: %" PRIu64 " distinct minimal hot substrings, %" PRIu64 " reported by Figure 7\n",
	       streams, reported, exact, brute, brute_found);
	CHECK(reported > 1000); /* the test compared something */
}

/* One rule: S holds the stream, every frequency is 1; Figure 7 is then the
 * greedy scan: the window of the last <= L paths since the last report is
 * reported (and cleared) as soon as it is hot. */
static void flat(unsigned streams)
{
	enum { MAXLEN = 300 };
	uint32_t syms[MAXLEN], x[MAXLEN];
	uint64_t start[2], cost[16], total = 0;
	struct wpp_term terms[16];
	for (unsigned t = 0; t < 16; t++)
		terms[t] = (struct wpp_term){ 0, t };
	for (unsigned s = 0; s < streams; s++) {
		size_t len = 1 + rng() % MAXLEN;
		for (size_t i = 0; i < len; i++) {
			x[i] = (uint32_t)(rng() % 16);
			syms[i] = T(x[i]);
		}
		for (unsigned t = 0; t < 16; t++)
			cost[t] = rng() % 5;
		start[0] = 0;
		start[1] = len;
		struct wpp_grammar g = { .length = len, .nterms = 16, .terms = terms, .nrules = 1, .start = start,
					 .syms = syms };
		struct wpp_hot_opts o = { .min_len = 1 + (unsigned)(rng() % 3), .term_cost = cost,
					  .method = WPP_HOT_FIGURE7 };
		o.max_len = o.min_len + (unsigned)(rng() % 5);
		o.min_cost = 1 + rng() % 12;
		struct wpp_hot *h;
		size_t n, k = 0;
		CHECK(wpp_hot_find(&g, &o, &h, &n) == 0);
		size_t from = 0; /* the reference scan */
		for (size_t i = 0; i < len; i++) {
			if (i + 1 - from > o.max_len)
				from = i + 1 - o.max_len;
			uint64_t c = 0;
			for (size_t j = from; j <= i; j++)
				c += cost[x[j]];
			if (c >= o.min_cost && i + 1 - from >= o.min_len) {
				int same = k < n && h[k].len == i + 1 - from &&
					   memcmp(h[k].terms, x + from, h[k].len * sizeof *x) == 0 && h[k].cost == c;
				if (!same) {
					fprintf(stderr, "flat stream %u: report %zu differs from the greedy scan\n", s, k);
					failures++;
					break;
				}
				k++;
				from = i + 1;
			}
		}
		CHECK(k == n);
		total += n;
		wpp_hot_free(h, n);
	}
	printf("flat: %u one-rule grammars, %" PRIu64 " hot subpaths, equal to the greedy scan\n", streams, total);
	CHECK(total > 1000);
}

/* A stream: random, a motif with noise, or nested repetition (blocks
 * repeated inside blocks, so SEQUITUR builds deep rules used many times). */
static size_t make_stream(uint32_t *x, size_t max, unsigned kind)
{
	size_t len = 1 + rng() % max;
	unsigned k = 1 + (unsigned)(rng() % 5), motif = 1 + (unsigned)(rng() % 6);
	uint32_t m[6];
	for (unsigned i = 0; i < motif; i++)
		m[i] = (uint32_t)(rng() % k);
	if (kind == 2) {
		size_t n = 1 + rng() % 4;
		for (size_t i = 0; i < n; i++)
			x[i] = (uint32_t)(rng() % k);
		while (n < max / 2) { /* x := x x' x with x' a small variation */
			size_t reps = 2 + rng() % 3;
			for (size_t r = 1; r < reps && n * 2 <= max; r++) {
				memcpy(x + n, x, n * sizeof *x);
				if (rng() % 3 == 0)
					x[n + rng() % n] = (uint32_t)(rng() % k);
				n *= 2;
			}
			if (n * 2 > max)
				break;
		}
		return n;
	}
	for (size_t i = 0; i < len; i++)
		x[i] = kind == 0 ? (uint32_t)(rng() % k) : (rng() % 8 ? m[i % motif] : (uint32_t)(rng() % k));
	return len;
}

/* The check: WPP_HOT_EXACT equals the brute-force enumeration of
 * all substrings (distinct minimal hot substrings, true counts). */
static void exact(unsigned streams)
{
	enum { MAXLEN = BF_MAXLEN };
	uint32_t x[MAXLEN], y[MAXLEN];
	uint64_t total = 0;
	for (unsigned s = 0; s < streams; s++) {
		size_t len = make_stream(x, MAXLEN, s % 3);
		struct kp_sq g;
		kp_sq_init(&g, 1);
		for (size_t i = 0; i < len; i++)
			kp_sq_append(&g, 0, x[i]);
		kp_sq_finish(&g);
		struct wpp_grammar w;
		to_wpp(&g, &w);
		struct collect c = { y, 0 };
		wpp_expand(&w, 0, collect_term, &c);
		CHECK(c.n == len);
		for (size_t i = 0; i < len; i++) { /* terminal indices, in first-seen order */
			CHECK(w.terms[y[i]].id == x[i]);
			x[i] = y[i];
		}
		bf_init(x, len);
		uint64_t cost[8];
		for (uint32_t t = 0; t < w.nterms; t++)
			cost[t] = rng() % 4; /* zero costs too */
		struct wpp_hot_opts o = { .min_len = 1 + (unsigned)(rng() % 3), .term_cost = cost };
		o.max_len = o.min_len + (unsigned)(rng() % 5);
		o.min_cost = rng() % (len / 2 + 3);
		struct wpp_hot *h;
		size_t n, brute = 0;
		CHECK(wpp_hot_find(&w, &o, &h, &n) == 0);
		for (size_t p = 0; p < len; p++)
			for (unsigned m = o.min_len; m <= o.max_len && p + m <= len; m++) {
				if (bf.first[m][p] != p || !brute_minimal(x, len, p, m, &o))
					continue; /* distinct: at its first occurrence */
				brute++;
				uint64_t cnt = count(x, len, x + p, m), sum = 0, found = 0;
				for (unsigned j = 0; j < m; j++)
					sum += cost[x[p + j]];
				for (size_t i = 0; i < n; i++)
					found += h[i].len == m && memcmp(h[i].terms, x + p, m * sizeof *x) == 0 &&
						 h[i].freq == cnt && h[i].cost == cnt * sum;
				if (found != 1) {
					fprintf(stderr, "stream %u (len %zu): brute-force hot substring at %zu, length %u, count %"
						PRIu64 " reported %" PRIu64 " times\n", s, len, p, m, cnt, found);
					failures++;
				}
			}
		if (n != brute) {
			fprintf(stderr, "stream %u: %zu reported, %zu by brute force\n", s, n, brute);
			failures++;
		}
		total += n;
		wpp_hot_free(h, n);
		wpp_grammar_release(&w);
		kp_sq_free(&g);
	}
	printf("exact: %u streams (random, motif, nested), %" PRIu64
	       " minimal hot subpaths, equal to brute force\n", streams, total);
	CHECK(total > 1000);
}

int main(void)
{
	figure5();
	exact(3000);
	soundness(3000);
	flat(2000);
	if (failures)
		fprintf(stderr, "%d failure(s)\n", failures);
	else
		printf("ok\n");
	return failures != 0;
}
