/*
 * src.c: what build.c looks up in a source file, indexed once per file
 * (src_index) instead of once per function: line starts, the file's raw
 * tokens and the ranges the preprocessor skipped.
 *
 * The tokens are those of clang_tokenize over the whole file, as
 * load_tokens in build.c used to get per function.  A function's tokens
 * are a run of them (src_tok_run): raw lexing from a token boundary gives
 * the same tokens as lexing the whole file, and clang_tokenize stops
 * after the first token that ends at or past the range's end (it lexes
 * while the lexer's position, the end of the last token, is before the
 * range's end).
 */
#include "build.h"

#include <stdlib.h>
#include <string.h>

/* Expansion offset of loc in src's file; *in_file says whether it is in it. */
static uint32_t file_offset(const struct src_file *src, CXSourceLocation loc, bool *in_file)
{
	CXFile f;
	unsigned off;
	clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
	*in_file = f && clang_File_isEqual(f, src->file);
	return off;
}

static bool index_lines(struct src_file *src)
{
	uint32_t n = 1;
	for (size_t i = 0; i < src->len; i++)
		n += src->text[i] == '\n';
	src->line_start = malloc(n * sizeof *src->line_start);
	if (!src->line_start)
		return false;
	src->nlines = 0;
	src->line_start[src->nlines++] = 0;
	for (size_t i = 0; i < src->len; i++)
		if (src->text[i] == '\n')
			src->line_start[src->nlines++] = (uint32_t)i + 1;
	return true;
}

/* The end offset of token t starting at s with spelling sp.  The extent's
 * end (clang_getTokenExtent measures the token again by lexing it) is
 * s + strlen(sp) whenever the file spells exactly sp there and no line
 * splice or NUL follows, which is every token but a few literals, comments
 * and spliced identifiers: those ask libclang. */
static uint32_t tok_end_offset(const struct src_file *src, CXToken t, uint32_t s, const char *sp, bool *in_file)
{
	size_t n = strlen(sp);
	if (clang_getTokenKind(t) != CXToken_Comment && n && s + n < src->len && !memcmp(src->text + s, sp, n) &&
	    src->text[s + n] != '\\' && src->text[s + n] != '?' && src->text[s + n] != '\0') {
		*in_file = true;
		return (uint32_t)(s + n);
	}
	return file_offset(src, clang_getRangeEnd(clang_getTokenExtent(src->tu, t)), in_file);
}

static bool index_tokens(struct src_file *src)
{
	CXToken *t;
	unsigned n;
	CXSourceRange all = clang_getRange(clang_getLocationForOffset(src->tu, src->file, 0),
	                                   clang_getLocationForOffset(src->tu, src->file, (unsigned)src->len));
	clang_tokenize(src->tu, all, &t, &n);
	src->toks = malloc((n + 1) * sizeof *src->toks);
	uint32_t *sp_at = malloc((n + 1) * sizeof *sp_at);
	size_t cap = src->len + n + 1, used = 0; /* enough: a spelling is no longer than its text */
	src->tok_text = malloc(cap);
	bool ok = src->toks && sp_at && src->tok_text;
	src->ntoks = 0;
	for (unsigned i = 0; ok && i < n; i++) {
		bool in1, in2;
		uint32_t s = file_offset(src, clang_getTokenLocation(src->tu, t[i]), &in1);
		CXString sp = clang_getTokenSpelling(src->tu, t[i]);
		const char *str = clang_getCString(sp);
		uint32_t e = tok_end_offset(src, t[i], s, str, &in2);
		size_t len = strlen(str);
		if (len > 39) /* the spelling build.c compares is truncated, as it always was */
			len = 39;
		if (used + len + 1 > cap) {
			while (used + len + 1 > cap)
				cap *= 2;
			char *p = realloc(src->tok_text, cap);
			ok = p != NULL;
			if (p)
				src->tok_text = p;
		}
		if (ok) {
			memcpy(src->tok_text + used, str, len);
			src->tok_text[used + len] = 0;
			struct src_tok *k = &src->toks[src->ntoks];
			k->off = s;
			k->len = e - s;
			k->kind = clang_getTokenKind(t[i]);
			k->code = in1 && in2 && e >= s && k->kind != CXToken_Comment;
			sp_at[src->ntoks++] = (uint32_t)used;
			used += len + 1;
		}
		clang_disposeString(sp);
	}
	clang_disposeTokens(src->tu, t, n);
	for (uint32_t i = 0; ok && i < src->ntoks; i++)
		src->toks[i].sp = src->tok_text + sp_at[i];
	free(sp_at);
	return ok;
}

