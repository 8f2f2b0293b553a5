/*
 * stmt.c: the statement walk (C11 6.8): one handler per statement kind,
 * each leaving b->cur at the block control falls into after it.
 *
 * Invariants: see build.c.  b->cur is CFG_NONE right after a jump
 * statement; every edge made here carries a site control passes exactly
 * when the edge is taken, except a switch's dispatch into its case labels.
 */
#include "build_internal.h"
#include "array.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- statements (C11 6.8) ------------------------------------------------- */

/* A statement kind the walk does not know: an OpenMP directive (only
 * parsed with -fopenmp) runs its code in a team of threads, which the
 * function's one path register and cursor cannot follow; any other is
 * named as libclang names it. */
static void unsupported_stmt(struct builder *b, uint32_t c, enum CXCursorKind kind)
{
	CXString name = clang_getCursorKindSpelling(kind);
	const char *n = clang_getCString(name) ? clang_getCString(name) : "?";
	char why[160];
	if (!strncmp(n, "OMP", 3))
		snprintf(why, sizeof why, "an OpenMP directive (%s): its code may run in a team of threads, which the "
		                          "function's path register cannot follow", n);
	else
		snprintf(why, sizeof why, "unsupported statement (%s)", n);
	clang_disposeString(name);
	fail_at(b, cursor_start(b, c), "%s", why);
}

static void stmt(struct builder *b, uint32_t c);
static void stmt_kind(struct builder *b, uint32_t c, enum CXCursorKind kind);

/* A sub-statement that must become a compound: braces are added around it
 * when it is not one already.  Returns the offset where code running at the
 * start of the body goes (phase 1); *end_off receives where code running
 * when control falls off the body's end goes (phase 0, before the "}"). */
struct body {
	uint32_t start_off, end_off;
	/* Phase of code at end_off.  Inside an existing compound it is 1 (before
	 * the "}" token, after everything the body's statements close there), so
	 * that in an empty "{}" the start's code still comes first; after a
	 * statement we brace, 0 (it closes that statement). */
	int end_phase;
	bool braced; /* we add the braces */
	uint32_t last_tok;
};

static struct body body_open(struct builder *b, uint32_t c)
{
	struct body bd;
	uint32_t i = stmt_tok(b, c, NULL);
	bd.last_tok = stmt_last_tok(b, c);
	if (kind_of(b, c) == CXCursor_CompoundStmt && tok_is(b, i, "{")) {
		bd.braced = false;
		bd.start_off = tok_end(b, i);
		bd.end_off = b->toks[bd.last_tok].off;
		bd.end_phase = 1;
	} else {
		bd.braced = true;
		bd.start_off = b->toks[i].off;
		bd.end_off = tok_end(b, bd.last_tok);
		bd.end_phase = 0;
		add_text(b, bd.start_off, 1, "{ ");
		/* A null statement as the body ("for (...) ;") is no warning, and
		 * "{ ; }" is one: clang's -Wextra-semi-stmt (-Weverything) on the
		 * braced ";".  An expression before it, after all code at its
		 * start (phase 2), keeps it a statement that does nothing. */
		if (kind_of(b, c) == CXCursor_NullStmt && tok_is(b, bd.last_tok, ";"))
			add_text(b, b->toks[bd.last_tok].off, 2, "(void)0");
	}
	return bd;
}

static void body_close(struct builder *b, const struct body *bd)
{
	if (bd->braced)
		add_text(b, bd->end_off, 0, " }");
}

/* Where a loop's condition sites go: inside the parentheses, or around a
 * macro invocation that spells them, in parentheses of their own. */
struct cond_place {
	uint32_t open, close; /* offsets */
	bool wrap;
};

/* Paren-enclosed condition cond after token kw (a keyword): the offsets of
 * the expression between the parentheses, or those of a macro invocation
 * whose expansion is the parentheses and the condition ("while
 * IS_BLANK_CH(*cur)", tokens.c: macro_cond_last), whose sites then wrap it:
 * "while ((IS_BLANK_CH(*cur)) ? (kp_r += 1, 1) : (..., 0))". */
static struct cond_place cond_range(struct builder *b, uint32_t kw, uint32_t cond)
{
	if (!tok_is(b, kw + 1, "(")) {
		uint32_t last = macro_cond_last(b, kw, cond);
		if (last == CFG_NONE)
			fail_macro(b, b->toks[kw].off, "condition inside a macro expansion");
		return (struct cond_place){b->toks[kw + 1].off, tok_end(b, last), true};
	}
	uint32_t r = match_close(b, kw + 1);
	if (r == CFG_NONE)
		fail_at(b, b->toks[kw].off, "unbalanced parentheses");
	return (struct cond_place){tok_end(b, kw + 1), b->toks[r].off, false};
}

