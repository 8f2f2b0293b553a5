/* overlap_prof.h: a --mode overlap profile entry in the terms of
 * cfgbuild/overlap.h (overlap_prof.c), for `kpath overlap`. */
#ifndef KPATH_OVERLAP_PROF_H
#define KPATH_OVERLAP_PROF_H

#include <stdbool.h>
#include <stdint.h>

#include "overlap.h"
#include "profile.h"

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

#endif
