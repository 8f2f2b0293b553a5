/*
 * bltest.h: helpers shared by the numbering tests (static, header only).
 * A path is encoded independently of bl_decode: as a sequence of DAG edge
 * indices, its ID being the sum of their vals.
 */
#ifndef KPATH_BLTEST_H
#define KPATH_BLTEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

static int bt_failures;

#define CHECK_FAILURES bt_failures
#include "../check.h"

/* Index of the unique DAG edge src->dst of the given kind (kind < 0: any
 * kind), CFG_NONE if none or several. */
static inline uint32_t bt_find_edge(const struct bl_dag *d, uint32_t src, uint32_t dst, int kind)
{
	uint32_t i, found = CFG_NONE;

	for (i = 0; i < d->nedges; i++) {
		const struct bl_edge *e = &d->edges[i];

		if (e->src == src && e->dst == dst && (kind < 0 || (int)e->kind == kind)) {
			if (found != CFG_NONE)
				return CFG_NONE;
			found = i;
		}
	}
	return found;
}

/* Encodes a block sequence ENTRY ... EXIT whose consecutive pairs each have
 * exactly one DAG edge; UINT64_MAX if some pair has none or several. */
static inline uint64_t bt_encode_blocks(const struct bl_dag *d, const uint32_t *b, uint32_t n)
{
	uint64_t id = 0;
	uint32_t i;

	for (i = 0; i + 1 < n; i++) {
		uint32_t e = bt_find_edge(d, b[i], b[i + 1], -1);

		if (e == CFG_NONE)
			return UINT64_MAX;
		id += d->edges[e].val;
	}
	return id;
}

/* Decodes id into DAG edge indices by a linear scan (independent of
 * bl_decode's binary search): at each block the last edge with val <= rest.
 * Returns the number of edges. */
static inline uint32_t bt_decode_edges(const struct bl_dag *d, uint64_t id, uint32_t *out, uint32_t cap)
{
	uint32_t v = CFG_ENTRY, n = 0;

	while (v != CFG_EXIT && n < cap) {
		uint32_t i, best = CFG_NONE;

		for (i = 0; i < d->nedges; i++)
			if (d->edges[i].src == v && d->edges[i].val <= id)
				best = i;
		if (best == CFG_NONE)
			return 0;
		out[n++] = best;
		id -= d->edges[best].val;
		v = d->edges[best].dst;
	}
	return id == 0 ? n : 0;
}

static uint64_t bt_rng_state;

static inline uint64_t bt_rand(void)
{
	/* splitmix64 */
	uint64_t z = (bt_rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline uint32_t bt_below(uint32_t n)
{
	return (uint32_t)(bt_rand() % n);
}

/* A random ENTRY->EXIT walk over the DAG: sum of vals, edges into out. */
static inline uint32_t bt_random_walk(const struct bl_dag *d, uint32_t *out, uint32_t cap, uint64_t *id)
{
	uint32_t v = CFG_ENTRY, n = 0;

	*id = 0;
	while (v != CFG_EXIT && n < cap) {
		uint32_t i, cnt = 0, pick = CFG_NONE;

		for (i = 0; i < d->nedges; i++)
			if (d->edges[i].src == v && bt_below(++cnt) == 0)
				pick = i;
		if (pick == CFG_NONE)
			return 0;
		out[n++] = pick;
		*id += d->edges[pick].val;
		v = d->edges[pick].dst;
	}
	return n;
}

#endif
