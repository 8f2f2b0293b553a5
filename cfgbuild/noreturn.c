/*
 * noreturn.c: whether a call does not return (the callee is declared
 * _Noreturn / noreturn / __attribute__((noreturn))) or may jump away
 * through longjmp.
 *
 * Invariant: a "yes" must be certain (the block after such a call is ended
 * with no edge to the next statement); the look-up reads only the callee's
 * declarations, never guesses from its name except for longjmp.
 */
#include "build_internal.h"

#include <string.h>

/* Whether expression statement c is a call to a function that does not
 * return: declared _Noreturn / noreturn or __attribute__((noreturn)). */
static bool noreturn_word(const char *x)
{
	return !strcmp(x, "_Noreturn") || !strcmp(x, "noreturn") || !strcmp(x, "__noreturn__");
}

/* Whether the tokens clang_tokenize gives for range r hold a noreturn
 * marker. */
static bool range_says_noreturn(CXTranslationUnit tu, CXSourceRange r)
{
	CXToken *t;
	unsigned n;
	bool nr = false;
	clang_tokenize(tu, r, &t, &n);
	for (unsigned i = 0; i < n && !nr; i++) {
		CXString sp = clang_getTokenSpelling(tu, t[i]);
		nr = noreturn_word(clang_getCString(sp));
		clang_disposeString(sp);
	}
	clang_disposeTokens(tu, t, n);
	return nr;
}

/* clang_visitChildren visitor: an attribute of the declaration (C11's
 * _Noreturn is one) whose first token is a noreturn marker, also when a
 * macro spells it (fn_attrs.c, attr_first_word). */
static enum CXChildVisitResult noreturn_attr(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_isAttribute(clang_getCursorKind(c)) && attr_first_word(c, noreturn_word)) {
		*(bool *)d = true;
		return CXChildVisit_Break;
	}
	return CXChildVisit_Continue;
}

/* Whether the text of declaration fn holds a noreturn marker, or one of
 * its attributes is one.  The text is that of its expansion range:
 * clang_tokenize on the extent itself would start at the spelling of a
 * leading macro ("SQLITE_PRIVATE void f(...)" lexed from SQLITE_PRIVATE's
 * #define on), reading up to the whole file and finding markers of other
 * declarations. */
static bool decl_says_noreturn(struct builder *b, CXCursor fn)
{
	bool attr = false;
	if (clang_Cursor_hasAttrs(fn)) /* the visit costs: most declarations have none */
		clang_visitChildren(fn, noreturn_attr, &attr);
	if (attr)
		return true;
	CXSourceRange r = clang_getCursorExtent(fn);
	CXFile f, f2;
	unsigned s, e;
	clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, &s);
	clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &e);
	if (!f || !f2 || !clang_File_isEqual(f, f2) || e <= s)
		return false;
	bool nr = false;
	uint32_t first, n;
	if (clang_File_isEqual(f, b->src->file) && src_tok_run(b->src, s, e, &first, &n)) {
		for (uint32_t i = first; i < first + n && !nr; i++)
			nr = noreturn_word(b->src->toks[i].sp);
		return nr;
	}
	CXTranslationUnit tu = b->src->tu;
	return range_says_noreturn(tu, clang_getRange(clang_getLocationForOffset(tu, f, s),
	                                              clang_getLocationForOffset(tu, f, e)));
}

bool calls_noreturn(struct builder *b, uint32_t c)
{
	c = strip_parens(b, c);
	if (kind_of(b, c) != CXCursor_CallExpr)
		return false;
	CXCursor fn = clang_getCursorReferenced(cursor_of(b, c));
	if (clang_Cursor_isNull(fn) || clang_getCursorKind(fn) != CXCursor_FunctionDecl)
		return false;
	/* once per declaration: the look-up below reads the declaration's
	 * whole text, so asking it at every call would cost calls x callee
	 * size */
	int known = src_memo_get(b->src->noreturn, fn.data[0]);
	if (known >= 0)
		return known;
	CXString ts = clang_getTypeSpelling(clang_getCursorType(fn));
	bool nr = strstr(clang_getCString(ts), "noreturn") != NULL;
	clang_disposeString(ts);
	if (!nr)
		nr = decl_says_noreturn(b, fn);
	src_memo_put(b->src->noreturn, fn.data[0], nr);
	return nr;
}

/* Whether noreturn call statement c is a longjmp, which may land in this
 * very activation. */
bool calls_longjmp(struct builder *b, uint32_t c)
{
	CXString n = clang_getCursorSpelling(cursor_of(b, strip_parens(b, c)));
	const char *s = clang_getCString(n);
	bool r = s && (strstr(s, "longjmp") != NULL);
	clang_disposeString(n);
	return r;
}
