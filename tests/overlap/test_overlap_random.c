/*
 * Property test of cfgbuild/overlap*.c on random structured programs
 * (seeded): functions built from if / if-else / while / do-while / break /
 * continue / early return / calls (acyclic call graph), each run once with
 * biased, history-dependent branches.
 *
 * Independently of the model, the test cuts the run into activations and
 * BL paths itself (back edges as the generator made them) and counts every
 * interesting path by brute force.  Then, for every site and every degree
 * up to the site's maximum overlap:
 *   - the model's exact counts and totals (B, C) equal the brute force;
 *   - every lower bound <= the exact count <= every upper bound;
 *   - at the maximum overlap, lower = upper = exact;
 *   - each second half's OL prefix (through the overlapping graph) equals
 *     a plain count of predicates, and the walk uses only DI edges and PI
 *     edges below the limit, within [minp, maxp];
 *   - OL path counts per degree equal a brute-force enumeration.
 * Prints the imprecision of definite / potential flow for theta = 0, 1, 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap.h"
#include "test_scale.h"

static int failures;
static uint64_t checks;

#define CHECK(c)                                                                                 \
	do {                                                                                     \
		checks++;                                                                        \
		if (!(c)) {                                                                      \
			if (failures++ < 20)                                                     \
				fprintf(stderr, "%s:%d: seed %u: check failed: %s\n", __FILE__, __LINE__, seed, #c); \
		}                                                                                \
	} while (0)

static unsigned seed;
static uint64_t rng;

static uint32_t below(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)((rng >> 11) % n);
}

/* ---- the generator ---- */

#define MAXB 64
#define MAXE 160
#define MAXF 4

struct gfunc {
	uint32_t nb, ne, exit;
	uint32_t src[MAXE], dst[MAXE];
	bool back[MAXE];
	uint32_t callee[MAXB];
	bool loop_cond[MAXB];
	uint32_t fi, nfuncs;
};

struct loopctx {
	uint32_t brk, cont;
	bool cont_is_back, *brk_used, *cont_used;
};

static uint32_t new_block(struct gfunc *g)
{
	g->callee[g->nb] = OL_NONE;
	g->loop_cond[g->nb] = false;
	return g->nb++;
}

static void edge(struct gfunc *g, uint32_t s, uint32_t d, bool back)
{
	g->src[g->ne] = s;
	g->dst[g->ne] = d;
	g->back[g->ne++] = back;
}

static uint32_t gen_seq(struct gfunc *g, uint32_t depth, uint32_t cur, const struct loopctx *lc);

/* A condition that calls a function (if (g()), while (g())) one time in
 * four: the call block is then a predicate, or a loop head. */
static void maybe_call(struct gfunc *g, uint32_t b)
{
	if (g->fi + 1 < g->nfuncs && below(4) == 0)
		g->callee[b] = g->fi + 1 + below(g->nfuncs - g->fi - 1);
}

/* One statement after block cur; returns the block control falls out of,
 * OL_NONE when it does not. */
