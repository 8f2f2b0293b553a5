/*
 * fn_attrs.c: attributes under which no code may be inserted in a
 * function, so that build_function skips it with the reason:
 *   - naked (__attribute__((naked))): the body may hold only basic asm
 *     (gcc: anything else "can't be depended upon", and the count after
 *     the asm's ret never runs; clang rejects the file: "non-ASM statement
 *     in naked function is not supported");
 *   - an ifunc resolver (named by __attribute__((ifunc("NAME"))) on a
 *     declaration of the same file, as gcc requires): it runs while the
 *     dynamic linker relocates its module, before the module's TLS and
 *     GOT are ready for the inserted code (an instrumented resolver in a
 *     library opened with dlopen crashed the program: tests/e2e,
 *     fn_attrs.sh).
 * Both are read from clang's printing of declarations (the attributes
 * written on them, macros expanded), asked only of cursors that have
 * attributes; naked also from the first token of each attribute of the
 * definition (an attribute written on an earlier declaration only).
 */
#include "build_internal.h"

#include <stdlib.h>
#include <string.h>

/* clang's terse printing of a declaration (no body), or NULL; free with
 * free().  inline_def.c reads storage class and inline from it too. */
char *decl_printed(CXCursor c)
{
	CXPrintingPolicy pol = clang_getCursorPrintingPolicy(c);
	clang_PrintingPolicy_setProperty(pol, CXPrintingPolicy_TerseOutput, 1);
	CXString s = clang_getCursorPrettyPrinted(c, pol);
	const char *p = clang_getCString(s);
	char *r = p ? strdup(p) : NULL;
	clang_disposeString(s);
	clang_PrintingPolicy_dispose(pol);
	return r;
}

/* Whether the first token of attribute c is one is_word accepts.  Only
 * the token at the extent's spelling start is lexed (clang_tokenize over
 * (start, start)): an attribute a macro spells has an extent that runs
 * from the macro's #define to its use, and tokenizing the extent lexed
 * all of it (SQLite's amalgamation: up to 920,000 tokens an attribute,
 * half of kpath instrument's time; clang_getToken at the start still
 * lexed far past it, 7%).  The spelling start is the attribute's name in
 * the #define ("#define NORETURN _Noreturn"). */
bool attr_first_word(CXCursor c, bool (*is_word)(const char *))
{
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(c);
	CXSourceLocation at = clang_getRangeStart(clang_getCursorExtent(c));
	CXToken *t = NULL;
	unsigned n = 0;
	bool yes = false;
	clang_tokenize(tu, clang_getRange(at, at), &t, &n);
	if (n) {
		CXString s = clang_getTokenSpelling(tu, t[0]);
		const char *p = clang_getCString(s);
		yes = p && is_word(p);
		clang_disposeString(s);
	}
	clang_disposeTokens(tu, t, n);
	return yes;
}

static bool naked_word(const char *p)
{
	return !strcmp(p, "naked") || !strcmp(p, "__naked__");
}

/* An attribute child of a declaration whose first token is naked: an
 * attribute written on an earlier declaration only is a child of the
 * definition too (clang's printing leaves inherited attributes out); its
 * extent is the earlier declaration's. */
static enum CXChildVisitResult naked_child(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	if (clang_isAttribute(clang_getCursorKind(c)) && attr_first_word(c, naked_word))
		*(bool *)d = true;
	return *(bool *)d ? CXChildVisit_Break : CXChildVisit_Continue;
}

bool fn_attr_naked(CXCursor fn)
{
	if (!clang_Cursor_hasAttrs(fn))
		return false;
	char *p = decl_printed(fn);
	bool naked = p && strstr(p, "__attribute__((naked))");
	free(p);
	if (!naked)
		clang_visitChildren(fn, naked_child, &naked);
	return naked;
}

/* The resolvers that the main file's declarations name, per translation
 * unit (one at a time: the walks of a unit follow each other).  A unit is
 * known by its address and its main file's name: a unit disposed of and
 * another parsed at the same address is another file's, or the same
 * file's written-out text, whose declarations are the original's. */
static struct {
	CXTranslationUnit tu;
	char *file;
	char **names;
	size_t n;
} resolvers;

static enum CXChildVisitResult collect_resolver(CXCursor c, CXCursor parent, CXClientData d)
{
	(void)parent;
	(void)d;
	enum CXCursorKind k = clang_getCursorKind(c);
	if ((k != CXCursor_FunctionDecl && k != CXCursor_VarDecl) || !clang_Cursor_hasAttrs(c) ||
	    !clang_Location_isFromMainFile(clang_getCursorLocation(c)))
		return CXChildVisit_Continue;
	char *p = decl_printed(c);
	for (const char *q = p; q && (q = strstr(q, "ifunc(\"")) != NULL;) {
		q += 7;
		const char *e = strchr(q, '"');
		if (!e)
			break;
		char *name = xrealloc(NULL, (size_t)(e - q) + 1);
		memcpy(name, q, (size_t)(e - q));
		name[e - q] = 0;
		resolvers.names = xrealloc(resolvers.names, (resolvers.n + 1) * sizeof *resolvers.names);
		resolvers.names[resolvers.n++] = name;
		q = e;
	}
	free(p);
	return CXChildVisit_Continue;
}

bool fn_ifunc_resolver(CXCursor fn)
{
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(fn);
	CXString file = clang_getTranslationUnitSpelling(tu);
	const char *f = clang_getCString(file) ? clang_getCString(file) : "";
	if (tu != resolvers.tu || !resolvers.file || strcmp(f, resolvers.file)) {
		for (size_t i = 0; i < resolvers.n; i++)
			free(resolvers.names[i]);
		free(resolvers.names);
		free(resolvers.file);
		resolvers.names = NULL;
		resolvers.n = 0;
		resolvers.tu = tu;
		resolvers.file = xstrdup(f);
		clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_resolver, NULL);
	}
	clang_disposeString(file);
	if (!resolvers.n)
		return false;
	CXString name = clang_getCursorSpelling(fn);
	const char *s = clang_getCString(name);
	bool found = false;
	for (size_t i = 0; s && i < resolvers.n && !found; i++)
		found = !strcmp(resolvers.names[i], s);
	clang_disposeString(name);
	return found;
}
