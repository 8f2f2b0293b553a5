/*
 * ppp_internal.h: what the ppp_*.c files share and nothing else does.
 */
#ifndef KPATH_PPP_INTERNAL_H
#define KPATH_PPP_INTERNAL_H

#include "ppp.h"

/* The interesting set: path i is edges[start[i] .. start[i] + len[i]). */
struct ppp_set {
	const struct ppp_dag *dag;
	uint32_t n, cap;
	uint64_t *start;
	uint32_t *len;
	uint64_t *bl;     /* Ball-Larus ID per path */
	uint32_t *by_bl;  /* path indexes sorted by bl (duplicate detection) */
	uint32_t *edges;
	uint64_t nedges, capedges;
};

/* A context of section 4.3: the prefix of edges leading from the root to
 * node, shared by every interesting path that starts with it.  m and cis
 * are the smallest and one past the largest partial identifier (pid, Figure
 * 10) of those paths at node once node has been processed. */
struct ppp_ctx {
	uint32_t node;
	uint32_t via;          /* edge from the parent context, PPP_NONE at the root */
	uint32_t first_child;  /* PPP_NONE when node is the exit */
	uint32_t next_sibling;
	int64_t m, cis;
};

/* ppp_dag.c: the out-edge of v whose Ball-Larus range [val, val + N_dst)
 * holds id (v must have a path to exit and id < N_v). */
uint32_t ppp_dag_bl_step(const struct ppp_dag *d, uint32_t v, uint64_t id);

#endif