/* The condition's close site, carrying the loop's true/false edges. */
static uint32_t cond_sites(struct builder *b, struct cond_place cp)
{
	uint32_t o = add_site(b, SITE_COND_OPEN, cp.open, 1);
	uint32_t cl = add_site(b, SITE_COND_CLOSE, cp.close, 0);
	b->plan->sites[o].partner = cl;
	b->plan->sites[o].wrap = b->plan->sites[cl].wrap = cp.wrap;
	return cl;
}

/* --- text included inside the function ------------------------------------
 *
 * An #include inside a function body (a dispatch function's jump table,
 * zlib's inffixed.h) brings in statements that are not in the main file:
 * no code can be inserted into them, and the included file is not edited.
 * Plain statements and declarations are straight-line code of the current
 * block, whatever && || ?: they hold (those stay atomic, as in a call); a
 * statement that transfers control, or a label, would need sites inside
 * the included text: the function is skipped. */

/* What kind of control flow node c is, for a reason; NULL if none. */
static const char *control_flow_kind(enum CXCursorKind k)
{
	switch (k) {
	case CXCursor_IfStmt: return "an if statement";
	case CXCursor_SwitchStmt: return "a switch statement";
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_ForStmt: return "a loop";
	case CXCursor_GotoStmt:
	case CXCursor_IndirectGotoStmt: return "a goto";
	case CXCursor_ContinueStmt: return "a continue";
	case CXCursor_BreakStmt: return "a break";
	case CXCursor_ReturnStmt: return "a return";
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt: return "a case label";
	case CXCursor_LabelStmt: return "a label";
	case CXCursor_StmtExpr: return "a statement expression";
	case CXCursor_GCCAsmStmt:
	case CXCursor_MSAsmStmt: return "an asm statement";
	default: return NULL;
	}
}

/* If statement c comes from a file included inside the function, checks
 * that it is straight-line code, makes it part of the current block and
 * returns true; returns false for a statement of the main file. */
static bool included_stmt(struct builder *b, uint32_t c)
{
	char name[200];
	if (ast_start(&b->ast, c)->s_in || !file_of(b, c, name, sizeof name))
		return false;
	for (uint32_t n = c; n < b->ast.v[c].end; n++) {
		const char *k = control_flow_kind(kind_of(b, n));
		if (k)
			fail_at(b, CFG_NONE, "%s in code that an #include inside the function brings in ('%s')", k, name);
	}
	check_expr(b, c);
	if (kind_of(b, c) != CXCursor_DeclStmt && calls_noreturn(b, c))
		fail_at(b, CFG_NONE, "a call that does not return in code that an #include inside the function brings in "
		        "('%s')", name);
	if (b->cur == CFG_NONE) /* unreachable, after a jump: a block of its own, with no line */
		b->cur = new_block(b, 0);
	return true;
}

/* Records compound statement c in decl_blocks when its first item is a
 * declaration (see build.h). */
static void note_decl_block(struct builder *b, uint32_t c)
{
	struct fn_plan *pl = b->plan;
	uint32_t open = stmt_tok(b, c, "{"), close = stmt_last_tok(b, c);
	if (close == CFG_NONE || !tok_is(b, close, "}"))
		return;
	KP_RESERVE(pl->decl_blocks, pl->cap_decl_blocks, 2 * pl->ndecl_blocks + 2); /* pairs */
	pl->decl_blocks[2 * pl->ndecl_blocks] = tok_end(b, open);
	pl->decl_blocks[2 * pl->ndecl_blocks + 1] = b->toks[close].off;
	pl->ndecl_blocks++;
}

void compound(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	if (k.n && kind_of(b, k.v[0]) == CXCursor_DeclStmt)
		note_decl_block(b, c);
	for (unsigned i = 0; i < k.n; i++)
		if (!included_stmt(b, k.v[i]))
			stmt(b, k.v[i]);
}

/* A statement whose expression calls setjmp or sigsetjmp (C11 7.13.1.1p4
 * allows it as an if condition or as an expression statement) gets a block
 * of its own, entered by a forced cut placed before the statement: the path
 * so far is emitted before the call and a new one starts at the block.  Its
 * out-edges set the path register absolutely (rewrite/place.c), since after
 * a longjmp it holds whatever it held then.  Returns whether e calls one;
 * checks e for other constructs either way. */
static bool setjmp_restart(struct builder *b, uint32_t e, uint32_t off)
{
	b->allow_twice = true;
	b->saw_twice = false;
	check_expr(b, e);
	b->allow_twice = false;
	if (!b->saw_twice)
		return false;
	uint32_t h = new_block(b, offset_line(b, off));
	if (b->cur != CFG_NONE) {
		uint32_t cut = edge_stmt(b, b->cur, h, 0, off, 1);
		b->plan->g->edges[cut].force_cut = true;
	}
	b->cur = h;
	b->plan->restart[h] = true;
	b->plan->has_setjmp = true;
	return true;
}

