/*
 * test_kiter_random: property test of the k-iteration numbering on seeded
 * random structured CFGs (sequences, if/else, while and do-while loops
 * nested and in sequence, conditional break/continue/return, parallel edges
 * and parallel back edges, self loops, do-whiles sharing a head, loops whose exit edge
 * enters the next loop's head, a first block that is a loop head, an
 * occasional goto into a loop body making it irreducible), with K = 1..4 for
 * every loop or chosen per loop.  For each graph:
 *   - loops: bodies, irreducibility and nesting recomputed by brute force
 *     (reachability) give the K each loop keeps and the nodes it holds;
 *   - ki_check: the invariants, and Glu enumerated: valid IDs are [0, total);
 *   - perfect numbering: the static paths enumerated straight from the
 *     definition in docs/kiter-paths.md (on the CFG, not on Glu) are exactly
 *     the decodes of the IDs [0, total), each once;
 *   - random runs: the IDs ki_exec records (Algorithm 3) are, in order, the
 *     paths ki_cut cuts from the run by the definition, each decoding
 *     (Algorithm 2) to exactly the edges it was recorded for, in [0, total);
 *   - with a single loop: the run's k-iteration paths are the K-windows of
 *     its Ball-Larus stream (docs/kiter-paths.md, relation to the k-IPF);
 *   - ki_fit: a halved limit is met by lowering K, the count it reports is
 *     ki_count's for the K it chose.
 * Usage: test_kiter_random [graphs [seed]].
 */
#include "kiter.h"
#include "pathtext.h"
#include "test_scale.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;
#define FAIL(...)                                                                                  \
	do {                                                                                       \
		fprintf(stderr, "seed %llu: ", (unsigned long long)g_seed);                        \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
		failures++;                                                                        \
	} while (0)

static unsigned long long g_seed;
static uint64_t rng;
static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* ---- random structured CFG ---- */

#define MAXN 80
#define MAXE 400
struct gen {
	uint32_t nn, ne;
	uint32_t src[MAXE], dst[MAXE];
	bool back[MAXE];
	int loops;
	bool full; /* ran out of nodes or edges: the graph is discarded */
};
struct loopctx {
	uint32_t cont;   /* continue target */
	bool cont_back;  /* continue is a back edge (while) */
	uint32_t brk;    /* break target */
};

static uint32_t node(struct gen *g)
{
	if (g->nn < MAXN)
		return g->nn++;
	g->full = true;
	return MAXN - 1;
}
static void edge(struct gen *g, uint32_t s, uint32_t d, bool b)
{
	if (g->ne < MAXE)
		g->src[g->ne] = s, g->dst[g->ne] = d, g->back[g->ne] = b, g->ne++;
	else
		g->full = true;
}
static bool room(const struct gen *g) { return g->nn + 8 < MAXN && g->ne + 16 < MAXE; }

static uint32_t gen_block(struct gen *g, uint32_t cur, int depth, const struct loopctx *lc);

