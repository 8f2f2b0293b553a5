/*
 * overlap.c: the program graph of overlap.h, second-half spaces, the edge
 * classes and overlapping graph of section 2.3 of Tallam, Zhang & Gupta
 * (CGO 2004), and the counting of OL paths (Tables 3, 6, 7).
 *
 * The invariant everything here rests on: a second half is a path of the
 * Ball-Larus DAG (no back edge), so within one space the blocks can be
 * visited in the function's reverse postorder, and "the number of
 * predicates from the start to v" is a longest / shortest path problem on
 * a DAG.  docs/overlap.md defines the terms.
 */
#include "overlap.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();
	return p;
}

void ol_func_init(struct ol_func *f, uint32_t nblocks, uint32_t entry, uint32_t exit)
{
	uint32_t b;

	assert(entry < nblocks && exit < nblocks && entry != exit);
	memset(f, 0, sizeof *f);
	f->nblocks = nblocks;
	f->entry = entry;
	f->exit = exit;
	f->callee = xcalloc(nblocks, sizeof *f->callee);
	for (b = 0; b < nblocks; b++)
		f->callee[b] = OL_NONE;
}

void ol_func_add_edge(struct ol_func *f, uint32_t src, uint32_t dst)
{
	assert(src < f->nblocks && dst < f->nblocks && !f->succ_start);
	if (f->nedges == f->cap_edges) {
		f->cap_edges = f->cap_edges ? 2 * f->cap_edges : 8;
		f->edges = realloc(f->edges, f->cap_edges * sizeof *f->edges);
		if (!f->edges)
			abort();
	}
	f->edges[f->nedges++] = (struct ol_edge){ .src = src, .dst = dst };
}

void ol_func_set_call(struct ol_func *f, uint32_t block, uint32_t callee)
{
	assert(block < f->nblocks && block != f->exit);
	f->callee[block] = callee;
}

/* Iterative DFS from the entry following out-edges in insertion order:
 * retreating edges (to a block still on the stack) are back edges; the
 * reverse of the postorder is a topological order of the rest. */
static void dfs(struct ol_func *f)
{
	uint32_t n = f->nblocks, *stack = xcalloc(n, sizeof *stack), *next = xcalloc(n, sizeof *next);
	uint32_t *post = xcalloc(n, sizeof *post), npost = 0, sp = 0, i;
	uint8_t *state = xcalloc(n, 1); /* 0 new, 1 on stack, 2 done */

	stack[sp++] = f->entry;
	state[f->entry] = 1;
	next[f->entry] = f->succ_start[f->entry];
	while (sp) {
		uint32_t v = stack[sp - 1];

		if (next[v] < f->succ_start[v + 1]) {
			uint32_t e = f->succ_edge[next[v]++], w = f->edges[e].dst;

			if (state[w] == 1) {
				f->is_back[e] = true;
			} else if (state[w] == 0) {
				state[w] = 1;
				next[w] = f->succ_start[w];
				stack[sp++] = w;
			}
		} else {
			state[v] = 2;
			post[npost++] = v;
			sp--;
		}
	}
	f->rpo = xcalloc(n, sizeof *f->rpo);
	f->nrpo = npost;
	for (i = 0; i < npost; i++)
		f->rpo[i] = post[npost - 1 - i];
	free(stack);
	free(next);
	free(post);
	free(state);
}

/* Natural loop of every head: the head plus every block reaching one of
 * its back edges' sources without passing the head (reverse flood). */
static void loop_bodies(struct ol_func *f)
{
	uint32_t n = f->nblocks, h, e, *work = xcalloc(n, sizeof *work);

	f->body = xcalloc(n, sizeof *f->body);
	for (h = 0; h < n; h++) {
		bool *in;
		uint32_t nw = 0;

		if (!f->is_head[h])
			continue;
		in = f->body[h] = xcalloc(n, sizeof *in);
		in[h] = true;
		for (e = 0; e < f->nedges; e++)
			if (f->is_back[e] && f->edges[e].dst == h && !in[f->edges[e].src]) {
				in[f->edges[e].src] = true;
				work[nw++] = f->edges[e].src;
			}
		while (nw) {
			uint32_t v = work[--nw];

			for (e = 0; e < f->nedges; e++)
				if (f->edges[e].dst == v && !f->is_back[e] && !in[f->edges[e].src]) {
					in[f->edges[e].src] = true;
					work[nw++] = f->edges[e].src;
				}
		}
	}
	free(work);
}

