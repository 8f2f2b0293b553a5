/*
 * overlap.c: the edge classes and overlapping graph of section 2.3 of
 * Tallam, Zhang & Gupta (CGO 2004), the OL path a second half counts, and
 * the counting of OL paths per degree (Tables 3, 6, 7).
 *
 * The invariant everything here rests on: a second half is a path of the
 * Ball-Larus DAG (no back edge), so within one space the blocks can be
 * visited in the function's reverse postorder, and "the number of
 * predicates from the start to v" is a longest / shortest path problem on
 * a DAG.  docs/overlap.md defines the terms.
 */
#include "overlap.h"
#include "overlap_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Position of each block in the reverse postorder, OL_NONE if unreached. */
static uint32_t *rpo_index(const struct ol_func *f)
{
	uint32_t *idx = ol_xcalloc(f->nblocks, sizeof *idx), i;

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
	uint32_t *minp = ol_xcalloc(f->nblocks, sizeof *minp), *maxp = ol_xcalloc(f->nblocks, sizeof *maxp);
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
	og->minp = ol_xcalloc(n, sizeof *og->minp);
	og->maxp = ol_xcalloc(n, sizeof *og->maxp);
	og->cls = ol_xcalloc(f->nedges, sizeof *og->cls);
	og->in_og = ol_xcalloc(n, sizeof *og->in_og);
	og->stop = ol_xcalloc(n, sizeof *og->stop);
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
	att = ol_xcalloc((size_t)n * (cap + 1), sizeof *att);
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

/*
 * Section 2.3, "Deriving the Path Graph": Ball-Larus numbering of the
 * overlapping graph, with a dummy edge to Ex from every block where an OL
 * path can end (a stop node, or a block where the second half ends).  The
 * dummy edge comes first and has val 0, so an OL path's ID is the sum of
 * the vals of its graph edges.  Every OL path is a path of this DAG
 * (ol_og_prefix takes DI and PI edges only), and Ball-Larus IDs of
 * distinct paths differ, so distinct OL paths get distinct IDs in
 * [0, total); the DAG may hold more paths than there are OL paths (a PI
 * edge taken past the limit), so some IDs go unused, as in the paper.
 */
bool ol_og_number(const struct ol_og *og, struct ol_og_numbering *nb)
{
	const struct ol_func *f = og->sp->f;
	uint32_t i, k;
	bool ok = true;

	memset(nb, 0, sizeof *nb);
	nb->num_paths = ol_xcalloc(f->nblocks, sizeof *nb->num_paths);
	nb->val = ol_xcalloc(f->nedges, sizeof *nb->val);
	for (i = f->nrpo; i-- > 0;) { /* successors first */
		uint32_t v = f->rpo[i];
		uint64_t run;

		if (!og->in_og[v])
			continue;
		run = og->stop[v] || ol_space_can_end(og->sp, v);
		for (k = f->succ_start[v]; k < f->succ_start[v + 1]; k++) {
			uint32_t e = f->succ_edge[k], w = f->edges[e].dst;

			if (og->cls[e] != OL_EDGE_DI && og->cls[e] != OL_EDGE_PI)
				continue;
			assert(og->in_og[w]);
			nb->val[e] = run;
			if (nb->num_paths[w] > UINT64_MAX - run)
				ok = false; /* more than 2^64 - 1 paths: no 64-bit numbering */
			else
				run += nb->num_paths[w];
		}
		nb->num_paths[v] = run;
	}
	nb->total = nb->num_paths[og->sp->start];
	if (!ok)
		ol_og_numbering_release(nb);
	return ok;
}

void ol_og_numbering_release(struct ol_og_numbering *nb)
{
	free(nb->num_paths);
	free(nb->val);
	memset(nb, 0, sizeof *nb);
}

uint64_t ol_og_path_id(const struct ol_og *og, const struct ol_og_numbering *nb, const uint32_t *ol_path, uint32_t n)
{
	const struct ol_func *f = og->sp->f;
	uint64_t id = 0;
	uint32_t i;

	assert(n >= 1 && ol_path[0] == og->sp->start);
	for (i = 1; i < n; i++) {
		uint32_t e = find_edge(f, ol_path[i - 1], ol_path[i]);

		assert(e != OL_NONE && (og->cls[e] == OL_EDGE_DI || og->cls[e] == OL_EDGE_PI));
		id += nb->val[e];
	}
	assert(id < nb->total);
	return id;
}