static void if_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t kw = stmt_tok(b, c, "if");
	if (k.n < 2 || k.n > 3)
		fail_at(b, b->toks[kw].off, "unexpected if statement shape");
	bool sj = setjmp_restart(b, k.v[0], b->toks[kw].off);
	if (!sj)
		touch(b, b->toks[kw].off);
	bool compound = !sj && compound_cond(b, k.v[0]);
	uint32_t join = k.n == 3 ? CFG_NONE : new_block(b, 0);
	uint32_t t = new_block(b, offset_line(b, cursor_start(b, k.v[1])));
	uint32_t e = k.n == 3 ? new_block(b, offset_line(b, cursor_start(b, k.v[2]))) : join;
	uint32_t head = CFG_NONE;
	if (compound) {
		cond_branch(b, k.v[0], t, e);
	} else {
		uint32_t nblocks0 = b->plan->g->nblocks;
		if (!sj)
			value_expr(b, k.v[0]);
		head = b->cur;
		if (!sj)
			extend_to_end(b, head, nblocks0, k.v[0]);
	}
	struct body tb = body_open(b, k.v[1]);
	if (!compound)
		edge_stmt(b, head, t, 1, tb.start_off, 1);
	b->cur = t;
	stmt(b, k.v[1]);
	uint32_t t_end = b->cur;
	uint32_t t_end_site = add_site(b, SITE_STMT, tb.end_off, tb.end_phase);
	body_close(b, &tb);
	if (k.n == 3) {
		struct body eb = body_open(b, k.v[2]);
		if (!compound)
			edge_stmt(b, head, e, 0, eb.start_off, 1);
		b->cur = e;
		stmt(b, k.v[2]);
		uint32_t e_end = b->cur;
		uint32_t e_end_site = add_site(b, SITE_STMT, eb.end_off, eb.end_phase);
		body_close(b, &eb);
		if (t_end != CFG_NONE || e_end != CFG_NONE)
			join = new_block(b, 0);
		if (e_end != CFG_NONE)
			edge(b, e_end, join, 0, e_end_site);
	} else if (!compound) {
		/* The false edge, numbered first (val 0), needs a site only if it is
		 * ever cut: a synthesized "else { }" right after the then-body. */
		uint32_t off = tok_end(b, tb.last_tok);
		edge(b, head, join, 0, add_site(b, SITE_ELSE, off, 0));
	}
	if (t_end != CFG_NONE)
		edge(b, t_end, join, 0, t_end_site);
	b->cur = join;
}

/* Records a loop statement: its keyword's line and the block its back edge
 * enters (fn_plan.loop_stmts). */
static void add_loop_stmt(struct builder *b, uint32_t kw, uint32_t head)
{
	struct fn_plan *pl = b->plan;
	*KP_PUSH(pl->loop_stmts, pl->nloop_stmts, pl->cap_loop_stmts) = (struct loop_stmt){offset_line(b, b->toks[kw].off), head};
}

/* while (C11 6.8.5.1): head evaluates the condition; exit edge first. */
static void while_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t kw = stmt_tok(b, c, "while");
	if (k.n != 2)
		fail_at(b, b->toks[kw].off, "unexpected while statement shape");
	struct cond_place cp = cond_range(b, kw, k.v[0]);
	check_expr(b, k.v[0]);
	uint32_t head = new_block(b, offset_line(b, b->toks[kw].off));
	add_loop_stmt(b, kw, head);
	calls_rebind(b, k.v[0], head);
	if (b->cur != CFG_NONE)
		edge_stmt(b, b->cur, head, 0, b->toks[kw].off, 1);
	uint32_t after = new_block(b, 0);
	uint32_t body = new_block(b, offset_line(b, cursor_start(b, k.v[1])));
	b->cur = head;
	bool compound = compound_cond(b, k.v[0]);
	if (compound) {
		cond_branch(b, k.v[0], body, after);
	} else {
		uint32_t cl = cond_sites(b, cp), nblocks0 = b->plan->g->nblocks;
		value_expr(b, k.v[0]);
		extend_to_end(b, head, nblocks0, k.v[0]);
		b->plan->sites[cl].edge_false = edge(b, b->cur, after, 0, cl);
	}
	uint32_t test = b->cur;
	struct body bd = body_open(b, k.v[1]);
	if (!compound)
		edge_stmt(b, test, body, 1, bd.start_off, 1);
	struct loop_ctx saved = b->loop;
	b->loop.brk = after;
	b->loop.cont = head;
	b->cur = body;
	stmt(b, k.v[1]);
	if (b->cur != CFG_NONE)
		edge_stmt(b, b->cur, head, 0, bd.end_off, bd.end_phase);
	body_close(b, &bd);
	b->loop = saved;
	b->cur = after;
}

