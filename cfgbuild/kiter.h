/*
 * kiter.h: Roy & Srikant's k-iteration path numbering (CGO 2009, "the
 * paper"), on a standalone graph type so that it can be tested without
 * libclang.  docs/kiter-paths.md defines a run's k-iteration paths and lists
 * where this code departs from the paper.
 *
 * The graph mirrors cfg.h: node 0 is Start (KI_START, the procedure entry),
 * node 1 End (KI_END, every return), edges are numbered in the order they
 * are added and a node's out-edges keep that order (the first one gets
 * val 0).  The caller marks the back edges (retreating edges of a DFS, as
 * bl_build finds them); each loop is named by its head, the target of one or
 * more back edges.
 *
 * The numbering is the paper's Gδ (CFG without back edges, dummy edges
 * Start->head per loop and tail->End per back edge) traversed as the
 * loop-unrolled DAG Glu: a node u of a loop with K >= 2 has K versions
 * (u, 1) .. (u, K), every other node one.  Each (node, version) is a *slot*;
 * each Glu edge out of a slot is an *arc*.  A path ID is the sum of the arcs'
 * val, minus their cval where equation (1) compensates (see kiter.c).
 *
 * Mixed mode (paper section 5): only innermost, reducible loops keep a
 * K >= 2; every other loop is numbered acyclically (K = 1), and so is a
 * loop whose K the caller asks to be 1.
 */
#ifndef KPATH_KITER_H
#define KPATH_KITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KI_NONE UINT32_MAX
#define KI_START 0u
#define KI_END 1u
#define KI_MAX_K 64u /* largest K accepted (the counters of Algorithm 3) */

struct ki_edge {
	uint32_t src, dst;
	bool back; /* a back edge: dst is a loop head */
};

struct ki_graph {
	uint32_t nnodes; /* Start and End included */
	struct ki_edge *edges;
	uint32_t nedges, cap_edges;
};

struct cfg;
struct bl_dag;

/* A graph of nnodes nodes (>= 2: Start, End) and no edges; NULL on OOM. */
struct ki_graph *ki_graph_new(uint32_t nnodes);
void ki_graph_free(struct ki_graph *g);
/* Appends an edge; returns its id, KI_NONE on OOM. */
uint32_t ki_add_edge(struct ki_graph *g, uint32_t src, uint32_t dst, bool back);
/*
 * The graph of kpath's CFG g (cfg.h): the same node ids (CFG_ENTRY is Start,
 * CFG_EXIT End), each block's out-edges in cfg.h's (order, id) order, back
 * edges as bl_build found them (ROLE_BACK).  Edges out of dead blocks are
 * left out; edges bl_build cut for 64-bit overflow (ROLE_CUT) are ordinary
 * edges here (ki_build has its own limit).  When cfg_edge is not NULL it
 * receives, per edge of the result, its CFG edge id (room for g->nedges).
 * NULL on OOM.
 */
struct ki_graph *ki_graph_from_cfg(const struct cfg *g, const struct bl_dag *d, uint32_t *cfg_edge);

/* Why a loop's K is lower than asked. */
enum ki_lowered {
	KI_LOWER_NONE,         /* K as asked */
	KI_LOWER_NOT_INNERMOST, /* holds another loop's head: acyclic (section 5) */
	KI_LOWER_IRREDUCIBLE,  /* entered other than at its head: acyclic */
};

struct ki_loop {
	uint32_t head;
	unsigned k_asked; /* K the caller asked for */
	unsigned k;       /* K used (1 = acyclic, Ball-Larus) */
	enum ki_lowered lowered;
	uint32_t start_arc; /* the arc Start->(head, 1), δstart */
};

enum ki_arc_kind {
	KI_ARC_EDGE,  /* a CFG edge (a back edge of u's own loop in versions < K) */
	KI_ARC_START, /* δstart: Start->(head, 1) */
	KI_ARC_END,   /* δend: (tail, i)->End standing for back edge `edge` */
};

struct ki_arc {
	enum ki_arc_kind kind;
	uint32_t edge;    /* CFG edge (EDGE, END), KI_NONE for START */
	uint32_t dst;     /* target slot */
	uint64_t val;     /* val(e, i) of Algorithm 1 */
	uint64_t cval;    /* cval(e, i) of Algorithm 1 */
	uint64_t invalid; /* invalid paths via this arc for a path that began at
	                     δstart of the source's loop (equation 2) */
};

struct ki_numbering {
	const struct ki_graph *g; /* borrowed; must outlive the numbering */
	uint32_t nloops;
	struct ki_loop *loops;    /* ordered by head id */
	uint32_t *loop_of_head;   /* per node: loop index if the node is a head, else KI_NONE */
	uint32_t *kloop;          /* per node: the loop with K >= 2 holding it, or KI_NONE */
	uint32_t *slot_base;      /* per node: slot of (u, 1); slot of (u, i) is base + i - 1 */
	uint32_t nslots;
	uint32_t *slot_node;      /* per slot: node */
	unsigned *slot_ver;       /* per slot: version i, 1-based */
	uint64_t *num_paths;      /* per slot: numPaths (all Glu paths to End) */
	uint64_t *invalid_paths;  /* per slot: invalidPaths */
	uint32_t *arc_first;      /* per slot: its arcs are [arc_first[s], arc_first[s+1]) */
	struct ki_arc *arcs;
	uint32_t narcs;
	uint32_t *edge_base;      /* per edge: index of version 1 in edge_arc / end_arc */
	uint32_t *edge_arc;       /* per (edge, source version): its EDGE arc, KI_NONE if ignored */
	uint32_t *end_arc;        /* per (back edge, source version): its END arc, or KI_NONE */
	unsigned max_k;           /* largest K in use: the number of counters */
	uint64_t total;           /* static k-iteration paths: IDs are [0, total) */
};