/* One statement from cur; returns the block where control continues. */
static uint32_t gen_stmt(struct gen *g, uint32_t cur, int depth, const struct loopctx *lc)
{
	uint32_t r = room(g) ? rnd(depth > 0 ? 12 : 5) : 0;

	switch (r) {
	case 0: case 1: { /* plain statement */
		uint32_t b = node(g);
		edge(g, cur, b, false);
		return b;
	}
	case 2: { /* if (c) return; */
		uint32_t f = node(g);
		edge(g, cur, KI_END, false);
		edge(g, cur, f, false);
		return f;
	}
	case 3: /* if (c) break; / if (c) continue; */
		if (lc) {
			uint32_t f = node(g);
			if (rnd(2))
				edge(g, cur, lc->brk, false);
			else
				edge(g, cur, lc->cont, lc->cont_back);
			edge(g, cur, f, false);
			return f;
		}
		/* fall through */
	case 4: { /* switch with two labels on one block: parallel edges */
		uint32_t b = node(g), j = node(g);
		edge(g, cur, b, false);
		edge(g, cur, b, false);
		edge(g, cur, j, false);
		edge(g, b, j, false);
		return j;
	}
	case 5: case 6: { /* if / if-else */
		uint32_t t = node(g), te = gen_block(g, t, depth - 1, lc), j, ee;
		edge(g, cur, t, false);
		if (rnd(2)) {
			uint32_t e = node(g);
			edge(g, cur, e, false);
			ee = gen_block(g, e, depth - 1, lc);
		} else {
			ee = cur;
		}
		j = node(g);
		edge(g, te, j, false);
		edge(g, ee, j, false);
		return j;
	}
	case 7: case 8: { /* while (c) body */
		/* half the time the current block is the head, so that the exit
		 * edge of a loop just before enters this one directly (the
		 * Ignored case of departure 2) */
		bool same = rnd(2) == 0;
		uint32_t h = same ? cur : node(g), b = node(g), x = node(g);
		struct loopctx in = { .cont = h, .cont_back = true, .brk = x };
		g->loops++;
		if (!same)
			edge(g, cur, h, false);
		edge(g, h, b, false);
		edge(g, h, x, false);
		uint32_t be = gen_block(g, b, depth - 1, &in);
		edge(g, be, h, true);
		if (!rnd(6))
			edge(g, be, h, true); /* parallel back edge */
		if (!rnd(12) && b != be)
			edge(g, cur, be, false); /* goto into the body: irreducible */
		return x;
	}
	case 9:
		if (!rnd(3)) { /* while (c); : a self loop */
			uint32_t h = node(g), x = node(g);
			g->loops++;
			edge(g, cur, h, false);
			edge(g, h, h, true);
			edge(g, h, x, false);
			return x;
		}
		/* fall through */
	case 10: { /* do body while (c) */
		uint32_t b = node(g), c = node(g), x = node(g);
		struct loopctx in = { .cont = c, .cont_back = false, .brk = x };
		g->loops++;
		edge(g, cur, b, false);
		uint32_t be = gen_block(g, b, depth - 1, &in);
		edge(g, be, c, false);
		edge(g, c, b, true);
		edge(g, c, x, false);
		return x;
	}
	default: { /* do { do body while (c1); } while (c2): one head, two back edges */
		uint32_t b = node(g), c1 = node(g), c2 = node(g), x = node(g);
		struct loopctx in = { .cont = c1, .cont_back = false, .brk = c2 };
		g->loops++;
		edge(g, cur, b, false);
		uint32_t be = gen_block(g, b, depth - 1, &in);
		edge(g, be, c1, false);
		edge(g, c1, b, true);
		edge(g, c1, c2, false);
		edge(g, c2, b, true);
		edge(g, c2, x, false);
		return x;
	}
	}
}

static uint32_t gen_block(struct gen *g, uint32_t cur, int depth, const struct loopctx *lc)
{
	uint32_t n = 1 + rnd(3);
	for (uint32_t j = 0; j < n; j++)
		cur = gen_stmt(g, cur, depth, lc);
	return cur;
}

static struct ki_graph *random_graph(int *loops)
{
	struct gen g;
again:
	g = (struct gen){ .nn = 2 };
	uint32_t entry = node(&g), last;
	edge(&g, KI_START, entry, false);
	if (rnd(4) == 0) {
		/* the entry block is a loop head (a do-while first): Start->entry
		 * reaches version 1 of the head and carries no invalid path */
		uint32_t c = node(&g), x = node(&g);
		struct loopctx in = { .cont = c, .cont_back = false, .brk = x };
		g.loops++;
		edge(&g, gen_block(&g, entry, 1 + (int)rnd(2), &in), c, false);
		edge(&g, c, entry, true);
		edge(&g, c, x, false);
		last = gen_block(&g, x, (int)rnd(2), NULL);
	} else {
		last = gen_block(&g, entry, 1 + (int)rnd(3), NULL);
	}
	edge(&g, last, KI_END, false);
	if (g.full)
		goto again;
	struct ki_graph *kg = ki_graph_new(g.nn);
	for (uint32_t e = 0; e < g.ne; e++)
		ki_add_edge(kg, g.src[e], g.dst[e], g.back[e]);
	*loops = g.loops;
	return kg;
}

/* ---- loop structure, by brute force ---- */

/* Marks the nodes reachable from `from` without entering `avoid`, along
 * edges (reversed when backwards). */
