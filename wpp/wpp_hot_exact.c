/*
 * wpp_hot_exact.c: all minimal hot subpaths of a WPP, with their exact
 * frequencies (Larus, "Whole Program Paths", PLDI 1999, section 4.2; the
 * "WPP paper").  Section 4.2's definitions, taken literally: a subpath is a
 * sequence of at most L consecutive paths of the stream; its frequency is
 * the number of places it occurs in the stream (overlapping ones
 * included); it is hot when frequency x sum of its paths' costs >= C; a
 * minimal hot subpath is "the shortest prefix of a subpath with cost of C
 * or more".  So a distinct subpath s with min_len <= |s| <= L is reported
 * when it is hot and no proper prefix of s of length >= min_len is.
 *
 * Like Figure 7, the search is a traversal of the DAG that visits each
 * rule once and examines, at a rule, only the subpaths that cross the
 * boundaries between the symbols of its right side, using each child's
 * first and last L - 1 paths ("L-limited" prefix and suffix).  Unlike
 * Figure 7, it does not decide hotness rule by rule; it sums occurrences:
 *
 *   every occurrence of a subpath in the stream has exactly one lowest
 *   node of the derivation tree that contains it; that node is an
 *   occurrence of some rule r, the subpath lies in r's expansion but not
 *   inside the expansion of one rule child of r (it spans two or more
 *   symbols of r's right side, or is one terminal of it), and r occurs
 *   freq[r] times in the derivation (the number of DAG paths from S to r,
 *   section 3.3).  Hence
 *       frequency(s) = sum over rules r of freq[r] x cross_r(s),
 *   where cross_r(s) counts the occurrences of s in r's expansion that
 *   are not inside one rule child.
 *
 * cross_r is counted on r's context: its right side with each terminal as
 * itself and each rule child c as its whole expansion when |c| <= L - 1,
 * else as head(c) GAP tail(c) (its first and last L - 1 paths).  An
 * occurrence that leaves a child and is at most L long sees at most L - 1
 * of the child's paths, all in head or tail; one that spans a GAP lies
 * inside a child or is longer than L.  Frequencies are summed in a trie of
 * subpaths (a node per distinct subpath of length <= L seen in a context),
 * so the minimality test is a walk up the trie.
 *
 * Time O(E L^2) hash steps for E edges of the DAG, memory O(nrules L) for
 * the heads and tails plus the trie; counts saturate at UINT64_MAX.
 */
#include <stdlib.h>
#include <string.h>

#include "wpp.h"
#include "array.h"

#define NONE UINT32_MAX
#define GAP UINT32_MAX /* in a context: a child's omitted middle */

struct tnode {
	uint32_t parent, term;
	uint64_t count;    /* sum of freq[r] x cross_r */
	uint64_t rfreq;    /* the highest freq[r] of a rule r it occurs at */
	uint32_t rule;     /* that rule */
	unsigned depth;
};

struct trie {
	struct tnode *n;
	uint32_t nn, cap;
	uint32_t *slot; /* open addressing on (parent, term) -> node, NONE if empty */
	uint32_t nslot; /* a power of two, at least twice nn */
};

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint32_t hash2(uint32_t parent, uint32_t term)
{
	uint64_t h = ((uint64_t)parent << 32 | term) * 0x9E3779B97F4A7C15ULL;
	return (uint32_t)(h >> 32);
}

static int trie_grow(struct trie *t)
{
	uint32_t ns = t->nslot ? 2 * t->nslot : 1024;
	uint32_t *s = malloc((size_t)ns * sizeof *s);
	if (!s || ns < t->nslot) {
		free(s);
		return -1;
	}
	memset(s, 0xff, (size_t)ns * sizeof *s);
	for (uint32_t i = 1; i < t->nn; i++) { /* node 0 is the root */
		uint32_t h = hash2(t->n[i].parent, t->n[i].term) & (ns - 1);
		while (s[h] != NONE)
			h = (h + 1) & (ns - 1);
		s[h] = i;
	}
	free(t->slot);
	t->slot = s;
	t->nslot = ns;
	return 0;
}

/* The child of node p by terminal term, made if new; NONE on ENOMEM. */
static uint32_t trie_step(struct trie *t, uint32_t p, uint32_t term)
{
	if (2 * (uint64_t)(t->nn + 1) > t->nslot && trie_grow(t) != 0)
		return NONE;
	uint32_t h = hash2(p, term) & (t->nslot - 1);
	for (; t->slot[h] != NONE; h = (h + 1) & (t->nslot - 1)) {
		const struct tnode *x = &t->n[t->slot[h]];
		if (x->parent == p && x->term == term)
			return t->slot[h];
	}
	KP_RESERVE(t->n, t->cap, t->nn + 1);
	t->slot[h] = t->nn;
	t->n[t->nn] = (struct tnode){ .parent = p, .term = term, .rule = NONE, .depth = t->n[p].depth + 1 };
	return t->nn++;
}

