/*
 * reparse.h: the second translation unit of `kpath instrument`, the one
 * parsed from the text with macro invocations written out (expand.h), and
 * how one walk uses both units.
 *
 * The second parse reads the edited text with the bodies of the functions
 * not written out blanked (quiet.h, quiet_reparse_text): it is used only
 * for the functions written out.  Every other function is built from the
 * first unit, and its edits, made at offsets of the original text, are
 * moved to the edited text's (xp_map) before rendering.  The functions are
 * still visited once, in the file's order, so the output is the one a walk
 * over the whole edited text gives.
 */
#ifndef KPATH_REPARSE_H
#define KPATH_REPARSE_H

#include "build.h"
#include "expand.h"
#include "rewrite.h"

struct reparse {
	struct src_file src;     /* the second unit's main file (indexed); src.tu is the unit */
	char *parsed;            /* the text it was parsed from (the unsaved file), NULL: full */
	char *full;              /* the edited text, whole: what is rendered */
	size_t full_len;
	struct xp_result map;    /* only its offset map (shift_*) */
	uint32_t *written;       /* sorted extent starts (original) of the functions written out */
	uint32_t *written_end;   /* their extent ends, in the same order */
	uint32_t nwritten;
	uint32_t *fn_start;      /* the second unit's main-file definitions: extent starts, sorted */
	CXCursor *fn;
	uint32_t nfn, capfn;
	uint32_t *own;           /* [begin, end) pairs of edit indices made from the second unit */
	uint32_t nown, capown;
};

/* Lists the second unit's function definitions (r->src set). */
void reparse_index(struct reparse *r);
/* The second unit's cursor for c, a definition of the first unit's main
 * file, when c is a function written out. */
bool reparse_find(const struct reparse *r, CXCursor c, CXCursor *c2);
/* Edits [a, b) of the main file's rw_file come from the second unit. */
void reparse_own(struct reparse *r, uint32_t a, uint32_t b);
/* Moves every other edit of rw (made at the original's offsets) to the
 * edited text's, and brackets each expansion written out with
 * kpath_rt_xq_begin and kpath_rt_xq_end (kpath_rt.h). */
void reparse_shift(const struct reparse *r, struct rw_file *rw);
/* The errors of the second unit that count: every error that is not a
 * warning made one by -Werror, and those inside a function written out
 * (blanked bodies may warn: a non-void function without return, an
 * unused static function). */
unsigned reparse_errors(const struct reparse *r, CXTranslationUnit tu);
/* Frees r (the unit must be disposed of first: it reads r->parsed). */
void reparse_free(struct reparse *r);

#endif
