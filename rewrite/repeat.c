/*
 * repeat.c: which back edges count their path in a register instead of
 * emitting it (repeat counting).
 *
 * An innermost loop whose body is one straight path emits the same
 * Ball-Larus ID K at its back edge on every iteration but the first.
 * Emitting it n times is one runtime step per iteration and keeps the
 * compiler from optimising the loop (an emit is an opaque memory update);
 * counting it in a local register and handing the runtime "K, n times"
 * when the loop is left costs an add per iteration, and the runtime adds a
 * run of one ID in O(min(n, k)) (kpath_rt_emit_n).  The stream the runtime
 * sees is unchanged, item for item, as long as
 *   (a) only items equal to K are held back, and only while no other item
 *       of the activation is emitted: the back edge writes
 *       kpath_rt_repeat(c, id, K, n), which counts id when it is K and
 *       otherwise flushes, then emits it; every edge that leaves the loop
 *       flushes before its own code (kpath_rt_flush); no other edge inside
 *       the loop emits (it holds no other back or cut edge);
 *   (b) nothing can end the activation or the process while items are held
 *       back: the loop calls no function but the C library ones that
 *       return normally (cfgbuild/expr.c: plain_callee), and every edge leaving
 *       it has a site for the flush.
 * Where nothing in the loop but the back edge has code and the loop is
 * entered only at its header, place.c writes the deferred form instead:
 * the back edge only counts (every iteration), the register keeps its
 * value from the loop's entry, and the exits emit the first iteration's
 * ID (computed from that value) before K n - 1 times (kpath_rt_exit_loop);
 * (a) and (b) make the stream the same.
 * Correctness does not depend on K being the right ID: a wrong K would
 * only never match.  K is computed from the DAG numbering: the dummy edge
 * ENTRY->w, the DAG edges of the body path w..v, the dummy edge v->EXIT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite.h"
#include "xalloc.h"

bool rw_repeat_loops = true;

/* Edges by source and by destination, built once per function:
 * first[b] .. first[b + 1] index edge ids in order. */
struct adj {
	uint32_t *out_first, *out, *in_first, *in;
};

static void adj_build(const struct cfg *g, struct adj *a)
{
	a->out_first = xcalloc(g->nblocks + 1, sizeof *a->out_first);
	a->in_first = xcalloc(g->nblocks + 1, sizeof *a->in_first);
	a->out = xcalloc(g->nedges, sizeof *a->out);
	a->in = xcalloc(g->nedges, sizeof *a->in);
	for (uint32_t e = 0; e < g->nedges; e++) {
		a->out_first[g->edges[e].src + 1]++;
		a->in_first[g->edges[e].dst + 1]++;
	}
	for (uint32_t b = 0; b < g->nblocks; b++) {
		a->out_first[b + 1] += a->out_first[b];
		a->in_first[b + 1] += a->in_first[b];
	}
	uint32_t *fo = xcalloc(g->nblocks, sizeof *fo), *fi = xcalloc(g->nblocks, sizeof *fi);
	for (uint32_t e = 0; e < g->nedges; e++) {
		uint32_t u = g->edges[e].src, v = g->edges[e].dst;
		a->out[a->out_first[u] + fo[u]++] = e;
		a->in[a->in_first[v] + fi[v]++] = e;
	}
	free(fo);
	free(fi);
}

static void adj_free(struct adj *a)
{
	free(a->out_first);
	free(a->out);
	free(a->in_first);
	free(a->in);
}

/* Marks in in_loop the natural loop of back edge v->w: w and the blocks
 * that reach v without passing through w (reverse search over live
 * edges); its blocks go to members[0..*n). */
static void natural_loop(const struct cfg *g, const struct bl_dag *d, const struct adj *a, uint32_t v, uint32_t w,
                         bool *in_loop, uint32_t *members, uint32_t *n)
{
	uint32_t top = 0;
	in_loop[w] = true;
	members[top++] = w;
	if (!in_loop[v]) {
		in_loop[v] = true;
		members[top++] = v;
	}
	for (uint32_t i = 1; i < top; i++) {
		uint32_t x = members[i];
		for (uint32_t j = a->in_first[x]; j < a->in_first[x + 1]; j++) {
			uint32_t e = a->in[j], u = g->edges[e].src;
			if (d->role[e] == ROLE_DEAD || in_loop[u])
				continue;
			in_loop[u] = true;
			members[top++] = u;
		}
	}
	*n = top;
}

/* Whether back edge be qualifies (see the top of the file) but for the
 * body's shape (body_id).  The loop's blocks are members[0..n); its calls
 * are looked for in the lines its blocks span, from the first to the
 * last (a superset: a call on one of those lines outside the loop only
 * keeps the loop from counting). */
