/*
 * quiet.c: the parts of the main file the macro expansion's preprocessor
 * runs need not read (quiet.h).
 *
 * Why blanking them is faithful for what is written out: what an
 * invocation expands to depends on the macro table where it stands and on
 * the tokens of its own function around it (kept: a function-like macro
 * may take the tokens after its invocation).  The macro table depends on
 * the file's other tokens only through directives, which are kept, and
 * through _Pragma("push_macro" / "pop_macro" / "poison") and __COUNTER__:
 * when any file of the translation unit or a flag names one of them,
 * nothing is blanked.  Blanking turns every byte but the newlines into a
 * space, so each line keeps its number (__LINE__) and each byte its
 * offset.
 *
 * Directives are found on the file's raw tokens (src_index: clang's own
 * lexer, comments included): a "#" (or "%:") token is one when it is the
 * file's first token or the white space before it, comments aside, holds
 * a newline that is not a line splice (C11 6.10 p2, and comments are one
 * space, 5.1.1.2 phase 3); the directive runs to the next such newline.
 */
#define _GNU_SOURCE /* memmem */
#include "quiet.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words whose presence anywhere in the translation unit turns blanking off. */
static const char *const unsafe_words[] = {"__COUNTER__", "push_macro", "pop_macro", "poison", NULL};

static bool names_unsafe(const char *s, size_t n)
{
	for (int i = 0; s && unsafe_words[i]; i++)
		if (memmem(s, n, unsafe_words[i], strlen(unsafe_words[i])))
			return true;
	return false;
}

struct inclusions {
	CXTranslationUnit tu;
	bool unsafe;
};

static void check_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
	struct inclusions *in = d;
	(void)stack;
	(void)depth;
	size_t n = 0;
	if (!in->unsafe) {
		const char *t = clang_getFileContents(in->tu, f, &n);
		in->unsafe = names_unsafe(t, n);
	}
}

/* Whether text[a, b) (white space between two tokens) holds a newline
 * that is not a line splice ("\" and optional blanks before it). */
static bool has_newline(const char *t, uint32_t a, uint32_t b)
{
	for (uint32_t i = a; i < b; i++) {
		if (t[i] != '\n')
			continue;
		uint32_t k = i;
		while (k > a && (t[k - 1] == ' ' || t[k - 1] == '\t' || t[k - 1] == '\r'))
			k--;
		if (k == a || t[k - 1] != '\\')
			return true;
	}
	return false;
}

struct spans {
	struct xp_span *v;
	uint32_t n, cap;
};

static void add_span(struct spans *s, uint32_t a, uint32_t b)
{
	if (a >= b)
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		if (!s->v) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
	}
	s->v[s->n++] = (struct xp_span){a, b};
}

/* The directives of src: [start of "#", end of its last token) each. */
static void directives(const struct src_file *src, struct spans *d)
{
	const struct src_tok *t = src->toks;
	uint32_t prev_end = 0; /* end of the last token that is not a comment */
	bool line_start = true;
	for (uint32_t i = 0; i < src->ntoks; i++) {
		if (t[i].off < prev_end || t[i].off + t[i].len > src->len)
			continue; /* not in the file's order: ignored */
		if (t[i].kind == CXToken_Comment) {
			line_start |= has_newline(src->text, prev_end, t[i].off);
			prev_end = t[i].off + t[i].len; /* a comment's own newlines do not count */
			continue;
		}
		line_start |= has_newline(src->text, prev_end, t[i].off);
		bool hash = t[i].kind == CXToken_Punctuation && (!strcmp(t[i].sp, "#") || !strcmp(t[i].sp, "%:"));
		if (!(line_start && hash)) {
			line_start = false;
			prev_end = t[i].off + t[i].len;
			continue;
		}
		uint32_t start = t[i].off, end = t[i].off + t[i].len;
		uint32_t k = i + 1;
		for (; k < src->ntoks && t[k].off >= end && !has_newline(src->text, end, t[k].off); k++)
			end = t[k].off + t[k].len;
		add_span(d, start, end);
		prev_end = end;
		line_start = false;
		i = k - 1;
	}
}

static int span_cmp(const void *a, const void *b)
{
	const struct xp_span *x = a, *y = b;
	return x->start != y->start ? (x->start < y->start ? -1 : 1) : 0;
}

struct xp_span *quiet_spans(const struct src_file *src, struct xp_span *keep, uint32_t nkeep, const char **flags,
                            int nflags, uint32_t *n)
{
	*n = 0;
	const char *off = getenv("KPATH_QUIET");
	if (off && !strcmp(off, "0")) /* tests: the whole file, to compare */
		return NULL;
	bool unsafe = names_unsafe(src->text, src->len);
	for (int i = 0; i < nflags && !unsafe; i++)
		unsafe = names_unsafe(flags[i], strlen(flags[i]));
	if (!unsafe) {
		struct inclusions in = {src->tu, false};
		clang_getInclusions(src->tu, check_inclusion, &in);
		unsafe = in.unsafe;
	}
	if (unsafe)
		return NULL;
	struct spans kept = {0}, quiet = {0};
	directives(src, &kept);
	for (uint32_t i = 0; i < nkeep; i++)
		add_span(&kept, keep[i].start, keep[i].end < src->len ? keep[i].end : (uint32_t)src->len);
	if (kept.n)
		qsort(kept.v, kept.n, sizeof *kept.v, span_cmp);
	uint32_t pos = 0; /* the complement of kept in [0, len) */
	for (uint32_t i = 0; i < kept.n; i++) {
		add_span(&quiet, pos, kept.v[i].start);
		if (kept.v[i].end > pos)
			pos = kept.v[i].end;
	}
	add_span(&quiet, pos, (uint32_t)src->len);
	free(kept.v);
	for (uint32_t i = 1; i < quiet.n; i++)
		assert(quiet.v[i - 1].end <= quiet.v[i].start);
	*n = quiet.n;
	return quiet.v;
}
