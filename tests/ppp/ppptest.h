/*
 * ppptest.h: helpers shared by the PPP tests (static, header only): CHECK,
 * a seeded generator, and brute-force path enumeration that does not use
 * the numbering under test.
 */
#ifndef KPATH_PPPTEST_H
#define KPATH_PPPTEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppp.h"

static int pt_failures;

#define CHECK_FAILURES pt_failures
#include "../check.h"

static uint64_t pt_state = 0x9e3779b97f4a7c15ull;

static inline uint64_t pt_next(void)
{
	uint64_t x = pt_state; /* xorshift64* */

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	pt_state = x;
	return x * 2685821657736338717ull;
}

static inline uint32_t pt_below(uint32_t n)
{
	return n ? (uint32_t)(pt_next() % n) : 0;
}

/* Every path of d from entry to exit as edge sequences, by depth-first
 * search over the edge lists alone (no vals, no num_paths).  Paths are
 * stored in a flat array: path i is edges[start[i] .. start[i + 1]).
 * Stops (returns false) past max paths. */
struct pt_paths {
	uint32_t n, cap;
	uint32_t *start; /* n + 1 entries */
	uint32_t *edges;
	uint32_t nedges, capedges;
};

static void pt_push(struct pt_paths *ps, const uint32_t *stack, uint32_t depth)
{
	if (ps->n + 2 > ps->cap) {
		ps->cap = ps->cap ? 2 * ps->cap : 64;
		ps->start = realloc(ps->start, ps->cap * sizeof *ps->start);
	}
	if (ps->nedges + depth > ps->capedges) {
		while (ps->nedges + depth > ps->capedges)
			ps->capedges = ps->capedges ? 2 * ps->capedges : 256;
		ps->edges = realloc(ps->edges, ps->capedges * sizeof *ps->edges);
	}
	if (!ps->start || !ps->edges) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}
	if (ps->n == 0)
		ps->start[0] = 0;
	memcpy(ps->edges + ps->nedges, stack, depth * sizeof *stack);
	ps->nedges += depth;
	ps->start[++ps->n] = ps->nedges;
}

static bool pt_dfs(const struct ppp_dag *d, uint32_t v, uint32_t *stack, uint32_t depth, struct pt_paths *ps,
                   uint32_t max)
{
	uint32_t i;

	if (v == d->exit) {
		if (ps->n >= max)
			return false;
		pt_push(ps, stack, depth);
		return true;
	}
	for (i = 0; i < d->nedges; i++)
		if (d->edges[i].src == v) {
			stack[depth] = i;
			if (!pt_dfs(d, d->edges[i].dst, stack, depth + 1, ps, max))
				return false;
		}
	return true;
}

static inline bool pt_enumerate(const struct ppp_dag *d, struct pt_paths *ps, uint32_t max)
{
	uint32_t *stack = malloc((d->nnodes + 1) * sizeof *stack);
	bool ok;

	memset(ps, 0, sizeof *ps);
	ok = pt_dfs(d, d->entry, stack, 0, ps, max);
	free(stack);
	return ok;
}

static inline void pt_paths_free(struct pt_paths *ps)
{
	free(ps->start);
	free(ps->edges);
}

#define PT_PATH(ps, i) ((ps)->edges + (ps)->start[i])
#define PT_LEN(ps, i) ((ps)->start[(i) + 1] - (ps)->start[i])

#endif
