/*
 * placement.h: where the path register changes, and by how much (Ball &
 * Larus, "Efficient Path Profiling", MICRO 1996, sections 3.3-3.5: increments
 * on the chords of a maximum spanning tree, computed with Ball's event
 * counting; initialisation and path ends folded into their neighbours).
 *
 * The register r is kept as  r = prefix + pot(v)  at every point of block v,
 * where prefix is the sum of Ball-Larus vals of the DAG edges taken since the
 * path began and pot is a per-node constant (mod 2^64) chosen here.  Then a
 * DAG edge u->v must add Inc(e) = val(e) + pot(v) - pot(u); for any choice of
 * pot, the increments along an ENTRY->EXIT path telescope to the path's ID
 * because pot(ENTRY) = pot(EXIT) = 0.  Choosing pot by a spanning forest
 * (pot(v) = pot(u) - val(e) along its edges) makes every tree edge free, so
 * only chords carry code: this is the event-counting placement of Ball-Larus
 * section 3.3 in potential form.  Edges that carry code anyway (out of ENTRY:
 * the initialisation or the reset after an emit; into EXIT: the leave or
 * emit; out of a setjmp restart block: an absolute assignment) are left out
 * of the forest, and their Inc folds into the constant they already write
 * (section 3.5: initialisation pushed into the first increment, the last
 * increment into the path end).
 *
 * Weights: the forest is a maximum one for an estimated frequency, the loop
 * nesting depth of the edge (loops containing both ends: hot edges end up in
 * the tree), ties broken for readability.  Edges without an insertion site
 * (a switch's dispatch and no-match edges) have infinite weight so they are
 * always tree edges; a block with a start site (a case label: code that runs
 * on every entry, after the code of the entering edge) is split into a
 * pre-node, which the in-edges enter, and the block, joined by an edge whose
 * site is the start site.  This subsumes compensation: a dispatch into a case
 * also reached by fall-through is a tree edge, and the fall-through or the
 * label carries the difference.  Site-less edges never close a cycle in
 * kpath's CFGs (each block has at most one site-less in-edge); if they did,
 * and the cycle's signed sum of vals were not 0, bl_place fails.
 *
 * Where every DAG path from ENTRY to u has the same prefix K(u), code on u's
 * out-edges is written absolutely (r = K(u) + val(e) + pot(v), or an ID
 * constant at a path end): same cost, independent of the register's past.
 * Restart blocks (setjmp) need this, since after a longjmp r is stale.
 */
#ifndef KPATH_PLACEMENT_H
#define KPATH_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

struct bl_place_in {
	const bool *split;        /* per block or NULL: has a start site (see above) */
	const bool *restart;      /* per block or NULL: out-edges must set r absolutely */
	const bool *awkward;      /* per CFG edge or NULL: code at its site reads badly (a
	                             condition wrapper, an added else): prefer it in the tree */
};

struct bl_placement {
	uint32_t nblocks;
	uint64_t *pot;            /* per block: r = prefix + pot(v) after v's start site */
	uint64_t *pot_in;         /* per block: before the start site (pot when not split) */
	bool *known;              /* per block: every path reaching v has the same prefix */
	uint64_t *prefix;         /* per block: that prefix, when known */
	bool *in_tree;            /* per CFG edge: in the spanning forest (carries nothing) */
	bool *start_in_tree;      /* per block: the start site's edge is in the forest */
	const bool *restart;      /* the input's (which must outlive the placement), or NULL */
	uint32_t *dag_edge;       /* per CFG edge: its DAG edge, CFG_NONE if not in the DAG */
	uint32_t *depth;          /* per block: loop nesting depth */
	uint32_t *weight;         /* per CFG edge: depth of the innermost loop holding both ends,
	                             the frequency estimate the forest maximises */
};

/* What one CFG edge (or one block's start site) does to the register, in
 * this order: first report a path end, then update. */
enum bl_update {
	BL_UPD_NONE,
	BL_UPD_ADD, /* r += val (mod 2^64) */
	BL_UPD_SET, /* r = val */
};

struct bl_code {
	bool ends;           /* report a path ID: r + end when end_rel, else end */
	bool end_rel;
	uint64_t end;
	enum bl_update upd;
	uint64_t val;
};

/* Chooses the forest and the potentials for g numbered as d.  Returns NULL
 * with a reason in err when no placement exists (a site-less edge would need
 * an increment, a restart block is not the start of a path, out of memory). */
struct bl_placement *bl_place(const struct cfg *g, const struct bl_dag *d, const struct bl_place_in *in,
                              char *err, size_t errlen);
void bl_placement_free(struct bl_placement *p);

/* The code of CFG edge e.  An edge out of ENTRY gives its initial value as
 * BL_UPD_SET.  Returns false when e carries nothing because it takes part in
 * no path (dead, or into a block from which EXIT is unreachable). */
bool bl_code_edge(const struct bl_placement *p, const struct cfg *g, const struct bl_dag *d, uint32_t e,
                  struct bl_code *c);

/* The code at the start site of split block b (BL_UPD_NONE when none). */
void bl_code_start(const struct bl_placement *p, uint32_t b, struct bl_code *c);

/* A path register on placement p: its potentials per block (pot after a
 * split block's start site, pot_in before it), the prefix of each block
 * where known[v], and the weight of each DAG edge.  bl_code_edge and
 * bl_code_start are the Ball-Larus register (weights: the edges' vals, p's
 * potentials); the PPP register (ppp_place.c) is the same forest with the
 * weights W of the PPP numbering and its own potentials. */
struct bl_reg {
	const uint64_t *pot, *pot_in, *prefix;
	const bool *known;
	uint64_t (*weight)(const void *ctx, uint32_t dag_edge);
	const void *ctx;
	bool tree_free; /* assert that a tree edge needs no increment (PPP) */
};
bool bl_code_edge_reg(const struct bl_placement *p, const struct bl_reg *r, const struct cfg *g,
                      const struct bl_dag *d, uint32_t e, struct bl_code *c);
void bl_code_start_reg(const struct bl_placement *p, const struct bl_reg *r, uint32_t b, struct bl_code *c);

#endif
