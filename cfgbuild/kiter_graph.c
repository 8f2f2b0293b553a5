/*
 * kiter_graph.c: the standalone graph of kiter.h, and its construction from
 * kpath's CFG and Ball-Larus DAG (the back edges bl_build found).
 */
#include "kiter.h"

#include "cfg.h"

#include <stdlib.h>

struct ki_graph *ki_graph_new(uint32_t nnodes)
{
	struct ki_graph *g;

	if (nnodes < 2)
		return NULL;
	g = calloc(1, sizeof *g);
	if (g)
		g->nnodes = nnodes;
	return g;
}

void ki_graph_free(struct ki_graph *g)
{
	if (!g)
		return;
	free(g->edges);
	free(g);
}

uint32_t ki_add_edge(struct ki_graph *g, uint32_t src, uint32_t dst, bool back)
{
	if (g->nedges == g->cap_edges) {
		uint32_t cap = g->cap_edges ? 2 * g->cap_edges : 16;
		struct ki_edge *e = realloc(g->edges, cap * sizeof *e);
		if (!e)
			return KI_NONE;
		g->edges = e;
		g->cap_edges = cap;
	}
	g->edges[g->nedges] = (struct ki_edge){ .src = src, .dst = dst, .back = back };
	return g->nedges++;
}

/* A CFG edge's sort key: out-edges grouped by block, each group in the
 * (order, id) order of cfg.h. */
struct key {
	uint32_t src, order, id;
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

struct ki_graph *ki_graph_from_cfg(const struct cfg *g, const struct bl_dag *d, uint32_t *cfg_edge)
{
	struct ki_graph *k = ki_graph_new(g->nblocks);
	struct key *idx = malloc((g->nedges + 1) * sizeof *idx);

	if (!k || !idx) {
		free(idx);
		ki_graph_free(k);
		return NULL;
	}
	for (uint32_t e = 0; e < g->nedges; e++)
		idx[e] = (struct key){ .src = g->edges[e].src, .order = g->edges[e].order, .id = e };
	qsort(idx, g->nedges, sizeof *idx, cmp_key);
	for (uint32_t j = 0; j < g->nedges; j++) {
		uint32_t e = idx[j].id, id;
		if (d->role[e] == ROLE_DEAD)
			continue;
		id = ki_add_edge(k, g->edges[e].src, g->edges[e].dst, d->role[e] == ROLE_BACK);
		if (id == KI_NONE) {
			free(idx);
			ki_graph_free(k);
			return NULL;
		}
		if (cfg_edge)
			cfg_edge[id] = e;
	}
	free(idx);
	return k;
}
