/*
 * overlap.h: overlapping paths (Tallam, Zhang & Gupta, CGO 2004, "the
 * paper") on a small standalone program graph, and the bounds they give on
 * the counts of interesting paths.  docs/overlap.md defines every term used
 * here and lists where the code departs from the paper.
 *
 * Nothing here knows libclang or the runtime: a program is an array of
 * functions, each a CFG of dense block ids; a run is its sequence of
 * (function, block) events.  overlap_graph.c holds the graph and the
 * sites; overlap.c the edge classes, the overlapping graph and OL-path
 * counting; overlap_seq.c interned sequences; overlap_model.c the
 * executable model; overlap_est.c the estimator.
 */
#ifndef KPATH_OVERLAP_H
#define KPATH_OVERLAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define OL_NONE UINT32_MAX
/* Degrees are below this (theta + 1 must not wrap); a site's maximum
 * overlap is below its block count. */
#define OL_THETA_LIMIT (1u << 24)

/* ---- the graph ---- */

struct ol_edge {
	uint32_t src, dst;
};

/*
 * One function.  Filled by ol_func_init / _add_edge / _set_call, then
 * ol_func_finish derives back edges, predicates and loop bodies.
 * Invariants after finish (asserted): the entry has no predecessor, the
 * exit no successor, every block's out-edges are succ[succ_start[b] ..
 * succ_start[b+1]) in insertion order, at most one back edge leaves a
 * block, and the graph is reducible (every back edge's head dominates its
 * source).
 */
struct ol_func {
	uint32_t nblocks, entry, exit;
	struct ol_edge *edges;
	uint32_t nedges, cap_edges;
	uint32_t *callee;      /* per block: the function it calls at its end, OL_NONE */
	/* derived by ol_func_finish */
	uint32_t *succ_start;  /* nblocks + 1 offsets into succ_edge */
	uint32_t *succ_edge;   /* edge ids grouped by source, insertion order */
	bool *is_back;         /* per edge: retreating edge of the DFS from entry */
	bool *is_pred;         /* per block: two or more out-edges (the paper's P blocks) */
	uint32_t *back_head;   /* per block: head of the back edge leaving it, OL_NONE */
	bool *is_head;         /* per block: target of a back edge */
	bool **body;           /* per block: for a head, nblocks flags (v in its natural loop), else NULL */
	uint32_t *rpo;         /* blocks reachable from entry in DFS reverse postorder: a topological order of the DAG */
	uint32_t nrpo;
};

void ol_func_init(struct ol_func *f, uint32_t nblocks, uint32_t entry, uint32_t exit);
void ol_func_add_edge(struct ol_func *f, uint32_t src, uint32_t dst);
void ol_func_set_call(struct ol_func *f, uint32_t block, uint32_t callee);
void ol_func_finish(struct ol_func *f);
/* ol_func_finish for graphs from outside (a kpath CFG, a profile): the
 * reason when f breaks an invariant above, else NULL.  Release f either way. */
const char *ol_func_finish_checked(struct ol_func *f);
void ol_func_release(struct ol_func *f);

struct ol_program {
	struct ol_func *funcs;
	uint32_t nfuncs;
};

/* ---- sites and second-half spaces ---- */

enum ol_kind {
	OL_LOOP,     /* two consecutive iterations around the back edge(s) into a head (2.1) */
	OL_CALL_IN,  /* Type I: caller's path to the call site ! callee's first path (3.1) */
	OL_CALL_OUT, /* Type II: callee's last path ! caller's path from the call site (3.1) */
};

struct ol_site {
	enum ol_kind kind;
	uint32_t func;  /* the function holding the head or the call block */
	uint32_t block; /* loop head or call block */
	uint32_t callee; /* calls only, else OL_NONE */
};

/* Every site of the program: each loop head, and for each call block one
 * OL_CALL_IN and one OL_CALL_OUT site.  Returns the count; *out is malloc'd. */
uint32_t ol_sites(const struct ol_program *prog, struct ol_site **out);

/*
 * Where second halves live: a function, the block they start at, and for
 * loops the body they may not leave.  A second half is a DAG path from
 * start; it may end at a block that ends a BL path (the exit, a back
 * edge's source) or, with a body, that has an edge leaving it.
 */
struct ol_space {
	const struct ol_func *f;
	uint32_t start;
	const bool *body; /* nblocks flags, NULL for no limit */
};

