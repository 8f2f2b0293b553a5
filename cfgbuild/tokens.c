/*
 * tokens.c: failure exits, source positions and the function's raw tokens
 * (tok_at, match_close, stmt_tok ...), and where a statement ends in them.
 *
 * Invariant: a token index is into b->toks, sorted by offset; CFG_NONE is
 * "no such token".  A position inside a macro expansion never stands for a
 * statement's keyword: stmt_tok fails with fail_macro instead (see build.c).
 */
#include "build_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- failure ------------------------------------------------------------ */

void fail_at(struct builder *b, uint32_t off, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->plan->reason, sizeof b->plan->reason, fmt, ap);
	va_end(ap);
	b->plan->reason_line = off == CFG_NONE ? 0 : offset_line(b, off);
	longjmp(b->fail, 1);
}

/* A failure caused by control flow that a macro expansion spells: the
 * caller may write the expansion out and try again (frontend/expand.c). */
void fail_macro(struct builder *b, uint32_t off, const char *why)
{
	b->plan->macro = true;
	fail_at(b, off, "%s", why);
}

/* --- positions and tokens ------------------------------------------------- */

uint32_t loc_offset(struct builder *b, CXSourceLocation loc, bool *in_file)
{
	CXFile f;
	unsigned off;
	clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
	*in_file = f && clang_File_isEqual(f, b->src->file);
	return off;
}

/* The 1-based line holding offset off: the last line starting at or
 * before it. */
unsigned offset_line(struct builder *b, uint32_t off)
{
	uint32_t lo = 0, hi = b->src->nlines;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->src->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}