static void reach(const struct ki_graph *g, uint32_t from, uint32_t avoid, bool backwards, bool *seen)
{
	uint32_t stk[MAXN], sp = 0;
	for (uint32_t v = 0; v < g->nnodes; v++)
		seen[v] = false;
	if (from == avoid)
		return;
	seen[from] = true;
	stk[sp++] = from;
	while (sp) {
		uint32_t v = stk[--sp];
		for (uint32_t e = 0; e < g->nedges; e++) {
			uint32_t a = backwards ? g->edges[e].dst : g->edges[e].src;
			uint32_t b = backwards ? g->edges[e].src : g->edges[e].dst;
			if (a == v && b != avoid && !seen[b]) {
				seen[b] = true;
				stk[sp++] = b;
			}
		}
	}
}

/* Each loop's body is the union of its back edges' natural loops; a loop
 * keeps K >= 2 iff it is reducible (its head dominates its body) and
 * innermost, and kloop says exactly which nodes it holds. */
static bool check_loops(const struct ki_numbering *n)
{
	const struct ki_graph *g = n->g;
	bool body[MAXN], seen[MAXN], from_start[MAXN];

	for (uint32_t l = 0; l < n->nloops; l++) {
		uint32_t h = n->loops[l].head;
		bool irreducible = false, inner = true;
		for (uint32_t v = 0; v < g->nnodes; v++)
			body[v] = v == h;
		for (uint32_t e = 0; e < g->nedges; e++) {
			if (!g->edges[e].back || g->edges[e].dst != h)
				continue;
			reach(g, g->edges[e].src, h, true, seen);
			for (uint32_t v = 0; v < g->nnodes; v++)
				body[v] |= seen[v];
		}
		reach(g, KI_START, h, false, from_start);
		for (uint32_t v = 0; v < g->nnodes; v++) {
			irreducible |= body[v] && v != h && from_start[v]; /* h does not dominate v */
			inner &= !(body[v] && v != h && n->loop_of_head[v] != KI_NONE);
		}
		bool keeps = n->loops[l].k_asked >= 2 && !irreducible && inner;
		if ((n->loops[l].k >= 2) != keeps ||
		    (n->loops[l].k_asked >= 2 && !keeps &&
		     n->loops[l].lowered != (irreducible ? KI_LOWER_IRREDUCIBLE : KI_LOWER_NOT_INNERMOST))) {
			FAIL("loop at %u: K %u (asked %u, reason %d), irreducible %d, innermost %d", h, n->loops[l].k,
			     n->loops[l].k_asked, (int)n->loops[l].lowered, irreducible, inner);
			return false;
		}
		for (uint32_t v = 0; keeps && v < g->nnodes; v++)
			if ((n->kloop[v] == l) != body[v]) {
				FAIL("loop at %u: node %u %s its body", h, v, body[v] ? "missing from" : "wrongly in");
				return false;
			}
	}
	return true;
}

/* ---- random runs ---- */

/* Shortest distance to End per node (BFS on reversed edges). */
static void distances(const struct ki_graph *g, uint32_t *dist)
{
	uint32_t q[MAXN], qh = 0, qt = 0;
	for (uint32_t v = 0; v < g->nnodes; v++)
		dist[v] = UINT32_MAX;
	dist[KI_END] = 0;
	q[qt++] = KI_END;
	while (qh < qt) {
		uint32_t v = q[qh++];
		for (uint32_t e = 0; e < g->nedges; e++)
			if (g->edges[e].dst == v && dist[g->edges[e].src] == UINT32_MAX) {
				dist[g->edges[e].src] = dist[v] + 1;
				q[qt++] = g->edges[e].src;
			}
	}
}

/* A random Start->End walk; after budget steps it heads for End. */
static size_t random_run(const struct ki_graph *g, const uint32_t *dist, uint32_t *run, size_t cap)
{
	size_t len = 0, budget = 20 + rnd(200);
	uint32_t u = KI_START, cand[MAXE];

	while (u != KI_END && len < cap) {
		uint32_t nc = 0;
		for (uint32_t e = 0; e < g->nedges; e++) {
			if (g->edges[e].src != u)
				continue;
			if (len < budget || dist[g->edges[e].dst] < dist[u])
				cand[nc++] = e;
		}
		/* prefer staying in loops: back edges twice as likely */
		uint32_t e = cand[rnd(nc)];
		if (len < budget && !g->edges[e].back && rnd(3) == 0)
			for (uint32_t j = 0; j < nc; j++)
				if (g->edges[cand[j]].back)
					e = cand[j];
		run[len++] = e;
		u = g->edges[e].dst;
	}
	return u == KI_END ? len : 0;
}

