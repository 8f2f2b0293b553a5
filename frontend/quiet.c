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
 * when any file of the translation unit or a flag names one of them
 * (comments aside: a word in a comment does nothing), nothing is blanked.
 * Blanking turns every byte but the line ends (\n, \r) into a space, so
 * each line keeps its number (__LINE__) and each byte its
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
#include "array.h"
#include "pp_text.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words whose presence anywhere in the translation unit turns blanking off. */
static const char *const unsafe_words[] = {"__COUNTER__", "push_macro", "pop_macro", "poison", NULL};

/* Whether t[0, n) holds word w as a whole identifier (or the whole word
 * in a literal: _Pragma("GCC poison x")): zstd's compiler.h declares
 * __msan_poison and __asan_poison_memory_region, which poison nothing,
 * and blanking went off for all 27 of its files. */
static bool has_word(const char *t, size_t n, const char *w)
{
	size_t m = strlen(w);
	for (const char *p = t; (p = memmem(p, n - (size_t)(p - t), w, m)) != NULL; p++)
		if ((p == t || !pp_ident_char(p[-1])) && (p + m == t + n || !pp_ident_char(p[m])))
			return true;
	return false;
}

/* The length of the #pragma directive at s[i] (a line's first token: "#"
 * or "%:", then "pragma"), to the end of its line and the line splices
 * that continue it; 0 if there is none. */
static size_t pragma_line(const char *s, size_t n, size_t i)
{
	size_t j = i + (s[i] == '#' ? 1 : s[i] == '%' && i + 1 < n && s[i + 1] == ':' ? 2 : 0);
	if (j == i)
		return 0;
	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	if (n - j < 6 || memcmp(s + j, "pragma", 6) || (j + 6 < n && pp_ident_char(s[j + 6])))
		return 0;
	for (j += 6; j < n; j++)
		if (s[j] == '\n' && !(j > 0 && s[j - 1] == '\\') && !(j > 1 && s[j - 1] == '\r' && s[j - 2] == '\\'))
			break;
	return j - i;
}

/* Whether s[0, n), comments aside (a word in a comment does nothing:
 * limits.h's mentions "#pragma poison"), names an unsafe word.  #pragma
 * directives aside too: they are kept in every copy the preprocessor
 * reads, in their place, so the macro table they change is the same in
 * each (xxhash.h's "#pragma push_macro("bool")", under #if for POWER,
 * turned blanking off for all of zstd); what is blanked can change it
 * only through _Pragma (a #define line's text is read) and __COUNTER__. */
static bool names_unsafe(const char *s, size_t n)
{
	if (!s)
		return false;
	char *t = malloc(n + 1);
	if (!t) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	size_t k = 0;
	bool line_start = true; /* only blanks since the last newline */
	for (size_t i = 0; i < n;) {
		size_t skip = line_start ? pragma_line(s, n, i) : 0;
		line_start = s[i] == '\n' || (line_start && (s[i] == ' ' || s[i] == '\t'));
		if (skip) {
			i += skip;
			t[k++] = ' ';
		} else if (s[i] == '"' || s[i] == '\'') { /* a literal: kept, whatever it holds */
			char q = s[i];
			t[k++] = s[i++];
			while (i < n && s[i] != q && s[i] != '\n') {
				if (s[i] == '\\' && i + 1 < n)
					t[k++] = s[i++];
				t[k++] = s[i++];
			}
			if (i < n)
				t[k++] = s[i++];
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
			const char *e = memmem(s + i + 2, n - i - 2, "*/", 2);
			i = e ? (size_t)(e - s) + 2 : n;
			t[k++] = ' ';
		} else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
			/* to the line's end (a line the comment continues with a
			 * splice is read as code: it can only find more) */
			while (i < n && s[i] != '\n')
				i++;
			t[k++] = ' ';
		} else {
			t[k++] = s[i++];
		}
	}
	bool unsafe = false;
	for (int i = 0; unsafe_words[i] && !unsafe; i++)
		unsafe = has_word(t, k, unsafe_words[i]);
	free(t);
	return unsafe;
}

struct inclusions {
	CXTranslationUnit tu;
	bool (*pred)(const char *, size_t);
	bool hit;
};