/* Index of the token starting at off, or CFG_NONE. */
uint32_t tok_at(struct builder *b, uint32_t off)
{
	uint32_t lo = 0, hi = b->ntoks;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->toks[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->ntoks && b->toks[lo].off == off ? lo : CFG_NONE;
}

/* Whether spelling s is "(", "[" or "{"; ")", "]" or "}". */
bool is_open(const char *s)
{
	return (s[0] == '(' || s[0] == '[' || s[0] == '{') && !s[1];
}

bool is_close(const char *s)
{
	return (s[0] == ')' || s[0] == ']' || s[0] == '}') && !s[1];
}

bool tok_is(struct builder *b, uint32_t i, const char *sp)
{
	return i < b->ntoks && b->toks[i].sp[0] == sp[0] && strcmp(b->toks[i].sp, sp) == 0 &&
	       b->toks[i].len == strlen(sp);
}

enum CXCursorKind kind_of(struct builder *b, uint32_t c)
{
	return b->ast.v[c].kind;
}

CXCursor cursor_of(struct builder *b, uint32_t c)
{
	return b->ast.v[c].c;
}

/* The name of the file node c's text comes from (its expansion location),
 * or NULL; in buf. */
const char *file_of(struct builder *b, uint32_t c, char *buf, size_t n)
{
	CXFile f;
	clang_getExpansionLocation(clang_getCursorLocation(cursor_of(b, c)), &f, NULL, NULL, NULL);
	if (!f)
		return NULL;
	CXString s = clang_getFileName(f);
	snprintf(buf, n, "%s", clang_getCString(s));
	clang_disposeString(s);
	return buf;
}

uint32_t cursor_start(struct builder *b, uint32_t c)
{
	const struct ast_node *x = ast_start(&b->ast, c);
	if (!x->s_in) {
		/* the function is in the main file, so the other file is one an
		 * #include inside the function body brings in */
		char name[200];
		if (file_of(b, c, name, sizeof name))
			fail_at(b, CFG_NONE, "an #include inside the function brings in code ('%s') where kpath must "
			        "insert code (a brace-less body, a condition)", name);
		fail_at(b, CFG_NONE, "code without a place in the file");
	}
	return x->s;
}

/* Whether token i is kw written another way: with a line splice inside
 * (its spelling is kw, its text longer) or as a digraph (C11 6.4.6p3). */
static bool spelled_otherwise(struct builder *b, uint32_t i, const char *kw)
{
	static const char *const digraph[][2] = {{"<%", "{"}, {"%>", "}"}, {"<:", "["}, {":>", "]"}};
	const char *sp = b->toks[i].sp;
	if (!strcmp(sp, kw))
		return true;
	for (size_t k = 0; k < sizeof digraph / sizeof *digraph; k++)
		if (!strcmp(sp, digraph[k][0]) && !strcmp(kw, digraph[k][1]))
			return true;
	return false;
}

/* Token index of the statement's first token; the token must spell `kw`
 * (NULL: any), otherwise the statement comes from a macro expansion. */
uint32_t stmt_tok(struct builder *b, uint32_t c, const char *kw)
{
	uint32_t off = cursor_start(b, c);
	uint32_t i = tok_at(b, off);
	if (i != CFG_NONE && kw && !tok_is(b, i, kw) && spelled_otherwise(b, i, kw))
		fail_at(b, off, "'%s' spelled with a %s", kw, strcmp(b->toks[i].sp, kw) ? "digraph" : "line splice");
	if (i == CFG_NONE || (kw && !tok_is(b, i, kw)))
		fail_macro(b, off, "control flow inside a macro expansion");
	return i;
}

/* stmt_tok for function body c's "{": one that a macro expansion spells
 * makes the whole body the macro's (a function a macro defines, as
 * cpu_features' LINE(ENUM, ...) defining set_##ENUM), whether or not the
 * body holds control flow. */
uint32_t body_tok(struct builder *b, uint32_t c, uint32_t name_off)
{
	uint32_t i = tok_at(b, cursor_start(b, c));
	if (i == CFG_NONE || (!tok_is(b, i, "{") && !spelled_otherwise(b, i, "{")))
		fail_macro(b, name_off, "function body inside a macro expansion");
	return stmt_tok(b, c, "{");
}

/* The bracket walk from token i of match_close (semi false: the first close
 * bracket that brings the depth back to 0) and find_semi (semi true: the
 * first ";" at depth 0, or CFG_NONE at a close bracket opened before i). */
static uint32_t bracket_scan(struct builder *b, uint32_t i, bool semi)
{
	int depth = 0;
	for (; i < b->ntoks; i++) {
		const char *s = b->toks[i].sp;
		if (b->toks[i].kind != CXToken_Punctuation)
			continue;
		if (is_open(s)) {
			depth++;
		} else if (is_close(s)) {
			if (--depth == 0 && !semi)
				return i;
			if (depth < 0 && semi)
				break;
		} else if (semi && depth == 0 && s[0] == ';' && !s[1]) {
			return i;
		}
	}
	return CFG_NONE;
}

/* Index of the token closing the bracket opened at token i. */
uint32_t match_close(struct builder *b, uint32_t i)
{
	return bracket_scan(b, i, false);
}

/* Index of the first ";" at bracket depth 0 from token i. */
uint32_t find_semi(struct builder *b, uint32_t i)
{
	return bracket_scan(b, i, true);
}

uint32_t tok_end(struct builder *b, uint32_t i)
{
	return b->toks[i].off + b->toks[i].len;
}

/* Index of the last token starting before offset e; the token at index i
 * starts before e. */
uint32_t last_tok_before(struct builder *b, uint32_t i, uint32_t e)
{
	uint32_t lo = i + 1, hi = b->ntoks;
	while (lo < hi) { /* the first token at or after e */
		uint32_t mid = lo + (hi - lo) / 2;
		if (b->toks[mid].off < e)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/* Node c with its extent.  An end inside a macro argument (ast.h: e_arg)
 * becomes the end of the invocation holding it: the end of the last
 * token's expansion range, where c's text ends in the file ("r += ID(1.0)"
 * ends at the ")", not before "ID").  When the file's tokens do not show
 * that invocation, the end is taken as not in the file (callers then see
 * no range, never a wrong one). */
const struct ast_node *extent(struct builder *b, uint32_t c)
{
	struct ast_node *x = &b->ast.v[c];
	ast_extent(&b->ast, c);
	if (x->e_arg) {
		uint32_t i = tok_at(b, x->e), close = CFG_NONE;
		if (i != CFG_NONE && b->toks[i].kind == CXToken_Identifier && tok_is(b, i + 1, "("))
			close = match_close(b, i + 1);
		x->e_in = close != CFG_NONE;
		x->e = x->e_in ? tok_end(b, close) : 0;
		x->e_arg = false;
	}
	return x;
}

/* --- children ------------------------------------------------------------- */

struct kids children(struct builder *b, uint32_t c)
{
	const struct ast_node *x = &b->ast.v[c];
	return (struct kids){b->ast.kids + x->kid0, x->nkids};
}

/* Index of the token just past the statement c (exclusive end). */

static uint32_t stmt_end_tok_of_kids(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	if (k.n == 0)
		fail_at(b, cursor_start(b, c), "statement without body");
	return stmt_last_tok(b, k.v[k.n - 1]);
}

/* Whether the macro invocation whose name is token i expands to no token
 * at all ("#define NOTHING"); *next is set to the token after the
 * invocation (after its arguments when the macro is function-like).  Asks
 * the preprocessing record, so it is only used where the tokens leave the
 * question open. */
static bool empty_macro_at(struct builder *b, uint32_t i, uint32_t *next)
{
	if (b->toks[i].kind != CXToken_Identifier)
		return false;
	CXTranslationUnit tu = b->src->tu;
	CXCursor use = clang_getCursor(tu, clang_getLocationForOffset(tu, b->src->file, b->toks[i].off));
	if (clang_getCursorKind(use) != CXCursor_MacroExpansion)
		return false;
	CXCursor def = clang_getCursorReferenced(use);
	if (clang_getCursorKind(def) != CXCursor_MacroDefinition)
		return false;
	*next = i + 1;
	if (clang_Cursor_isMacroFunctionLike(def)) {
		uint32_t close = tok_is(b, i + 1, "(") ? match_close(b, i + 1) : CFG_NONE;
		if (close == CFG_NONE)
			return false;
		*next = close + 1;
	}
	/* the definition's extent runs from its name to its last token; a
	 * function-like macro's body starts after the ")" of its parameters */
	CXToken *t;
	unsigned n, body = 1;
	clang_tokenize(tu, clang_getCursorExtent(def), &t, &n);
	if (clang_Cursor_isMacroFunctionLike(def)) {
		bool closed = false;
		for (; body < n && !closed; body++) {
			CXString sp = clang_getTokenSpelling(tu, t[body]);
			closed = strcmp(clang_getCString(sp), ")") == 0;
			clang_disposeString(sp);
		}
	}
	bool empty = body >= n;
	clang_disposeTokens(tu, t, n);
	return empty;
}

/* Last token of a simple statement (expression, declaration, jump, asm)
 * starting at token i: its ";".  A statement whose ";" comes from a macro
 * ("#define BUMP(v) (v) += 1;") ends with the macro invocation, which the
 * cursor's extent reaches; the next ";" in the file belongs to another
 * statement then.  Between the extent's end and the file's ";" there may
 * only be invocations of macros that expand to nothing ("x = 1 NOTHING;"):
 * the parser took the ";" right after the expression, so any token in
 * between that expands to something supplied that ";". */
static uint32_t simple_last_tok(struct builder *b, uint32_t c, uint32_t i)
{
	const struct ast_node *x = extent(b, c);
	uint32_t end = x->e;
	uint32_t semi = find_semi(b, i);
	if (!x->e_in || end <= b->toks[i].off || (semi != CFG_NONE && b->toks[semi].off < end))
		return semi;
	uint32_t last = last_tok_before(b, i, end);
	if (semi == CFG_NONE) /* the block closes first: the ";" is the macro's */
		return last;
	if (semi == last + 1 || semi == last)
		return semi;
	uint32_t k = last + 1;
	while (k < semi && empty_macro_at(b, k, &k))
		;
	return k == semi ? semi : last;
}

/* The last token of a macro invocation right after keyword kw ("while",
 * "if") whose expansion spells condition cond with its parentheses:
 * libxml2's "while IS_WSP_BLANK_CH(*cur) cur++;", whose macro expands to
 * "(((c) == 0x20) || ...)".  The condition's extent then is the
 * invocation, from token kw + 1 to the end of the returned token (the
 * parentheses being the statement's, the rest of the expansion is the
 * condition).  CFG_NONE when token kw + 1 does not start such an
 * invocation. */
uint32_t macro_cond_last(struct builder *b, uint32_t kw, uint32_t cond)
{
	if (kw + 1 >= b->ntoks || tok_is(b, kw + 1, "(") || b->toks[kw + 1].kind != CXToken_Identifier)
		return CFG_NONE;
	const struct ast_node *x = extent(b, cond);
	if (!x->s_in || !x->e_in || x->s != b->toks[kw + 1].off || x->e <= x->s)
		return CFG_NONE;
	uint32_t r = last_tok_before(b, kw + 1, x->e);
	return tok_end(b, r) == x->e ? r : CFG_NONE;
}

/* Token index of the last token of statement c (C11 6.8 grammar). */
uint32_t stmt_last_tok(struct builder *b, uint32_t c)
{
	enum CXCursorKind kind = kind_of(b, c);
	uint32_t i = stmt_tok(b, c, NULL), r;
	switch (kind) {
	case CXCursor_CompoundStmt:
		if (!tok_is(b, i, "{"))
			fail_macro(b, b->toks[i].off, "compound statement inside a macro expansion");
		r = match_close(b, i);
		break;
	case CXCursor_IfStmt:
	case CXCursor_WhileStmt:
	case CXCursor_ForStmt:
	case CXCursor_SwitchStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
	case CXCursor_LabelStmt:
		r = stmt_end_tok_of_kids(b, c);
		break;
	case CXCursor_DoStmt: {
		struct kids k = children(b, c);
		uint32_t body_end = stmt_last_tok(b, k.v[0]);
		uint32_t w = body_end + 1;
		if (!tok_is(b, w, "while") || (!tok_is(b, w + 1, "(") && macro_cond_last(b, w, k.v[1]) == CFG_NONE))
			fail_macro(b, b->toks[i].off, "do-while condition inside a macro expansion");
		r = tok_is(b, w + 1, "(") ? match_close(b, w + 1) : macro_cond_last(b, w, k.v[1]);
		if (r == CFG_NONE || !tok_is(b, r + 1, ";"))
			fail_at(b, b->toks[i].off, "cannot find the end of a do-while statement");
		r++;
		break;
	}
	default:
		r = simple_last_tok(b, c, i);
		break;
	}
	if (r == CFG_NONE)
		fail_macro(b, b->toks[i].off, "cannot find the end of a statement (macro?)");
	return r;
}