/* ---- static paths straight from the definition ---- */

struct paths {
	char **s;
	size_t n, cap, limit;
};

static void add_path(struct paths *p, const uint32_t *edges, size_t len)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->s = realloc(p->s, p->cap * sizeof *p->s);
	}
	char *s = malloc(len * 6 + 1), *q = s;
	for (size_t j = 0; j < len; j++)
		q += sprintf(q, "%u,", edges[j]);
	*q = 0;
	p->s[p->n++] = s;
}

/* Extends a path at u; L the k-iteration loop being visited (KI_NONE if
 * none), c its iteration (1-based), began: the path began at L's head. */
static void extend(const struct ki_numbering *n, struct paths *p, uint32_t *path, size_t len, uint32_t u,
                   uint32_t L, unsigned c, bool began)
{
	const struct ki_graph *g = n->g;
	if (p->n > p->limit)
		return;
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct ki_edge *x = &g->edges[e];
		uint32_t l2 = L;
		unsigned c2 = c;
		bool b2 = began;
		if (x->src != u)
			continue;
		path[len] = e;
		if (L != KI_NONE && x->back && x->dst == n->loops[L].head) {
			if (c == n->loops[L].k)
				add_path(p, path, len + 1); /* K iterations, ends at the back edge */
			else
				extend(n, p, path, len + 1, x->dst, L, c + 1, began);
			continue;
		}
		if (L != KI_NONE && n->kloop[x->dst] != L) { /* exit */
			if (began && c < n->loops[L].k)
				continue; /* began at the head, fewer than K iterations */
			l2 = KI_NONE, b2 = false;
		}
		if (n->kloop[x->dst] != KI_NONE && l2 == KI_NONE) /* entry */
			l2 = n->kloop[x->dst], c2 = 1, b2 = false;
		if (x->back || x->dst == KI_END)
			add_path(p, path, len + 1);
		else
			extend(n, p, path, len + 1, x->dst, l2, c2, b2);
	}
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void free_paths(struct paths *p)
{
	for (size_t j = 0; j < p->n; j++)
		free(p->s[j]);
	free(p->s);
}

/* The decodes of [0, total) are exactly the static paths of the definition. */
static bool check_perfect(const struct ki_numbering *n)
{
	struct paths want = { .limit = 20000 }, got = { .limit = SIZE_MAX };
	uint32_t path[4096];
	bool ok = true;

	extend(n, &want, path, 0, KI_START, KI_NONE, 0, false);
	for (uint32_t l = 0; l < n->nloops; l++) {
		uint32_t h = n->loops[l].head, L = n->kloop[h];
		extend(n, &want, path, 0, h, L, 1, L != KI_NONE);
	}
	if (want.n > want.limit) {
		free_paths(&want);
		return true; /* too many to list */
	}
	for (uint64_t id = 0; id < n->total; id++) {
		size_t len = ki_decode(n, id, path, 4096);
		if (!len || len > 4096) {
			FAIL("ID %llu does not decode", (unsigned long long)id);
			ok = false;
			break;
		}
		add_path(&got, path, len);
	}
	if (ok && want.n != got.n) {
		FAIL("%zu static paths by the definition, %llu IDs", want.n, (unsigned long long)n->total);
		ok = false;
	}
	if (ok) {
		qsort(want.s, want.n, sizeof *want.s, cmp_str);
		qsort(got.s, got.n, sizeof *got.s, cmp_str);
		for (size_t j = 0; j < want.n && ok; j++)
			if (strcmp(want.s[j], got.s[j]) != 0 || (j && strcmp(got.s[j], got.s[j - 1]) == 0)) {
				FAIL("static paths and decodes differ: %s / %s", want.s[j], got.s[j]);
				ok = false;
			}
	}
	free_paths(&want);
	free_paths(&got);
	return ok;
}

