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

/* The characters of C's punctuators ("?" only in "?", which may start a
 * trigraph: left to libclang), and white space. */
static bool is_punct_char(char c)
{
	switch (c) {
	case '!': case '%': case '&': case '(': case ')': case '*': case '+': case ',': case '-': case '.':
	case '/': case ':': case ';': case '<': case '=': case '>': case '[': case ']': case '^': case '{':
	case '|': case '}': case '~': case '#':
		return true;
	default:
		return false;
	}
}

static bool is_space_char(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* The length of token i starting at s when the file alone tells it, else 0.
 * Between two raw tokens (comments are tokens) there is only whitespace,
 * so a punctuator ends at the next token or at whitespace; an identifier or
 * keyword of ASCII letters, digits and "_" ends where those end, if what
 * follows cannot continue it ("$", a line splice "\" or "??/", a non-ASCII
 * character) and it is not the end of the file.  Either way the spelling
 * libclang gives is then the text itself: a punctuator's is its raw text,
 * an identifier's its text without splices, and there are none. */
static size_t quick_len(const struct src_file *src, CXTokenKind kind, uint32_t s, uint32_t next)
{
	const char *t = src->text;
	size_t k = s;
	if (kind == CXToken_Punctuation) {
		while (k < next && k < src->len && is_punct_char(t[k]))
			k++;
		if (k == s || (k < next && k < src->len && !is_space_char(t[k])))
			return 0;
		return k - s;
	}
	if (kind != CXToken_Identifier && kind != CXToken_Keyword)
		return 0;
	while (k < src->len && ((t[k] >= 'a' && t[k] <= 'z') || (t[k] >= 'A' && t[k] <= 'Z') ||
	                        (t[k] >= '0' && t[k] <= '9') || t[k] == '_'))
		k++;
	if (k == s || k >= src->len || t[k] == '$' || t[k] == '\\' || t[k] == '?' || (unsigned char)t[k] >= 0x80 || !t[k])
		return 0;
	return k - s;
}

struct tok_index {
	struct src_file *src;
	uint32_t *sp_at; /* per token: its spelling's offset in src->tok_text */
	size_t cap, text_cap, used;
};

/* Appends token t starting at s (in the file when in1) of kind kind;
 * next is where the token after it starts (the file's length after the
 * last). */
static bool add_token(struct tok_index *x, CXToken t, uint32_t s, bool in1, CXTokenKind kind, uint32_t next)
{
	struct src_file *src = x->src;
	if (src->ntoks == x->cap) {
		x->cap = x->cap ? 2 * x->cap : src->len / 2 + 1024; /* about a token per 3 characters */
		struct src_tok *v = realloc(src->toks, x->cap * sizeof *v);
		uint32_t *a = realloc(x->sp_at, x->cap * sizeof *a);
		if (v)
			src->toks = v;
		if (a)
			x->sp_at = a;
		if (!v || !a)
			return false;
	}
	uint32_t e;
	bool in2 = true;
	size_t len = in1 ? quick_len(src, kind, s, next) : 0;
	const char *str = src->text + s;
	CXString sp = {0};
	bool asked = !len;
	if (len) {
		e = (uint32_t)(s + len);
	} else {
		sp = clang_getTokenSpelling(src->tu, t);
		str = clang_getCString(sp);
		e = tok_end_offset(src, t, s, str, &in2);
		len = strlen(str);
	}
	if (len > 39) /* the spelling build.c compares is truncated, as it always was */
		len = 39;
	bool ok = true;
	if (x->used + len + 1 > x->text_cap) {
		while (x->used + len + 1 > x->text_cap)
			x->text_cap *= 2;
		char *p = realloc(src->tok_text, x->text_cap);
		ok = p != NULL;
		if (p)
			src->tok_text = p;
	}
	if (ok) {
		memcpy(src->tok_text + x->used, str, len);
		src->tok_text[x->used + len] = 0;
		struct src_tok *k = &src->toks[src->ntoks];
		k->off = s;
		k->len = e - s;
		k->kind = kind;
		k->code = in1 && in2 && e >= s && kind != CXToken_Comment;
		x->sp_at[src->ntoks++] = (uint32_t)x->used;
		x->used += len + 1;
	}
	if (asked)
		clang_disposeString(sp);
	return ok;
}

/* The file is tokenized a piece at a time (clang_tokenize builds its whole
 * result twice over): each piece starts at a token of the previous one, so
 * lexing from there gives the same tokens.  A piece's last token is lexed
 * again with the next piece, where the token after it is known (a
 * punctuator's end), and so is an "@" before it (libclang lexes an
 * identifier after "@" as a keyword). */
static bool index_tokens(struct src_file *src)
{
	struct tok_index x = {src, NULL, 0, src->len + 1024, 0}; /* a spelling is no longer than its text */
	src->toks = NULL;
	src->ntoks = 0;
	src->tok_text = malloc(x.text_cap);
	bool ok = src->tok_text != NULL;
	uint32_t pos = 0, *off = NULL;
	CXTokenKind *kind = NULL;
	bool *in = NULL;
	size_t piece = 1 << 16;
	while (ok) {
		bool last = src->len - pos <= piece;
		uint32_t end = last ? (uint32_t)src->len : (uint32_t)(pos + piece);
		CXToken *t;
		unsigned n;
		clang_tokenize(src->tu,
		               clang_getRange(clang_getLocationForOffset(src->tu, src->file, pos),
		                              clang_getLocationForOffset(src->tu, src->file, end)),
		               &t, &n);
		uint32_t *o = realloc(off, (n + 1) * sizeof *off);
		CXTokenKind *kd = realloc(kind, (n + 1) * sizeof *kind);
		bool *f = realloc(in, (n + 1) * sizeof *in);
		off = o ? o : off;
		kind = kd ? kd : kind;
		in = f ? f : in;
		ok = o && kd && f;
		for (unsigned i = 0; ok && i < n; i++) { /* starts first: a punctuator ends at the next one */
			off[i] = file_offset(src, clang_getTokenLocation(src->tu, t[i]), &in[i]);
			kind[i] = clang_getTokenKind(t[i]);
		}
		unsigned m = n;
		if (!last && ok) {
			m = n ? n - 1 : 0;
			while (m > 0 && in[m - 1] && off[m - 1] < src->len && src->text[off[m - 1]] == '@')
				m--;
		}
		for (unsigned i = 0; ok && i < m; i++)
			ok = add_token(&x, t[i], off[i], in[i], kind[i], i + 1 < n ? off[i + 1] : (uint32_t)src->len);
		if (ok && !last && m > 0 && !in[m]) /* cannot happen: the file's own tokens */
			ok = false;
		clang_disposeTokens(src->tu, t, n);
		if (!ok || last || n == 0)
			break;
		if (m == 0)
			piece *= 2; /* one token longer than the piece */
		else
			pos = off[m];
	}
	free(off);
	free(kind);
	free(in);
	for (uint32_t i = 0; ok && i < src->ntoks; i++)
		src->toks[i].sp = src->tok_text + x.sp_at[i];
	free(x.sp_at);
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

/* An open-addressing hash table (linear probing, at most half full). */
struct src_memo {
	const void **key; /* NULL: free slot */
	bool *val;
	uint32_t n, cap;  /* cap: a power of two, or 0 */
};

static uint32_t memo_slot(const struct src_memo *m, const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
	uint32_t i = (uint32_t)(h >> 32) & (m->cap - 1);
	while (m->key[i] && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int src_memo_get(const struct src_memo *m, const void *key)
{
	if (!m || !m->cap)
		return -1;
	uint32_t i = memo_slot(m, key);
	return m->key[i] ? m->val[i] : -1;
}

void src_memo_put(struct src_memo *m, const void *key, bool val)
{
	if (!m || !key)
		return;
	if (2 * (m->n + 1) > m->cap) { /* grow, rehash */
		struct src_memo g = {NULL, NULL, 0, m->cap ? 2 * m->cap : 64};
		g.key = calloc(g.cap, sizeof *g.key);
		g.val = calloc(g.cap, sizeof *g.val);
		if (!g.key || !g.val) { /* a memo: without room, it only forgets */
			free(g.key);
			free(g.val);
			return;
		}
		for (uint32_t i = 0; i < m->cap; i++)
			if (m->key[i]) {
				uint32_t j = memo_slot(&g, m->key[i]);
				g.key[j] = m->key[i];
				g.val[j] = m->val[i];
				g.n++;
			}
		free(m->key);
		free(m->val);
		*m = g;
	}
	uint32_t i = memo_slot(m, key);
	if (!m->key[i])
		m->n++;
	m->key[i] = key;
	m->val[i] = val;
}

bool src_index(struct src_file *src)
{
	src->noreturn = calloc(1, sizeof *src->noreturn);
	if (src->noreturn && index_lines(src) && index_tokens(src) && index_skipped(src))
		return true;
	src_free(src);
	return false;
}

void src_free(struct src_file *src)
{
	if (src->noreturn) {
		free(src->noreturn->key);
		free(src->noreturn->val);
		free(src->noreturn);
		src->noreturn = NULL;
	}
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

bool src_skipped_in(const struct src_file *src, uint32_t lo, uint32_t hi)
{
	uint32_t a = 0, b = src->nskipped;
	while (a < b) { /* the first range ending after lo */
		uint32_t mid = a + (b - a) / 2;
		if (src->skipped[2 * mid + 1] <= lo)
			a = mid + 1;
		else
			b = mid;
	}
	return a < src->nskipped && src->skipped[2 * a] < hi;
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