struct ki_options {
	unsigned k;             /* K of every loop not named in k_head (>= 1) */
	const unsigned *k_head; /* per node, K asked for the loop headed there (>= 1);
	                           NULL: every loop asks for k */
	uint64_t limit;         /* fail with KI_TOO_MANY when total > limit; 0: no limit */
};

enum ki_status {
	KI_OK,
	KI_BAD_GRAPH, /* err says why (edge into Start, cycle without back edge, ...) */
	KI_TOO_MANY,  /* more static paths than limit (or than 2^64 - 1) */
	KI_NOMEM,
};

/*
 * Numbers the k-iteration paths of g (paper Algorithm 1; docs/kiter-paths.md,
 * "Numbering").  On success *out is the numbering (free with ki_free); on
 * failure *out is NULL and err (when errlen > 0) holds a reason.
 */
enum ki_status ki_build(const struct ki_graph *g, const struct ki_options *o,
                        struct ki_numbering **out, char *err, size_t errlen);
void ki_free(struct ki_numbering *n);

/*
 * Static number of k-iteration paths of g with these K (o->limit ignored);
 * UINT64_MAX when it does not fit in 64 bits, on a bad graph or OOM.  It
 * numbers Glu and keeps the count: time and memory linear in Glu's size
 * (sum of K over loop nodes, times out-degree).
 */
uint64_t ki_count(const struct ki_graph *g, const struct ki_options *o);

/*
 * Lowers K loop by loop until the static count fits o->limit (paper section
 * 6 aborts above 60,000 instead): each step lowers by one the K of the loop
 * whose lowering leaves the fewest paths (ties: the lower head id).  Writes
 * the K chosen per node into k_out (meaningful at loop heads; nnodes
 * entries) and returns the resulting count, UINT64_MAX when even every loop
 * acyclic does not fit.  Build with k_head = k_out afterwards; the caller
 * reports the loops whose K went down.
 */
uint64_t ki_fit(const struct ki_graph *g, const struct ki_options *o, unsigned *k_out);

/*
 * Path identification (paper Algorithm 2): the CFG edges of the path with
 * this ID, in order.  A path that starts at a loop head has no edge for its
 * δstart (its first edge leaves the head); a path that ends at a back edge
 * ends with that back edge.  Writes at most cap edge ids into out and
 * returns the path's length, or 0 when id >= total.
 */
size_t ki_decode(const struct ki_numbering *n, uint64_t id, uint32_t *out, size_t cap);

/* Compensation rule of Algorithm 3. */
enum ki_flag_rule {
	KI_FLAG_PER_COUNTER, /* c[i] compensated iff it began at the head (departure 1) */
	KI_FLAG_PAPER,       /* the paper's single fδ: wrong for K >= 3 (tests only) */
};

/*
 * Executable model of the instrumentation (paper Algorithm 3): runs the
 * counters over one activation, given as the CFG edges it takes from Start
 * to End, and writes the IDs it records, in order, into ids (at most cap).
 * Returns the number of IDs recorded, or SIZE_MAX when the run is not a
 * Start->End walk of g.
 */
size_t ki_exec(const struct ki_numbering *n, const uint32_t *run, size_t len,
               enum ki_flag_rule rule, uint64_t *ids, size_t cap);

/* A complete path of a run: the run's edges run[first .. last], inclusive. */
struct ki_span {
	size_t first, last;
};
/*
 * A run's k-iteration paths by their definition (docs/kiter-paths.md, rules
 * 1-4), cut from the run's edge sequence (a Start->End walk of n->g) in the
 * order they complete; only n's loop structure is used.  Writes at most cap
 * spans and returns how many paths there are, SIZE_MAX on OOM.  ki_exec
 * records, in the same order, the IDs of exactly these paths.
 */
size_t ki_cut(const struct ki_numbering *n, const uint32_t *run, size_t len, struct ki_span *out, size_t cap);

struct ki_count {
	uint64_t id, count;
};
/* Sorts ids and writes (id, count) pairs into out (room for n); returns how many. */
size_t ki_tally(uint64_t *ids, size_t n, struct ki_count *out);

/*
 * Stage checker (tests, debug builds): recomputes numPaths, invalidPaths,
 * val and cval from their definitions (equation 2), and when total <= limit
 * enumerates every Start->End path of Glu and verifies that the valid ones
 * get exactly the IDs [0, total), each once.  Returns true when consistent.
 */
bool ki_check(const struct ki_numbering *n, uint64_t limit, char *err, size_t errlen);

/* Text dump: loops and their K, then per slot numPaths/invalidPaths and
 * its arcs with val/cval (the columns of the paper's Table 1). */
void ki_dump(FILE *out, const struct ki_numbering *n);

#endif
