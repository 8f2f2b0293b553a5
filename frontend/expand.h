/*
 * expand.h: writing macro invocations out as their expansion, so that the
 * control flow inside them (a `return`, `break`, `goto`, loop... in a macro
 * body) can be instrumented like any other code.
 *
 * The expansion is the preprocessor's own: the file is preprocessed by
 * clang (`clang -E -P`, the user's flags, the same clang as libclang) with
 * marker identifiers around each invocation, and the text between the
 * markers replaces the invocation.  A replacement is kept only when it is
 * provably the same program: the preprocessed token stream of the edited
 * file equals the original's, token for token, with every multi-line
 * invocation flattened onto one line (so `__LINE__` cannot differ between
 * compilers, which disagree on its value there).  Lines are kept: the
 * expansion is written on the invocation's first line and followed by as
 * many newlines as the invocation spanned, so every other token keeps its
 * line number.
 */
#ifndef KPATH_EXPAND_H
#define KPATH_EXPAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One top-level macro invocation in the main file: bytes [start, end) of
 * the original text, owned by function fn (an index chosen by the caller). */
struct xp_region {
	uint32_t start, end;
	uint32_t fn;
	char name[64];
};

/* Bytes [start, end) of the original text that the preprocessor need not
 * read (quiet.h). */
struct xp_span {
	uint32_t start, end;
};

struct xp_request {
	const char *path;        /* the source file as named on the command line */
	const char *text;        /* its contents */
	size_t len;
	const char **flags;      /* the parser flags (-I, -D, -std...) */
	int nflags;
	const char *prefix;      /* identifier prefix free in the program (markers) */
	struct xp_region *regions; /* sorted by start, disjoint */
	uint32_t nregions;
	uint32_t nfns;
	const struct xp_span *quiet; /* sorted, disjoint, none overlapping a region */
	uint32_t nquiet;
	bool cc_risk;            /* some file or flag has a line comment holding a block comment's end (cc_damaged) */
};

struct xp_result {
	char *text;     /* the edited file (malloc'd, NUL-terminated) */
	size_t len;
	bool *expanded; /* per function: some invocation of it was written out */
	char **reason;  /* per function: why its invocations could not be written
	                   out (malloc'd), NULL if they were or none needed it */
	unsigned *reason_line; /* per function: the line of the invocation its reason is
	                          about (the first token that differs), 0 if none */
	uint32_t *shift_start; /* per invocation written out, in order: its start in the original */
	uint32_t *shift_end;   /* per invocation written out, in order: its end in the original */
	int64_t *shift_delta;  /* how much longer the edited text is up to there */
	uint32_t nshift;
	uint32_t *xq;          /* per invocation written out, in order: its expansion's start
	                          and end in the edited text (pairs), where the rendering puts
	                          kpath_rt_xq_begin and kpath_rt_xq_end (kpath_rt.h) */
};

/* Where offset off of the original text is in the edited text; off must
 * not be inside an invocation written out. */
uint32_t xp_map(const struct xp_result *res, uint32_t off);

/* Expands, per function, the invocations whose expansion holds control
 * flow (a statement keyword, a brace or a colon: labels) or is empty.  All or none of a function's
 * invocations are written out.  Never fails as a whole: a function whose
 * invocations cannot be expanded faithfully keeps its text and gets a
 * reason. */
void xp_expand(const struct xp_request *rq, struct xp_result *res);
/* What the expansions of this process cost (KPATH_STATS=1 prints them):
 * the preprocessor runs, and the bytes of the file blanked in each copy
 * they read (quiet.h). */
struct xp_stats {
	unsigned runs;
	unsigned long long blanked;
};
extern struct xp_stats xp_stats;

void xp_result_free(struct xp_result *res, uint32_t nfns);

#endif
