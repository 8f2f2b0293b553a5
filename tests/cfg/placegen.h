/*
 * placegen.h: the random CFGs of the placement tests (static, header only):
 * up to 64 blocks, forward edges, back edges and gotos, edges into EXIT,
 * site-less dispatch edges into split blocks (case labels: a start site),
 * and setjmp restart blocks entered by forced cuts.  Used by
 * tests/cfg/test_place_random.c and tests/ppp/test_ppp_place.c.
 */
#ifndef KPATH_PLACEGEN_H
#define KPATH_PLACEGEN_H

#include "bltest.h"

struct gen {
	struct cfg *g;
	bool split[64];
	bool restart[64];
};

static inline void random_graph(struct gen *x, uint32_t nreal)
{
	struct cfg *g = cfg_new();
	uint32_t i, v;

	memset(x->split, 0, sizeof x->split);
	memset(x->restart, 0, sizeof x->restart);
	for (i = 0; i < nreal; i++)
		cfg_add_block(g, 100 + i);
	for (v = 3; v < 2 + nreal; v++) {
		x->split[v] = bt_below(4) == 0;
		x->restart[v] = !x->split[v] && bt_below(10) == 0;
	}
	cfg_add_edge(g, CFG_ENTRY, 2, 0, CFG_NONE, false);
	for (v = 2; v < 2 + nreal; v++) {
		uint32_t deg = 1 + bt_below(4), k;

		for (k = 0; k < deg; k++) {
			uint32_t kind = bt_below(10), dst = v + 1 + bt_below(3), site = 1 + bt_below(1000), e;

			if (kind < 7)
				dst = dst < 2 + nreal ? dst : CFG_EXIT;
			else if (kind < 9)
				dst = 2 + bt_below(v - 1); /* back, or a goto forward */
			else
				dst = CFG_EXIT;
			/* a dispatch: no site of its own, into a split block */
			if (dst != CFG_EXIT && x->split[dst] && dst > v && bt_below(2) == 0)
				site = CFG_NONE;
			e = cfg_add_edge(g, v, dst, bt_below(3), site, site != CFG_NONE);
			if (dst != CFG_EXIT && x->restart[dst])
				g->edges[e].force_cut = site != CFG_NONE;
		}
	}
	x->g = g;
}

#endif
