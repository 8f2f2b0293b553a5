/*
 * numbering.h: the path-numbering seam.  A mode numbers the paths of a
 * function's DAG its own way; everything after it (placement, rewriting,
 * decoding a profile) reads the result through struct bl_dag (edge values
 * and numPaths per block) and the mode's operations here.
 *
 * The input is the back-edge stage's result (bl_backedges: roles and DFS
 * orders); number() adds the DAG's edges, their values and numPaths, and
 * cuts edges when the mode's IDs would not fit (cutting is part of
 * numbering: where to cut depends on the counts).  Ball-Larus (Ball & Larus,
 * MICRO 1996; the k-BLPP paper's bl_path_numbering) is the first mode,
 * in num_bl.c.  A new mode adds one file defining its struct num_ops and a
 * line in num_ops_of().
 */
#ifndef KPATH_NUMBERING_H
#define KPATH_NUMBERING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cfg.h"

enum num_mode {
	NUM_BALL_LARUS,
};

struct num_ops {
	const char *name; /* as in `kpath cfg` dumps */
	/* DAG, values, numPaths(ENTRY) = the function's path count; cuts on
	 * overflow.  d comes from bl_backedges. */
	bool (*number)(const struct cfg *g, struct bl_dag *d, char *err, size_t errlen);
	/* An ID back to its blocks (ENTRY and EXIT included); at most cap
	 * written, the count returned, 0 when the ID is out of range. */
	uint32_t (*decode)(const struct bl_dag *d, uint64_t id, uint32_t *out, uint32_t cap);
	/* Stage checker: the IDs of every path (when at most limit) are
	 * exactly [0, numPaths(ENTRY)). */
	bool (*check)(const struct bl_dag *d, uint64_t limit, char *err, size_t errlen);
	/* Identifies the numbering in profiles: equal only when IDs decode alike. */
	uint64_t (*checksum)(const struct cfg *g, const struct bl_dag *d);
	void (*dump)(FILE *out, const struct cfg *g, const struct bl_dag *d);
};

const struct num_ops *num_ops_of(enum num_mode mode);

#endif