struct ol_space ol_site_space(const struct ol_program *prog, const struct ol_site *s);
/* Can a second half of sp end at v? */
bool ol_space_can_end(const struct ol_space *sp, uint32_t v);
/* Does the edge continue a second half (forward, and inside the body)? */
bool ol_space_continues(const struct ol_space *sp, uint32_t edge);

/* The site's maximum overlap: the most predicates on a second half (its
 * last block counted as one) minus one.  At this degree the bounds are exact. */
uint32_t ol_max_degree(const struct ol_space *sp);

/* ---- edge classes and the overlapping graph (section 2.3) ---- */

enum ol_edge_class {
	OL_EDGE_NOT_IN_SPACE, /* a back edge, or an edge leaving the body / unreachable from start */
	OL_EDGE_DI,           /* every path from start to the source has <= theta predicates */
	OL_EDGE_PI,           /* some do, some do not: taken while ol <= theta */
	OL_EDGE_DNI,          /* no path has <= theta predicates */
};

struct ol_og {
	const struct ol_space *sp;
	uint32_t theta;
	uint32_t *minp, *maxp;      /* per block: fewest / most predicates from start, source included; OL_NONE unreached */
	enum ol_edge_class *cls;    /* per edge */
	bool *in_og;                /* per block: reachable from start over non-DNI edges */
	bool *stop;                 /* per block: some walk reaches it as the (theta+1)-th predicate (dummy edge to Ex) */
};

/* Builds the overlapping graph of sp for theta (section 2.3: DNI edges
 * removed, PI edges marked, unreachable nodes removed, stop nodes).  og
 * keeps sp: it must outlive og.  Memory: nblocks * min(theta + 2, nblocks + 2)
 * flags while building. */
void ol_og_build(struct ol_og *og, const struct ol_space *sp, uint32_t theta);
void ol_og_release(struct ol_og *og);

/* The length of prefix_theta(q): q walked through the overlapping graph as
 * the instrumented code would (predicates counted, PI edges taken while
 * ol <= theta), stopping at the (theta+1)-th predicate or at q's end.
 * q must be a second half of og's space (asserted). */
uint32_t ol_og_prefix(const struct ol_og *og, const uint32_t *q, uint32_t n);

/*
 * The path graph's numbering of section 2.3 restricted to the overlapping
 * graph (the runtime's ro): Ball-Larus vals on the DI and PI edges, a
 * dummy edge of val 0 to Ex from every block where an OL path ends.
 * Distinct OL paths of og get distinct IDs in [0, total) (some IDs may go
 * unused).  ol_og_number returns false, nb empty, when total would exceed
 * UINT64_MAX.
 */
struct ol_og_numbering {
	uint64_t *num_paths; /* per block: paths from it to Ex in the overlapping graph */
	uint64_t *val;       /* per edge: its increment (DI and PI edges), else 0 */
	uint64_t total;      /* num_paths of the start */
};
bool ol_og_number(const struct ol_og *og, struct ol_og_numbering *nb);
void ol_og_numbering_release(struct ol_og_numbering *nb);
/* The ID of an OL path (a prefix_theta, e.g. q cut at ol_og_prefix). */
uint64_t ol_og_path_id(const struct ol_og *og, const struct ol_og_numbering *nb, const uint32_t *ol_path, uint32_t n);

/*
 * Counts the OL paths of sp profiled at degree theta, per exact degree
 * (by_degree[d] for d in [0, theta]), as Tables 3, 6 and 7 count them:
 * distinct prefixes, each counted once.  Multiply by
 * ol_count_first_halves for the table's figure.  With theta >= the
 * maximum overlap the sum is the number of second halves.  Returns false
 * when more than limit prefixes would be enumerated.
 */
bool ol_count_paths(const struct ol_space *sp, uint32_t theta, uint64_t *by_degree, uint64_t limit);

/* The number of first halves of a site, counted as BL paths (or BL path
 * prefixes to the call block): Table 3's 6 for Table 2's loop.  Saturates
 * at UINT64_MAX. */
uint64_t ol_count_first_halves(const struct ol_program *prog, const struct ol_site *s);

/* ---- interned block sequences ---- */

struct ol_seqtab {
	uint32_t *data;          /* all sequences, back to back */
	size_t ndata, cap_data;
	size_t *start;           /* per id: offset in data; start[id + 1] - start[id] is its length */
	uint32_t nseq, cap_seq;
	uint32_t *hash;          /* open addressing: id + 1, 0 empty */
	uint32_t nhash;
};