static uint32_t gen_stmt(struct gfunc *g, uint32_t depth, uint32_t cur, const struct loopctx *lc)
{
	uint32_t r = below(100), c, j, b, x, h, te, ee;
	bool small = depth >= 3 || g->nb > MAXB - 12;

	if (small)
		r = r % 45;
	if (r < 25 || (r < 40 && g->fi + 1 >= g->nfuncs)) { /* plain block */
		b = new_block(g);
		edge(g, cur, b, false);
		return b;
	}
	if (r < 40) { /* call */
		b = new_block(g);
		g->callee[b] = g->fi + 1 + below(g->nfuncs - g->fi - 1);
		edge(g, cur, b, false);
		return b;
	}
	if (r < 60) { /* if, if-else: the first out-edge is the default (else / skip) */
		c = new_block(g);
		maybe_call(g, c);
		edge(g, cur, c, false);
		if (below(2)) {
			uint32_t eb = new_block(g), tb = new_block(g);

			edge(g, c, eb, false);
			edge(g, c, tb, false);
			te = gen_seq(g, depth + 1, tb, lc);
			ee = gen_seq(g, depth + 1, eb, lc);
			if (te == OL_NONE && ee == OL_NONE)
				return OL_NONE;
			j = new_block(g);
			if (te != OL_NONE)
				edge(g, te, j, false);
			if (ee != OL_NONE)
				edge(g, ee, j, false);
			return j;
		}
		j = new_block(g);
		b = new_block(g);
		edge(g, c, j, false);
		edge(g, c, b, false);
		te = gen_seq(g, depth + 1, b, lc);
		if (te != OL_NONE)
			edge(g, te, j, false);
		return j;
	}
	if (r < 74) { /* while: head, exit first, body */
		bool bu = false, cu = false;
		struct loopctx in;

		h = new_block(g);
		g->loop_cond[h] = true;
		maybe_call(g, h);
		edge(g, cur, h, false);
		x = new_block(g);
		b = new_block(g);
		edge(g, h, x, false);
		edge(g, h, b, false);
		in = (struct loopctx){ .brk = x, .cont = h, .cont_is_back = true, .brk_used = &bu, .cont_used = &cu };
		te = gen_seq(g, depth + 1, b, &in);
		if (te != OL_NONE)
			edge(g, te, h, true);
		return x;
	}
	if (r < 84) { /* do-while: body, condition (exit first, back to the body) */
		bool bu = false, cu = false;
		struct loopctx in;
		uint32_t cnd;

		b = new_block(g);
		edge(g, cur, b, false);
		cnd = new_block(g);
		g->loop_cond[cnd] = true;
		maybe_call(g, cnd);
		x = new_block(g);
		in = (struct loopctx){ .brk = x, .cont = cnd, .cont_is_back = false, .brk_used = &bu, .cont_used = &cu };
		te = gen_seq(g, depth + 1, b, &in);
		if (te != OL_NONE)
			edge(g, te, cnd, false);
		if (te != OL_NONE || cu) {
			edge(g, cnd, x, false);
			edge(g, cnd, b, true);
		} else if (!bu) {
			return OL_NONE; /* the body never ends normally: cnd and x stay unreachable */
		}
		return x;
	}
	if (r < 96 && lc) { /* if (c) break; / if (c) continue; */
		c = new_block(g);
		edge(g, cur, c, false);
		j = new_block(g);
		edge(g, c, j, false);
		if (below(2)) {
			edge(g, c, lc->brk, false);
			*lc->brk_used = true;
		} else {
			edge(g, c, lc->cont, lc->cont_is_back);
			*lc->cont_used = true;
		}
		return j;
	}
	/* if (c) return; */
	c = new_block(g);
	edge(g, cur, c, false);
	j = new_block(g);
	edge(g, c, j, false);
	edge(g, c, g->exit, false);
	return j;
}

static uint32_t gen_seq(struct gfunc *g, uint32_t depth, uint32_t cur, const struct loopctx *lc)
{
	uint32_t n = 1 + below(3), i;

	for (i = 0; i < n && cur != OL_NONE && g->nb < MAXB - 8; i++)
		cur = gen_stmt(g, depth, cur, lc);
	return cur;
}

static void gen_func(struct gfunc *g, uint32_t fi, uint32_t nfuncs)
{
	uint32_t entry, end;

	memset(g, 0, sizeof *g);
	g->fi = fi;
	g->nfuncs = nfuncs;
	entry = new_block(g);
	g->exit = new_block(g);
	end = gen_seq(g, 0, entry, NULL);
	if (end != OL_NONE)
		edge(g, end, g->exit, false);
}

/* ---- the run ---- */

struct runner {
	const struct ol_program *prog;
	const struct gfunc *gf;
	struct ol_event *ev;
	size_t n, cap;
	uint32_t steps, budget;
	uint8_t bias[MAXF][MAXB], stick[MAXF][MAXB], last[MAXF][MAXB];
};

static void emit(struct runner *r, uint32_t fi, uint32_t b)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->ev = realloc(r->ev, r->cap * sizeof *r->ev);
		if (!r->ev)
			abort();
	}
	r->ev[r->n++] = (struct ol_event){ fi, b };
}