static void check_inclusion(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData d)
{
	struct inclusions *in = d;
	(void)stack;
	(void)depth;
	size_t n = 0;
	if (!in->hit) {
		const char *t = clang_getFileContents(in->tu, f, &n);
		in->hit = in->pred(t, n);
	}
}

bool quiet_any_file(CXTranslationUnit tu, bool (*pred)(const char *text, size_t len))
{
	struct inclusions in = {tu, pred, false};
	clang_getInclusions(tu, check_inclusion, &in);
	return in.hit;
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
	KP_RESERVE(s->v, s->cap, s->n + 1);
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

/* Whether blanking is off: KPATH_QUIET=0, or the translation unit or a
 * flag names an unsafe word. */
static bool blanking_off(const struct src_file *src, const char **flags, int nflags)
{
	const char *off = getenv("KPATH_QUIET");
	if (off && !strcmp(off, "0")) /* tests: the whole file, to compare */
		return true;
	bool unsafe = names_unsafe(src->text, src->len);
	for (int i = 0; i < nflags && !unsafe; i++)
		unsafe = names_unsafe(flags[i], strlen(flags[i]));
	if (!unsafe)
		unsafe = quiet_any_file(src->tu, names_unsafe);
	return unsafe;
}

struct xp_span *quiet_spans(const struct src_file *src, struct xp_span *keep, uint32_t nkeep, const char **flags,
                            int nflags, uint32_t *n)
{
	*n = 0;
	if (blanking_off(src, flags, nflags))
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

/* --- the text parsed again -------------------------------------------------- */

/* An array's initialiser blanked but for "= {[N - 1] = 0}", which keeps
 * its element count: text[i] goes to off + i where it is not 0 (the tokens
 * skip the line ends and directives the span holds). */
enum { FILL_MAX = 64 };
struct fill {
	uint32_t off;
	char text[FILL_MAX];
};

struct bodies {
	const struct src_file *src;
	const uint32_t *written; /* sorted extent starts of the functions written out */
	uint32_t nwritten;
	bool inits;              /* aggregate initialisers too (init_span) */
	const struct spans *dir; /* the file's directives (sorted) */
	struct spans v;
	struct fill *fill;       /* what array initialisers become (init_fill) */
	uint32_t nfill, capfill;
};

static enum CXChildVisitResult last_body(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_getCursorKind(c) == CXCursor_CompoundStmt)
		*(CXCursor *)d = c;
	return CXChildVisit_Continue;
}

/* The offset of loc in src's file when the file spells it there outside
 * any macro; UINT32_MAX otherwise. */
static uint32_t plain_offset(const struct src_file *src, CXSourceLocation loc)
{
	CXFile f1, f2;
	unsigned o1, o2;
	clang_getSpellingLocation(loc, &f1, NULL, NULL, &o1);
	clang_getExpansionLocation(loc, &f2, NULL, NULL, &o2);
	if (!f1 || !f2 || !clang_File_isEqual(f1, src->file) || !clang_File_isEqual(f2, src->file) || o1 != o2 ||
	    o1 >= src->len)
		return UINT32_MAX;
	return o1;
}

static bool is_written(const struct bodies *b, uint32_t start)
{
	uint32_t lo = 0, hi = b->nwritten;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->written[mid] < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->nwritten && b->written[lo] == start;
}

/* Whether text[a, e) holds an #include (#include_next, #import)
 * directive: what it brings in belongs to the body around it (Lua's
 * ljumptab.h, inside luaV_execute, takes its labels' addresses, &&L_OP_MOVE;
 * an included text may name the function's locals), so such a body is
 * never blanked. */
static bool includes_in(const struct src_file *src, const struct spans *dir, uint32_t a, uint32_t e)
{
	static const char *const inc[] = {"include", "include_next", "import"};
	uint32_t lo = 0, hi = dir->n;
	while (lo < hi) { /* the first directive starting at or after a (sorted) */
		uint32_t mid = lo + (hi - lo) / 2;
		if (dir->v[mid].start < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (uint32_t i = lo; i < dir->n && dir->v[i].start < e; i++) {
		uint32_t p = dir->v[i].start + 1, end = dir->v[i].end; /* after "#" ("%:": one more) */
		if (src->text[dir->v[i].start] == '%')
			p++;
		while (p < end && (src->text[p] == ' ' || src->text[p] == '\t'))
			p++;
		uint32_t w = p;
		while (w < end && (src->text[w] == '_' || (src->text[w] >= 'a' && src->text[w] <= 'z')))
			w++;
		for (size_t k = 0; k < sizeof inc / sizeof *inc; k++)
			if (w - p == strlen(inc[k]) && !memcmp(src->text + p, inc[k], w - p))
				return true;
	}
	return false;
}

/* Bodies of the main file's function definitions, between the braces:
 * those not written out, spelled by the file outside macros, naming no
 * noreturn marker (a call's look-up reads a definition's whole text,
 * cfgbuild/noreturn.c), holding no #include (includes_in). */
static enum CXChildVisitResult visit_body(CXCursor c, CXCursor parent, CXClientData d)
{
	struct bodies *b = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	CXFile f;
	unsigned start;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), &f, NULL, NULL, &start);
	if (!f || !clang_File_isEqual(f, b->src->file) || is_written(b, start))
		return CXChildVisit_Continue;
	CXCursor body = clang_getNullCursor();
	clang_visitChildren(c, last_body, &body);
	if (clang_Cursor_isNull(body))
		return CXChildVisit_Continue;
	CXSourceRange r = clang_getCursorExtent(body);
	uint32_t a = plain_offset(b->src, clang_getRangeStart(r)), e = plain_offset(b->src, clang_getRangeEnd(r));
	const char *t = b->src->text;
	if (e == UINT32_MAX || e == 0 || t[e - 1] != '}') /* the extent ends after the "}" */
		return CXChildVisit_Continue;
	e--;
	if (a == UINT32_MAX || e <= a + 1 || t[a] != '{' ||
	    memmem(t + a, e - a, "noreturn", 8) || memmem(t + a, e - a, "Noreturn", 8) ||
	    includes_in(b->src, b->dir, a, e))
		return CXChildVisit_Continue;
	if (b->v.n && b->v.v[b->v.n - 1].end > a) /* not in the file's order: left alone */
		return CXChildVisit_Continue;
	add_span(&b->v, a + 1, e);
	return CXChildVisit_Continue;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool in_spans(const struct spans *d, uint32_t off)
{
	uint32_t lo = 0, hi = d->n;
	while (lo < hi) { /* the first span ending after off */
		uint32_t mid = lo + (hi - lo) / 2;
		if (d->v[mid].end <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < d->n && d->v[lo].start <= off;
}

/* Places "= {[count - 1] = 0}" token by token in [from, to) of src,
 * within FILL_MAX bytes, on bytes that are no line end (those stay), one
 * space between tokens.  false when it does not fit, or when a directive
 * comes first: "= {" before an "#if 0" and the rest in its group would
 * lose the "}", and tokens all in such a group would leave no initialiser
 * (the bytes from "=" on are live code up to the first directive). */
static bool init_fill(const struct src_file *src, const struct spans *dir, uint32_t from, uint32_t to,
                      long long count, struct fill *f)
{
	char num[24];
	snprintf(num, sizeof num, "%lld", count - 1);
	const char *tok[] = {"=", "{", "[", num, "]", "=", "0", "}"};
	memset(f, 0, sizeof *f);
	f->off = from;
	uint32_t p = from, lim = to - from < FILL_MAX ? to : from + FILL_MAX;
	for (size_t i = 0; i < sizeof tok / sizeof *tok; i++) {
		size_t n = strlen(tok[i]);
		for (;;) { /* the first run of n usable bytes from p */
			if (p + n > lim)
				return false;
			size_t k = 0;
			while (k < n && src->text[p + k] != '\n' && src->text[p + k] != '\r') {
				if (in_spans(dir, p + k))
					return false;
				k++;
			}
			if (k == n)
				break;
			p += (uint32_t)k + 1;
		}
		memcpy(f->text + (p - from), tok[i], n);
		p += (uint32_t)n + 1;
	}
	return true;
}

/* The span of a file-scope variable's brace initialiser, from its "=" to
 * its "}", blanked when that changes nothing the functions written out
 * can see: the variable is a struct or union (complete by its
 * declaration) or an array, whose initialiser becomes "= {[N - 1] = 0}"
 * (init_fill: the element count, sizeof and the type stay, also for "[]"
 * and a typedef's incomplete array); its value is no integer constant
 * expression (C11 6.6 p6: no object's value is), and the CFG depends on no
 * value anyway.  What could still differ makes an error (clang folding a
 * read as an extension, a "case t[0]:"; "0" for a vector element): the
 * caller then parses again without these (macro_scan.c).  tree-sitter's
 * parser.c: 3.7 MB of tables. */
static bool init_span(struct bodies *b, CXCursor var, uint32_t *from, uint32_t *to)
{
	const struct src_file *src = b->src;
	CXCursor init = clang_Cursor_getVarDeclInitializer(var);
	if (clang_Cursor_isNull(init) || clang_getCursorKind(init) != CXCursor_InitListExpr)
		return false;
	CXType ty = clang_getCanonicalType(clang_getCursorType(var));
	if (ty.kind != CXType_ConstantArray && ty.kind != CXType_Record)
		return false;
	CXSourceRange r = clang_getCursorExtent(init);
	uint32_t a = plain_offset(src, clang_getRangeStart(r)), e = plain_offset(src, clang_getRangeEnd(r));
	const char *t = src->text;
	if (a == UINT32_MAX || e == UINT32_MAX || e <= a + 1 || t[a] != '{' || t[e - 1] != '}')
		return false;
	uint32_t eq = a;
	while (eq > 0 && is_space(t[eq - 1]))
		eq--;
	if (eq == 0 || t[eq - 1] != '=')
		return false;
	eq--;
	if (b->v.n && b->v.v[b->v.n - 1].end > eq) /* not in the file's order: left alone */
		return false;
	if (ty.kind == CXType_ConstantArray) {
		long long count = clang_getArraySize(ty);
		struct fill f;
		if (count < 1 || !init_fill(src, b->dir, eq, e, count, &f))
			return false;
		KP_RESERVE(b->fill, b->capfill, b->nfill + 1);
		b->fill[b->nfill++] = f;
	}
	*from = eq;
	*to = e;
	return true;
}

/* Bodies (visit_body) and, when b->inits, aggregate initialisers of
 * file-scope variables (init_span). */
static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData d)
{
	struct bodies *b = d;
	if (clang_getCursorKind(c) != CXCursor_VarDecl || !b->inits)
		return visit_body(c, parent, d);
	uint32_t from, to;
	if (init_span(b, c, &from, &to))
		add_span(&b->v, from, to);
	return CXChildVisit_Continue;
}

char *quiet_reparse_text(const struct src_file *src, const struct xp_result *res, const uint32_t *written,
                         uint32_t nwritten, bool inits, const char **flags, int nflags, unsigned long long *blanked)
{
	*blanked = 0;
	if (blanking_off(src, flags, nflags))
		return NULL;
	struct spans d = {0};
	directives(src, &d);
	struct bodies b = {src, written, nwritten, inits, &d, {0}, NULL, 0, 0};
	clang_visitChildren(clang_getTranslationUnitCursor(src->tu), visit_top, &b);
	char *t = malloc(res->len + 1);
	if (!t) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	memcpy(t, res->text, res->len + 1);
	uint32_t k = 0; /* directives are sorted, and so are the bodies */
	for (uint32_t i = 0; i < b.v.n; i++) {
		uint32_t a = b.v.v[i].start, e = b.v.v[i].end;
		int64_t shift = (int64_t)xp_map(res, a) - a; /* no invocation written out inside */
		assert((int64_t)xp_map(res, e) - e == shift);
		for (uint32_t p = a; p < e; p++) {
			while (k < d.n && d.v[k].end <= p)
				k++;
			if (k < d.n && d.v[k].start <= p) { /* a directive: kept */
				p = d.v[k].end - 1;
				continue;
			}
			char *c = t + (int64_t)p + shift;
			if (*c != '\n' && *c != '\r' && *c != ' ') { /* \r ends a line too */
				*c = ' ';
				++*blanked;
			}
		}
	}
	for (uint32_t i = 0; i < b.nfill; i++) {
		const struct fill *f = &b.fill[i];
		int64_t shift = (int64_t)xp_map(res, f->off) - f->off;
		for (uint32_t k = 0; k < FILL_MAX; k++)
			if (f->text[k])
				t[(int64_t)f->off + k + shift] = f->text[k];
	}
	free(b.fill);
	free(b.v.v);
	free(d.v);
	return t;
}