/* do (C11 6.8.5.2): the body runs first; the condition's true edge leads back. */
static void do_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t kw = stmt_tok(b, c, "do");
	if (k.n != 2)
		fail_at(b, b->toks[kw].off, "unexpected do statement shape");
	check_expr(b, k.v[1]);
	uint32_t body = new_block(b, offset_line(b, cursor_start(b, k.v[0])));
	add_loop_stmt(b, kw, body);
	if (b->cur != CFG_NONE)
		edge_stmt(b, b->cur, body, 0, b->toks[kw].off, 1);
	struct body bd = body_open(b, k.v[0]);
	uint32_t cond = new_block(b, 0), after = new_block(b, 0);
	struct loop_ctx saved = b->loop;
	b->loop.brk = after;
	b->loop.cont = cond;
	b->cur = body;
	stmt(b, k.v[0]);
	if (b->cur != CFG_NONE)
		edge_stmt(b, b->cur, cond, 0, bd.end_off, bd.end_phase);
	body_close(b, &bd);
	b->loop = saved;
	uint32_t w = bd.last_tok + 1;
	if (!tok_is(b, w, "while"))
		fail_macro(b, b->toks[kw].off, "do-while condition inside a macro expansion");
	struct cond_place cp = cond_range(b, w, k.v[1]);
	set_line(b, cond, offset_line(b, b->toks[w].off));
	b->cur = cond;
	calls_rebind(b, k.v[1], cond);
	if (compound_cond(b, k.v[1])) {
		cond_branch(b, k.v[1], body, after);
	} else {
		uint32_t cl = cond_sites(b, cp), nblocks0 = b->plan->g->nblocks;
		value_expr(b, k.v[1]);
		extend_to_end(b, cond, nblocks0, k.v[1]);
		b->plan->sites[cl].edge_false = edge(b, b->cur, after, 0, cl);
		b->plan->sites[cl].edge_true = edge(b, b->cur, body, 1, cl);
	}
	b->cur = after;
}

/* for (C11 6.8.5.3): the header's parts are told apart by the positions of
 * its two ";" tokens, since libclang omits empty parts from the children. */
static void for_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t kw = stmt_tok(b, c, "for");
	if (!tok_is(b, kw + 1, "("))
		fail_macro(b, b->toks[kw].off, "for header inside a macro expansion");
	uint32_t rp = match_close(b, kw + 1), s1 = CFG_NONE, s2 = CFG_NONE;
	if (rp == CFG_NONE)
		fail_at(b, b->toks[kw].off, "unbalanced for header");
	/* find_semi stops at the header's ")" (its depth goes below 0) */
	s1 = find_semi(b, kw + 2);
	if (s1 != CFG_NONE)
		s2 = find_semi(b, s1 + 1);
	assert(s2 == CFG_NONE || s2 < rp);
	if (s2 == CFG_NONE)
		fail_macro(b, b->toks[kw].off, "for header inside a macro expansion");
	/* A declaration in the init part ends with its own ";" (s1). */
	uint32_t init = CFG_NONE, cnd = CFG_NONE, inc = CFG_NONE;
	uint32_t body = k.v[k.n - 1];
	for (unsigned i = 0; i + 1 < k.n; i++) {
		uint32_t off = cursor_start(b, k.v[i]);
		if (off < b->toks[s1].off || kind_of(b, k.v[i]) == CXCursor_DeclStmt)
			init = k.v[i];
		else if (off < b->toks[s2].off)
			cnd = k.v[i];
		else
			inc = k.v[i];
	}
	if (init != CFG_NONE) {
		touch(b, b->toks[kw].off);
		check_expr(b, init);
		uint32_t pre = b->cur, nblocks0 = b->plan->g->nblocks;
		if (kind_of(b, init) == CXCursor_DeclStmt)
			decl_children(b, init);
		else
			value_expr(b, init);
		extend_to_end(b, pre, nblocks0, init);
	}
	if (b->cur != CFG_NONE)
		touch(b, b->toks[kw].off);
	uint32_t head = new_block(b, offset_line(b, b->toks[kw].off));
	add_loop_stmt(b, kw, head);
	if (b->cur != CFG_NONE)
		edge_stmt(b, b->cur, head, 0, b->toks[kw].off, 1);
	uint32_t after = new_block(b, 0);
	uint32_t bodyb = new_block(b, offset_line(b, cursor_start(b, body)));
	bool compound = false;
	b->cur = head;
	if (cnd != CFG_NONE) {
		check_expr(b, cnd);
		compound = compound_cond(b, cnd);
		if (compound) {
			cond_branch(b, cnd, bodyb, after);
		} else {
			uint32_t cl = cond_sites(b, (struct cond_place){tok_end(b, s1), b->toks[s2].off, false}),
			         nblocks0 = b->plan->g->nblocks;
			value_expr(b, cnd);
			extend_to_end(b, head, nblocks0, cnd);
			b->plan->sites[cl].edge_false = edge(b, b->cur, after, 0, cl);
		}
	}
	uint32_t test = b->cur;
	struct body bd = body_open(b, body);
	if (!compound)
		edge_stmt(b, test, bodyb, 1, bd.start_off, 1);
	uint32_t incb = new_block(b, 0);
	struct loop_ctx saved = b->loop;
	b->loop.brk = after;
	b->loop.cont = incb;
	b->cur = bodyb;
	stmt(b, body);
	if (b->cur != CFG_NONE)
		edge_stmt(b, b->cur, incb, 0, bd.end_off, bd.end_phase);
	body_close(b, &bd);
	b->loop = saved;
	uint32_t is;
	b->cur = incb;
	if (inc != CFG_NONE) {
		check_expr(b, inc);
		set_line(b, incb, offset_line(b, cursor_start(b, inc)));
		uint32_t nblocks0 = b->plan->g->nblocks;
		value_expr(b, inc);
		extend_to_end(b, incb, nblocks0, inc);
		is = add_site(b, SITE_EXPR, b->toks[rp].off, 0);
	} else {
		is = add_site(b, SITE_EXPR, b->toks[rp].off, 0);
		b->plan->sites[is].empty_expr = true;
	}
	edge(b, b->cur, head, 0, is);
	b->cur = after;
}