static void run_func(struct runner *r, uint32_t fi)
{
	const struct ol_func *f = &r->prog->funcs[fi];
	uint32_t b = f->entry;

	for (;;) {
		uint32_t ns = f->succ_start[b + 1] - f->succ_start[b], k = 0;

		emit(r, fi, b);
		r->steps++;
		if (f->callee[b] != OL_NONE)
			run_func(r, f->callee[b]);
		if (b == f->exit)
			return;
		if (ns == 2) {
			if (r->steps > r->budget)
				k = 0; /* the default edge leaves every loop: the run ends */
			else if (below(100) < r->stick[fi][b])
				k = r->last[fi][b];
			else
				k = below(100) < r->bias[fi][b];
			r->last[fi][b] = (uint8_t)k;
		}
		b = f->edges[f->succ_edge[f->succ_start[b] + k]].dst;
	}
}

/* ---- brute force: interesting paths from the events alone ---- */

struct occ {
	uint32_t site, p, q; /* p, q: ids in the brute table */
	uint64_t count;      /* 1 per occurrence; the run's count once aggregated */
};

struct brute {
	const struct gfunc *gf;
	const struct ol_program *prog;
	const struct ol_site *sites;
	uint32_t nsites;
	struct ol_seqtab seqs;
	struct occ *o;
	size_t n, cap;
};

static bool is_back(const struct gfunc *g, uint32_t u, uint32_t v)
{
	uint32_t e;

	for (e = 0; e < g->ne; e++)
		if (g->src[e] == u && g->dst[e] == v)
			return g->back[e];
	return false;
}

static uint32_t site_of(const struct brute *bf, enum ol_kind k, uint32_t fi, uint32_t b)
{
	uint32_t s;

	for (s = 0; s < bf->nsites; s++)
		if (bf->sites[s].kind == k && bf->sites[s].func == fi && bf->sites[s].block == b)
			return s;
	abort();
}

static void add_occ(struct brute *bf, uint32_t site, const uint32_t *p, uint32_t np, const uint32_t *q, uint32_t nq)
{
	if (bf->n == bf->cap) {
		bf->cap = bf->cap ? 2 * bf->cap : 1024;
		bf->o = realloc(bf->o, bf->cap * sizeof *bf->o);
		if (!bf->o)
			abort();
	}
	bf->o[bf->n++] = (struct occ){ site, ol_seq_intern(&bf->seqs, p, np), ol_seq_intern(&bf->seqs, q, nq), 1 };
}

/* Natural loop of head h: blocks reaching a back edge into h without h. */
static void natural_loop(const struct gfunc *g, uint32_t h, bool *in)
{
	bool changed = true;
	uint32_t e;

	memset(in, 0, MAXB * sizeof *in);
	in[h] = true;
	for (e = 0; e < g->ne; e++)
		if (g->back[e] && g->dst[e] == h)
			in[g->src[e]] = true;
	while (changed) {
		changed = false;
		for (e = 0; e < g->ne; e++)
			if (!g->back[e] && in[g->dst[e]] && !in[g->src[e]] && g->dst[e] != h) {
				in[g->src[e]] = true;
				changed = true;
			}
	}
}

struct callrec {
	uint32_t pos, *first, nfirst, *last, nlast;
};

/* One activation of fi from ev[*at]: its own blocks (callees' left out),
 * then every interesting path it holds. */
