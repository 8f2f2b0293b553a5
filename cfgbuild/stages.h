/*
 * stages.h: a function's path of the pipeline after its CFG is built, one
 * stage at a time, so that the driver can run, stop after, dump and check
 * each one (`kpath cfg --stage S`).
 *
 *   backedges  DFS from ENTRY, each CFG edge's role     bl_backedges (dag.c)
 *   dag        the DAG: CFG edges minus back and cut    num->number (numbering.h)
 *   numbering  edges, dummy edges; edge values, numPaths, cuts
 *   placement  spanning forest, potentials, the code    bl_place (placement.c)
 *              of every edge and start site
 *
 * The DAG and its numbering are built by one call: which edges are cut
 * (and so which dummy edges exist) depends on the path counts.  Their dumps
 * differ: `dag` shows the edges, `numbering` their values and counts.
 *
 * In debug builds (no NDEBUG: the CI's sanitizer build among them) each
 * stage's checker runs on its result and a failure aborts with the reason:
 * the backedges roles against the DFS orders, the numbering's own checker
 * (IDs exactly [0, numPaths)), and the placement's register invariant on
 * every edge (check_placement in stages.c).
 */
#ifndef KPATH_STAGES_H
#define KPATH_STAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cfg.h"
#include "numbering.h"
#include "placement.h"

enum stage {
	STAGE_BACKEDGES,
	STAGE_DAG,
	STAGE_NUMBERING,
	STAGE_PLACEMENT,
};

/* Results so far; a stage not run leaves its field NULL. */
struct fn_stages {
	const struct num_ops *num;
	struct bl_dag *dag;          /* backedges; then dag and numbering */
	struct bl_placement *place;  /* placement */
};

/* Runs the stages up to and including last (STAGE_DAG runs the numbering
 * too, see above).  in is placement's input (may be NULL before it).
 * False with a reason when a stage finds no way on; st then holds what the
 * stages before it built, for stages_free. */
bool stages_run(const struct cfg *g, const struct num_ops *num, const struct bl_place_in *in, enum stage last,
                struct fn_stages *st, char *err, size_t errlen);
void stages_free(struct fn_stages *st);

/* The text dump of one stage's result (golden files, kpath cfg --stage). */
void stage_dump(FILE *out, enum stage s, const struct cfg *g, const struct fn_stages *st);

/* "backedges" etc. to the stage; false for an unknown name. */
bool stage_by_name(const char *name, enum stage *s);

/* Stage checkers (always available; stages_run calls them when NDEBUG is
 * not defined).  False with a reason on the first violation. */
bool check_backedges(const struct cfg *g, const struct bl_dag *d, char *err, size_t errlen);
bool check_placement(const struct cfg *g, const struct bl_dag *d, const struct bl_placement *p, char *err,
                     size_t errlen);

#endif
