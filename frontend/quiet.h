/*
 * quiet.h: what of the main file the macro expansion's `clang -E` runs
 * need not read (expand.h, struct xp_span).  The expansion of an
 * invocation depends on the macros defined where it stands and on the
 * tokens around it in its function; everything else of the file (other
 * functions, declarations, initialisers) is blanked in the copies the
 * preprocessor reads, except the directives.  Those runs then cost the
 * headers, the directives and the functions written out, not the whole
 * file.
 */
#ifndef KPATH_QUIET_H
#define KPATH_QUIET_H

#include "build.h"
#include "expand.h"

/* The spans of src (indexed: src_index) outside keep (the extents of the
 * functions whose invocations may be written out, any order) and outside
 * every preprocessing directive.  *n gets their number; the array is
 * malloc'd, sorted and disjoint.  NULL and 0 when blanking would not be
 * faithful: some file of the translation unit, or a flag, names
 * __COUNTER__, push_macro, pop_macro or poison (blanked tokens could then
 * change what the preprocessor does after them), or when the environment
 * sets KPATH_QUIET=0 (tests compare the two). */
struct xp_span *quiet_spans(const struct src_file *src, struct xp_span *keep, uint32_t nkeep, const char **flags,
                            int nflags, uint32_t *n);

/* Whether pred holds for the text of some file of the translation unit
 * (the main file and every file it includes, at any depth). */
bool quiet_any_file(CXTranslationUnit tu, bool (*pred)(const char *text, size_t len));

/* The edited text (res, expand.h) to parse again: a copy with the bodies
 * of src's function definitions that were not written out blanked (their
 * directives kept), and with inits the brace initialisers of file-scope
 * arrays with a spelled bound and of structs and unions ("= {...}"), so
 * that the parse costs the declarations and the functions written out.
 * written: the sorted extent starts (expansion offsets) of the functions
 * written out.  *blanked: the bytes blanked.  NULL when blanking is off
 * (as for quiet_spans). */
char *quiet_reparse_text(const struct src_file *src, const struct xp_result *res, const uint32_t *written,
                         uint32_t nwritten, bool inits, const char **flags, int nflags,
                         unsigned long long *blanked);

#endif