void ol_func_finish(struct ol_func *f)
{
	uint32_t n = f->nblocks, e, b, *fill;

	f->succ_start = xcalloc(n + 1, sizeof *f->succ_start);
	f->succ_edge = xcalloc(f->nedges, sizeof *f->succ_edge);
	f->is_back = xcalloc(f->nedges, sizeof *f->is_back);
	f->is_pred = xcalloc(n, sizeof *f->is_pred);
	f->is_head = xcalloc(n, sizeof *f->is_head);
	f->back_head = xcalloc(n, sizeof *f->back_head);
	for (e = 0; e < f->nedges; e++) {
		assert(f->edges[e].dst != f->entry && f->edges[e].src != f->exit);
		f->succ_start[f->edges[e].src + 1]++;
	}
	for (b = 0; b < n; b++)
		f->succ_start[b + 1] += f->succ_start[b];
	fill = xcalloc(n, sizeof *fill);
	for (e = 0; e < f->nedges; e++)
		f->succ_edge[f->succ_start[f->edges[e].src] + fill[f->edges[e].src]++] = e;
	free(fill);
	for (b = 0; b < n; b++) {
		f->is_pred[b] = f->succ_start[b + 1] - f->succ_start[b] >= 2;
		f->back_head[b] = OL_NONE;
	}
	dfs(f);
	for (e = 0; e < f->nedges; e++)
		if (f->is_back[e]) {
			/* one back edge per block: a BL path ending there names its loop */
			assert(f->back_head[f->edges[e].src] == OL_NONE);
			f->back_head[f->edges[e].src] = f->edges[e].dst;
			f->is_head[f->edges[e].dst] = true;
		}
	loop_bodies(f);
	/* reducible: a back edge's source lies in its head's body by construction;
	 * the entry does not (it has no predecessor), so no loop contains it */
	for (b = 0; b < n; b++)
		assert(!f->is_head[b] || !f->body[b][f->entry]);
}

void ol_func_release(struct ol_func *f)
{
	uint32_t b;

	free(f->edges);
	free(f->callee);
	free(f->succ_start);
	free(f->succ_edge);
	free(f->is_back);
	free(f->is_pred);
	free(f->back_head);
	free(f->is_head);
	for (b = 0; f->body && b < f->nblocks; b++)
		free(f->body[b]);
	free(f->body);
	free(f->rpo);
	memset(f, 0, sizeof *f);
}

uint32_t ol_sites(const struct ol_program *prog, struct ol_site **out)
{
	uint32_t n = 0, cap = 8, fi, b;
	struct ol_site *s = xcalloc(cap, sizeof *s);

	for (fi = 0; fi < prog->nfuncs; fi++) {
		const struct ol_func *f = &prog->funcs[fi];

		for (b = 0; b < f->nblocks; b++) {
			if (n + 3 > cap) {
				cap *= 2;
				s = realloc(s, cap * sizeof *s);
				if (!s)
					abort();
			}
			if (f->is_head[b])
				s[n++] = (struct ol_site){ .kind = OL_LOOP, .func = fi, .block = b, .callee = OL_NONE };
			if (f->callee[b] != OL_NONE) {
				s[n++] = (struct ol_site){ .kind = OL_CALL_IN, .func = fi, .block = b, .callee = f->callee[b] };
				s[n++] = (struct ol_site){ .kind = OL_CALL_OUT, .func = fi, .block = b, .callee = f->callee[b] };
			}
		}
	}
	*out = s;
	return n;
}

struct ol_space ol_site_space(const struct ol_program *prog, const struct ol_site *s)
{
	const struct ol_func *f = &prog->funcs[s->func];

	switch (s->kind) {
	case OL_LOOP:
		return (struct ol_space){ .f = f, .start = s->block, .body = f->body[s->block] };
	case OL_CALL_IN: {
		const struct ol_func *g = &prog->funcs[s->callee];

		return (struct ol_space){ .f = g, .start = g->entry, .body = NULL };
	}
	case OL_CALL_OUT:
		return (struct ol_space){ .f = f, .start = s->block, .body = NULL };
	}
	abort();
}

bool ol_space_continues(const struct ol_space *sp, uint32_t edge)
{
	const struct ol_func *f = sp->f;

	return !f->is_back[edge] && (!sp->body || sp->body[f->edges[edge].dst]);
}