/* switch (C11 6.8.4.2): dispatch edges into case labels are site-less. */
static void switch_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t kw = stmt_tok(b, c, "switch");
	if (k.n != 2)
		fail_at(b, b->toks[kw].off, "unexpected switch statement shape");
	touch(b, b->toks[kw].off);
	check_expr(b, k.v[0]);
	uint32_t head = b->cur, nblocks0 = b->plan->g->nblocks;
	value_expr(b, k.v[0]);
	extend_to_end(b, head, nblocks0, k.v[0]);
	struct switch_ctx sw = {b->cur, 0, false}, *saved_sw = b->sw;
	uint32_t after = new_block(b, 0);
	struct loop_ctx saved = b->loop;
	b->loop.brk = after;
	b->sw = &sw;
	struct body bd = body_open(b, k.v[1]);
	b->cur = CFG_NONE;
	stmt(b, k.v[1]);
	if (b->cur != CFG_NONE)
		edge_stmt(b, b->cur, after, 0, bd.end_off, bd.end_phase);
	body_close(b, &bd);
	if (!sw.has_default)
		edge(b, sw.head, after, 0, CFG_NONE);
	b->sw = saved_sw;
	b->loop = saved;
	b->cur = after;
}

/* The ":" of the case label whose keyword is token kw and whose statement
 * starts at token sub_tok: the token before it, or before the macro
 * invocations between them, which expand to nothing (they are no part of
 * the statement): flex's scanners, "case 1:\n YY_RULE_SETUP\n { ... }",
 * with YY_RULE_SETUP empty.  The site after the label then goes after the
 * ":".  CFG_NONE when other tokens lie between. */
static uint32_t label_colon(struct builder *b, uint32_t kw, uint32_t sub_tok)
{
	uint32_t i = sub_tok - 1;
	while (i > kw && !tok_is(b, i, ":")) {
		if (tok_is(b, i, ")")) { /* a function-like invocation's arguments */
			unsigned depth = 0;
			for (; i > kw; i--) {
				depth += tok_is(b, i, ")");
				depth -= tok_is(b, i, "(");
				if (!depth)
					break;
			}
			if (i <= kw + 1)
				return CFG_NONE;
			i--;
		}
		if (b->toks[i].kind != CXToken_Identifier)
			return CFG_NONE;
		i--;
	}
	return i > kw ? i : CFG_NONE;
}

/* A case or default label (C11 6.8.1): a block entered by dispatch and,
 * possibly, by falling through; the site after the ":" runs on both. */
