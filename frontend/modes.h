/*
 * modes.h: the profiling modes of `kpath instrument --mode M`, behind one
 * small interface (docs/design.md, "Modes").  A mode is one entry of
 * kp_modes[] (modes.c) and one file (mode_kipf.c, mode_kiter.c, mode_ppp.c):
 * it checks its options, keeps its own state for the run, rewrites each
 * numbered function in its form and prints the summary line.  The driver
 * (pipeline.c, instrument_fn.c) calls these hooks and nothing mode-specific.
 */
#ifndef KPATH_MODES_H
#define KPATH_MODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "build.h"
#include "cfg.h"
#include "placement.h"
#include "rewrite.h"

/* The mode options as given on the command line (NULL: not given). */
struct kp_mode_args {
	const char *mode;              /* --mode M; NULL: the first entry (kipf) */
	const char *kiter;             /* --kiter K */
	struct rw_kiter_loop *loops;   /* --kiter-loop FILE:LINE=K (used: set by the walk) */
	unsigned nloops;
	const char *interesting;       /* --interesting PROFILE */
	const char *top;               /* --interesting-top P */
	bool check;                    /* --check (kipf only) */
	const char *degree;            /* --degree N (overlap) */
};

/* What the walk counts, for the summary line. */
struct kp_counts {
	unsigned instrumented, skipped, cut;
};

/* One numbered function handed to a mode's rewrite hook. */
struct kp_mode_fn {
	struct rw_file *rw;
	const struct fn_plan *plan;
	const struct bl_dag *dag;
	const struct bl_placement *place;
	const char *src_path;
	bool main_file;                /* the main file (not an --include-dir header) */
	FILE *msg;                     /* where notes go */
	bool quiet;
};

struct kp_mode_ops {
	const char *name;
	/* Checks the mode's own options: when selected, parses them into a new
	 * *state (may stay NULL); when not, that none was given.  False with
	 * the reason on stderr.  Called for every mode in table order. */
	bool (*args)(const struct kp_mode_args *a, bool selected, void **state);
	bool cuts;                     /* numbering may cut edges: count them, note each */
	/* Optional hooks (NULL: nothing to do). */
	int (*load)(void *state);      /* before the parse: 0 or the exit status */
	bool (*source)(void *state, const struct src_file *src); /* main file read: false fails the run */
	void (*walk_start)(void *state); /* before each walk of the translation unit */
	/* Rewrites one function: NULL, or why it cannot be instrumented. */
	const char *(*function)(void *state, const struct kp_mode_fn *f, char *err, size_t errlen);
	int (*finish)(void *state, const char *in, const char *out); /* after the walk: 0 or 1 */
	void (*summary)(void *state, const char *in, const struct kp_counts *c);
	void (*free)(void *state);
};

/* The selected mode and its state for one run. */
struct kp_mode_run {
	const struct kp_mode_ops *mode;
	void *state;
};

/* Checks the mode options of kpath instrument (and -p): --mode names an
 * entry of the table, each option goes with its mode.  False with the
 * reason on stderr. */
bool kp_mode_select(const struct kp_mode_args *a, struct kp_mode_run *run);
void kp_mode_run_free(struct kp_mode_run *run);

extern const struct kp_mode_ops kp_mode_kipf, kp_mode_kiter, kp_mode_ppp, kp_mode_overlap;

/* --kiter-loop FILE:LINE=K into *l (mode_kiter.c); false when malformed. */
bool kp_kiter_loop_arg(const char *s, struct rw_kiter_loop *l);

/* The message of a --check given with another mode than kipf. */
bool kp_mode_check_refused(void);

#endif
