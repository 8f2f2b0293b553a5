/*
 * rettype.c: the declaration of kp_ret, the temporary that holds a return
 * statement's value: the function's return type spelled as a C declarator
 * (C11 6.7.6).
 *
 * Invariant: a type that cannot be spelled faithfully fails the function
 * (fail_at) rather than declare a different type.
 */
#include "build_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- the declaration of kp_ret -------------------------------------------- */

/* Appends to *out a declaration of `name` with type t (C11 6.7.6
 * declarators, built inside out).  Returns false when t cannot be spelled. */
static bool declarator(CXType t, const char *name, char **out)
{
	char buf[1024];
	switch (t.kind) {
	case CXType_Pointer: {
		CXType p = clang_getPointeeType(t);
		const char *q = clang_isConstQualifiedType(t) ? " const " : "";
		bool paren = p.kind == CXType_FunctionProto || p.kind == CXType_FunctionNoProto ||
		             p.kind == CXType_ConstantArray || p.kind == CXType_IncompleteArray;
		snprintf(buf, sizeof buf, paren ? "(*%s%s)" : "*%s%s", q, name);
		return declarator(p, buf, out);
	}
	case CXType_FunctionNoProto:
		snprintf(buf, sizeof buf, "%s()", name);
		return declarator(clang_getResultType(t), buf, out);
	case CXType_FunctionProto: {
		int n = clang_getNumArgTypes(t);
		size_t len = (size_t)snprintf(buf, sizeof buf, "%s(", name);
		for (int i = 0; i < n && len < sizeof buf; i++) {
			CXString s = clang_getTypeSpelling(clang_getArgType(t, (unsigned)i));
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "", clang_getCString(s));
			clang_disposeString(s);
		}
		if (len < sizeof buf)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s)",
			                        clang_isFunctionTypeVariadic(t) ? (n ? ", ..." : "...") : (n ? "" : "void"));
		if (len >= sizeof buf)
			return false;
		return declarator(clang_getResultType(t), buf, out);
	}
	case CXType_ConstantArray:
		snprintf(buf, sizeof buf, "%s[%lld]", name, clang_getArraySize(t));
		return declarator(clang_getArrayElementType(t), buf, out);
	default: {
		CXString s = clang_getTypeSpelling(t);
		const char *sp = clang_getCString(s);
		bool ok = sp && *sp && !strstr(sp, "(unnamed") && !strstr(sp, "(anonymous") &&
		          !strchr(sp, '<') && !strchr(sp, '(');
		if (ok) {
			size_t n = strlen(sp) + strlen(name) + 2;
			*out = xrealloc(NULL, n);
			snprintf(*out, n, "%s %s", sp, name);
		}
		clang_disposeString(s);
		return ok;
	}
	}
}

/* kp_ret is assigned, so it takes the return type without its top-level
 * qualifiers (the value a return yields is unqualified, C11 6.8.6.4). */
static bool has_const_member(CXType t);

static enum CXVisitorResult const_field(CXCursor field, CXClientData d)
{
	bool *found = d;
	if (has_const_member(clang_getCursorType(field))) {
		*found = true;
		return CXVisit_Break;
	}
	return CXVisit_Continue;
}

/* Whether an object of type t cannot be assigned (C11 6.3.2.1p1: a
 * const-qualified type, or a structure or union with such a member). */
static bool has_const_member(CXType t)
{
	t = clang_getCanonicalType(t);
	if (clang_isConstQualifiedType(t))
		return true;
	if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
		return has_const_member(clang_getArrayElementType(t));
	if (t.kind != CXType_Record)
		return false;
	bool found = false;
	clang_Type_visitFields(t, const_field, &found);
	return found;
}

void plan_return_type(struct builder *b, uint32_t fn)
{
	CXType r = clang_getResultType(clang_getCursorType(cursor_of(b, fn)));
	if (r.kind == CXType_Void) {
		b->plan->ret_decl = NULL;
		return;
	}
	/* A struct with const members cannot be assigned: each return then
	 * initialises its own temporary, "return __extension__ ({ T kp_ret =
	 * (e); ...; kp_ret; });", which also takes a const type as written
	 * (e.g. a typedef of a const anonymous struct). */
	if (clang_getCanonicalType(r).kind == CXType_Record &&
	    (has_const_member(r) || clang_isConstQualifiedType(clang_getCanonicalType(r)))) {
		CXString s = clang_getTypeSpelling(r);
		const char *sp = clang_getCString(s);
		bool ok = *sp && !strstr(sp, "(unnamed") && !strstr(sp, "(anonymous") && !strchr(sp, '(');
		if (ok) {
			size_t n = strlen(sp) + 4;
			b->plan->ret_decl = xrealloc(NULL, n);
			snprintf(b->plan->ret_decl, n, "%s %%s", sp);
			b->plan->ret_init_only = true;
		}
		clang_disposeString(s);
		if (!ok)
			fail_at(b, cursor_start(b, fn), "return type cannot be spelled for a temporary");
		return;
	}
	/* A qualifier hidden behind a typedef: spell the canonical type, whose
	 * top-level qualifiers are stripped below. */
	if (clang_isConstQualifiedType(clang_getCanonicalType(r)) && !clang_isConstQualifiedType(r))
		r = clang_getCanonicalType(r);
	CXString s = clang_getTypeSpelling(r);
	const char *sp = clang_getCString(s);
	char *decl = NULL;
	bool ok;
	if (r.kind == CXType_Pointer || r.kind == CXType_FunctionProto) {
		ok = declarator(r, "%s", &decl);
		if (ok && clang_isConstQualifiedType(r)) {
			/* the top-level qualifier is the one next to the name
			 * ("int *const *const %s"), not the first one */
			char *p = strstr(decl, " const %s");
			if (p)
				memmove(p, p + 6, strlen(p + 6) + 1);
		}
	} else {
		while (!strncmp(sp, "const ", 6) || !strncmp(sp, "volatile ", 9))
			sp += sp[0] == 'c' ? 6 : 9;
		ok = *sp && !strstr(sp, "(unnamed") && !strstr(sp, "(anonymous") && !strchr(sp, '(') &&
		     !strstr(sp, " const") && !strstr(sp, " volatile");
		if (ok) {
			size_t n = strlen(sp) + 4;
			decl = xrealloc(NULL, n);
			snprintf(decl, n, "%s %%s", sp);
		}
	}
	clang_disposeString(s);
	if (!ok) {
		free(decl);
		fail_at(b, cursor_start(b, fn), "return type cannot be spelled for a temporary");
	}
	b->plan->ret_decl = decl;
}
