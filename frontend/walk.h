/*
 * walk.h: the walk over a translation unit's function definitions that
 * kpath instrument, cfg and paths share (instrument_fn.c), and the macro
 * invocations written out for functions whose control flow macros spell
 * (macro_scan.c, expand.h).  Internal to frontend/.
 */
#ifndef KPATH_WALK_H
#define KPATH_WALK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <clang-c/Index.h>

#include "build.h"
#include "cfg.h"
#include "headers.h"
#include "modes.h"
#include "reparse.h"
#include "rewrite.h"
#include "stages.h"

/* A function whose control flow is partly spelled by macros, and what
 * writing its invocations out gave (expand.h). */
struct macro_fn {
	char *name;
	uint32_t start, end; /* extent in the original file */
	char *reason;        /* why it could not be written out, NULL if it was */
	unsigned reason_line; /* the line of the invocation the reason is about, 0 if none */
	uint32_t group;      /* functions sharing an invocation are written out together:
	                        the group's first function (union-find parent) */
};

struct macro_fns {
	struct macro_fn *v;
	uint32_t n, cap;
};

/* The CFGs the rest of a first walk builds once it has found a function to
 * write out (it only looks for more then), kept for the second walk, which
 * takes them for the functions that are not written out instead of
 * building them again from the same unit (instrument_fn.c): indexed by the
 * order of the main file's definitions, which both walks visit alike (the
 * first unit).  v[i] NULL: nothing kept (built by the first walk's first
 * part, or not buildable). */
struct plan_cache {
	struct fn_plan **v;
	uint32_t n, cap;
};
void kp_plan_cache_free(struct plan_cache *c);

/* kpath paths: called with each numbered function instead of a rewrite. */
typedef void kp_numbered_fn(void *ctx, const struct fn_plan *plan, const struct bl_dag *dag);

struct walk {
	struct hdr_set *hdrs;    /* --include-dir: headers whose functions are instrumented too */
	struct macro_fns *macro; /* survey: collect macro failures here instead of instrumenting */
	const struct macro_fns *expanded; /* reasons from the expansion, for the messages */
	struct src_file *src;
	struct rw_file *rw;
	bool in_header; /* walking a header's function (--include-dir) */
	struct kp_counts counts;
	bool quiet;
	bool expr_branches;
	FILE *dump;           /* kpath cfg: dump CFGs here instead of rewriting */
	const char *only;     /* kpath cfg --function */
	kp_numbered_fn *numbered; /* kpath paths (frontend/paths.c) */
	void *numbered_ctx;
	/* First walk of `kpath instrument`: instrument, but also collect the
	 * main file's functions that fail only because of macros; messages go
	 * to msg, printed only if no second walk (after writing the macros
	 * out) replaces this one.  After the first such function the walk
	 * only collects (the second walk will instrument). */
	struct macro_fns *collect;
	FILE *msg;
	bool staged;          /* kpath cfg --stage: dump this stage's result */
	enum stage stage;
	const struct kp_mode_run *mode; /* kpath instrument: the mode's rewrite (modes.h) */
	const struct src_file *main_src;
	struct reparse *reparse; /* the functions written out come from its unit (reparse.h) */
	struct plan_cache *plans; /* kept by a first walk, taken by the second (NULL: none) */
	uint32_t visit;          /* main-file definitions visited so far: the index into plans */
	uint32_t built;          /* CFGs built (build_function calls; KPATH_STATS) */
	/* kp_walk: where each header function of the unit is defined, and how
	 * many definitions start there (a header included more than once) */
	struct hdr_fn_at *hdr_at;
	uint32_t nhdr_at, cap_hdr_at;
};

/* Visits the function definitions of tu (instrument_fn.c). */
void kp_walk(struct walk *w, CXTranslationUnit tu);

/* macro_scan.c */
const struct macro_fn *kp_macro_find(const struct macro_fns *m, const char *name);
void kp_macro_record(struct macro_fns *m, CXCursor fn, const struct fn_plan *plan);
void kp_macro_fns_free(struct macro_fns *m);
/* Writes out the macro invocations of the functions in fns (their reasons
 * go into fns) and parses the result as the main file, with the bodies of
 * the other functions blanked (reparse.h; rp gets the texts and the offset
 * map).  Returns the new translation unit, or NULL when nothing was
 * written out or the result does not parse (then every function keeps its
 * text, with a reason). */
CXTranslationUnit kp_expand_and_reparse(CXIndex index, const struct src_file *src, struct macro_fns *fns,
                                        const char **flags, int nflags, const char *prefix, struct reparse *rp);

#endif
