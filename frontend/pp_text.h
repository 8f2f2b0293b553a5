/*
 * pp_text.h: reading clang -E output and macro invocations as text
 * (pp_text.c), for the macro write-out (expand.c).
 */
#ifndef KPATH_PP_TEXT_H
#define KPATH_PP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "strbuf.h"

/* A preprocessing token: its offset and length in the text. */
struct ptok {
	uint32_t off, len;
};

struct ptoks {
	struct ptok *t;
	uint32_t n, cap;
};

/* Length of the token at s (s < e, not whitespace). */
size_t pp_tok_len(const char *s, const char *e);
/* The tokens of text[0, len), comments skipped, into out (reused). */
void pp_tokenize(const char *text, size_t len, struct ptoks *out);
bool pp_tok_eq(const char *a, struct ptok ta, const char *b, struct ptok tb);
/* [s, e) on one line into b: comments and line splices removed, newlines
 * turned into spaces. */
void pp_flatten(struct sb *b, const char *s, const char *e);
/* [s, e) into b without its comments but those that may mark an intended
 * fall-through. */
void pp_keep_fallthrough_comments(struct sb *b, const char *s, const char *e);
unsigned pp_count_newlines(const char *s, const char *e);
/* Whether text holds a statement keyword, a brace or a colon. */
bool pp_has_control(const char *text, size_t len);
/* Whether clang -E -CC output (text, its tokens t) was damaged by a
 * macro's line comment that holds the end of a block comment. */
bool pp_comment_damage(const char *text, const struct ptoks *t);
/* Whether clang -E -CC output (text, its tokens t) holds a comment between
 * an identifier and "(": a function-like macro that -CC may have left
 * unexpanded (expand.c, cc_damaged). */
bool pp_comment_before_paren(const char *text, const struct ptoks *t);
/* Whether a line comment of text (a source file) holds the end of a block
 * comment ("*" "/"), its continuation lines included: without one in any
 * file or flag, -CC cannot damage an expansion (expand.c, cc_damaged).
 * Comments and literals are told apart as the lexer does; a splice next to
 * a "/" or "*" answers yes, unexamined, so the answer errs only towards a
 * preprocessor run more. */
bool pp_line_comment_may_end_block(const char *text, size_t len);

/* Identifiers named by the macro-use line (expand.c, append_macro_uses): spans of
 * the original text. */
struct pp_idents {
	struct {
		const char *s;
		size_t n;
	} *v;
	size_t n, cap;
};
bool pp_ident_char(char c);
/* Adds the identifiers of t[k, end) to ids (each once), skipping string
 * and character literals, comments and numbers. */
void pp_scan_idents(const char *t, size_t k, size_t end, struct pp_idents *ids);
/* The first identifier of text[0, len) (comments and literals skipped)
 * that names a builtin which only macros of clang's own headers spell
 * (pp_text.c, clang_header_builtin) and that src[0, srclen) does not name; its
 * span in *at and *n.  false when there is none. */
bool pp_find_header_builtin(const char *text, size_t len, const char *src, size_t srclen, const char **at,
                            size_t *n);
/* The "#define NAME ..." directives of text[0, len), as ids: each NAME
 * with n spanning the name and the rest of its logical line. */
void pp_find_defines(const char *t, size_t len, struct pp_idents *defs);

#endif
