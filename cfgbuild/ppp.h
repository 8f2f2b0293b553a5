/*
 * ppp.h: preferential path profiling (Vaswani, Nori & Chilimbi, POPL 2007,
 * "the PPP paper"; docs/ppp.md): a numbering of a chosen set I of
 * interesting paths of a DAG whose IDs are unique and packed into a small
 * interval [0, N), with N <= the Ball-Larus path count, plus the check that
 * tells an interesting path from an uninteresting one that aliases it.
 *
 * Invariants of a numbering (checked by the tests, see tests/ppp/):
 *  - every interesting path's PPP ID (the sum of W along it, Figure 4) lies
 *    in [0, interval) and no two are equal (Lemma 5);
 *  - interval <= num_paths[entry];
 *  - with I = every path, W(e) equals the Ball-Larus val(e) (Figure 1);
 *  - ppp_classify(ppp_id(p), bl_id(p)) is a slot exactly when p is in I
 *    (and its PPP ID is below the slot limit).
 *
 * Nothing here depends on libclang; ppp_dag_from_bl (ppp_bl.c) is the
 * bridge to kpath's struct bl_dag, edge for edge.
 */
#ifndef KPATH_PPP_H
#define KPATH_PPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PPP_NONE UINT32_MAX
#define PPP_HOLE UINT64_MAX     /* a slot no interesting path owns; never a Ball-Larus ID */
#define PPP_RESIDUAL UINT64_MAX /* ppp_classify: not an interesting path */

struct ppp_edge {
	uint32_t src, dst;
	uint64_t bl_val; /* Ball-Larus val(e), Figure 1 */
};

/* Nodes 0..nnodes), one entry, one exit.  Edges are grouped by src; within a
 * group, the order is the out-edge order both numberings visit. */
struct ppp_dag {
	uint32_t nnodes, nedges;
	uint32_t entry, exit;
	struct ppp_edge *edges;
	uint32_t *out_start; /* out-edges of v: edges[out_start[v] .. out_start[v + 1]) */
	uint32_t *rtopo;     /* every node, in reverse topological order (exit side first) */
	uint64_t *num_paths; /* N_v: paths from v to exit; every N_v <= INT64_MAX */
};

/* A DAG with edges src[i]->dst[i]; edges of one source keep their relative
 * order.  Computes bl_val and num_paths by Figure 1.  Returns NULL with a
 * reason in err on a node id out of range, a cycle, an edge out of exit, or
 * an N_v above INT64_MAX (see docs/ppp.md, "Arithmetic"). */
struct ppp_dag *ppp_dag_new(uint32_t nnodes, uint32_t entry, uint32_t exit, const uint32_t *src,
                            const uint32_t *dst, uint32_t nedges, char *err, size_t errlen);
void ppp_dag_free(struct ppp_dag *d);

/* ppp_bl.c: the DAG of a kpath Ball-Larus numbering; edge i is d->edges[i]
 * (so its CFG edge is d->edges[i].cfg_edge).  Fails like ppp_dag_new, and
 * when Figure 1 does not give back d's vals. */
struct bl_dag;
struct ppp_dag *ppp_dag_from_bl(const struct bl_dag *d, char *err, size_t errlen);

/* Ball-Larus ID (Figure 4 over bl_val) of the path edges[0..n), and whether
 * edges[0..n) is a path from entry to exit at all. */
uint64_t ppp_bl_path_id(const struct ppp_dag *d, const uint32_t *edges, uint32_t n);
bool ppp_is_path(const struct ppp_dag *d, const uint32_t *edges, uint32_t n);
/* The edges of the path with Ball-Larus ID id (at most cap written); returns
 * the path's length, or 0 when id >= num_paths[entry]. */
uint32_t ppp_bl_decode(const struct ppp_dag *d, uint64_t id, uint32_t *edges, uint32_t cap);

/* The interesting set I over one DAG (which must outlive it).  Paths are
 * kept in insertion order; adding a path already in I returns its index. */
struct ppp_set;
struct ppp_set *ppp_set_new(const struct ppp_dag *d);
void ppp_set_free(struct ppp_set *s);
/* Return the path's index in the set, or PPP_NONE with a reason in err (not
 * a path from entry to exit, ID out of range, out of memory). */
