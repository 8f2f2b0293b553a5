/*
 * calls.c: the call sites of --mode overlap's interprocedural paths
 * (Tallam, Zhang & Gupta, CGO 2004, section 3; build.h, call_sites;
 * docs/overlap-mode.md, "Calls").
 *
 * scan_node (expr.c) notes every call it meets with the block being built
 * (calls_note); once the CFG is complete, calls_finish keeps, per block,
 * the one call that can carry the paper's handoff: the block holds exactly
 * one call to a function defined in the translation unit and no call
 * through a pointer (a second one could take the handoff or the return
 * meant for the first), the call is spelled "name(" in the file (the
 * handoff is inserted around the name), its arguments call nothing (they
 * run between the handoff and the call), and its full expression has no
 * &&, || or ?: (conditions are atomic in this mode: an operand's call may
 * not run when the block does).  Such a call runs exactly once per run of
 * its block, which is what the paper's C1 is.
 *
 * Calls across files (docs/overlap-mode.md, "Calls across files"): a call
 * of the same shape to a function the translation unit declares but does
 * not define, with external linkage and declared outside system headers
 * (a library's functions are never instrumented), is a site too, marked
 * across, when its block holds no other call but ones to functions
 * defined elsewhere that are no such candidate (the C library's): no call
 * defined in the file, none through a pointer, no second candidate.  A
 * block's same-file site keeps the rule above, which ignores calls to
 * functions defined elsewhere, so same-file sites are what they were.
 */
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"
#include "array.h"

/* A function with external linkage whose declarations are all outside
 * system headers (and have a place in a file: not a builtin): it may be
 * defined, and instrumented, in another file of the program.  Not one
 * declared implicitly (C89: `abort();` with no prototype in scope): clang
 * places that declaration at the first call, and the name is then not
 * declared where the site's code spells it as an operand, `(..., abort)()`,
 * which does not compile (gcc torture 20000112-1, 950915-1; an implicit
 * declaration's scope is the block of its first call). */
static bool user_extern(CXCursor fn)
{
	if (clang_getCursorLinkage(fn) != CXLinkage_External)
		return false;
	CXCursor c = clang_getCanonicalCursor(fn);
	for (int k = 0; k < 2; k++) {
		CXSourceLocation l = clang_getCursorLocation(k ? fn : c);
		CXFile file;
		clang_getSpellingLocation(l, &file, NULL, NULL, NULL);
		if (!file || clang_Location_isInSystemHeader(l))
			return false;
	}
	/* an implicit declaration has no tokens before its name (a written
	 * one has its return type, or at least "extern"): its extent starts at
	 * its location */
	unsigned start, at;
	clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(c)), NULL, NULL, NULL, &start);
	clang_getSpellingLocation(clang_getCursorLocation(c), NULL, NULL, NULL, &at);
	return start != at;
}

void calls_note(struct builder *b, uint32_t c)
{
	if (b->expr_branches) /* only --mode overlap reads call_sites, and its conditions are atomic */
		return;
	CXCursor call = cursor_of(b, c), ref = clang_getCursorReferenced(call);
	struct call_note n = {.node = c, .block = b->cur, .root = b->check_root, .kind = 2};
	if (clang_getCursorKind(ref) == CXCursor_FunctionDecl) {
		CXCursor def = clang_getCursorDefinition(ref);
		n.kind = clang_Cursor_isNull(def) ? 0 : 1;
		n.across = n.kind == 0 && user_extern(ref);
	}
	if (n.kind == 1 || n.across) {
		CXString s = clang_getCursorSpelling(ref);
		n.callee = strdup(clang_getCString(s) ? clang_getCString(s) : "");
		clang_disposeString(s);
		const struct ast_node *x = extent(b, c);
		uint32_t i = x->s_in ? tok_at(b, x->s) : CFG_NONE;
		n.qualifies = n.callee && i != CFG_NONE && i + 1 < b->ntoks && b->toks[i].kind == CXToken_Identifier &&
		              !strcmp(b->toks[i].sp, n.callee) && tok_is(b, i + 1, "(") &&
		              !expr_has_branch_op(b, b->check_root);
		for (uint32_t k = c + 1; k < b->ast.v[c].end && n.qualifies; k++)
			n.qualifies = kind_of(b, k) != CXCursor_CallExpr;
	}
	for (uint32_t k = 0; k < b->ncalls; k++)
		if (b->calls[k].node == c) { /* check_expr may see a statement twice (setjmp_restart) */
			free(b->calls[k].callee);
			b->calls[k] = n;
			return;
		}
	*KP_PUSH(b->calls, b->ncalls, b->cap_calls) = n;
}

void calls_rebind(struct builder *b, uint32_t root, uint32_t blk)
{
	for (uint32_t k = 0; k < b->ncalls; k++)
		if (b->calls[k].root == root)
			b->calls[k].block = blk;
}

void calls_finish(struct builder *b)
{
	struct fn_plan *pl = b->plan;
	for (uint32_t k = 0; k < b->ncalls; k++) {
		const struct call_note *n = &b->calls[k];
		if (!n->qualifies || n->block == CFG_NONE)
			continue;
		bool alone = true;
		for (uint32_t j = 0; j < b->ncalls && alone; j++) /* across: no same-file call, no other candidate */
			alone = j == k || b->calls[j].block != n->block ||
			        (b->calls[j].kind == 0 && (!n->across || !b->calls[j].across));
		if (!alone)
			continue;
		uint32_t i = tok_at(b, extent(b, n->node)->s);
		pl->call_sites = xrealloc(pl->call_sites, (pl->ncall_sites + 1) * sizeof *pl->call_sites);
		pl->call_sites[pl->ncall_sites++] = (struct call_site){
		    .block = n->block, .off = b->toks[i].off, .end = tok_end(b, i), .line = offset_line(b, b->toks[i].off),
		    .callee = strdup(n->callee), .across = n->across};
	}
}

void calls_free(struct builder *b)
{
	for (uint32_t k = 0; k < b->ncalls; k++)
		free(b->calls[k].callee);
	free(b->calls);
	b->calls = NULL;
	b->ncalls = b->cap_calls = 0;
}
