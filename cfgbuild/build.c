/*
 * build.c: build_function, the CFG of a C function built from the libclang
 * AST while walking its statements (C11 6.8), with the insertion site of
 * every edge.  This file holds the entry point (tokens of the function,
 * the walk's set-up, computed-goto dispatch); the walk itself is split
 * along its ideas: tokens.c, blocks.c, fallthrough.c, expr.c, stmt.c,
 * noreturn.c, rettype.c, sharing build_internal.h.
 *
 * Invariants of the walk:
 *  - `cur` is the block control falls into at the current point, CFG_NONE
 *    right after a jump statement (code there is unreachable until a label).
 *  - Every edge gets a site that control passes exactly when the edge is
 *    taken, except a switch's dispatch into a case label (and its no-match
 *    edge): those are site-less; the rewriter compensates a dispatch through
 *    the site just after the case label, which runs on every entry into the
 *    case's block (build.h, rewrite/place.c).
 *  - Out-edge order keys put first the edge whose site is least convenient
 *    (loop exits, a switch's default or no-match edge, an if's else), so the
 *    Ball-Larus numbering gives it val 0 and it usually carries no code.
 *  - A construct we cannot place code around faithfully (control flow from a
 *    macro expansion, statement expressions, computed goto, setjmp) makes the
 *    whole function be skipped: we never record a wrong path.
 *
 * Source positions come from the file's raw tokens (clang_tokenize), never
 * from expression extents, which are unreliable inside macro expansions: a
 * statement's keyword must be the token at its expansion location, otherwise
 * it came from a macro.
 */
#include "build_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- entry point ---------------------------------------------------------- */

/* clang_tokenize returns raw tokens, including those of preprocessing
 * directives and of #if branches the preprocessor skipped: neither is code. */
static void drop_inactive(struct builder *b)
{
	uint32_t out = 0, dir_end = 0;
	for (uint32_t i = 0; i < b->ntoks; i++) {
		uint32_t off = b->toks[i].off;
		bool drop = off < dir_end;
		if (!drop && tok_is(b, i, "#")) {
			uint32_t k = off;
			while (k > 0 && (b->src->text[k - 1] == ' ' || b->src->text[k - 1] == '\t'))
				k--;
			if (k == 0 || b->src->text[k - 1] == '\n') { /* a directive: to the end of its logical line */
				dir_end = off;
				while (dir_end < b->src->len &&
				       (b->src->text[dir_end] != '\n' || (dir_end > 0 && b->src->text[dir_end - 1] == '\\')))
					dir_end++;
				drop = true;
			}
		}
		if (!drop)
			drop = src_skipped(b->src, off);
		if (!drop)
			b->toks[out++] = b->toks[i];
	}
	b->ntoks = out;
}

/* The function's text as a range of the file: its extent may start or end
 * inside a macro's definition ("#define local static" in a header, then
 * "local int f(void) {...}"), and clang_tokenize returns nothing for a range
 * whose ends are in different files.  The expansion locations are in the
 * file; the end is taken to the end of its line, so that a macro invocation
 * ending the function is covered.  *s and *e are the range's offsets when
 * *in_file. */
static CXSourceRange function_range(struct builder *b, CXCursor fn, bool *in_file, uint32_t *s, uint32_t *e)
{
	CXSourceRange r = clang_getCursorExtent(fn);
	bool in1, in2;
	*s = loc_offset(b, clang_getRangeStart(r), &in1);
	*e = loc_offset(b, clang_getRangeEnd(r), &in2);
	*in_file = in1 && in2 && *e >= *s;
	if (!*in_file)
		return r;
	while (*e < b->src->len && b->src->text[*e] != '\n')
		(*e)++;
	return clang_getRange(clang_getLocationForOffset(b->src->tu, b->src->file, *s),
	                      clang_getLocationForOffset(b->src->tu, b->src->file, *e));
}

/* The function's code tokens: a run of the file's tokens (src_index), or,
 * when its range is not one, what clang_tokenize gives for it. */
