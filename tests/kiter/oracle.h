/*
 * oracle.h: the definition of a run's k-iteration paths
 * (docs/kiter-paths.md, "A run's k-iteration paths"), implemented by
 * cutting the run's edge sequence, independently of the numbering and of
 * the counters of Algorithm 3.  Only the loop structure (heads, K, bodies)
 * is taken from the numbering.
 */
#ifndef KPATH_TESTS_KITER_ORACLE_H
#define KPATH_TESTS_KITER_ORACLE_H

#include "kiter.h"

/* A complete path: the run's edges run[first .. last], inclusive. */
struct oracle_path {
	size_t first, last;
};

/* Cuts a Start->End run; writes at most cap paths, returns how many. */
size_t oracle_cut(const struct ki_numbering *n, const uint32_t *run, size_t len,
                  struct oracle_path *out, size_t cap);

/* The blocks of a path as the paper writes them ("1-2-3-5-2-4-5"): the
 * source of its first edge (unless Start), then each edge's target except
 * the last edge's (End, or the head after a back edge).  label[v] names node
 * v. */
void oracle_blocks(const struct ki_graph *g, const uint32_t *edges, size_t len,
                   const char *const *label, char *buf, size_t cap);

#endif