uint32_t ppp_set_add_edges(struct ppp_set *s, const uint32_t *edges, uint32_t n, char *err, size_t errlen);
uint32_t ppp_set_add_bl_id(struct ppp_set *s, uint64_t bl_id, char *err, size_t errlen);
uint32_t ppp_set_size(const struct ppp_set *s);
uint64_t ppp_set_bl_id(const struct ppp_set *s, uint32_t i);

/* The result of computePPPIncrements (Figure 10) for one DAG and set. */
struct ppp_numbering {
	const struct ppp_dag *dag;
	uint32_t npaths;   /* |I| */
	int64_t *weight;   /* per edge: W(e); 0 where undefined (the paper's ⊥) */
	bool *defined;     /* per edge: some interesting path takes it */
	uint64_t interval; /* N = cis(root): every interesting PPP ID is in [0, N) */
	uint64_t *ppp_id;  /* per interesting path, in the set's order */
	uint64_t *bl_id;   /* per interesting path, in the set's order */
	/* Contexts of section 4.3 (prefix trie; 0 is the root, at entry). */
	uint32_t nctx;
	struct ppp_ctx *ctx;
};

/* Computes W, the interval and the model.  Returns NULL with a reason in err
 * (out of memory).  An empty set gives interval 0 and W = 0 everywhere. */
struct ppp_numbering *ppp_number(const struct ppp_dag *d, const struct ppp_set *s, char *err, size_t errlen);
void ppp_numbering_free(struct ppp_numbering *n);

/* PPP ID (Figure 4 over W, mod 2^64) of any path edges[0..n): what the PPP
 * register holds at the path's end.  Negative IDs wrap. */
uint64_t ppp_path_id(const struct ppp_numbering *n, const uint32_t *edges, uint32_t len);

/* Section 4.3: in context ctx, the range [lo, hi) of total that edge e owns,
 * and the context after e.  Returns false when no interesting path with
 * that prefix takes e (the paper's empty range, probability 0). */
struct ppp_range {
	uint64_t lo, hi, total;
};
bool ppp_model_range(const struct ppp_numbering *n, uint32_t ctx, uint32_t e, struct ppp_range *r,
                     uint32_t *next);

/* Figure 14, pathEncoder, with the PPP model: the PPP ID of an interesting
 * path.  Returns false when edges[0..len) leaves the model (not in I). */
bool ppp_encode(const struct ppp_numbering *n, const uint32_t *edges, uint32_t len, uint64_t *id);
/* Figure 14 with the Ball-Larus model of Figure 12: the Ball-Larus ID. */
bool ppp_bl_encode(const struct ppp_dag *d, const uint32_t *edges, uint32_t len, uint64_t *id);
/* Arithmetic decoding (section 4.1): the interesting path with PPP ID id
 * (at most cap edges written); returns its length, or 0 when id is a hole
 * or outside the interval. */
uint32_t ppp_decode(const struct ppp_numbering *n, uint64_t id, uint32_t *edges, uint32_t cap);

/* The counter array of section 2.3: slot i holds the Ball-Larus ID of the
 * interesting path whose PPP ID is i, or PPP_HOLE.  nslots = min(interval,
 * limit); interesting paths with PPP ID >= limit are demoted (section 5,
 * "Hash table usage policy": treated as residual). */
struct ppp_slots {
	uint64_t nslots;
	uint64_t *bl;      /* [nslots] */
	uint32_t demoted;  /* interesting paths left without a slot */
	uint32_t holes;    /* slots no path owns */
};
struct ppp_slots *ppp_slots_new(const struct ppp_numbering *n, uint64_t limit);
void ppp_slots_free(struct ppp_slots *t);

/* Sections 2.3 and 5 ("Additional checks"): given the PPP and Ball-Larus
 * registers at a path's end, the slot to count, or PPP_RESIDUAL when the
 * path is not interesting (out of range, a hole, or an alias whose stored
 * Ball-Larus ID differs); the caller then records it by bl. */
static inline uint64_t ppp_classify(const struct ppp_slots *t, uint64_t ppp, uint64_t bl)
{
	return ppp < t->nslots && t->bl[ppp] == bl ? ppp : PPP_RESIDUAL;
}

/* --interesting-top: of n paths with counts[i], the indexes of the hottest
 * ones (count desc, then ids[i] asc) that together reach pct percent of the
 * total count; written to keep (which holds n), returns how many.  Paths
 * with count 0 are never kept; pct <= 0 keeps none, pct >= 100 every path
 * that ran. */
uint32_t ppp_select_top(const uint64_t *ids, const uint64_t *counts, uint32_t n, double pct, uint32_t *keep);

#endif
