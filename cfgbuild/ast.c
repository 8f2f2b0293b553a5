/*
 * ast.c: a function's cursors in preorder (ast.h).
 *
 * One clang_visitChildren with CXChildVisit_Recurse gives every node with
 * its parent cursor; the nodes whose subtrees are still open are kept on a
 * stack, and a node's parent is the innermost open node equal to the
 * parent cursor (clang_equalCursors): the nodes above it on the stack are
 * finished.  The children lists are then laid out by parent, in preorder,
 * which is the order the visit gave them.  (Checked when this was written,
 * on every test input, the corpus and the gcc torture tests: each node's
 * children are exactly what clang_visitChildren on it gives, and each
 * subtree is what a recursive visit from its root gives, less the repeated
 * visits below.)
 */
#include "ast.h"
#include "array.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct visit {
	struct ast *a;
	uint32_t *stack;
	uint32_t depth, cap;
};

static uint32_t add_node(struct ast *a, CXCursor c, uint32_t parent)
{
	KP_RESERVE(a->v, a->cap, a->n + 1);
	struct ast_node *x = &a->v[a->n];
	memset(x, 0, sizeof *x);
	x->c = c;
	x->kind = clang_getCursorKind(c);
	x->parent = parent;
	return a->n++;
}

static void push(struct visit *v, uint32_t id)
{
	*KP_PUSH(v->stack, v->depth, v->cap) = id;
}

/* clang_equalCursors, without the call in the common cases: cursors of
 * different kinds differ, cursors with the same data are equal. */
static bool same_cursor(CXCursor x, CXCursor y)
{
	if (x.kind != y.kind)
		return false;
	if (x.data[0] == y.data[0] && x.data[1] == y.data[1] && x.data[2] == y.data[2])
		return true;
	return clang_equalCursors(x, y);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData d)
{
	struct visit *v = d;
	struct ast *a = v->a;
	/* Recursing, libclang sometimes visits a node a second time as its
	 * own child (a ConstantExpr's or __builtin_choose_expr's operand),
	 * and gives its children there.  The second visit is no node of its
	 * own: its children are the node's, which is what clang_visitChildren
	 * on the node gives. */
	if (same_cursor(c, parent))
		return CXChildVisit_Recurse;
	while (v->depth > 1 && !same_cursor(a->v[v->stack[v->depth - 1]].c, parent))
		a->v[v->stack[--v->depth]].end = a->n;
	push(v, add_node(a, c, v->stack[v->depth - 1]));
	return CXChildVisit_Recurse;
}

void ast_build(struct ast *a, CXCursor root, CXFile file)
{
	struct visit v = {a, NULL, 0, 0};
	a->file = file;
	push(&v, add_node(a, root, AST_NONE));
	clang_visitChildren(root, visit, &v);
	while (v.depth)
		a->v[v.stack[--v.depth]].end = a->n;
	free(v.stack);
	/* children by parent: count, prefix sums, fill in preorder */
	a->kids = xrealloc(NULL, a->n * sizeof *a->kids);
	for (uint32_t i = 1; i < a->n; i++)
		a->v[a->v[i].parent].nkids++;
	uint32_t sum = 0;
	for (uint32_t i = 0; i < a->n; i++) {
		a->v[i].kid0 = sum;
		sum += a->v[i].nkids;
		a->v[i].nkids = 0;
	}
	for (uint32_t i = 1; i < a->n; i++) {
		struct ast_node *p = &a->v[a->v[i].parent];
		a->kids[p->kid0 + p->nkids++] = i;
	}
}

void ast_free(struct ast *a)
{
	free(a->v);
	free(a->kids);
	memset(a, 0, sizeof *a);
}

static uint32_t file_offset(const struct ast *a, CXSourceLocation loc, bool *in_file)
{
	CXFile f;
	unsigned off;
	clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
	*in_file = f && clang_File_isEqual(f, a->file);
	return off;
}

const struct ast_node *ast_extent(struct ast *a, uint32_t n)
{
	struct ast_node *x = &a->v[n];
	if (!x->have_extent) {
		CXSourceRange r = clang_getCursorExtent(x->c);
		x->s = file_offset(a, clang_getRangeStart(r), &x->s_in);
		CXSourceLocation end = clang_getRangeEnd(r);
		x->e = file_offset(a, end, &x->e_in);
		/* libclang moves an end inside a macro's body to the end of the
		 * invocation, but leaves one inside a macro argument where it is:
		 * its expansion location is then the invocation's start, its file
		 * location (the argument's spelling) lies after it */
		if (x->e_in) {
			CXFile f;
			unsigned off;
			clang_getFileLocation(end, &f, NULL, NULL, &off);
			x->e_arg = !f || !clang_File_isEqual(f, a->file) || off != x->e;
		}
		x->have_extent = x->have_start = true;
	}
	return x;
}

/* A statement's extent starts at its location (Stmt::getBeginLoc() for
 * both), which costs no lexing: the extent's end is measured by lexing
 * its last token again. */
const struct ast_node *ast_start(struct ast *a, uint32_t n)
{
	struct ast_node *x = &a->v[n];
	if (!x->have_start) {
		if (!clang_isStatement(x->kind))
			return ast_extent(a, n);
		x->s = file_offset(a, clang_getCursorLocation(x->c), &x->s_in);
		x->have_start = true;
	}
	return x;
}