/* ---- runs ---- */

#define MAXRUN 4000

/*
 * docs/kiter-paths.md, "Relation to the k-IPF at k = K": in a function with
 * a single loop, at K, the run's k-iteration paths are, in order, the
 * K-windows p_(j-K+1) .. p_j (j >= K) of its Ball-Larus stream p_1 .. p_m,
 * or the whole stream when m < K.  bl cuts the same run at K = 1.
 */
static bool check_kipf_relation(const struct ki_numbering *n, const struct ki_numbering *bl, const uint32_t *run,
                                size_t len, const struct ki_span *kpaths, size_t nk)
{
	static struct ki_span p[MAXRUN];
	size_t m = ki_cut(bl, run, len, p, MAXRUN), want = 0;
	unsigned K = n->loops[0].k;

	/* window j covers p_(j-K+1) .. p_j; a stream shorter than K is one window */
	size_t windows = m < K ? 1 : m - K + 1;
	for (size_t w = 0; w < windows; w++) {
		size_t a = m < K ? 0 : w, b = m < K ? m - 1 : w + K - 1;
		if (want >= nk || kpaths[want].first != p[a].first || kpaths[want].last != p[b].last) {
			FAIL("k-IPF relation: path %zu is not the window of Ball-Larus paths %zu .. %zu", want, a + 1,
			     b + 1);
			return false;
		}
		want++;
	}
	if (want != nk) {
		FAIL("k-IPF relation: %zu k-iteration paths, %zu windows", nk, want);
		return false;
	}
	return true;
}

static bool check_runs(const struct ki_numbering *n, const struct ki_numbering *bl, int nruns, size_t *recorded,
                       size_t *windows, size_t *relation)
{
	static uint32_t run[MAXRUN], edges[MAXRUN];
	static uint64_t ids[MAXRUN];
	static struct ki_span cut[MAXRUN];
	uint32_t dist[MAXN];

	distances(n->g, dist);
	for (int r = 0; r < nruns; r++) {
		size_t len = random_run(n->g, dist, run, MAXRUN);
		if (!len)
			continue;
		size_t m = ki_exec(n, run, len, KI_FLAG_PER_COUNTER, ids, MAXRUN);
		size_t c = ki_cut(n, run, len, cut, MAXRUN);
		if (m != c) {
			FAIL("run %d: ki_exec recorded %zu paths, the definition cuts %zu", r, m, c);
			return false;
		}
		*recorded += m;
		if (bl) {
			if (!check_kipf_relation(n, bl, run, len, cut, c))
				return false;
			++*relation;
		}
		for (size_t j = 0; j < m; j++) {
			size_t want = cut[j].last - cut[j].first + 1;
			const struct ki_edge *last = &n->g->edges[run[cut[j].last]];
			uint32_t L = n->kloop[last->src];
			if (cut[j].first > 0 && last->back && L != KI_NONE && n->loops[L].k >= 3)
				++*windows; /* a window of K >= 3 iterations from the head */
			if (ids[j] >= n->total) {
				FAIL("run %d path %zu: ID %llu >= %llu", r, j, (unsigned long long)ids[j],
				     (unsigned long long)n->total);
				return false;
			}
			size_t l = ki_decode(n, ids[j], edges, MAXRUN);
			if (l != want || memcmp(edges, run + cut[j].first, want * sizeof *edges) != 0) {
				FAIL("run %d path %zu: ID %llu decodes to %zu edges, not to run[%zu..%zu]", r, j,
				     (unsigned long long)ids[j], l, cut[j].first, cut[j].last);
				return false;
			}
		}
	}
	return true;
}

static void check_fit(const struct ki_graph *g, const struct ki_options *o, uint64_t total)
{
	unsigned k_out[MAXN];
	struct ki_options f = *o;
	uint64_t acyclic;
	f.limit = total / 2 ? total / 2 : 1;
	struct ki_options one = { .k = 1 };
	acyclic = ki_count(g, &one);
	uint64_t got = ki_fit(g, &f, k_out);
	if (acyclic > f.limit) {
		if (got != UINT64_MAX)
			FAIL("ki_fit fits %llu under %llu below Ball-Larus %llu", (unsigned long long)got,
			     (unsigned long long)f.limit, (unsigned long long)acyclic);
		return;
	}
	struct ki_options chk = { .k = 1, .k_head = k_out };
	if (got > f.limit || ki_count(g, &chk) != got)
		FAIL("ki_fit: %llu paths for limit %llu (ki_count %llu)", (unsigned long long)got,
		     (unsigned long long)f.limit, (unsigned long long)ki_count(g, &chk));
}