static bool qualifies(const struct fn_plan *plan, const struct bl_dag *d, const struct adj *a, uint32_t be,
                      const bool *in_loop, const uint32_t *members, uint32_t n)
{
	const struct cfg *g = plan->g;
	uint32_t v = g->edges[be].src, w = g->edges[be].dst;
	unsigned lo = ~0u, hi = 0;
	if (g->edges[be].site == CFG_NONE || d->dummy_entry[w] == CFG_NONE || d->dummy_exit[v] == CFG_NONE ||
	    in_loop[CFG_ENTRY])
		return false; /* (ENTRY in it: entered other than through w, irreducible) */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b = members[i];
		for (uint32_t j = a->out_first[b]; j < a->out_first[b + 1]; j++) {
			uint32_t e = a->out[j];
			const struct cfg_edge *ce = &g->edges[e];
			if (e == be || d->role[e] == ROLE_DEAD)
				continue;
			if (ce->dst != CFG_EXIT && in_loop[ce->dst]) {
				if (d->role[e] != ROLE_FORWARD)
					return false; /* another loop inside, or a cut */
			} else if (ce->site == CFG_NONE) {
				return false; /* an exit with nowhere to flush */
			}
		}
		if (g->blocks[b].line == 0)
			continue;
		if (g->blocks[b].line < lo)
			lo = g->blocks[b].line;
		if (g->blocks[b].last_line > hi)
			hi = g->blocks[b].last_line;
	}
	if (lo > hi)
		return false; /* no line to look for calls at */
	for (uint32_t i = 0; i < plan->ncall_lines; i++)
		if (plan->call_lines[i] == 0 || (plan->call_lines[i] >= lo && plan->call_lines[i] <= hi))
			return false;
	return true;
}

/* The ID of the loop's body path: from w, the one edge staying in the
 * loop at each block, up to v; false if the body branches. */
static bool body_id(const struct cfg *g, const struct bl_dag *d, const uint32_t *dag_edge, const struct adj *a,
                    uint32_t be, const bool *in_loop, uint64_t *k)
{
	uint32_t v = g->edges[be].src, w = g->edges[be].dst;
	uint64_t id = d->edges[d->dummy_entry[w]].val + d->edges[d->dummy_exit[v]].val;
	uint32_t x = w, steps = 0;
	while (x != v) {
		uint32_t next = CFG_NONE, m = 0;
		for (uint32_t j = a->out_first[x]; j < a->out_first[x + 1]; j++) {
			uint32_t e = a->out[j];
			const struct cfg_edge *ce = &g->edges[e];
			if (e == be || ce->dst == CFG_EXIT || !in_loop[ce->dst] || d->role[e] != ROLE_FORWARD)
				continue;
			m++;
			next = e;
		}
		if (m != 1 || ++steps > g->nblocks || dag_edge[next] == CFG_NONE)
			return false; /* a branch in the body (or no way on) */
		id += d->edges[dag_edge[next]].val;
		x = g->edges[next].dst;
	}
	*k = id;
	return true;
}

void rw_find_repeats(const struct fn_plan *plan, const struct bl_dag *d, const uint32_t *dag_edge,
                     struct rw_repeats *r)
{
	const struct cfg *g = plan->g;
	memset(r, 0, sizeof *r);
	r->loop_of_back = xcalloc(g->nedges, sizeof *r->loop_of_back);
	r->loop_of_block = xcalloc(g->nblocks, sizeof *r->loop_of_block);
	r->exits = xcalloc(g->nedges, sizeof *r->exits);
	if (!rw_repeat_loops)
		return;
	struct adj a;
	adj_build(g, &a);
	bool *in_loop = xcalloc(g->nblocks, sizeof *in_loop);
	uint32_t *members = xcalloc(g->nblocks, sizeof *members), n = 0;
	for (uint32_t be = 0; be < g->nedges; be++) {
		if (d->role[be] != ROLE_BACK)
			continue;
		uint64_t k;
		natural_loop(g, d, &a, g->edges[be].src, g->edges[be].dst, in_loop, members, &n);
		if (qualifies(plan, d, &a, be, in_loop, members, n) &&
		    body_id(g, d, dag_edge, &a, be, in_loop, &k)) {
			r->k = xrealloc(r->k, (r->nloops + 1) * sizeof *r->k);
			r->back = xrealloc(r->back, (r->nloops + 1) * sizeof *r->back);
			r->deferred = xrealloc(r->deferred, (r->nloops + 1) * sizeof *r->deferred);
			r->back[r->nloops] = be;
			r->deferred[r->nloops] = false;
			r->k[r->nloops++] = k;
			r->loop_of_back[be] = r->nloops;
			for (uint32_t i = 0; i < n; i++)
				r->loop_of_block[members[i]] = r->nloops;
			for (uint32_t i = 0; i < n; i++)
				for (uint32_t j = a.out_first[members[i]]; j < a.out_first[members[i] + 1]; j++) {
					uint32_t e = a.out[j];
					const struct cfg_edge *ce = &g->edges[e];
					if (e == be || d->role[e] == ROLE_DEAD || (ce->dst != CFG_EXIT && in_loop[ce->dst]))
						continue;
					/* an edge leaves at most a few loops: a short list */
					struct rw_exit *x = xcalloc(1, sizeof *x), **tail = &r->exits[e];
					x->loop = r->nloops;
					while (*tail)
						tail = &(*tail)->next;
					*tail = x;
				}
		}
		for (uint32_t i = 0; i < n; i++)
			in_loop[members[i]] = false;
	}
	free(in_loop);
	free(members);
	adj_free(&a);
}

void rw_repeats_free(struct rw_repeats *r, uint32_t nedges)
{
	for (uint32_t e = 0; r->exits && e < nedges; e++)
		while (r->exits[e]) {
			struct rw_exit *x = r->exits[e];
			r->exits[e] = x->next;
			free(x);
		}
	free(r->exits);
	free(r->loop_of_back);
	free(r->loop_of_block);
	free(r->back);
	free(r->deferred);
	free(r->k);
	memset(r, 0, sizeof *r);
}
