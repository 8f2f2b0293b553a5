/*
 * fallthrough.c: falling through into a case label right after an
 * attributed null statement ("__attribute__((fallthrough));", or a macro
 * spelling it, or one that is empty for libclang only: null_stmt).
 *
 * Invariant: b->attr_first/attr_last/attr_node name the latest such
 * statement (CFG_NONE before the first); fall_off keeps the site of the
 * fall-through edge right before its label.
 *
 * Also where gcc does not warn on falling into a case label that kpath's
 * CFG falls into (prev_cannot_complete, gcc_quiet_end): case_stmt marks
 * those fall-through edges as intended.
 */
#include "build_internal.h"

/* Whether node n is the last child of node p. */
static bool last_child(struct builder *b, uint32_t p, uint32_t n)
{
	struct kids k = children(b, p);
	return k.n && k.v[k.n - 1] == n;
}

/* Whether falling through into the label at token i is falling off the
 * latest attributed null statement (fall_off): only the "}" of compound
 * statements that it ends lie between them ("{ ...; deliberate_fall_through
 * } case X:", as in SQLite's bytecode engine), and those compounds are
 * statements in sequence (or a label's), not an if's or a loop's body,
 * whose end other paths reach too. */
bool fall_attr_before(struct builder *b, uint32_t i)
{
	if (b->attr_last == CFG_NONE)
		return false;
	uint32_t n = b->attr_node, k = b->attr_last + 1;
	for (;;) {
		uint32_t p = b->ast.v[n].parent;
		while (p != AST_NONE && (kind_of(b, p) == CXCursor_CaseStmt || kind_of(b, p) == CXCursor_DefaultStmt ||
		                         kind_of(b, p) == CXCursor_LabelStmt) && last_child(b, p, n)) {
			n = p;
			p = b->ast.v[n].parent;
		}
		if (p == AST_NONE || kind_of(b, p) != CXCursor_CompoundStmt)
			return false;
		if (k == i)
			return true;
		if (!tok_is(b, k, "}") || !last_child(b, p, n) || stmt_last_tok(b, p) != k)
			return false;
		n = p;
		k++;
	}
}

/* The first token of the run of null statements and empty compound
 * statements (";", "{}", "{ ; {} }") that ends right before token i, or i. */
static uint32_t empty_stmts_start(struct builder *b, uint32_t i)
{
	uint32_t j = i, k = i, depth = 0;
	while (k > 0) {
		if (tok_is(b, k - 1, "}"))
			depth++;
		else if (depth && tok_is(b, k - 1, "{"))
			depth--;
		else if (!tok_is(b, k - 1, ";"))
			break;
		k--;
		if (!depth)
			j = k;
	}
	return j;
}

/* Whether text[a, e) holds a comment that gcc's -Wimplicit-fallthrough
 * (level 3, -Wextra's) may take for a fall-through marker: "fall"
 * ("falls", "fall-", "fall ") then "thr" ("through", "thru"), any case. */
static bool fall_comment_between(struct builder *b, uint32_t a, uint32_t e)
{
	const char *t = b->src->text;
	for (uint32_t k = a; k + 1 < e; k++) {
		if (t[k] != '/' || (t[k + 1] != '*' && t[k + 1] != '/'))
			continue;
		for (uint32_t m = k + 2; m + 3 < e; m++) {
			if ((t[m] | 0x20) != 'f' || (t[m + 1] | 0x20) != 'a' || (t[m + 2] | 0x20) != 'l' ||
			    (t[m + 3] | 0x20) != 'l')
				continue;
			uint32_t n = m + 4;
			if (n < e && ((t[n] | 0x20) == 's'))
				n++;
			if (n < e && (t[n] == ' ' || t[n] == '-'))
				n++;
			if (n + 2 < e && (t[n] | 0x20) == 't' && (t[n + 1] | 0x20) == 'h' && (t[n + 2] | 0x20) == 'r')
				return true;
		}
		return false;
	}
	return false;
}