static void case_stmt(struct builder *b, uint32_t c, bool is_default)
{
	struct kids k = children(b, c);
	uint32_t kw = stmt_tok(b, c, is_default ? "default" : "case");
	if (!b->sw)
		fail_at(b, b->toks[kw].off, "case label outside a switch");
	if (k.n == 0)
		fail_at(b, b->toks[kw].off, "case label without statement");
	uint32_t sub = k.v[k.n - 1];
	uint32_t sub_tok = stmt_tok(b, sub, NULL);
	uint32_t colon = sub_tok ? label_colon(b, kw, sub_tok) : CFG_NONE;
	if (colon == CFG_NONE)
		fail_macro(b, b->toks[kw].off, "case label inside a macro expansion");
	for (unsigned i = 0; i + 1 < k.n; i++)
		check_expr(b, k.v[i]);
	uint32_t blk = new_block(b, offset_line(b, b->toks[kw].off));
	if (b->cur != CFG_NONE) {
		bool intended;
		uint32_t off = fall_off(b, kw, &intended);
		edge_stmt(b, b->cur, blk, 0, off, 1);
		/* gcc does not warn there: nor on our code; but where a
		 * fall-through attribute precedes the label, the code went
		 * before it and it is the marker (a second one, before it,
		 * would not precede a label: zstd's "default: assert(0);
		 * ZSTD_FALLTHROUGH; case 0: break;") */
		uint32_t quiet_end = 0;
		if (!intended && !fall_attr_before(b, kw)) {
			quiet_end = gcc_quiet_end(b, c, sub);
			intended = quiet_end || prev_cannot_complete(b, c);
		}
		if (intended) {
			uint32_t ft = add_site(b, SITE_FALLTHROUGH, off, 1);
			b->plan->sites[ft].quiet_end = quiet_end;
		}
	}
	uint32_t order = is_default ? 0 : ++b->sw->ncase;
	b->sw->has_default |= is_default;
	edge(b, b->sw->head, blk, order, CFG_NONE);
	b->plan->block_start[blk] = add_site(b, SITE_STMT, tok_end(b, colon), 1);
	b->cur = blk;
	stmt(b, sub);
}

struct label *label_get(struct builder *b, const char *name)
{
	for (uint32_t i = 0; i < b->nlabels; i++)
		if (!strcmp(b->labels[i].name, name))
			return &b->labels[i];
	struct label *l = KP_PUSH(b->labels, b->nlabels, b->cap_labels);
	l->name = strdup(name);
	l->block = new_block(b, 0);
	l->defined = false;
	l->addr_taken = false;
	l->line = 0;
	return l;
}

static void label_stmt(struct builder *b, uint32_t c)
{
	CXString s = clang_getCursorSpelling(cursor_of(b, c));
	struct kids k = children(b, c);
	uint32_t i = stmt_tok(b, c, clang_getCString(s));
	struct label *l = label_get(b, clang_getCString(s));
	clang_disposeString(s);
	if (k.n != 1 || !tok_is(b, i + 1, ":"))
		fail_at(b, b->toks[i].off, "unexpected label shape");
	if (l->defined)
		fail_at(b, b->toks[i].off, "label %s defined twice", l->name);
	l->defined = true;
	set_line(b, l->block, offset_line(b, b->toks[i].off));
	if (b->cur != CFG_NONE) {
		bool intended;
		edge_stmt(b, b->cur, l->block, 0, fall_off(b, i, &intended), 1);
	}
	/* A computed goto's dispatch into the label is site-less, like a
	 * switch's into a case: the site after the ":" runs on every entry. */
	if (l->addr_taken && b->has_indirect_goto)
		b->plan->block_start[l->block] = add_site(b, SITE_STMT, tok_end(b, i + 1), 1);
	b->cur = l->block;
	stmt(b, k.v[0]);
}

static void goto_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t i = stmt_tok(b, c, "goto");
	if (k.n != 1)
		fail_at(b, b->toks[i].off, "unexpected goto shape");
	CXString s = clang_getCursorSpelling(cursor_of(b, k.v[0]));
	struct label *l = label_get(b, clang_getCString(s));
	clang_disposeString(s);
	touch(b, b->toks[i].off);
	edge_stmt(b, b->cur, l->block, 0, b->toks[i].off, 1);
	b->cur = CFG_NONE;
}

/* The block standing for "jump to the value of a label address": every
 * computed goto has an edge into it (the site before its "goto"), and it
 * has a site-less edge to every label whose address the function takes
 * (GNU C "labels as values": a computed goto can reach only those). */
static uint32_t dispatch_block(struct builder *b)
{
	if (b->dispatch == CFG_NONE)
		b->dispatch = new_block(b, 0);
	return b->dispatch;
}

/* goto *expr (GNU C): the target expression stays atomic (it is evaluated
 * after the code placed before "goto", so it must not move the path
 * register), then control goes to the dispatch block. */
static void indirect_goto_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t i = stmt_tok(b, c, "goto");
	if (k.n != 1 || !tok_is(b, i + 1, "*"))
		fail_at(b, b->toks[i].off, "unexpected computed goto shape");
	check_expr(b, k.v[0]);
	touch(b, b->toks[i].off);
	edge_stmt(b, b->cur, dispatch_block(b), 0, b->toks[i].off, 1);
	b->cur = CFG_NONE;
}

