/* overlap_prof.h: a --mode overlap profile entry in the terms of
 * cfgbuild/overlap.h (overlap_prof.c), for `kpath overlap`. */
#ifndef KPATH_OVERLAP_PROF_H
#define KPATH_OVERLAP_PROF_H

#include <stdbool.h>
#include <stdint.h>

#include "overlap.h"
#include "profile.h"

#include <jansson.h>

struct ov_func {
	const struct kp_func *kf;
	unsigned theta;
	const char *kinds;        /* overlap_dag_kinds */
	uint32_t *first_out;      /* per block: its first out-edge in cfg.edges (nblocks + 1) */
	struct ol_func f;         /* overlap_graph */
	struct ol_program prog;
	uint32_t *buf, *buf2;     /* decoding buffers */
};
/* NULL, or why the entry cannot be read back (f must still be released). */
const char *ov_func_init(struct ov_func *of, const struct kp_func *kf);
void ov_func_release(struct ov_func *of);

struct ov_loop {
	struct ov_func *of;
	uint32_t head, max_degree;
	struct ol_space sp;
	struct ol_og og;
	struct ol_og_numbering nb;
	struct ol_seqtab ps, qs;  /* first and second halves (their ids index row, col) */
	uint64_t *row, *col;
	uint32_t *group, ngroups; /* per q its group; per group its ro */
	uint64_t *group_ro;
	uint64_t *of_;            /* OF(p, g) */
	uint64_t flow;            /* B: back edges into head taken (the sum of col) */
	struct ol_est_input in;
	struct ol_bounds b;
	uint64_t *exact;          /* ov_loop_exact: p * nq + q */
	uint64_t exact_outside;   /* exact flow of pairs the estimate has no entry for */
};
/* The estimator's input for loop head of of, and its bounds.  NULL or the
 * reason (L must still be released). */
const char *ov_loop_init(struct ov_loop *L, struct ov_func *of, uint32_t head, uint64_t ids);
/* Exact counts of every p ! q from ex's level-2 pairs (ex: a k >= 2
 * profile entry of the same function and numbering).  NULL or the reason. */
const char *ov_loop_exact(struct ov_loop *L, const struct kp_func *ex);
void ov_loop_release(struct ov_loop *L);

/* Shared with overlap_calls.c: a Ball-Larus ID decoded into blocks (0
 * when it does not decode; ENTRY / EXIT left out at a dummy edge), and
 * interned sequences with a count array growing beside them. */
uint32_t ov_decode(const struct ov_func *of, uint64_t id, uint32_t *out, bool *from_head, bool *to_back);
uint32_t ov_seq_add(struct ol_seqtab *t, const uint32_t *s, uint32_t n, uint64_t **vals, uint32_t *cap);
uint32_t ov_seq_find(const struct ol_seqtab *t, const uint32_t *s, uint32_t n);
void ov_seq_release(struct ol_seqtab *t);

/* ---- calls (overlap_calls.c): Type I / II interesting paths of a call site ---- */

struct ov_call {
	const struct ov_func *caller, *callee;
	int type;                 /* 1: caller's prefix ! callee's first path; 2: callee's last path ! caller's suffix */
	uint32_t block;           /* the call block c in the caller */
	unsigned line;
	const char *callee_name;
	uint32_t max_degree;
	struct ol_space sp;       /* where second halves run */
	struct ol_og og;
	struct ol_og_numbering nb;
	struct ol_seqtab ps, qs;  /* first and second halves (block sequences) */
	uint64_t *row, *col;      /* F_p, F_q */
	uint32_t *group, ngroups;
	uint64_t *group_ro;
	uint64_t *of_;            /* OF(p, g) */
	uint64_t calls;           /* C (equation 9) */
	uint64_t unmatched;       /* OL counts of paths the Ball-Larus counts never completed (a run cut short) */
	bool unfinished;          /* the run left a path through the site unfinished (exit, longjmp): an OL
	                             count above its Ball-Larus counts, the bounds need not hold */
	struct ol_est_input in;
	struct ol_bounds b;
};
/* The estimate of one site (an element of overlap_calls) of type 1 or 2;
 * callee: the callee's entry, NULL when it is not in the profile (then
 * the site has C only).  NULL or the reason (X must still be released). */
/* The file whose profile entry of the site's callee holds its counts: the
 * caller's for a callee in the same file, the site's callee_file across
 * files; NULL across files when the program defines the callee in no file
 * in this mode at this degree (the site counts C alone). */
const char *ov_site_callee_file(const json_t *site, const char *caller_file);
const char *ov_call_init(struct ov_call *X, const struct ov_func *caller, const struct ov_func *callee,
                         const json_t *site, int type);
void ov_call_release(struct ov_call *X);

#endif
