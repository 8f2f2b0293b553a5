/*
 * pipeline.h: one run of the parse/build/number/rewrite pipeline that
 * kpath instrument, cfg and paths share (pipeline.c).  Internal to
 * frontend/.
 */
#ifndef KPATH_PIPELINE_H
#define KPATH_PIPELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "modes.h"
#include "stages.h"
#include "walk.h"

struct kp_inc_opts {
	const char **dirs; /* --include-dir */
	int n;
	const char *out;   /* --include-out, NULL: beside the output, kpath-include/ */
};

/* What one run does: instrument (mode set), dump (kpath cfg) or list
 * (kpath paths). */
struct kp_run_opts {
	const char *in, *out;         /* out NULL: beside in (INPUT.kpath.c) */
	const char **flags;           /* compile flags for the parser */
	int nflags;
	bool quiet, check;            /* --quiet, --check */
	bool no_expr_branches;        /* --no-expr-branches */
	FILE *dump;                   /* kpath cfg: dump here instead of rewriting */
	bool staged;                  /* kpath cfg --stage: dump that stage's result */
	enum stage stage;
	const char *only;             /* kpath cfg/paths --function */
	const struct kp_inc_opts *inc; /* --include-dir, --include-out */
	kp_numbered_fn *numbered;     /* kpath paths: each numbered function */
	void *numbered_ctx;
	struct kp_mode_run *mode;     /* kpath instrument: the mode (kp_mode_select) */
};

/* Runs the pipeline; returns the exit status. */
int kp_run(const struct kp_run_opts *o);
/* Whether f is one of the -D flags kp_run adds for the parse (the very
 * string, not a user's flag that reads the same): the preprocessor runs of
 * the macro write-out leave them out, so that an expansion written out
 * keeps the source's names (__builtin_huge_valq). */
bool kp_parse_only_flag(const char *f);

#endif