/* Where code for the fall-through edge into the label at token i goes.
 * Normally just before the label; but gcc's -Wimplicit-fallthrough only
 * honours a fall-through comment or __attribute__((fallthrough)) right
 * before the label, so the code goes before those when the previous
 * statement ends there (only whitespace, comments and null statements lie
 * in between, so the control point is the same).  *intended: the code
 * needs our marker after it, where nothing of the original's marks the
 * fall-through (an empty case, a label first in a block).  Not before a
 * comment: the comment still precedes the label, and gcc judges it as in
 * the original ("fall through" quiets it, "fall" at -Wextra's level 3
 * does not, clang reads no comment), so the build warns where the
 * original warns; our marker would hide those warnings. */
uint32_t fall_off(struct builder *b, uint32_t i, bool *intended)
{
	uint32_t off = b->toks[i].off, j = empty_stmts_start(b, i);
	/* an empty case ("case 1: case 2:"), a label first in a block, or
	 * only null statements or empty blocks after a label ("fail: ; case
	 * 2:", regexec.c's "fail: MOP_OUT;" written out, "case 1: {} case
	 * 2:"): the original has no statement that falls through, and gcc
	 * does not warn there */
	*intended = j > 0 && (tok_is(b, j - 1, ":") || tok_is(b, j - 1, "{"));
	if (*intended) /* with the code of the label or block start, all at one offset */
		return tok_end(b, i - 1);
	if (fall_attr_before(b, i)) {
		/* the code goes before the attribute, which must stay right
		 * before the label: no marker of ours */
		return b->toks[b->attr_first].off;
	}
	if (i < 7)
		return off;
	uint32_t p = i - 1;
	if (tok_is(b, p, "else") || tok_is(b, p, ")")) {
		/* the label is the brace-less body of an if, else or loop
		 * ("else /\* fall through *\/ case X:", gawk's debug.c): kpath
		 * braces it, and its code goes after the "{", between the
		 * comment and the label, where gcc no longer sees the comment;
		 * a fall-through comment there needs our marker instead */
		*intended = fall_comment_between(b, tok_end(b, p), off);
		return off;
	}
	if (!tok_is(b, p, ";") && !tok_is(b, p, "}") && !tok_is(b, p, ":"))
		return off;
	for (uint32_t k = tok_end(b, p); k + 1 < off; k++)
		if (b->src->text[k] == '/' && (b->src->text[k + 1] == '*' || b->src->text[k + 1] == '/'))
			return tok_end(b, p);
	return off;
}

/* Statement c ends with the ";" at token i: if only identifiers lie
 * between it and the end of the previous statement (or a label, or a
 * block's "{"), it is placed like an attributed null statement. */
static void attr_like(struct builder *b, uint32_t c, uint32_t i)
{
	uint32_t k = i;
	while (k > 0 && b->toks[k - 1].kind == CXToken_Identifier)
		k--;
	if (k < i && k > 0 &&
	    (tok_is(b, k - 1, ";") || tok_is(b, k - 1, "}") || tok_is(b, k - 1, "{") || tok_is(b, k - 1, ":"))) {
		b->attr_first = k;
		b->attr_last = i;
		b->attr_node = c;
	}
}

/* A null statement after identifiers that expand to nothing here
 * ("ATTRIBUTE_FALLTHROUGH;": libbacktrace's internal.h defines it as
 * __attribute__ ((__fallthrough__)) when GCC_VERSION >= 7000, and as
 * nothing for libclang, whose __GNUC__ is 4) may be an attributed one for
 * the compiler: it is placed like one (fall_off), the fall-through edge's
 * code before it, since gcc warns on an attribute that does not precede a
 * case label.  It runs no code, so the control point is the same. */