static void activation(struct brute *bf, const struct ol_event *ev, size_t *at, uint32_t fi, uint32_t **first, uint32_t *nfirst,
                       uint32_t **last, uint32_t *nlast)
{
	const struct gfunc *g = &bf->gf[fi];
	uint32_t *b = NULL, n = 0, cap = 0, i, j, k;
	struct callrec *calls = NULL;
	uint32_t ncalls = 0;
	bool in[MAXB];

	for (;;) {
		uint32_t blk = ev[*at].block;

		if (ev[*at].func != fi)
			abort();
		(*at)++;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			b = realloc(b, cap * sizeof *b);
		}
		b[n++] = blk;
		if (g->callee[blk] != OL_NONE) {
			calls = realloc(calls, (ncalls + 1) * sizeof *calls);
			calls[ncalls].pos = n - 1;
			activation(bf, ev, at, g->callee[blk], &calls[ncalls].first, &calls[ncalls].nfirst, &calls[ncalls].last, &calls[ncalls].nlast);
			ncalls++;
		}
		if (blk == g->exit)
			break;
	}
	/* loops: every back edge taken, the BL path before and the iteration after */
	for (i = 0; i + 1 < n; i++) {
		uint32_t h = b[i + 1], s;

		if (!is_back(g, b[i], h))
			continue;
		for (s = i; s > 0 && !is_back(g, b[s - 1], b[s]); s--)
			;
		for (k = s; k <= i && b[k] != h; k++)
			;
		if (k > i)
			k = s;
		natural_loop(g, h, in);
		for (j = i + 1; j + 1 < n && in[b[j + 1]] && !is_back(g, b[j], b[j + 1]); j++)
			;
		add_occ(bf, site_of(bf, OL_LOOP, fi, h), b + k, i + 1 - k, b + i + 1, j - i);
	}
	/* calls: Type I and Type II */
	for (k = 0; k < ncalls; k++) {
		uint32_t pos = calls[k].pos, s, e;

		for (s = pos; s > 0 && !is_back(g, b[s - 1], b[s]); s--)
			;
		for (e = pos; e + 1 < n && !is_back(g, b[e], b[e + 1]); e++)
			;
		add_occ(bf, site_of(bf, OL_CALL_IN, fi, b[pos]), b + s, pos + 1 - s, calls[k].first, calls[k].nfirst);
		add_occ(bf, site_of(bf, OL_CALL_OUT, fi, b[pos]), calls[k].last, calls[k].nlast, b + pos, e + 1 - pos);
		free(calls[k].first);
		free(calls[k].last);
	}
	free(calls);
	/* this activation's first and last BL paths, for its caller */
	for (i = 0; i + 1 < n && !is_back(g, b[i], b[i + 1]); i++)
		;
	*nfirst = i + 1;
	*first = malloc(*nfirst * sizeof **first);
	memcpy(*first, b, *nfirst * sizeof *b);
	for (i = n - 1; i > 0 && !is_back(g, b[i - 1], b[i]); i--)
		;
	*nlast = n - i;
	*last = malloc(*nlast * sizeof **last);
	memcpy(*last, b + i, *nlast * sizeof *b);
	free(b);
}

static int cmp_occ(const void *a, const void *b)
{
	const struct occ *x = a, *y = b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->q < y->q ? -1 : x->q > y->q;
}

/* ---- checks ---- */

/* prefix_theta(q) by a plain count: cut after the (theta+1)-th predicate. */
static uint32_t plain_prefix(const struct ol_func *f, const uint32_t *q, uint32_t n, uint32_t theta)
{
	uint32_t i, ol = 0;

	for (i = 0; i < n; i++) {
		ol += f->is_pred[q[i]];
		if (ol == theta + 1)
			return i + 1;
	}
	return n;
}

static void check_walk(const struct ol_og *og, const uint32_t *q, uint32_t n)
{
	const struct ol_func *f = og->sp->f;
	uint32_t len = ol_og_prefix(og, q, n), ol = 0, i, k;

	CHECK(len == plain_prefix(f, q, n, og->theta));
	for (i = 0; i < n; i++) {
		uint32_t e = OL_NONE;

		CHECK(og->minp[q[i]] <= ol + f->is_pred[q[i]] && ol + f->is_pred[q[i]] <= og->maxp[q[i]]);
		if (i + 1 < n)
			for (k = f->succ_start[q[i]]; k < f->succ_start[q[i] + 1]; k++)
				if (f->edges[f->succ_edge[k]].dst == q[i + 1])
					e = f->succ_edge[k];
		ol += f->is_pred[q[i]];
		if (i + 1 == n)
			break;
		CHECK(e != OL_NONE);
		if (i + 1 < len) /* the walk takes this edge: DI, or PI while ol <= theta */
			CHECK(og->cls[e] == OL_EDGE_DI || (og->cls[e] == OL_EDGE_PI && ol <= og->theta));
		else if (i + 1 == len) /* the walk stopped: this edge is not definitely taken */
			CHECK(og->cls[e] == OL_EDGE_PI || og->cls[e] == OL_EDGE_DNI);
	}
}