static void load_tokens(struct builder *b, CXCursor fn)
{
	bool in_file;
	uint32_t s, e, first, n;
	CXSourceRange range = function_range(b, fn, &in_file, &s, &e);
	if (in_file && src_tok_run(b->src, s, e, &first, &n)) {
		b->toks = xrealloc(NULL, (n + 1) * sizeof *b->toks);
		b->ntoks = 0;
		for (uint32_t i = first; i < first + n; i++)
			if (b->src->toks[i].code)
				b->toks[b->ntoks++] = b->src->toks[i];
		drop_inactive(b);
		return;
	}
	CXToken *t;
	clang_tokenize(b->src->tu, range, &t, &n);
	b->toks = xrealloc(NULL, (n + 1) * sizeof *b->toks);
	b->tok_text = xrealloc(NULL, (size_t)n * 40 + 1);
	b->ntoks = 0;
	for (unsigned i = 0; i < n; i++) {
		CXSourceRange r = clang_getTokenExtent(b->src->tu, t[i]);
		bool in1, in2;
		uint32_t ts = loc_offset(b, clang_getRangeStart(r), &in1);
		uint32_t te = loc_offset(b, clang_getRangeEnd(r), &in2);
		if (!in1 || !in2 || te < ts || clang_getTokenKind(t[i]) == CXToken_Comment)
			continue;
		struct src_tok *k = &b->toks[b->ntoks];
		k->off = ts;
		k->len = te - ts;
		k->kind = clang_getTokenKind(t[i]);
		k->code = true;
		char *sp = b->tok_text + (size_t)b->ntoks * 40;
		CXString str = clang_getTokenSpelling(b->src->tu, t[i]);
		snprintf(sp, 40, "%s", clang_getCString(str));
		clang_disposeString(str);
		k->sp = sp;
		b->ntoks++;
	}
	clang_disposeTokens(b->src->tu, t, n);
	drop_inactive(b);
}

/* What the walk looks for in the tokens as a whole, in one pass. */
static void index_tokens(struct builder *b)
{
	b->andor = xrealloc(NULL, (b->ntoks + 1) * sizeof *b->andor);
	b->quest = xrealloc(NULL, (b->ntoks + 1) * sizeof *b->quest);
	b->local_label = CFG_NONE;
	for (uint32_t i = 0; i < b->ntoks; i++) {
		if (b->toks[i].kind == CXToken_Punctuation) {
			if (tok_is(b, i, "&&") || tok_is(b, i, "||"))
				b->andor[b->nandor++] = b->toks[i].off;
			else if (tok_is(b, i, "?"))
				b->quest[b->nquest++] = b->toks[i].off;
			continue;
		}
		if (b->toks[i].sp[0] != '_' && b->toks[i].sp[0] != 'g' && b->toks[i].sp[0] != 's' &&
		    b->toks[i].sp[0] != 't' && b->toks[i].sp[0] != 'o')
			continue; /* no keyword below starts otherwise */
		for (size_t n = 0; n < sizeof unevaluated_kw / sizeof *unevaluated_kw && !b->has_unevaluated_kw; n++)
			b->has_unevaluated_kw = tok_is(b, i, unevaluated_kw[n]);
		if (b->local_label == CFG_NONE && tok_is(b, i, "__label__"))
			b->local_label = i;
		b->goto_star |= tok_is(b, i, "goto") && tok_is(b, i + 1, "*");
	}
}

/* Marks the labels whose address is taken (&&L, a LabelRef under an
 * AddrLabelExpr), wherever it occurs in the function body. */
static void mark_addr_labels(struct builder *b, uint32_t body)
{
	for (uint32_t c = body + 1; c < b->ast.v[body].end; c++)
		if (kind_of(b, c) == CXCursor_LabelRef && kind_of(b, b->ast.v[c].parent) == CXCursor_AddrLabelExpr) {
			CXString s = clang_getCursorSpelling(cursor_of(b, c));
			label_get(b, clang_getCString(s))->addr_taken = true;
			clang_disposeString(s);
		}
}

/* With a computed goto, its possible targets must be known before the
 * walk reaches them: the labels whose address is taken. */
static void find_computed_goto_targets(struct builder *b, uint32_t body, uint32_t name_off)
{
	/* also one a macro spells (Lua's vmdispatch(x), "goto *disptab[x];"):
	 * the walk then sends the function to the write-out (fail_macro),
	 * rather than take an address of a label met first for one that
	 * escapes */
	b->has_indirect_goto = b->goto_star;
	for (uint32_t c = body + 1; c < b->ast.v[body].end && !b->has_indirect_goto; c++)
		b->has_indirect_goto = kind_of(b, c) == CXCursor_IndirectGotoStmt;
	if (!b->has_indirect_goto)
		return;
	mark_addr_labels(b, body);
	bool any = false;
	for (uint32_t i = 0; i < b->nlabels; i++)
		any |= b->labels[i].addr_taken;
	if (!any)
		fail_at(b, name_off, "computed goto, but no label's address is taken");
}

/* After the walk: the dispatch block's edges to every possible target,
 * site-less (rewrite/place.c compensates them through the target's
 * block_start site). */
static void dispatch_edges(struct builder *b)
{
	if (b->dispatch == CFG_NONE)
		return;
	uint32_t order = 0;
	for (uint32_t i = 0; i < b->nlabels; i++)
		if (b->labels[i].addr_taken)
			edge(b, b->dispatch, b->labels[i].block, order++, CFG_NONE);
}

