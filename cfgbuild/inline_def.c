/*
 * inline_def.c: inline functions with external linkage, which kpath leaves
 * as they are.  The inserted code refers to the file's static descriptors
 * and counters, and to the runtime header's static inline functions:
 *   - in an inline definition, one its file never emits on its own, a
 *     reference to an identifier with internal linkage breaks a constraint
 *     (C99 6.7.4p3): gcc warns by default ("is static but used in inline
 *     function ... which is not static"), an error under -Werror.  Such a
 *     definition is (C99 6.7.4p7) a function with external linkage all of
 *     whose file-scope declarations say "inline" and none "extern"; or,
 *     under GNU89 semantics (-std=gnu89/c89/c90, -fgnu89-inline, or the
 *     gnu_inline attribute), one whose definition says both "extern" and
 *     "inline" while no declaration says "inline" without "extern";
 *   - in any other inline function with external linkage (an external
 *     definition), clang -pedantic warns all the same
 *     (-Wstatic-in-inline: it decides at the body, before later
 *     declarations), so under clang -pedantic -Werror the file would not
 *     compile where the original does.
 * inline_function_kind tells the two apart, so that the reason given is
 * the true one.  The rule for the first is clang's
 * (FunctionDecl::isInlineDefinitionExternallyVisible), over the
 * file-scope redeclarations of the function; what each declaration says is
 * read from clang's printing of it (storage class and "inline" as
 * specified on that declaration, macros expanded, attributes written on
 * it): clang_Cursor_isFunctionInlined is true on every redeclaration after
 * an inline one.  tests/e2e/inline_defs checks both kinds under gcc and
 * clang, C99 and GNU89 rules.
 */
#include "build_internal.h"

#include <stdlib.h>
#include <string.h>

struct redecls {
	CXCursor canon;
	CXCursor def;      /* the definition asked about */
	bool gnu;          /* gnu_inline is written on one of them */
	bool forces_c99;   /* one says extern, or does not say inline */
	bool inline_only_gnu_visible; /* one says inline without extern */
	bool def_extern_inline;       /* that definition says extern and inline */
};

/* What declaration c says: its storage class (the printing starts with
 * it) and whether "inline" follows; and whether gnu_inline is written. */
static void read_decl(CXCursor c, bool *is_extern, bool *is_inline, bool *gnu)
{
	char *text = decl_printed(c);
	const char *p = text ? text : "";
	*gnu = strstr(p, "gnu_inline") != NULL;
	*is_extern = !strncmp(p, "extern ", 7);
	static const char *const storage[] = {"extern ", "static ", "__private_extern__ "};
	for (size_t i = 0; i < sizeof storage / sizeof *storage; i++)
		if (!strncmp(p, storage[i], strlen(storage[i]))) {
			p += strlen(storage[i]);
			break;
		}
	*is_inline = !strncmp(p, "inline ", 7);
	free(text);
}

static enum CXChildVisitResult visit_redecl(CXCursor c, CXCursor parent, CXClientData d)
{
	struct redecls *r = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_equalCursors(clang_getCanonicalCursor(c), r->canon))
		return CXChildVisit_Continue;
	bool ext, inl, gnu;
	read_decl(c, &ext, &inl, &gnu);
	r->gnu |= gnu;
	r->forces_c99 |= ext || !inl;
	r->inline_only_gnu_visible |= inl && !ext;
	/* only the definition asked about: after a gnu_inline one, a file
	 * may define the function again, without inline (libquadmath's
	 * cimagq.c after quadmath.h), and that one it emits */
	r->def_extern_inline |= clang_equalCursors(c, r->def) && ext && inl;
	return CXChildVisit_Continue;
}

enum inline_kind inline_function_kind(CXCursor fn, bool gnu_inline_lang)
{
	if (!clang_Cursor_isFunctionInlined(fn) || clang_getCursorLinkage(fn) != CXLinkage_External ||
	    clang_Cursor_getStorageClass(fn) == CX_SC_Static)
		return INLINE_NONE;
	/* the file-scope declarations: the unit's top level */
	struct redecls r = {clang_getCanonicalCursor(fn), fn, false, false, false, false};
	CXTranslationUnit tu = clang_Cursor_getTranslationUnit(fn);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_redecl, &r);
	if (gnu_inline_lang || r.gnu)
		return r.def_extern_inline && !r.inline_only_gnu_visible ? INLINE_ONLY : INLINE_EXTERNAL;
	return r.forces_c99 ? INLINE_EXTERNAL : INLINE_ONLY;
}

bool inline_written_on(CXCursor fn)
{
	bool ext, inl, gnu;
	read_decl(fn, &ext, &inl, &gnu);
	return inl;
}