void null_stmt(struct builder *b, uint32_t c)
{
	uint32_t i = tok_at(b, cursor_start(b, c));
	uint32_t p = b->ast.v[c].parent;
	if (i == CFG_NONE || !tok_is(b, i, ";") || (p != AST_NONE && kind_of(b, p) == CXCursor_UnexposedStmt))
		return;
	attr_like(b, c, i);
}

/* The same for expression statement c when it is a constant cast to void
 * spelled by macros: GNU sed 4.9's sed.h (older gnulib too) defines
 * FALLTHROUGH as ((void) 0) when __GNUC__ < 7, as it is for libclang, and
 * as the attribute for gcc, which warned "attribute 'fallthrough' not
 * preceding a case label" on code placed after "FALLTHROUGH;" (compile.c,
 * compile_program's "bad_command (ch); FALLTHROUGH;"). */
void void_stmt(struct builder *b, uint32_t c)
{
	if (void_constant(b, c))
		attr_like(b, c, stmt_last_tok(b, c));
}

/* Whether expression c compiles to nothing: a constant cast to void
 * ("((void) (0))", glibc's assert under NDEBUG). */
static bool no_code(struct builder *b, uint32_t c)
{
	c = strip_parens(b, c);
	if (kind_of(b, c) != CXCursor_CStyleCastExpr ||
	    clang_getCanonicalType(clang_getCursorType(cursor_of(b, c))).kind != CXType_Void)
		return false;
	struct kids k = children(b, c);
	return k.n && constant_value(b, strip_parens(b, k.v[k.n - 1]), NULL);
}

/* The index of node c among the children k (k.n when it is not one). */
static unsigned kid_index(struct kids k, uint32_t c)
{
	unsigned i = 0;
	while (i < k.n && k.v[i] != c)
		i++;
	return i;
}

/* Whether the statement before case label c in its block (the last
 * statement of a label before it) cannot complete (cannot_complete), or
 * is a label's statement that compiles to nothing (no_code): the
 * fall-through edge into c exists for kpath, which does not fold
 * constant conditions, and not for gcc. */
bool prev_cannot_complete(struct builder *b, uint32_t c)
{
	uint32_t p = b->ast.v[c].parent;
	if (p == AST_NONE || kind_of(b, p) != CXCursor_CompoundStmt)
		return false;
	struct kids k = children(b, p);
	unsigned i = kid_index(k, c);
	if (i == 0 || i == k.n)
		return false;
	uint32_t prev = k.v[i - 1];
	bool labelled = false;
	for (;;) {
		enum CXCursorKind kk = kind_of(b, prev);
		if (kk != CXCursor_CaseStmt && kk != CXCursor_DefaultStmt && kk != CXCursor_LabelStmt)
			break;
		struct kids pk = children(b, prev);
		if (!pk.n)
			return false;
		prev = pk.v[pk.n - 1];
		labelled = true;
	}
	/* "case A: assert (!\"...\"); case B:" under NDEBUG: the label's
	 * statement compiles to nothing, and gcc, as for an empty case, does
	 * not warn (gawk's support/dfa.c) */
	return cannot_complete(b, prev) || (labelled && no_code(b, prev));
}

/* The jump that case label statement sub is, for gcc's
 * -Wimplicit-fallthrough takes for the end of a terminated branch (after
 * more labels): a break, a continue, a goto or a return without a value,
 * also first in a compound statement ("{ goto out; }").  gcc does not warn
 * on falling into "default: break;" (gawk's symbol.c: "case Op_illegal:
 * cant_happen(...); default: break;") nor into "case N_SO: goto abs_pc;"
 * (tcc's tccrun.c, rt_printline: "case N_SLINE: if (func_addr) goto
 * rel_pc; case N_SO: case N_SOL: goto abs_pc;"), but does once kpath's
 * code for the label comes before the jump.  (A return with a value is
 * an assignment first for gcc, which then warns.)  AST_NONE if it is
 * none. */