/* The rules' lengths, heads and tails (first and last min(len, L - 1)
 * terminals), children first. */
struct ends {
	uint64_t *len;
	uint32_t *head, *tail; /* rule r's at r * K, K = L - 1 */
	unsigned *hn, *tn;
	unsigned K;
};

static void ends_rule(const struct wpp_grammar *g, struct ends *e, uint32_t r)
{
	unsigned K = e->K, h = 0;
	uint32_t *head = e->head + (size_t)r * K, *tail = e->tail + (size_t)r * K;
	for (uint64_t k = g->start[r]; k < g->start[r + 1]; k++) {
		uint32_t s = g->syms[k], v = WPP_SYM_VAL(s);
		e->len[r] = add_sat(e->len[r], WPP_SYM_IS_RULE(s) ? e->len[v] : 1);
		if (!WPP_SYM_IS_RULE(s)) {
			if (h < K)
				head[h++] = v;
		} else {
			for (unsigned i = 0; i < e->hn[v] && h < K; i++)
				head[h++] = e->head[(size_t)v * K + i];
		}
	}
	e->hn[r] = h;
	unsigned t = 0; /* the tail, built backwards at its end */
	for (uint64_t k = g->start[r + 1]; k-- > g->start[r] && t < K;) {
		uint32_t s = g->syms[k], v = WPP_SYM_VAL(s);
		if (!WPP_SYM_IS_RULE(s)) {
			tail[K - ++t] = v;
		} else {
			for (unsigned i = e->tn[v]; i-- > 0 && t < K;)
				tail[K - ++t] = e->tail[(size_t)v * K + i];
		}
	}
	memmove(tail, tail + (K - t), t * sizeof *tail);
	e->tn[r] = t;
}

enum {
	POS_CHILD,    /* in a rule child's expansion */
	POS_TERMINAL, /* a terminal of r's right side */
	POS_HEAD      /* in a child's head, before its GAP: no occurrence starting here leaves the child */
};

struct ctx {
	uint32_t *term, *seg; /* the context, and the index of the symbol each came from */
	unsigned char *kind;  /* per position: a POS_ kind */
	size_t n, cap;
};

static int ctx_push(struct ctx *c, uint32_t term, uint32_t seg, unsigned char kind)
{
	if (c->n == c->cap) { /* three arrays, one capacity */
		c->term = kp_array_grow(c->term, c->cap, c->n + 1, sizeof *c->term);
		c->seg = kp_array_grow(c->seg, c->cap, c->n + 1, sizeof *c->seg);
		c->kind = kp_array_grow(c->kind, c->cap, c->n + 1, sizeof *c->kind);
		c->cap = kp_array_cap(c->cap, c->n + 1);
	}
	c->term[c->n] = term;
	c->seg[c->n] = seg;
	c->kind[c->n++] = kind;
	return 0;
}

/* r's context (see the top of the file). */
static int ctx_build(const struct wpp_grammar *g, const struct ends *e, uint32_t r, struct ctx *c)
{
	unsigned K = e->K;
	int rc = 0;
	c->n = 0;
	for (uint64_t k = g->start[r]; k < g->start[r + 1] && rc == 0; k++) {
		uint32_t s = g->syms[k], v = WPP_SYM_VAL(s), seg = (uint32_t)(k - g->start[r]);
		if (!WPP_SYM_IS_RULE(s)) {
			rc = ctx_push(c, v, seg, POS_TERMINAL);
			continue;
		}
		unsigned char kind = e->len[v] > K ? POS_HEAD : POS_CHILD;
		for (unsigned i = 0; i < e->hn[v] && rc == 0; i++)
			rc = ctx_push(c, e->head[(size_t)v * K + i], seg, kind);
		if (e->len[v] <= K)
			continue; /* the head is the whole expansion */
		rc = rc ? rc : ctx_push(c, GAP, seg, 0);
		for (unsigned i = 0; i < e->tn[v] && rc == 0; i++)
			rc = ctx_push(c, e->tail[(size_t)v * K + i], seg, POS_CHILD);
	}
	return rc;
}