static int range_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;
	return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The preprocessor's skipped ranges that lie in the file, as sorted,
 * disjoint [start, end) offset pairs (their union). */
static bool index_skipped(struct src_file *src)
{
	CXSourceRangeList *sk = clang_getSkippedRanges(src->tu, src->file);
	unsigned n = sk ? sk->count : 0;
	src->skipped = malloc((2 * n + 2) * sizeof *src->skipped);
	if (!src->skipped) {
		if (sk)
			clang_disposeSourceRangeList(sk);
		return false;
	}
	uint32_t k = 0;
	for (unsigned r = 0; r < n; r++) {
		bool in1, in2;
		uint32_t s = file_offset(src, clang_getRangeStart(sk->ranges[r]), &in1);
		uint32_t e = file_offset(src, clang_getRangeEnd(sk->ranges[r]), &in2);
		if (in1 && in2 && s < e) {
			src->skipped[2 * k] = s;
			src->skipped[2 * k + 1] = e;
			k++;
		}
	}
	if (sk)
		clang_disposeSourceRangeList(sk);
	qsort(src->skipped, k, 2 * sizeof *src->skipped, range_cmp);
	uint32_t m = 0;
	for (uint32_t r = 0; r < k; r++) {
		uint32_t s = src->skipped[2 * r], e = src->skipped[2 * r + 1];
		if (m && s <= src->skipped[2 * m - 1]) {
			if (e > src->skipped[2 * m - 1])
				src->skipped[2 * m - 1] = e;
		} else {
			src->skipped[2 * m] = s;
			src->skipped[2 * m + 1] = e;
			m++;
		}
	}
	src->nskipped = m;
	return true;
}

bool src_index(struct src_file *src)
{
	if (index_lines(src) && index_tokens(src) && index_skipped(src))
		return true;
	src_free(src);
	return false;
}

void src_free(struct src_file *src)
{
	free(src->line_start);
	free(src->toks);
	free(src->tok_text);
	free(src->skipped);
	src->line_start = NULL;
	src->toks = NULL;
	src->tok_text = NULL;
	src->skipped = NULL;
	src->nlines = src->ntoks = src->nskipped = 0;
}

bool src_skipped(const struct src_file *src, uint32_t off)
{
	uint32_t lo = 0, hi = src->nskipped;
	while (lo < hi) { /* the first range starting after off */
		uint32_t mid = lo + (hi - lo) / 2;
		if (src->skipped[2 * mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && off < src->skipped[2 * (lo - 1) + 1];
}

bool src_tok_run(const struct src_file *src, uint32_t s, uint32_t e, uint32_t *first, uint32_t *n)
{
	uint32_t lo = 0, hi = src->ntoks;
	while (lo < hi) { /* the first token starting at or after s */
		uint32_t mid = lo + (hi - lo) / 2;
		if (src->toks[mid].off < s)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0) {
		const struct src_tok *p = &src->toks[lo - 1];
		/* s inside a token (a comment, a literal): lexing from s differs;
		 * after "@" the next identifier may be lexed as a keyword */
		if (p->off + p->len > s || (p->len == 1 && p->sp[0] == '@' && !p->sp[1]))
			return false;
	}
	uint32_t k = lo;
	if (k < src->ntoks)
		while (src->toks[k].off + src->toks[k].len < e && k + 1 < src->ntoks)
			k++;
	*first = lo;
	*n = k < src->ntoks ? k + 1 - lo : 0;
	return true;
}

bool src_prefix_used(const struct src_file *src, const char *prefix)
{
	size_t n = strlen(prefix);
	for (uint32_t i = 0; i < src->ntoks; i++)
		if (src->toks[i].kind == CXToken_Identifier && !strncmp(src->toks[i].sp, prefix, n))
			return true;
	return false;
}