static void builder_free(struct builder *b)
{
	for (uint32_t i = 0; i < b->nlabels; i++)
		free(b->labels[i].name);
	free(b->labels);
	free(b->toks);
	free(b->tok_text);
	ast_free(&b->ast);
	free(b->memo);
	free(b->andor);
	free(b->quest);
	calls_free(b);
}

bool build_gnu89_inline;

struct fn_plan *build_function(const struct src_file *src, CXCursor fn, struct fn_plan *plan)
{
	struct builder b;
	memset(&b, 0, sizeof b);
	b.src = src;
	b.plan = plan;
	b.loop.brk = b.loop.cont = CFG_NONE;
	b.dispatch = CFG_NONE;
	b.attr_first = b.attr_last = CFG_NONE;
	b.expr_branches = plan->expr_branches;
	CXString name = clang_getCursorSpelling(fn);
	plan->name = strdup(clang_getCString(name));
	clang_disposeString(name);
	plan->exported = clang_getCursorLinkage(fn) == CXLinkage_External && !clang_Cursor_isFunctionInlined(fn);
	bool in;
	uint32_t name_off = loc_offset(&b, clang_getCursorLocation(fn), &in);
	plan->line = offset_line(&b, name_off);
	plan->g = cfg_new();
	plan->entry_edge = CFG_NONE;
	load_tokens(&b, fn);
	index_tokens(&b);
	ast_build(&b.ast, fn, src->file);
	b.memo = xrealloc(NULL, b.ast.n * sizeof *b.memo);
	memset(b.memo, 0xff, b.ast.n * sizeof *b.memo); /* all -1: not yet known */
	if (setjmp(b.fail)) {
		builder_free(&b);
		return NULL;
	}
	enum inline_kind inl = inline_function_kind(fn, build_gnu89_inline);
	if (inl == INLINE_ONLY)
		fail_at(&b, name_off, "an inline definition that this file never emits on its own (C99 6.7.4p7, or "
		                      "GNU 'extern inline'): it may not refer to the file's static counters");
	if (inl == INLINE_EXTERNAL)
		fail_at(&b, name_off, "an inline function with external linkage%s: clang -pedantic rejects the file's "
		                      "static counters in it (-Wstatic-in-inline)",
		        inline_written_on(fn) ? "" : " (inline by an earlier declaration)");
	if (fn_attr_naked(fn))
		fail_at(&b, name_off, "a naked function (__attribute__((naked))): its body may hold only basic asm, "
		                      "and no code can be inserted");
	if (fn_ifunc_resolver(fn))
		fail_at(&b, name_off, "an ifunc resolver: it runs while the dynamic linker relocates its module, "
		                      "before inserted code could reach the runtime");
	uint32_t body = CFG_NONE;
	struct kids k = children(&b, 0);
	for (unsigned i = 0; i < k.n; i++)
		if (kind_of(&b, k.v[i]) == CXCursor_CompoundStmt)
			body = k.v[i];
	if (body == CFG_NONE)
		fail_at(&b, name_off, "no function body");
	if (b.local_label != CFG_NONE) /* block-scope labels: names are not unique */
		fail_at(&b, b.toks[b.local_label].off, "local label declaration (__label__)");
	uint32_t open = body_tok(&b, body, name_off);
	uint32_t close = match_close(&b, open);
	if (close == CFG_NONE)
		fail_macro(&b, name_off, "function body inside a macro expansion");
	plan->skips_text = src_skipped_in(src, b.toks[open].off, b.toks[close].off);
	plan_return_type(&b, 0);
	find_computed_goto_targets(&b, body, name_off);
	add_site(&b, SITE_ENTRY, tok_end(&b, open), 1);
	uint32_t first = new_block(&b, b.plan->line);
	b.plan->entry_edge = cfg_add_edge(b.plan->g, CFG_ENTRY, first, 0, CFG_NONE, false);
	b.cur = first;
	compound(&b, body);
	if (b.cur != CFG_NONE) /* falling off the end (C11 6.9.1p12) */
		edge_stmt(&b, b.cur, CFG_EXIT, 0, b.toks[close].off, 1);
	for (uint32_t i = 0; i < b.nlabels; i++)
		if (!b.labels[i].defined)
			fail_at(&b, name_off, "goto to undefined label %s", b.labels[i].name);
	dispatch_edges(&b);
	calls_finish(&b);
	builder_free(&b);
	return b.plan;
}

void build_plan_free(struct fn_plan *plan)
{
	free(plan->name);
	if (plan->g)
		cfg_free(plan->g);
	free(plan->sites);
	free(plan->block_start);
	free(plan->restart);
	free(plan->ret_decl);
	free(plan->call_lines);
	for (uint32_t i = 0; i < plan->ncall_sites; i++)
		free(plan->call_sites[i].callee);
	free(plan->call_sites);
	free(plan->loop_stmts);
	free(plan->decl_blocks);
	memset(plan, 0, sizeof *plan);
}