/* Every second half of the space (DFS), for counting OL paths by brute force. */
static void all_q(const struct ol_space *sp, uint32_t v, uint32_t *path, uint32_t depth, struct ol_seqtab *out, uint32_t limit)
{
	const struct ol_func *f = sp->f;
	uint32_t k;

	path[depth++] = v;
	if (out->nseq > limit)
		return;
	if (ol_space_can_end(sp, v))
		ol_seq_intern(out, path, depth);
	for (k = f->succ_start[v]; k < f->succ_start[v + 1]; k++)
		if (ol_space_continues(sp, f->succ_edge[k]))
			all_q(sp, f->edges[f->succ_edge[k]].dst, path, depth, out, limit);
}

static void free_tab(struct ol_seqtab *t)
{
	free(t->data);
	free(t->start);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

/*
 * Section 2.3's definitions against every second half of the space: the
 * fewest / most predicates on the way to each block, the class of every
 * edge (DI: at most theta on every path to its source; DNI: more on every
 * one; PI: otherwise), the blocks of the overlapping graph (those some OL
 * path passes) and its stop nodes (where some OL path ends at its
 * (theta+1)-th predicate).  Every block of the space reaches an end, so
 * the prefixes of the second halves are all the paths from the start.
 */
static void check_classes(const struct ol_space *sp, const struct ol_seqtab *qs, uint32_t theta)
{
	const struct ol_func *f = sp->f;
	uint32_t bmin[MAXB], bmax[MAXB], i, k, e;
	bool seen_edge[MAXE] = { false }, in_og[MAXB] = { false }, stop[MAXB] = { false };
	struct ol_og og;

	for (i = 0; i < f->nblocks; i++)
		bmin[i] = bmax[i] = OL_NONE;
	for (i = 0; i < qs->nseq; i++) {
		uint32_t n, ol = 0, len;
		const uint32_t *q = ol_seq(qs, i, &n);

		len = plain_prefix(f, q, n, theta);
		for (k = 0; k < n; k++) {
			ol += f->is_pred[q[k]];
			if (bmin[q[k]] == OL_NONE || ol < bmin[q[k]])
				bmin[q[k]] = ol;
			if (bmax[q[k]] == OL_NONE || ol > bmax[q[k]])
				bmax[q[k]] = ol;
			if (k < len)
				in_og[q[k]] = true;
			if (k + 1 == len && ol == theta + 1)
				stop[q[k]] = true;
			if (k + 1 < n)
				for (e = 0; e < f->nedges; e++)
					if (f->edges[e].src == q[k] && f->edges[e].dst == q[k + 1])
						seen_edge[e] = true;
		}
	}
	ol_og_build(&og, sp, theta);
	for (i = 0; i < f->nblocks; i++) {
		CHECK(og.minp[i] == bmin[i] && og.maxp[i] == bmax[i]);
		CHECK(og.in_og[i] == in_og[i]);
		CHECK(og.stop[i] == stop[i]);
	}
	for (e = 0; e < f->nedges; e++) {
		uint32_t u = f->edges[e].src;
		enum ol_edge_class want = !seen_edge[e] ? OL_EDGE_NOT_IN_SPACE
		                          : bmax[u] <= theta ? OL_EDGE_DI
		                          : bmin[u] > theta  ? OL_EDGE_DNI
		                                             : OL_EDGE_PI;

		CHECK(og.cls[e] == want);
	}
	ol_og_release(&og);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Section 2.3's numbering: the distinct OL paths get distinct IDs below
 * the total. */
static void check_numbering(const struct ol_space *sp, const struct ol_seqtab *pre, uint32_t theta)
{
	struct ol_og og;
	struct ol_og_numbering nb;
	uint64_t *ids = malloc((pre->nseq + 1) * sizeof *ids);
	uint32_t i;

	ol_og_build(&og, sp, theta);
	CHECK(ol_og_number(&og, &nb));
	for (i = 0; i < pre->nseq; i++) {
		uint32_t n;
		const uint32_t *x = ol_seq(pre, i, &n);

		ids[i] = ol_og_path_id(&og, &nb, x, n);
		CHECK(ids[i] < nb.total);
	}
	qsort(ids, pre->nseq, sizeof *ids, cmp_u64);
	for (i = 1; i < pre->nseq; i++)
		CHECK(ids[i - 1] != ids[i]);
	CHECK(nb.total >= pre->nseq);
	ol_og_numbering_release(&nb);
	ol_og_release(&og);
	free(ids);
}

static void check_counting(const struct ol_space *sp, uint32_t maxdeg)
{
	struct ol_seqtab qs = { 0 };
	uint32_t path[MAXB + 1], theta, i, most = 0;

	all_q(sp, sp->start, path, 0, &qs, 4000);
	if (qs.nseq > 4000) {
		free_tab(&qs);
		return;
	}
	for (i = 0; i < qs.nseq; i++) { /* the maximum overlap: most predicates, last block counted, minus one */
		uint32_t n, k, npred = 0;
		const uint32_t *q = ol_seq(&qs, i, &n);

		for (k = 0; k < n; k++)
			npred += sp->f->is_pred[q[k]];
		npred += !sp->f->is_pred[q[n - 1]];
		if (npred > most)
			most = npred;
	}
	CHECK(most >= 1 && most - 1 == maxdeg);
	for (theta = 0; theta <= maxdeg + 1 && theta < 8; theta++) {
		uint64_t by[8], want[8] = { 0 };
		struct ol_seqtab pre = { 0 };

		for (i = 0; i < qs.nseq; i++) {
			uint32_t n, len, npred = 0, k, before = pre.nseq;
			const uint32_t *q = ol_seq(&qs, i, &n);

			len = plain_prefix(sp->f, q, n, theta);
			ol_seq_intern(&pre, q, len);
			if (pre.nseq == before)
				continue;
			for (k = 0; k < len; k++)
				npred += sp->f->is_pred[q[k]];
			if (len == n && !sp->f->is_pred[q[n - 1]])
				npred++; /* the last block counts as a predicate */
			want[npred - 1]++;
		}
		CHECK(ol_count_paths(sp, theta, by, 100000));
		for (i = 0; i <= theta; i++)
			CHECK(by[i] == want[i]);
		check_classes(sp, &qs, theta);
		check_numbering(sp, &pre, theta);
		free_tab(&pre);
	}
	free_tab(&qs);
}

/* ---- imprecision ---- */

struct flow {
	uint64_t real, definite[3], potential[3], exact_pairs[3], pairs[3];
};

static struct flow flows[3]; /* per kind */

static void check_site(struct ol_model *m, struct brute *bf, uint32_t site, const struct occ *o, size_t no)
{
	const struct ol_site *s = &m->sites[site];
	struct ol_space sp = ol_site_space(m->prog, s);
	uint32_t maxdeg = ol_max_degree(&sp), theta, i;
	uint64_t real = 0;
	uint32_t *mp = malloc((no + 1) * sizeof *mp), *mq = malloc((no + 1) * sizeof *mq);

	/* the brute-force sequences, as model ids */
	for (i = 0; i < no; i++) {
		uint32_t n;
		const uint32_t *x = ol_seq(&bf->seqs, o[i].p, &n);

		mp[i] = ol_seq_intern(&m->seqs, x, n);
		x = ol_seq(&bf->seqs, o[i].q, &n);
		mq[i] = ol_seq_intern(&m->seqs, x, n);
		CHECK(ol_model_exact(m, site, mp[i], mq[i]) == o[i].count);
		real += o[i].count;
	}
	CHECK(ol_model_total(m, site) == real);
	for (theta = 0; theta <= maxdeg; theta++) {
		struct ol_site_input si;
		struct ol_bounds b;
		struct ol_og og;
		uint32_t *pidx, *qidx, nseq = m->seqs.nseq;
		uint64_t matched = 0;

		ol_model_input(m, site, theta, &si);
		CHECK(ol_estimate(&si.in, &b));
		pidx = malloc(nseq * sizeof *pidx);
		qidx = malloc(nseq * sizeof *qidx);
		for (i = 0; i < nseq; i++)
			pidx[i] = qidx[i] = OL_NONE;
		for (i = 0; i < si.in.np; i++)
			pidx[si.p_ids[i]] = i;
		for (i = 0; i < si.in.nq; i++)
			qidx[si.q_ids[i]] = i;
		ol_og_build(&og, &sp, theta);
		for (i = 0; i < si.in.nq; i++) {
			uint32_t n;
			const uint32_t *q = ol_seq(&m->seqs, si.q_ids[i], &n);

			check_walk(&og, q, n);
		}
		ol_og_release(&og);
		/* soundness over the pairs that ran */
		for (i = 0; i < no; i++) {
			size_t at;

			CHECK(pidx[mp[i]] != OL_NONE && qidx[mq[i]] != OL_NONE);
			if (pidx[mp[i]] == OL_NONE || qidx[mq[i]] == OL_NONE)
				continue;
			at = (size_t)pidx[mp[i]] * si.in.nq + qidx[mq[i]];
			CHECK(b.lower[at] <= o[i].count && o[i].count <= b.upper[at]);
			if (theta == maxdeg)
				CHECK(b.lower[at] == o[i].count && b.upper[at] == o[i].count);
			matched += b.lower[at] == b.upper[at];
		}
		/* and over the pairs that did not: exact count 0 */
		{
			uint64_t sum_lower_run = 0;

			for (i = 0; i < no; i++)
				if (pidx[mp[i]] != OL_NONE && qidx[mq[i]] != OL_NONE)
					sum_lower_run += b.lower[(size_t)pidx[mp[i]] * si.in.nq + qidx[mq[i]]];
			CHECK(b.definite == sum_lower_run);
			if (theta == maxdeg)
				CHECK(b.potential == real);
		}
		for (i = 0; i < 3; i++)
			if (theta == (i < maxdeg ? i : maxdeg)) {
				flows[s->kind].definite[i] += b.definite;
				flows[s->kind].potential[i] += b.potential;
				flows[s->kind].exact_pairs[i] += matched;
				flows[s->kind].pairs[i] += no;
			}
		free(pidx);
		free(qidx);
		ol_bounds_release(&b);
		ol_site_input_release(&si);
	}
	flows[s->kind].real += real;
	check_counting(&sp, maxdeg);
	free(mp);
	free(mq);
}

static void one_program(unsigned sd)
{
	struct gfunc gf[MAXF];
	struct ol_func fn[MAXF];
	struct ol_program prog = { .funcs = fn };
	struct runner r = { 0 };
	struct brute bf = { 0 };
	struct ol_model m;
	uint32_t fi, e, b, nact, a;
	size_t at = 0, i, j;

	seed = sd;
	rng = 0x9e3779b97f4a7c15ull ^ ((uint64_t)sd * 0x2545f4914f6cdd1dull);
	below(2);
	prog.nfuncs = 1 + below(MAXF);
	for (fi = 0; fi < prog.nfuncs; fi++) {
		gen_func(&gf[fi], fi, prog.nfuncs);
		ol_func_init(&fn[fi], gf[fi].nb, 0, gf[fi].exit);
		for (e = 0; e < gf[fi].ne; e++)
			ol_func_add_edge(&fn[fi], gf[fi].src[e], gf[fi].dst[e]);
		for (b = 0; b < gf[fi].nb; b++)
			if (gf[fi].callee[b] != OL_NONE)
				ol_func_set_call(&fn[fi], b, gf[fi].callee[b]);
		ol_func_finish(&fn[fi]);
		for (e = 0; e < gf[fi].ne; e++) /* the DFS finds the back edges the generator made */
			CHECK(fn[fi].is_back[e] == gf[fi].back[e]);
		for (b = 0; b < gf[fi].nb; b++) {
			r.bias[fi][b] = (uint8_t)(gf[fi].loop_cond[b] ? 55 + below(40) : 10 + below(80));
			r.stick[fi][b] = (uint8_t)below(90);
		}
	}
	r.prog = &prog;
	r.gf = gf;
	r.budget = 200 + below(600);
	nact = 1 + below(3);
	for (a = 0; a < nact; a++)
		run_func(&r, 0);

	ol_model_init(&m, &prog);
	CHECK(ol_model_run(&m, r.ev, r.n));
	bf.gf = gf;
	bf.prog = &prog;
	bf.sites = m.sites;
	bf.nsites = m.nsites;
	for (a = 0; a < nact; a++) {
		uint32_t *first, nfirst, *last, nlast;

		activation(&bf, r.ev, &at, 0, &first, &nfirst, &last, &nlast);
		free(first);
		free(last);
	}
	CHECK(at == r.n);
	/* aggregate occurrences into (site, p, q, count) */
	if (bf.n > 1)
		qsort(bf.o, bf.n, sizeof *bf.o, cmp_occ);
	for (i = 0, j = 0; i < m.nsites; i++) {
		struct occ *agg = malloc((bf.n + 1) * sizeof *agg);
		size_t na = 0;

		while (j < bf.n && bf.o[j].site == i) {
			size_t k = j;

			while (k < bf.n && bf.o[k].site == i && bf.o[k].p == bf.o[j].p && bf.o[k].q == bf.o[j].q)
				k++;
			agg[na++] = (struct occ){ (uint32_t)i, bf.o[j].p, bf.o[j].q, k - j };
			j = k;
		}
		check_site(&m, &bf, (uint32_t)i, agg, na);
		free(agg);
	}
	ol_model_release(&m);
	free_tab(&bf.seqs);
	free(bf.o);
	free(r.ev);
	for (fi = 0; fi < prog.nfuncs; fi++)
		ol_func_release(&fn[fi]);
}

static void print_flow(const char *name, const struct flow *f)
{
	uint32_t t;

	printf("  %-8s real %10" PRIu64, name, f->real);
	for (t = 0; t < 3; t++)
		printf("  θ=%u %+6.1f%% / %+6.1f%%", t, f->real ? 100.0 * ((double)f->definite[t] - (double)f->real) / (double)f->real : 0.0,
		       f->real ? 100.0 * ((double)f->potential[t] - (double)f->real) / (double)f->real : 0.0);
	printf("   exact pairs");
	for (t = 0; t < 3; t++)
		printf(" %5.1f%%", f->pairs[t] ? 100.0 * (double)f->exact_pairs[t] / (double)f->pairs[t] : 0.0);
	printf("\n");
}

int main(int argc, char **argv)
{
	unsigned n = (unsigned)kp_test_scaled(argc > 1 ? strtoul(argv[1], NULL, 10) : 3000), first = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1, s;
	struct flow all = { 0 };
	uint32_t k, t;

	for (s = first; s < first + n; s++)
		one_program(s);
	for (k = 0; k < 3; k++) {
		all.real += flows[k].real;
		for (t = 0; t < 3; t++) {
			all.definite[t] += flows[k].definite[t];
			all.potential[t] += flows[k].potential[t];
			all.exact_pairs[t] += flows[k].exact_pairs[t];
			all.pairs[t] += flows[k].pairs[t];
		}
	}
	printf("test_overlap_random: %u programs, %" PRIu64 " checks; definite / potential flow against the real flow,\n"
	       "and the share of the interesting paths run whose bounds are exact, for theta = 0, 1, 2:\n", n, checks);
	print_flow("loops", &flows[OL_LOOP]);
	print_flow("Type I", &flows[OL_CALL_IN]);
	print_flow("Type II", &flows[OL_CALL_OUT]);
	print_flow("all", &all);
	if (failures) {
		fprintf(stderr, "test_overlap_random: %d checks failed\n", failures);
		return 1;
	}
	/* a run that compared nothing must fail */
	return checks > 1000 && flows[OL_LOOP].real > 0 && flows[OL_CALL_IN].real > 0 ? 0 : 1;
}