/* Adds freq x cross_r(s) to the trie for every subpath s of r's context. */
static int count_rule(struct trie *t, const struct ctx *c, uint32_t r, uint64_t freq, unsigned L)
{
	for (size_t p = 0; p < c->n; p++) {
		uint32_t node = 0;
		if (c->term[p] == GAP || c->kind[p] == POS_HEAD)
			continue;
		for (size_t q = p; q < c->n && q - p < L && c->term[q] != GAP; q++) {
			if ((node = trie_step(t, node, c->term[q])) == NONE)
				return -1;
			/* an occurrence at r: it spans two symbols, or is a terminal of r */
			if (c->seg[q] == c->seg[p] && !(q == p && c->kind[p] == POS_TERMINAL))
				continue;
			struct tnode *x = &t->n[node];
			x->count = add_sat(x->count, freq);
			if (x->rule == NONE || freq > x->rfreq) {
				x->rfreq = freq;
				x->rule = r;
			}
		}
	}
	return 0;
}

/* Reports the minimal hot subpaths of the trie, in node order. */
static int report(const struct trie *t, const struct wpp_hot_opts *o, struct wpp_hot **out, size_t *n)
{
	size_t cap = 0;
	uint64_t *sum = malloc(((size_t)t->nn + 1) * sizeof *sum); /* cost of the paths */
	unsigned char *hot = calloc((size_t)t->nn + 1, 1);         /* it or a prefix in range is hot */
	if (!sum || !hot)
		goto oom;
	sum[0] = 0;
	for (uint32_t i = 1; i < t->nn; i++) { /* parents come before children */
		const struct tnode *x = &t->n[i];
		sum[i] = add_sat(sum[x->parent], o->term_cost[x->term]);
		uint64_t cost = mul_sat(x->count, sum[i]);
		int in_range = x->depth >= o->min_len && x->depth <= o->max_len;
		if (hot[x->parent] || !in_range || cost < o->min_cost) {
			hot[i] = hot[x->parent];
			continue;
		}
		hot[i] = 1;
		KP_RESERVE(*out, cap, *n + 1);
		uint32_t *terms = malloc(x->depth * sizeof *terms);
		if (!terms)
			goto oom;
		uint32_t v = i;
		for (unsigned d = x->depth; d-- > 0; v = t->n[v].parent)
			terms[d] = t->n[v].term;
		(*out)[(*n)++] = (struct wpp_hot){ .terms = terms, .len = x->depth, .freq = x->count, .cost = cost,
						   .rule = x->rule };
	}
	free(sum);
	free(hot);
	return 0;
oom:
	free(sum);
	free(hot);
	return -1;
}

int wpp_hot_exact(const struct wpp_grammar *g, const struct wpp_hot_opts *o, struct wpp_hot **out, size_t *n)
{
	unsigned L = o->max_len, K = L - 1;
	struct trie t = { 0 };
	struct ctx c = { 0 };
	struct ends e = { .K = K };
	int rc = -1;
	*out = NULL;
	*n = 0;
	if (L == 0 || o->min_len > L)
		return 0;
	uint32_t *order = wpp_postorder(g);
	uint64_t *freq = wpp_frequencies(g);
	size_t nr = (size_t)g->nrules + 1;
	e.len = calloc(nr, sizeof *e.len);
	e.hn = calloc(nr, sizeof *e.hn);
	e.tn = calloc(nr, sizeof *e.tn);
	e.head = malloc(nr * (K ? K : 1) * sizeof *e.head);
	e.tail = malloc(nr * (K ? K : 1) * sizeof *e.tail);
	t.n = malloc(1024 * sizeof *t.n);
	if (!order || !freq || !e.len || !e.hn || !e.tn || !e.head || !e.tail || !t.n)
		goto done;
	t.cap = 1024;
	t.n[0] = (struct tnode){ .parent = NONE, .rule = NONE };
	t.nn = 1;
	for (uint32_t i = 0; i < g->nrules; i++) { /* post order: children first */
		uint32_t r = order[i];
		ends_rule(g, &e, r);
		if (freq[r] == 0)
			continue; /* unreachable from S */
		if (ctx_build(g, &e, r, &c) != 0 || count_rule(&t, &c, r, freq[r], L) != 0)
			goto done;
	}
	if (report(&t, o, out, n) != 0) {
		wpp_hot_free(*out, *n);
		*out = NULL;
		*n = 0;
		goto done;
	}
	rc = 0;
done:
	free(order);
	free(freq);
	free(e.len);
	free(e.hn);
	free(e.tn);
	free(e.head);
	free(e.tail);
	free(t.n);
	free(t.slot);
	free(c.term);
	free(c.seg);
	free(c.kind);
	return rc;
}