static void jump_stmt(struct builder *b, uint32_t c, bool is_break)
{
	uint32_t i = stmt_tok(b, c, is_break ? "break" : "continue");
	uint32_t target = is_break ? b->loop.brk : b->loop.cont;
	if (target == CFG_NONE)
		fail_at(b, b->toks[i].off, "%s outside a loop", is_break ? "break" : "continue");
	touch(b, b->toks[i].off);
	edge_stmt(b, b->cur, target, 0, b->toks[i].off, 1);
	b->cur = CFG_NONE;
}

/* Whether return value e is a structure or union whose evaluation calls
 * nothing: reading it after the exit event changes no path (the event's
 * code touches no object of the program), and rewrite/place.c writes such
 * a value after it, "return (leave, result);", rather than copy it into
 * kp_ret, whose copy of members never set made gcc -O2 -Wall warn where
 * the original does not ("'result.z' is used uninitialized": libffi's
 * testsuite, nested_struct10.c). */
static bool record_without_calls(struct builder *b, uint32_t e)
{
	CXType t = clang_getCanonicalType(clang_getCursorType(cursor_of(b, e)));
	if (t.kind != CXType_Record)
		return false;
	for (uint32_t k = e; k < b->ast.v[e].end; k++)
		if (kind_of(b, k) == CXCursor_CallExpr)
			return false;
	return true;
}

/* return (C11 6.8.6.4): the value goes through kp_ret so that it is
 * evaluated exactly once and before the exit event (a call or a structure
 * value that calls nothing follows the event instead: rewrite/place.c,
 * find_tail_returns). */
static void return_stmt(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	uint32_t i = stmt_tok(b, c, "return");
	touch(b, b->toks[i].off);
	if (k.n == 0 || !b->plan->ret_decl) {
		/* "return;" or a void expression in a void function (GNU):
		 * "return f(), leave;" keeps the expression first. */
		if (k.n) {
			check_expr(b, k.v[0]);
			value_expr(b, k.v[0]);
			uint32_t semi = find_semi(b, i);
			if (semi == CFG_NONE)
				fail_at(b, b->toks[i].off, "cannot find the end of a return statement");
			uint32_t s = add_site(b, SITE_EXPR, b->toks[semi].off, 0);
			edge(b, b->cur, CFG_EXIT, 0, s);
		} else {
			edge_stmt(b, b->cur, CFG_EXIT, 0, b->toks[i].off, 1);
		}
	} else {
		check_expr(b, k.v[0]);
		uint32_t semi = find_semi(b, i);
		if (semi == CFG_NONE || semi == i + 1)
			fail_at(b, b->toks[i].off, "cannot find the end of a return statement");
		/* before the value, or right after the keyword when nothing
		 * separates them ("return(a)") */
		bool glued = tok_end(b, i) == b->toks[i + 1].off;
		uint32_t o = add_site(b, SITE_RET_OPEN, glued ? tok_end(b, i) : b->toks[i + 1].off, 1);
		b->plan->sites[o].lead_space = glued;
		b->plan->sites[o].tail_call = kind_of(b, strip_parens(b, k.v[0])) == CXCursor_CallExpr;
		if (b->plan->sites[o].tail_call) /* its path ends before the call (rewrite/place.c): no call site */
			calls_rebind(b, k.v[0], CFG_NONE);
		b->plan->sites[o].record_value = record_without_calls(b, k.v[0]);
		value_expr(b, k.v[0]);
		uint32_t cl = add_site(b, SITE_RET_CLOSE, b->toks[semi].off, 0);
		b->plan->sites[o].partner = cl;
		edge(b, b->cur, CFG_EXIT, 0, cl);
		b->plan->has_value_return = true;
	}
	b->cur = CFG_NONE;
}

/* Statements that are code of one block (unless && / || / ?: or a setjmp
 * split them): their whole text extends the block. */
static bool simple_stmt_kind(enum CXCursorKind kind)
{
	switch (kind) {
	case CXCursor_CompoundStmt:
	case CXCursor_IfStmt:
	case CXCursor_WhileStmt:
	case CXCursor_DoStmt:
	case CXCursor_ForStmt:
	case CXCursor_SwitchStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt:
	case CXCursor_LabelStmt:
	case CXCursor_NullStmt:
	case CXCursor_UnexposedStmt:
		return false;
	default:
		return true;
	}
}

