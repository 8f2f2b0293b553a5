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
 *       return normally (build.c: plain_callee), and every edge leaving
 *       it has a site for the flush.
 * Correctness does not depend on K being the right ID: a wrong K would
 * only never match.  K is computed from the DAG numbering: the dummy edge
 * ENTRY->w, the DAG edges of the body path w..v, the dummy edge v->EXIT.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite.h"

bool rw_repeat_loops = true;

static void *xcalloc(size_t n, size_t m)
{
	void *p = calloc(n ? n : 1, m ? m : 1);
	if (!p) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	return p;
}

/* Marks in in_loop the natural loop of back edge v->w: w and the blocks
 * that reach v without passing through w (reverse search over live
 * edges). */
static void natural_loop(const struct cfg *g, const struct bl_dag *d, uint32_t v, uint32_t w, bool *in_loop,
                         uint32_t *stack)
{
	uint32_t top = 0;
	in_loop[w] = true;
	if (!in_loop[v]) {
		in_loop[v] = true;
		stack[top++] = v;
	}
	while (top) {
		uint32_t x = stack[--top];
		for (uint32_t e = 0; e < g->nedges; e++) {
			const struct cfg_edge *ce = &g->edges[e];
			if (ce->dst != x || d->role[e] == ROLE_DEAD || in_loop[ce->src])
				continue;
			in_loop[ce->src] = true;
			stack[top++] = ce->src;
		}
	}
}

/* Whether back edge be qualifies (see the top of the file); *k gets the
 * ID of the body path. */
static bool qualifies(const struct fn_plan *plan, const struct bl_dag *d, uint32_t be, const bool *in_loop,
                      uint64_t *k)
{
	const struct cfg *g = plan->g;
	uint32_t v = g->edges[be].src, w = g->edges[be].dst;
	unsigned lo = ~0u, hi = 0;
	if (g->edges[be].site == CFG_NONE || d->dummy_entry[w] == CFG_NONE || d->dummy_exit[v] == CFG_NONE ||
	    in_loop[CFG_ENTRY])
		return false; /* (ENTRY in it: entered other than through w, irreducible) */
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct cfg_edge *ce = &g->edges[e];
		if (e == be || !in_loop[ce->src] || d->role[e] == ROLE_DEAD)
			continue;
		if (ce->dst != CFG_EXIT && in_loop[ce->dst]) {
			if (d->role[e] != ROLE_FORWARD)
				return false; /* another loop inside, or a cut */
		} else if (ce->site == CFG_NONE) {
			return false; /* an exit with nowhere to flush */
		}
	}
	for (uint32_t b = 0; b < g->nblocks; b++) {
		if (!in_loop[b] || g->blocks[b].line == 0)
			continue;
		if (g->blocks[b].line < lo)
			lo = g->blocks[b].line;
		if (g->blocks[b].last_line > hi)
			hi = g->blocks[b].last_line;
	}
	for (uint32_t i = 0; i < plan->ncall_lines; i++)
		if (plan->call_lines[i] == 0 || (plan->call_lines[i] >= lo && plan->call_lines[i] <= hi))
			return false;
	/* the body: from w, the one edge staying in the loop, up to v */
	uint64_t id = d->edges[d->dummy_entry[w]].val + d->edges[d->dummy_exit[v]].val;
	uint32_t x = w, steps = 0;
	while (x != v) {
		uint32_t next = CFG_NONE, n = 0;
		for (uint32_t e = 0; e < g->nedges; e++) {
			const struct cfg_edge *ce = &g->edges[e];
			if (ce->src != x || e == be || ce->dst == CFG_EXIT || !in_loop[ce->dst] ||
			    d->role[e] != ROLE_FORWARD)
				continue;
			n++;
			next = e;
		}
		if (n != 1 || ++steps > g->nblocks)
			return false; /* a branch in the body (or no way on) */
		uint32_t de = CFG_NONE;
		for (uint32_t i = 0; i < d->nedges; i++)
			if (d->edges[i].kind == BL_EDGE_CFG && d->edges[i].cfg_edge == next)
				de = i;
		if (de == CFG_NONE)
			return false;
		id += d->edges[de].val;
		x = g->edges[next].dst;
	}
	*k = id;
	return true;
}

void rw_find_repeats(const struct fn_plan *plan, const struct bl_dag *d, struct rw_repeats *r)
{
	const struct cfg *g = plan->g;
	memset(r, 0, sizeof *r);
	r->loop_of_back = xcalloc(g->nedges, sizeof *r->loop_of_back);
	r->exits = xcalloc(g->nedges, sizeof *r->exits);
	if (!rw_repeat_loops)
		return;
	bool *in_loop = xcalloc(g->nblocks, sizeof *in_loop);
	uint32_t *stack = xcalloc(g->nblocks, sizeof *stack);
	for (uint32_t be = 0; be < g->nedges; be++) {
		if (d->role[be] != ROLE_BACK)
			continue;
		uint64_t k;
		memset(in_loop, 0, g->nblocks * sizeof *in_loop);
		natural_loop(g, d, g->edges[be].src, g->edges[be].dst, in_loop, stack);
		if (!qualifies(plan, d, be, in_loop, &k))
			continue;
		r->k = realloc(r->k, (r->nloops + 1) * sizeof *r->k);
		if (!r->k) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
		r->k[r->nloops++] = k;
		r->loop_of_back[be] = r->nloops;
		for (uint32_t e = 0; e < g->nedges; e++) {
			const struct cfg_edge *ce = &g->edges[e];
			if (e == be || !in_loop[ce->src] || d->role[e] == ROLE_DEAD ||
			    (ce->dst != CFG_EXIT && in_loop[ce->dst]))
				continue;
			/* an edge leaves at most a few loops: a short list */
			struct rw_exit *x = xcalloc(1, sizeof *x);
			x->loop = r->nloops;
			x->next = NULL;
			struct rw_exit **tail = &r->exits[e];
			while (*tail)
				tail = &(*tail)->next;
			*tail = x;
		}
	}
	free(in_loop);
	free(stack);
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
	free(r->k);
	memset(r, 0, sizeof *r);
}
