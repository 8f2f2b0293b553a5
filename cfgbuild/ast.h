/*
 * ast.h: the cursors of one function, visited once (cfgbuild/ast.c), for
 * build.c.
 *
 * build.c asks for the children of the same cursors again and again (an
 * expression's operands while looking for branches, a statement's parts)
 * and for the extent of most of them.  Each clang_visitChildren call sets
 * up a visitor, and each clang_getCursorExtent lexes the last token again,
 * so the function's subtree is visited once, in preorder, into an array,
 * and a node's extent is computed once, when it is first asked for.
 *
 * Invariants: node 0 is the root (the function); a node's id is its
 * preorder index, so the subtree of node n is the ids [n, end) and a
 * preorder walk is a loop; a node's children are kids[kid0 .. kid0 + nkids)
 * in the order clang_visitChildren gives them.
 */
#ifndef KPATH_AST_H
#define KPATH_AST_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdint.h>

#define AST_NONE UINT32_MAX

struct ast_node {
	CXCursor c;
	enum CXCursorKind kind;
	uint32_t parent;      /* AST_NONE for the root */
	uint32_t kid0, nkids; /* children: kids[kid0 .. kid0 + nkids) */
	uint32_t end;         /* one past the last node of the subtree */
	bool have_start;      /* s_in and s are set (ast_start) */
	bool have_extent;     /* the next four are set (ast_extent) */
	bool s_in, e_in;      /* the extent's start / end expands into the file */
	bool e_arg;           /* the end lies in a macro argument: e is then the start of
	                         the (outermost) macro invocation holding it, not the
	                         end of the text (tokens.c: extent) */
	uint32_t s, e;        /* their offsets in the file */
};

struct ast {
	struct ast_node *v;
	uint32_t n, cap;
	uint32_t *kids;
	CXFile file; /* the file extents are measured in */
};

/* Visits root's subtree into a (zeroed by the caller). */
void ast_build(struct ast *a, CXCursor root, CXFile file);
void ast_free(struct ast *a);

/* Node n with its extent computed. */
const struct ast_node *ast_extent(struct ast *a, uint32_t n);
/* Node n with the start of its extent computed (s_in, s). */
const struct ast_node *ast_start(struct ast *a, uint32_t n);

#endif