bool ol_space_can_end(const struct ol_space *sp, uint32_t v)
{
	const struct ol_func *f = sp->f;
	uint32_t i;

	if (v == f->exit || f->back_head[v] != OL_NONE)
		return true;
	for (i = f->succ_start[v]; i < f->succ_start[v + 1]; i++)
		if (sp->body && !sp->body[f->edges[f->succ_edge[i]].dst])
			return true;
	return false;
}

/* Position of each block in the reverse postorder, OL_NONE if unreached. */
static uint32_t *rpo_index(const struct ol_func *f)
{
	uint32_t *idx = xcalloc(f->nblocks, sizeof *idx), i;

	for (i = 0; i < f->nblocks; i++)
		idx[i] = OL_NONE;
	for (i = 0; i < f->nrpo; i++)
		idx[f->rpo[i]] = i;
	return idx;
}

/* minp / maxp over DAG paths of the space from start, source included
 * (longest and shortest paths in predicates, in reverse postorder). */
static void pred_ranges(const struct ol_space *sp, uint32_t *minp, uint32_t *maxp)
{
	const struct ol_func *f = sp->f;
	uint32_t *idx = rpo_index(f), i, k;

	for (i = 0; i < f->nblocks; i++)
		minp[i] = maxp[i] = OL_NONE;
	assert(idx[sp->start] != OL_NONE);
	minp[sp->start] = maxp[sp->start] = f->is_pred[sp->start];
	for (i = idx[sp->start]; i < f->nrpo; i++) {
		uint32_t v = f->rpo[i];

		if (minp[v] == OL_NONE)
			continue;
		for (k = f->succ_start[v]; k < f->succ_start[v + 1]; k++) {
			uint32_t e = f->succ_edge[k], w = f->edges[e].dst, add = f->is_pred[w];

			if (!ol_space_continues(sp, e))
				continue;
			assert(idx[w] > i); /* a DAG edge goes forward in reverse postorder */
			if (minp[w] == OL_NONE || minp[v] + add < minp[w])
				minp[w] = minp[v] + add;
			if (maxp[w] == OL_NONE || maxp[v] + add > maxp[w])
				maxp[w] = maxp[v] + add;
		}
	}
	free(idx);
}

uint32_t ol_max_degree(const struct ol_space *sp)
{
	const struct ol_func *f = sp->f;
	uint32_t *minp = xcalloc(f->nblocks, sizeof *minp), *maxp = xcalloc(f->nblocks, sizeof *maxp);
	uint32_t v, best = 0;

	pred_ranges(sp, minp, maxp);
	for (v = 0; v < f->nblocks; v++)
		if (maxp[v] != OL_NONE && ol_space_can_end(sp, v)) {
			/* the last block counts as a predicate (2.1, 3.1) */
			uint32_t npred = maxp[v] + !f->is_pred[v];

			if (npred > best)
				best = npred;
		}
	free(minp);
	free(maxp);
	assert(best >= 1);
	return best - 1;
}

/*
 * Section 2.3: DI / PI / DNI by the predicates on the paths to an edge's
 * source; the overlapping graph keeps the non-DNI edges and what they
 * reach.  stop[v]: the walk of ol_og_prefix can arrive at v with
 * ol = theta + 1 (v is then a predicate), computed over the set of
 * counters attainable at each block, capped at theta + 1.
 */