static void stmt(struct builder *b, uint32_t c)
{
	enum CXCursorKind kind = kind_of(b, c);
	uint32_t cur0 = b->cur, nblocks0 = b->plan->g->nblocks;
	if (simple_stmt_kind(kind)) {
		stmt_kind(b, c, kind);
		if (cur0 != CFG_NONE)
			extend_to_end(b, cur0, nblocks0, c);
	} else {
		stmt_kind(b, c, kind);
	}
}

static void stmt_kind(struct builder *b, uint32_t c, enum CXCursorKind kind)
{
	switch (kind) {
	case CXCursor_CompoundStmt:
		stmt_tok(b, c, "{");
		compound(b, c);
		break;
	case CXCursor_IfStmt:
		if_stmt(b, c);
		break;
	case CXCursor_WhileStmt:
		while_stmt(b, c);
		break;
	case CXCursor_DoStmt:
		do_stmt(b, c);
		break;
	case CXCursor_ForStmt:
		for_stmt(b, c);
		break;
	case CXCursor_SwitchStmt:
		switch_stmt(b, c);
		break;
	case CXCursor_CaseStmt:
		case_stmt(b, c, false);
		break;
	case CXCursor_DefaultStmt:
		case_stmt(b, c, true);
		break;
	case CXCursor_LabelStmt:
		label_stmt(b, c);
		break;
	case CXCursor_GotoStmt:
		goto_stmt(b, c);
		break;
	case CXCursor_BreakStmt:
		jump_stmt(b, c, true);
		break;
	case CXCursor_ContinueStmt:
		jump_stmt(b, c, false);
		break;
	case CXCursor_ReturnStmt:
		return_stmt(b, c);
		break;
	case CXCursor_IndirectGotoStmt:
		indirect_goto_stmt(b, c);
		break;
	case CXCursor_NullStmt:
		null_stmt(b, c);
		break;
	case CXCursor_UnexposedStmt: {
		/* An attributed statement, e.g. __attribute__((fallthrough)); :
		 * attributes do not change control flow.  An attributed null
		 * statement may come from a macro (SQLite's
		 * "#define deliberate_fall_through __attribute__((fallthrough));"):
		 * it holds no control flow and no site, so it is the attribute
		 * written out. */
		struct kids k = children(b, c);
		bool null_stmt = k.n == 1 && kind_of(b, k.v[0]) == CXCursor_NullStmt;
		uint32_t i = stmt_tok(b, c, null_stmt ? NULL : "__attribute__");
		if (k.n != 1 || !clang_isStatement(kind_of(b, k.v[0])))
			fail_at(b, b->toks[i].off, "unsupported attributed statement");
		if (null_stmt) {
			b->attr_first = i;
			b->attr_last = stmt_last_tok(b, c);
			b->attr_node = c;
		}
		stmt(b, k.v[0]);
		break;
	}
	case CXCursor_GCCAsmStmt: {
		uint32_t i = stmt_tok(b, c, NULL), last = stmt_last_tok(b, c);
		for (uint32_t k = i; k <= last; k++)
			if (tok_is(b, k, "goto"))
				fail_at(b, b->toks[i].off, "asm goto");
		touch(b, b->toks[i].off);
		break;
	}
	case CXCursor_DeclStmt:
	default:
		/* Expression statements, declarations, asm: straight-line code. */
		if (clang_isStatement(kind) && kind != CXCursor_DeclStmt &&
		    kind != CXCursor_GCCAsmStmt && kind != CXCursor_AsmStmt && kind != CXCursor_MSAsmStmt)
			unsupported_stmt(b, c, kind);
		/* A setjmp in an expression statement or in a declaration's
		 * initializer ("int v = setjmp(env);", common though C11
		 * 7.13.1.1p4 does not list it): the code after the statement
		 * sets the register absolutely; the statement stays atomic. */
		if (setjmp_restart(b, c, cursor_start(b, c))) {
			uint32_t next = new_block(b, 0);
			edge_stmt(b, b->cur, next, 0, tok_end(b, stmt_last_tok(b, c)), 0);
			b->cur = next;
			break;
		}
		touch(b, cursor_start(b, c));
		check_expr(b, c);
		if (kind == CXCursor_DeclStmt) {
			decl_children(b, c);
		} else {
			if (calls_noreturn(b, c)) {
				/* exit(), abort(), longjmp(), a _Noreturn function: the
				 * path ends here (C11 6.7.4p8).  The exit event goes before
				 * the statement, so the arguments stay atomic: a branch
				 * in them would come after the event. */
				uint32_t x = edge_stmt(b, b->cur, CFG_EXIT, 0, cursor_start(b, c), 1);
				b->plan->sites[b->plan->g->edges[x].site].resume = calls_longjmp(b, c);
				b->cur = CFG_NONE;
			} else {
				value_expr(b, c);
				void_stmt(b, c);
			}
		}
		break;
	}
}
