/*
 * cfg.c: the graph container.  Blocks and edges live in dense arrays that
 * grow by doubling; ids are indices and never change once handed out.
 * Invariant: blocks 0 (ENTRY) and 1 (EXIT) exist from cfg_new on.
 */
#include <stdlib.h>

#include "cfg.h"

/* Returns arr (elements of size sz), grown so that index n fits, or NULL on
 * failure, leaving arr and *cap unaltered. */
static void *grow(void *arr, uint32_t *cap, uint32_t n, size_t sz)
{
	uint32_t ncap;
	void *p;

	if (n < *cap)
		return arr;
	if (*cap >= CFG_NONE / 2)
		return NULL; /* ids must stay below CFG_NONE */
	ncap = *cap ? *cap * 2 : 16;
	p = realloc(arr, (size_t)ncap * sz);
	if (p)
		*cap = ncap;
	return p;
}

struct cfg *cfg_new(void)
{
	struct cfg *g = calloc(1, sizeof *g);

	if (!g)
		return NULL;
	if (cfg_add_block(g, 0) != CFG_ENTRY || cfg_add_block(g, 0) != CFG_EXIT) {
		cfg_free(g);
		return NULL;
	}
	return g;
}

void cfg_free(struct cfg *g)
{
	if (!g)
		return;
	free(g->blocks);
	free(g->edges);
	free(g);
}

/* Returns CFG_NONE when out of memory. */
uint32_t cfg_add_block(struct cfg *g, unsigned line)
{
	struct cfg_block *b = grow(g->blocks, &g->cap_blocks, g->nblocks, sizeof *b);

	if (!b)
		return CFG_NONE;
	g->blocks = b;
	g->blocks[g->nblocks].line = line;
	g->blocks[g->nblocks].last_line = line;
	return g->nblocks++;
}

/* Returns CFG_NONE when out of memory.  Ends are checked by bl_build, not
 * here, so a builder can add edges to blocks it creates later. */
uint32_t cfg_add_edge(struct cfg *g, uint32_t src, uint32_t dst, uint32_t order, uint32_t site, bool can_cut)
{
	struct cfg_edge *e = grow(g->edges, &g->cap_edges, g->nedges, sizeof *e);

	if (!e)
		return CFG_NONE;
	g->edges = e;
	e += g->nedges;
	e->src = src;
	e->dst = dst;
	e->order = order;
	e->site = site;
	e->can_cut = can_cut;
	e->force_cut = false;
	return g->nedges++;
}