void ol_og_build(struct ol_og *og, const struct ol_space *sp, uint32_t theta)
{
	const struct ol_func *f = sp->f;
	uint32_t n = f->nblocks, e, i, k, cap = theta < n ? theta + 1 : n + 1, *idx;
	bool *att; /* att[v * (cap + 1) + c]: the walk reaches v with ol = c */

	assert(theta < OL_THETA_LIMIT);
	memset(og, 0, sizeof *og);
	og->sp = sp;
	og->theta = theta;
	og->minp = xcalloc(n, sizeof *og->minp);
	og->maxp = xcalloc(n, sizeof *og->maxp);
	og->cls = xcalloc(f->nedges, sizeof *og->cls);
	og->in_og = xcalloc(n, sizeof *og->in_og);
	og->stop = xcalloc(n, sizeof *og->stop);
	pred_ranges(sp, og->minp, og->maxp);
	for (e = 0; e < f->nedges; e++) {
		uint32_t u = f->edges[e].src;

		if (!ol_space_continues(sp, e) || og->minp[u] == OL_NONE)
			og->cls[e] = OL_EDGE_NOT_IN_SPACE;
		else if (og->maxp[u] <= theta)
			og->cls[e] = OL_EDGE_DI;
		else if (og->minp[u] > theta)
			og->cls[e] = OL_EDGE_DNI;
		else
			og->cls[e] = OL_EDGE_PI;
	}
	idx = rpo_index(f);
	att = xcalloc((size_t)n * (cap + 1), sizeof *att);
	og->in_og[sp->start] = true;
	att[(size_t)sp->start * (cap + 1) + f->is_pred[sp->start]] = true;
	for (i = idx[sp->start]; i < f->nrpo; i++) {
		uint32_t v = f->rpo[i], c;

		if (!og->in_og[v])
			continue;
		if (f->is_pred[v] && theta + 1 <= cap && att[(size_t)v * (cap + 1) + theta + 1])
			og->stop[v] = true;
		for (k = f->succ_start[v]; k < f->succ_start[v + 1]; k++) {
			uint32_t ed = f->succ_edge[k], w = f->edges[ed].dst;

			if (og->cls[ed] != OL_EDGE_DI && og->cls[ed] != OL_EDGE_PI)
				continue;
			og->in_og[w] = true;
			for (c = 0; c <= cap && c <= theta; c++) /* the PI guard: ol <= theta */
				if (att[(size_t)v * (cap + 1) + c]) {
					uint32_t cw = c + f->is_pred[w];

					att[(size_t)w * (cap + 1) + (cw <= cap ? cw : cap)] = true;
				}
		}
	}
	free(att);
	free(idx);
}

void ol_og_release(struct ol_og *og)
{
	free(og->minp);
	free(og->maxp);
	free(og->cls);
	free(og->in_og);
	free(og->stop);
	memset(og, 0, sizeof *og);
}

/* The edge u -> v of f, OL_NONE if none. */
static uint32_t find_edge(const struct ol_func *f, uint32_t u, uint32_t v)
{
	uint32_t k;

	for (k = f->succ_start[u]; k < f->succ_start[u + 1]; k++)
		if (f->edges[f->succ_edge[k]].dst == v)
			return f->succ_edge[k];
	return OL_NONE;
}

uint32_t ol_og_prefix(const struct ol_og *og, const uint32_t *q, uint32_t n)
{
	const struct ol_func *f = og->sp->f;
	uint32_t ol = 0, i;

	assert(n >= 1 && q[0] == og->sp->start);
	for (i = 0; i < n; i++) {
		if (i > 0) {
			uint32_t e = find_edge(f, q[i - 1], q[i]);

			assert(e != OL_NONE && ol_space_continues(og->sp, e));
			/* the walk is still extending: the edge is in the overlapping graph */
			assert(og->cls[e] == OL_EDGE_DI || (og->cls[e] == OL_EDGE_PI && ol <= og->theta));
			assert(og->cls[e] != OL_EDGE_DI || ol <= og->theta);
			(void)e;
		}
		ol += f->is_pred[q[i]];
		if (ol == og->theta + 1) {
			assert(og->stop[q[i]]);
			return i + 1;
		}
	}
	assert(ol_space_can_end(og->sp, q[n - 1]));
	return n;
}

struct enum_state {
	const struct ol_og *og;
	uint64_t *by_degree, seen, limit;
};

/* Every distinct prefix_theta of the space, by depth-first walk of the
 * overlapping graph with the runtime's counter. */
static bool enum_from(struct enum_state *st, uint32_t v, uint32_t ol)
{
	const struct ol_og *og = st->og;
	const struct ol_func *f = og->sp->f;
	uint32_t k;

	ol += f->is_pred[v];
	if (ol == og->theta + 1) {
		st->by_degree[og->theta]++;
		return ++st->seen <= st->limit;
	}
	if (ol_space_can_end(og->sp, v)) {
		/* ends here short of theta + 1 predicates: an OL path of lower
		 * degree not contained in an OL-theta one; its last block counts */
		uint32_t npred = ol + !f->is_pred[v];

		assert(npred >= 1 && npred - 1 <= og->theta);
		st->by_degree[npred - 1]++;
		if (++st->seen > st->limit)
			return false;
	}
	for (k = f->succ_start[v]; k < f->succ_start[v + 1]; k++) {
		uint32_t e = f->succ_edge[k];

		if (og->cls[e] == OL_EDGE_DI || og->cls[e] == OL_EDGE_PI) {
			assert(ol <= og->theta);
			if (!enum_from(st, f->edges[e].dst, ol))
				return false;
		}
	}
	return true;
}

