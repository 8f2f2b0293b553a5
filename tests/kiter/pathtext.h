/*
 * pathtext.h: a k-iteration path's blocks as the paper writes them, for
 * the tests' messages and the paper's path lists.
 */
#ifndef KPATH_TESTS_KITER_PATHTEXT_H
#define KPATH_TESTS_KITER_PATHTEXT_H

#include "kiter.h"

/* The blocks of a path ("1-2-3-5-2-4-5"): the source of its first edge
 * (unless Start), then each edge's target except the last edge's (End, or
 * the head after a back edge).  label[v] names node v. */
void path_blocks(const struct ki_graph *g, const uint32_t *edges, size_t len, const char *const *label, char *buf,
                 size_t cap);

#endif