uint32_t ol_seq_intern(struct ol_seqtab *t, const uint32_t *s, uint32_t n);
static inline const uint32_t *ol_seq(const struct ol_seqtab *t, uint32_t id, uint32_t *n)
{
	*n = (uint32_t)(t->start[id + 1] - t->start[id]);
	return t->data + t->start[id];
}

/* ---- the executable model ---- */

struct ol_event {
	uint32_t func, block;
};

/* A (site, a, b) -> count table; a, b are sequence ids or OL_NONE. */
struct ol_count_entry {
	uint32_t tag, site, a, b;
	uint64_t count;
};
struct ol_counts {
	struct ol_count_entry *e; /* open addressing, count 0 = empty */
	uint32_t cap, n;
};

struct ol_model {
	const struct ol_program *prog;
	struct ol_site *sites;
	uint32_t nsites;
	uint32_t *loop_site;   /* per function, per block: site index of the loop at head b, else OL_NONE */
	uint32_t *call_site;   /* per function, per block: index of the OL_CALL_IN site (OL_CALL_OUT is +1) */
	uint32_t *func_base;   /* offsets of each function's blocks in loop_site / call_site */
	struct ol_seqtab seqs;
	struct ol_counts counts;
};

void ol_model_init(struct ol_model *m, const struct ol_program *prog);
void ol_model_release(struct ol_model *m);
/* Adds a run (one or more top-level activations, each from a function's
 * entry to its exit).  Returns false, adding nothing, when the events are
 * not a run of prog (an event that does not follow an edge or a call). */
bool ol_model_run(struct ol_model *m, const struct ol_event *ev, size_t n);

/* The count of interesting path p ! q at site (sequence ids), 0 if never run. */
uint64_t ol_model_exact(const struct ol_model *m, uint32_t site, uint32_t p, uint32_t q);
/* C of equation 9 for a call site; B (the back edges taken) for a loop. */
uint64_t ol_model_total(const struct ol_model *m, uint32_t site);

/* ---- the estimator (overlap_est.c) ---- */

/*
 * One site at one degree.  Pairs are indexed p * nq + q.  group[q] is the
 * prefix id of q (prefix_theta), in [0, ngroups); of[p * ngroups + g] is
 * OF(p, g).  row[p], col[q] are the Ball-Larus candidates (F_p - X_p and
 * F_q - E_q for loops, F_p and F_q for calls); total is C (calls) and is
 * used only when use_total.
 */
struct ol_est_input {
	uint32_t np, nq, ngroups;
	const uint32_t *group;
	const uint64_t *of;
	const uint64_t *row, *col;
	uint64_t total;
	bool use_total;
};

struct ol_bounds {
	uint64_t *lower, *upper; /* np * nq each */
	uint64_t definite, potential;
	uint32_t rounds;         /* lower-from-upper, upper-from-lower rounds until stable */
};

/* Returns false, with out empty, when the counts are too large for exact
 * 64-bit sums (their total times max(np, nq) above 2^61), or a group id is
 * out of range. */
bool ol_estimate(const struct ol_est_input *in, struct ol_bounds *out);
/* One round of equations (7, 8) / (13, 14, 17, 18) applied to given bounds
 * (upper from the given lower, lower from the given upper), for checking
 * a printed table against them: writes the new bounds.  Returns false on
 * counts too large, or given bounds above their row candidate. */
bool ol_estimate_round(const struct ol_est_input *in, const uint64_t *lower, const uint64_t *upper,
                       uint64_t *new_lower, uint64_t *new_upper);
void ol_bounds_release(struct ol_bounds *b);

/*
 * Builds the estimator input of one site of a model at degree theta: the
 * first and second halves seen in the profile, their Ball-Larus candidates,
 * and OF(p, g) counted one OL path per occurrence through the overlapping
 * graph.  p_ids[np] and q_ids[nq] receive the sequence ids (malloc'd).
 */
struct ol_site_input {
	struct ol_est_input in;
	uint32_t *p_ids, *q_ids;
	uint32_t *group_buf;
	uint64_t *of_buf, *row_buf, *col_buf;
};
void ol_model_input(const struct ol_model *m, uint32_t site, uint32_t theta, struct ol_site_input *si);
void ol_site_input_release(struct ol_site_input *si);

#endif