bool ol_count_paths(const struct ol_space *sp, uint32_t theta, uint64_t *by_degree, uint64_t limit)
{
	struct ol_og og;
	struct enum_state st = { .og = &og, .by_degree = by_degree, .seen = 0, .limit = limit };
	bool ok;

	memset(by_degree, 0, ((size_t)theta + 1) * sizeof *by_degree);
	ol_og_build(&og, sp, theta);
	ok = enum_from(&st, sp->start, 0);
	ol_og_release(&og);
	return ok;
}

/* Path counts saturate at UINT64_MAX, like numPaths in cfgbuild/dag.c
 * before a cut: a saturated count means "more than 2^64 - 1". */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The number of BL paths (or BL path prefixes) ending at each block: a BL
 * path starts at the entry or at a loop head and follows DAG edges. */
static uint64_t *bl_prefix_counts(const struct ol_func *f)
{
	uint64_t *np = xcalloc(f->nblocks, sizeof *np);
	uint32_t i, k;

	for (i = 0; i < f->nrpo; i++) {
		uint32_t v = f->rpo[i];

		if (v == f->entry || f->is_head[v])
			np[v]++;
		for (k = f->succ_start[v]; k < f->succ_start[v + 1]; k++) {
			uint32_t e = f->succ_edge[k];

			if (!f->is_back[e])
				np[f->edges[e].dst] = sat_add(np[f->edges[e].dst], np[v]);
		}
	}
	return np;
}

uint64_t ol_count_first_halves(const struct ol_program *prog, const struct ol_site *s)
{
	const struct ol_func *f = &prog->funcs[s->kind == OL_CALL_OUT ? s->callee : s->func];
	uint64_t *np = bl_prefix_counts(f), total = 0;
	uint32_t v;

	switch (s->kind) {
	case OL_LOOP: /* BL paths ending with a back edge into the head */
		for (v = 0; v < f->nblocks; v++)
			if (f->back_head[v] == s->block)
				total = sat_add(total, np[v]);
		break;
	case OL_CALL_IN: /* the caller's BL path prefixes to the call block */
		total = np[s->block];
		break;
	case OL_CALL_OUT: /* the callee's BL paths ending at its exit */
		total = np[f->exit];
		break;
	}
	free(np);
	return total;
}

/* ---- interned sequences (FNV-1a over the block ids) ---- */

static uint32_t seq_hash(const uint32_t *s, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	h = (h ^ n) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 32));
}

static void seq_rehash(struct ol_seqtab *t)
{
	uint32_t i;

	free(t->hash);
	t->nhash = t->nhash ? 2 * t->nhash : 64;
	t->hash = xcalloc(t->nhash, sizeof *t->hash);
	for (i = 0; i < t->nseq; i++) {
		uint32_t h = seq_hash(t->data + t->start[i], (uint32_t)(t->start[i + 1] - t->start[i]));

		while (t->hash[h & (t->nhash - 1)])
			h++;
		t->hash[h & (t->nhash - 1)] = i + 1;
	}
}

uint32_t ol_seq_intern(struct ol_seqtab *t, const uint32_t *s, uint32_t n)
{
	uint32_t h, id;

	if (2 * (t->nseq + 1) > t->nhash)
		seq_rehash(t);
	for (h = seq_hash(s, n);; h++) {
		uint32_t slot = t->hash[h & (t->nhash - 1)], len;
		const uint32_t *have;

		if (!slot)
			break;
		have = ol_seq(t, slot - 1, &len);
		if (len == n && !memcmp(have, s, n * sizeof *s))
			return slot - 1;
	}
	if (t->nseq + 2 > t->cap_seq) {
		t->cap_seq = t->cap_seq ? 2 * t->cap_seq : 64;
		t->start = realloc(t->start, t->cap_seq * sizeof *t->start);
		if (!t->start)
			abort();
		if (t->nseq == 0)
			t->start[0] = 0;
	}
	if (t->ndata + n > t->cap_data) {
		while (t->ndata + n > t->cap_data)
			t->cap_data = t->cap_data ? 2 * t->cap_data : 256;
		t->data = realloc(t->data, t->cap_data * sizeof *t->data);
		if (!t->data)
			abort();
	}
	memcpy(t->data + t->ndata, s, n * sizeof *s);
	t->ndata += n;
	id = t->nseq++;
	t->start[id + 1] = t->ndata;
	t->hash[h & (t->nhash - 1)] = id + 1;
	return id;
}