static uint32_t jump_only(struct builder *b, uint32_t sub)
{
	for (;;) {
		enum CXCursorKind kk = kind_of(b, sub);
		struct kids k = children(b, sub);
		if (kk == CXCursor_BreakStmt || kk == CXCursor_ContinueStmt || kk == CXCursor_GotoStmt ||
		    kk == CXCursor_IndirectGotoStmt)
			return sub;
		if (kk == CXCursor_ReturnStmt)
			return k.n ? AST_NONE : sub;
		if (!k.n)
			return AST_NONE;
		if (kk == CXCursor_CompoundStmt)
			sub = k.v[0];
		else if (kk == CXCursor_CaseStmt || kk == CXCursor_DefaultStmt || kk == CXCursor_LabelStmt)
			sub = k.v[k.n - 1];
		else
			return AST_NONE;
	}
}

/* Whether statement s compiles to nothing for gcc: a null statement, an
 * empty compound statement, or labels on one. */
static bool empty_stmt(struct builder *b, uint32_t s)
{
	enum CXCursorKind kk = kind_of(b, s);
	struct kids k = children(b, s);
	if (kk == CXCursor_NullStmt)
		return true;
	if (kk == CXCursor_CompoundStmt) {
		for (unsigned i = 0; i < k.n; i++)
			if (!empty_stmt(b, k.v[i]))
				return false;
		return true;
	}
	if (kk == CXCursor_CaseStmt || kk == CXCursor_DefaultStmt || kk == CXCursor_LabelStmt)
		return k.n && empty_stmt(b, k.v[k.n - 1]);
	return false;
}

/* The switch's body (a compound statement) when nothing but null
 * statements follows case label c to its end ("case X: ; }", "default:
 * {} }"): gcc does not warn on falling into it, as at the end of a
 * sequence, but does once kpath's code for the label and for the switch's
 * exit comes after it.  AST_NONE otherwise. */
static uint32_t empty_to_switch_end(struct builder *b, uint32_t c)
{
	if (!empty_stmt(b, c))
		return AST_NONE;
	uint32_t p = b->ast.v[c].parent;
	while (p != AST_NONE) {
		enum CXCursorKind kk = kind_of(b, p);
		if (kk != CXCursor_CaseStmt && kk != CXCursor_DefaultStmt && kk != CXCursor_LabelStmt)
			break;
		c = p;
		p = b->ast.v[c].parent;
	}
	if (p == AST_NONE || kind_of(b, p) != CXCursor_CompoundStmt)
		return AST_NONE;
	uint32_t sw = b->ast.v[p].parent;
	if (sw == AST_NONE || kind_of(b, sw) != CXCursor_SwitchStmt)
		return AST_NONE;
	struct kids k = children(b, p);
	unsigned i = kid_index(k, c);
	if (i == k.n)
		return AST_NONE;
	for (i++; i < k.n; i++)
		if (!empty_stmt(b, k.v[i]))
			return AST_NONE;
	return p;
}

/* Where gcc does not warn on falling into case label c (statement sub)
 * because a jump or the switch's end follows it (jump_only,
 * empty_to_switch_end): the offset of that jump, or of the switch's "}",
 * up to which code kpath puts after the label (the switch's own edge into
 * it, the switch's exit) makes gcc warn after all, unless the
 * fall-through edge is marked (rewrite/place.c, mark_fallthroughs;
 * libxml2's xmlregexp.c: "case X: { ... } default: kp_r -= 3; break;").
 * 0 when neither follows, or the place is not in the file. */
uint32_t gcc_quiet_end(struct builder *b, uint32_t c, uint32_t sub)
{
	uint32_t n = empty_to_switch_end(b, c);
	if (n != AST_NONE) {
		const struct ast_node *x = extent(b, n);
		return x->e_in && x->e ? x->e - 1 : 0;
	}
	n = jump_only(b, sub);
	if (n != AST_NONE) {
		const struct ast_node *x = ast_start(&b->ast, n);
		return x->s_in ? x->s : 0;
	}
	return 0;
}
