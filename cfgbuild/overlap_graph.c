/*
 * overlap_graph.c: the program graph of overlap.h (Tallam, Zhang & Gupta,
 * CGO 2004): back edges and loop bodies, predicates, the sites where paths
 * cross a back edge or a procedure boundary, the spaces their second
 * halves run in, and the number of first halves (Tables 3, 6, 7).
 *
 * Invariant after ol_func_finish: the DFS that found the back edges also
 * gave rpo[], a topological order of the DAG the rest of the core walks.
 */
#include "overlap.h"
#include "array.h"
#include "overlap_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void *ol_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort(); /* the tool's allocation failure policy: stop, nothing written */
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
	f->callee = ol_xcalloc(nblocks, sizeof *f->callee);
	for (b = 0; b < nblocks; b++)
		f->callee[b] = OL_NONE;
}

void ol_func_add_edge(struct ol_func *f, uint32_t src, uint32_t dst)
{
	assert(src < f->nblocks && dst < f->nblocks && !f->succ_start);
	KP_RESERVE(f->edges, f->cap_edges, f->nedges + 1);
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
	uint32_t n = f->nblocks, *stack = ol_xcalloc(n, sizeof *stack), *next = ol_xcalloc(n, sizeof *next);
	uint32_t *post = ol_xcalloc(n, sizeof *post), npost = 0, sp = 0, i;
	uint8_t *state = ol_xcalloc(n, 1); /* 0 new, 1 on stack, 2 done */

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
	f->rpo = ol_xcalloc(n, sizeof *f->rpo);
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
	uint32_t n = f->nblocks, h, e, *work = ol_xcalloc(n, sizeof *work);

	f->body = ol_xcalloc(n, sizeof *f->body);
	for (h = 0; h < n; h++) {
		bool *in;
		uint32_t nw = 0;

		if (!f->is_head[h])
			continue;
		in = f->body[h] = ol_xcalloc(n, sizeof *in);
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

/* What ol_func_finish asserts, as a reason: NULL when f keeps the
 * invariants of overlap.h (one back edge per block, reducible). */
const char *ol_func_finish_checked(struct ol_func *f)
{
	uint32_t n = f->nblocks, e, b, *fill;

	f->succ_start = ol_xcalloc(n + 1, sizeof *f->succ_start);
	f->succ_edge = ol_xcalloc(f->nedges, sizeof *f->succ_edge);
	f->is_back = ol_xcalloc(f->nedges, sizeof *f->is_back);
	f->is_pred = ol_xcalloc(n, sizeof *f->is_pred);
	f->is_head = ol_xcalloc(n, sizeof *f->is_head);
	f->back_head = ol_xcalloc(n, sizeof *f->back_head);
	for (e = 0; e < f->nedges; e++) {
		if (f->edges[e].dst == f->entry || f->edges[e].src == f->exit)
			return "an edge into the entry or out of the exit";
		f->succ_start[f->edges[e].src + 1]++;
	}
	for (b = 0; b < n; b++)
		f->succ_start[b + 1] += f->succ_start[b];
	fill = ol_xcalloc(n, sizeof *fill);
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
			if (f->back_head[f->edges[e].src] != OL_NONE)
				return "two back edges leave one block";
			f->back_head[f->edges[e].src] = f->edges[e].dst;
			f->is_head[f->edges[e].dst] = true;
		}
	loop_bodies(f);
	/* reducible: a back edge's source lies in its head's body by construction;
	 * the entry does not (it has no predecessor), so no loop contains it.
	 * When a head does not dominate a back edge's source, a path from the
	 * entry reaches the source avoiding the head, and the reverse flood of
	 * loop_bodies finds the entry. */
	for (b = 0; b < n; b++)
		if (f->is_head[b] && f->body[b][f->entry])
			return "irreducible loop (a jump into the loop's body)";
	return NULL;
}

void ol_func_finish(struct ol_func *f)
{
	const char *why = ol_func_finish_checked(f);

	assert(!why);
	(void)why;
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
	struct ol_site *s = ol_xcalloc(cap, sizeof *s);

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
	uint64_t *np = ol_xcalloc(f->nblocks, sizeof *np);
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