int main(int argc, char **argv)
{
	unsigned long graphs = kp_test_scaled(argc > 1 ? strtoul(argv[1], NULL, 10) : 2000);
	unsigned long long seed0 = argc > 2 ? strtoull(argv[2], NULL, 10) : 15;
	size_t checked = 0, perfect = 0, recorded = 0, windows = 0, relation = 0, loop_to_loop = 0, irreducible = 0, skipped = 0, lowered = 0, kloops = 0;
	unsigned long ngraphs = 0;

	for (unsigned long t = 0; t < graphs && failures < 5; t++) {
		int loops;
		unsigned k_head[MAXN];
		g_seed = seed0 * 1000003ULL + t;
		rng = g_seed * 0x9E3779B97F4A7C15ULL + 1;
		struct ki_graph *g = random_graph(&loops);
		struct ki_options o = { .k = 1 + rnd(4), .limit = 2000000 };
		if (rnd(2)) {
			for (uint32_t v = 0; v < g->nnodes; v++)
				k_head[v] = 1 + rnd(4);
			o.k_head = k_head;
		}
		struct ki_numbering *n;
		char err[256];
		enum ki_status st = ki_build(g, &o, &n, err, sizeof err);
		ngraphs++;
		if (st == KI_TOO_MANY) {
			skipped++;
			ki_graph_free(g);
			continue;
		}
		if (st != KI_OK) {
			FAIL("ki_build: %s", err);
			ki_graph_free(g);
			continue;
		}
		for (uint32_t e = 0; e < g->nedges; e++) {
			uint32_t a = n->kloop[g->edges[e].src], b = n->kloop[g->edges[e].dst];
			if (a != KI_NONE && b != KI_NONE && a != b) {
				loop_to_loop++; /* an exit straight into another k-iteration loop */
				break;
			}
		}
		for (uint32_t l = 0; l < n->nloops; l++) {
			kloops += n->loops[l].k >= 2;
			lowered += n->loops[l].lowered != KI_LOWER_NONE;
			irreducible += n->loops[l].lowered == KI_LOWER_IRREDUCIBLE;
		}
		if (!ki_check(n, 200000, err, sizeof err))
			FAIL("ki_check: %s", err);
		check_loops(n);
		if (n->total <= 20000) {
			perfect++;
			check_perfect(n);
		}
		if (ki_count(g, &o) != n->total)
			FAIL("ki_count %llu, ki_build %llu", (unsigned long long)ki_count(g, &o),
			     (unsigned long long)n->total);
		struct ki_numbering *bl = NULL;
		if (n->nloops == 1 && n->loops[0].k >= 2 &&
		    ki_build(g, &(struct ki_options){ .k = 1 }, &bl, err, sizeof err) != KI_OK)
			FAIL("ki_build K = 1: %s", err);
		check_runs(n, bl, 6, &recorded, &windows, &relation);
		ki_free(bl);
		if (t % 8 == 0)
			check_fit(g, &o, n->total);
		checked++;
		ki_free(n);
		ki_graph_free(g);
	}
	printf("%lu graphs: %zu numbered (%zu k-iteration loops, %zu loops lowered to acyclic, %zu of them irreducible), %zu over the limit, "
	       "%zu checked perfect by enumeration, %zu IDs recorded and decoded (%zu windows of K >= 3 from a head), "
	       "%zu single-loop runs matched to their Ball-Larus windows, %zu graphs with an exit into another k-iteration loop\n",
	       ngraphs, checked, kloops, lowered, irreducible, skipped, perfect, recorded, windows, relation, loop_to_loop);
	if (checked < graphs / 2 || recorded == 0 || kloops == 0 || windows == 0 || relation == 0 || loop_to_loop == 0 ||
	    irreducible == 0) {
		fprintf(stderr, "too little was compared\n");
		return 1;
	}
	return failures != 0;
}
