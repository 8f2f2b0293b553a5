/*
 * expr.c: what the walk checks inside expressions (setjmp-like calls,
 * statement expressions), and expression-level branches: && || ?: as CFG
 * branches (C11 6.5.13-6.5.15), plus the initialisers of declarations.
 *
 * Invariant: an expression that cannot be split faithfully stays atomic
 * (value_expr, C11 6.5p2-3): it is code of the current block.
 */
#include "build_internal.h"
#include "array.h"

#include <string.h>

/* A GNU statement expression is straight-line code for the CFG (its
 * inner branches stay inside the enclosing block, like a call's) as long as
 * control cannot leave it other than by finishing: no return, goto, label,
 * and no break or continue that targets an enclosing loop or switch. */
static void check_stmt_expr(struct builder *b, uint32_t c, int loops, int switches)
{
	struct kids k = children(b, c);
	for (unsigned i = 0; i < k.n; i++) {
		uint32_t x = k.v[i];
		const char *why = NULL;
		switch (kind_of(b, x)) {
		case CXCursor_ReturnStmt:
			why = "return inside a statement expression";
			break;
		case CXCursor_GotoStmt:
		case CXCursor_IndirectGotoStmt:
		case CXCursor_LabelStmt:
		case CXCursor_AddrLabelExpr:
			why = "goto or label inside a statement expression";
			break;
		case CXCursor_BreakStmt:
			if (loops + switches == 0)
				why = "break out of a statement expression";
			break;
		case CXCursor_ContinueStmt:
			if (loops == 0)
				why = "continue out of a statement expression";
			break;
		case CXCursor_CaseStmt:
		case CXCursor_DefaultStmt:
			if (switches == 0)
				why = "case label inside a statement expression";
			break;
		default:
			break;
		}
		if (why)
			fail_at(b, cursor_start(b, x), "%s", why);
		enum CXCursorKind kk = kind_of(b, x);
		bool loop = kk == CXCursor_WhileStmt || kk == CXCursor_DoStmt || kk == CXCursor_ForStmt;
		check_stmt_expr(b, x, loops + loop, switches + (kk == CXCursor_SwitchStmt));
	}
}

/* C library functions that return normally, run no code of the program
 * and neither exit nor jump (C11 7.12, 7.24, 7.4; gcc's __builtin_
 * versions of them), so a loop calling them may keep path counts in a
 * register until it exits (rewrite/place.c, repeat counting). */
static bool plain_callee(const char *n)
{
	static const char *const plain[] = {
		"abs", "labs", "llabs", "fabs", "fabsf", "fabsl", "sqrt", "sqrtf", "sqrtl", "sin", "sinf", "cos", "cosf",
		"tan", "tanf", "asin", "acos", "atan", "atan2", "atan2f", "sinh", "cosh", "tanh", "exp", "expf", "exp2",
		"log", "logf", "log2", "log10", "pow", "powf", "floor", "floorf", "ceil", "ceilf", "round", "lround",
		"llround", "trunc", "fmod", "fmodf", "fmin", "fmax", "hypot", "cbrt", "copysign", "memcpy", "memmove",
		"memset", "memcmp", "memchr", "strlen", "strcmp", "strncmp", "strchr", "strrchr", "strcpy", "strncpy",
		"isalpha", "isdigit", "isalnum", "isspace", "isupper", "islower", "isxdigit", "ispunct", "isprint",
		"toupper", "tolower",
	};
	if (!strncmp(n, "__builtin_", 10)) {
		n += 10;
		/* the type-level builtins (expect, constant_p, clz, ...) and
		 * the library ones; not longjmp, trap, unreachable, setjmp */
		static const char *const odd[] = {"longjmp", "setjmp", "trap", "unreachable", "abort", "exit",
		                                  "apply", "return", "eh_return"};
		for (size_t i = 0; i < sizeof odd / sizeof *odd; i++)
			if (!strcmp(n, odd[i]))
				return false;
		return true;
	}
	for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
		if (!strcmp(n, plain[i]))
			return true;
	return false;
}

/* Functions that may return twice. */
static const char *const twice[] = {"setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp",
                                    "savectx", "vfork", "getcontext", "__builtin_setjmp"};

/* Which of twice[] call c calls, -1 if none. */
static int twice_index(struct builder *b, uint32_t c)
{
	struct memo *m = &b->memo[c];
	if (m->twice == -1) {
		CXString s = clang_getCursorSpelling(cursor_of(b, c));
		const char *n = clang_getCString(s);
		m->twice = -2;
		for (size_t i = 0; i < sizeof twice / sizeof *twice && m->twice == -2; i++)
			if (n && !strcmp(n, twice[i]))
				m->twice = (int8_t)i;
		m->plain = n && *n && plain_callee(n);
		clang_disposeString(s);
	}
	return m->twice < 0 ? -1 : m->twice;
}

/* Records the line of call node c unless its callee is plain_callee
 * (twice_index has looked at the name). */
static void note_call(struct builder *b, uint32_t c)
{
	struct fn_plan *pl = b->plan;
	if (b->memo[c].plain == 1)
		return;
	KP_RESERVE(pl->call_lines, pl->cap_call_lines, pl->ncall_lines + 1);
	bool in;
	uint32_t off = loc_offset(b, clang_getCursorLocation(cursor_of(b, c)), &in);
	/* a call placed outside the file (can that be?): line 0, which every
	 * loop is taken to contain */
	pl->call_lines[pl->ncall_lines++] = in ? offset_line(b, off) : 0;
}

/* Checks one node of an expression or declaration for constructs that
 * transfer control in ways the statement-level CFG does not see. */
static void scan_node(struct builder *b, uint32_t c)
{
	switch (kind_of(b, c)) {
	case CXCursor_StmtExpr:
		check_stmt_expr(b, c, 0, 0);
		break;
	case CXCursor_AddrLabelExpr:
		/* Without a computed goto in this function the label's address
		 * escapes as a plain value, and which address it is depends on
		 * how the compiler inlines and clones the function, which the
		 * added code changes (gcc's torture test 990208-1). */
		if (!b->has_indirect_goto) {
			/* not cursor_start: the node may come from an #include
			 * inside the body, where it has no place in the file
			 * but this reason is still the true one */
			bool in;
			uint32_t off = loc_offset(b, clang_getCursorLocation(cursor_of(b, c)), &in);
			fail_at(b, in ? off : CFG_NONE,
			        "address of a label used outside a computed goto (its value depends on inlining)");
		}
		break;
	case CXCursor_CallExpr: {
		int i = twice_index(b, c);
		note_call(b, c);
		calls_note(b, c);
		image_end_note(b, c);
		if (i >= 0) {
			bool in;
			uint32_t off = loc_offset(b, clang_getCursorLocation(cursor_of(b, c)), &in);
			b->saw_twice = true;
			if (b->allow_twice && i < 4)
				break; /* setjmp and sigsetjmp: a restart block */
			fail_at(b, in ? off : CFG_NONE, "call to %s, which may return twice", twice[i]);
		}
		break;
	}
	default:
		break;
	}
}

/* scan_node on c and everything below it, in preorder. */
void check_expr(struct builder *b, uint32_t c)
{
	b->check_root = c;
	for (uint32_t n = c; n < b->ast.v[c].end; n++)
		scan_node(b, n);
}
/* --- expression-level branches (C11 6.5.13-6.5.15) --------------------------
 *
 * "a && b", "a || b" and "c ? x : y" branch: the left operand (or the
 * condition) ends a block, and its true and false edges get a wrapper site
 * around the operand's text, "((a) ? (T, 1) : (F, 0))", which keeps its
 * truth value and evaluates it once.  A branch is taken only where the
 * operator and its operands are spelled in the file (not in a macro), and
 * never in unevaluated operands (sizeof, _Alignof, _Generic, typeof and
 * the __builtin_ functions that do not evaluate their arguments): there the
 * whole expression stays inside one block, which is always correct.
 */

/* Offsets of an expression's text, if it is exactly a run of file tokens. */
static bool expr_range(struct builder *b, uint32_t c, uint32_t *first, uint32_t *last)
{
	const struct ast_node *x = extent(b, c);
	uint32_t s = x->s, e = x->e;
	if (!x->s_in || !x->e_in || e <= s)
		return false;
	uint32_t i = tok_at(b, s);
	if (i == CFG_NONE)
		return false;
	uint32_t j = last_tok_before(b, i, e);
	if (tok_end(b, j) != e)
		return false;
	*first = i;
	*last = j;
	return true;
}

/* Keywords whose operands are not evaluated. */
const char *const unevaluated_kw[] = {"sizeof", "_Alignof", "__alignof__", "__alignof", "_Generic",
                                             "typeof", "__typeof__", "__typeof", "__builtin_constant_p",
                                             "__builtin_choose_expr", "__builtin_types_compatible_p",
                                             "__builtin_offsetof", "offsetof"};

enum branch_op { OP_NONE, OP_AND, OP_OR, OP_COND };

static enum branch_op op_tokens(struct builder *b, uint32_t c);

/* Whether expression c is an integer constant (C11 6.6; clang folds it),
 * and then its value in *v unless v is NULL. */
bool constant_value(struct builder *b, uint32_t c, long long *v)
{
	CXEvalResult r = clang_Cursor_Evaluate(cursor_of(b, c));
	if (!r)
		return false;
	bool k = clang_EvalResult_getKind(r) == CXEval_Int;
	if (k && v)
		*v = clang_EvalResult_getAsLongLong(r);
	clang_EvalResult_dispose(r);
	return k;
}

/* Whether c stays one atomic piece of its block: an unevaluated operand,
 * a statement expression, or a ?:, && or || whose first operand is an
 * integer constant.  Such an operator takes no branch (the way it goes is
 * fixed), and wrapping its first operand as one would make it no constant:
 * gcc -Wall then warns on "if (K ? 32 : 0)" (-Wint-in-bool-context; lmdb's
 * "if (PGNO_TOPWORD)", where the macro is "(pgno_t)-1 > 0xffffffffu ? 32 :
 * 0"), where it does not on the original.  Its operands stay unsplit too
 * (an arm of a constant ?: may never run). */
static bool unevaluated(struct builder *b, uint32_t c)
{
	static const char *const *const kw = unevaluated_kw;
	struct memo *m = &b->memo[c];
	if (m->unevaluated >= 0)
		return m->unevaluated;
	enum CXCursorKind k = kind_of(b, c);
	bool r = false;
	/* a statement expression is evaluated, but stays one atomic piece */
	if (k == CXCursor_UnaryExpr || k == CXCursor_GenericSelectionExpr || k == CXCursor_StmtExpr) {
		r = true;
	} else if (b->has_unevaluated_kw) {
		uint32_t i = tok_at(b, extent(b, c)->s);
		for (size_t n = 0; i != CFG_NONE && n < sizeof unevaluated_kw / sizeof *unevaluated_kw && !r; n++)
			r = tok_is(b, i, kw[n]);
	}
	if (!r && b->expr_branches && (k == CXCursor_ConditionalOperator || k == CXCursor_BinaryOperator) &&
	    op_tokens(b, c) != OP_NONE)
		r = constant_value(b, children(b, c).v[0], NULL);
	m->unevaluated = r;
	return r;
}

/* Whether c's text lies in the file and holds none of the tokens at the
 * sorted offsets v[0..n). */
static bool none_inside(struct builder *b, uint32_t c, const uint32_t *v, uint32_t n)
{
	if (!n)
		return true;
	const struct ast_node *x = extent(b, c);
	if (!x->s_in || !x->e_in)
		return false;
	uint32_t lo = 0, hi = n;
	while (lo < hi) { /* the first at or after the start */
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x->s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == n || v[lo] >= x->e;
}

/* The operator &&, || or ?: at the top of c, or OP_NONE; its operands are
 * c's children.  An operator's text runs from its first operand's start to
 * its last one's end, and holds its "&&", "||" or "?" token when it
 * branches: without one, there is nothing to look at. */
static enum branch_op op_tokens(struct builder *b, uint32_t c)
{
	enum CXCursorKind k = kind_of(b, c);
	enum branch_op op = OP_NONE;
	if ((k == CXCursor_BinaryOperator && !none_inside(b, c, b->andor, b->nandor)) ||
	    (k == CXCursor_ConditionalOperator && !none_inside(b, c, b->quest, b->nquest))) {
		struct kids kd = children(b, c);
		uint32_t f[3], l[3];
		unsigned n = k == CXCursor_BinaryOperator ? 2 : 3;
		if (kd.n == n) {
			bool ok = true;
			for (unsigned i = 0; i < n && ok; i++)
				ok = expr_range(b, kd.v[i], &f[i], &l[i]);
			if (ok && n == 2 && f[1] == l[0] + 2) {
				if (tok_is(b, l[0] + 1, "&&"))
					op = OP_AND;
				else if (tok_is(b, l[0] + 1, "||"))
					op = OP_OR;
			} else if (ok && n == 3 && f[1] == l[0] + 2 && tok_is(b, l[0] + 1, "?") && f[2] == l[1] + 2 &&
			           tok_is(b, l[1] + 1, ":")) {
				op = OP_COND;
			}
		}
	}
	return op;
}

/* The branching operator at the top of c, or OP_NONE: op_tokens, unless c
 * stays atomic (unevaluated: a constant first operand). */
static enum branch_op branch_op(struct builder *b, uint32_t c)
{
	if (!b->expr_branches)
		return OP_NONE;
	struct memo *m = &b->memo[c];
	if (m->op < 0) {
		enum branch_op op = op_tokens(b, c);
		if (op != OP_NONE && unevaluated(b, c))
			op = OP_NONE;
		m->op = (int8_t)op;
	}
	return (enum branch_op)m->op;
}

uint32_t strip_parens(struct builder *b, uint32_t c)
{
	while (kind_of(b, c) == CXCursor_ParenExpr) {
		struct kids k = children(b, c);
		if (k.n != 1)
			break;
		c = k.v[0];
	}
	return c;
}

/* Whether expression c has type void. */
static bool void_typed(struct builder *b, uint32_t c)
{
	return clang_getCanonicalType(clang_getCursorType(cursor_of(b, c))).kind == CXType_Void;
}

/* Whether expression c is an integer constant cast to void ("((void)
 * 0)"): it runs no code. */
bool void_constant(struct builder *b, uint32_t c)
{
	c = strip_parens(b, c);
	if (kind_of(b, c) != CXCursor_CStyleCastExpr || !void_typed(b, c))
		return false;
	struct kids k = children(b, c);
	return k.n && constant_value(b, k.v[k.n - 1], NULL);
}

/* Whether statement or expression c cannot complete, as gcc's
 * -Wimplicit-fallthrough judges it once it has folded integer constant
 * conditions: a call that does not return; a compound statement or a
 * statement expression whose last item cannot (a label's statement
 * too); an if whose constant
 * condition picks a branch that cannot, or both of whose branches cannot;
 * the same for ?:; a while or do loop whose condition is a nonzero
 * constant (gcc does not warn after one, even when a break leaves it);
 * parentheses, __extension__ and the comma operator
 * looked through (in C only those take a void operand: a unary or binary
 * operator on a void expression is one of them, also inside a macro,
 * where no token can be read).  glibc's assert(0), "((void) sizeof (0),
 * __extension__ ({ if (0) ; else __assert_fail (...); }))", is one:
 * "default: assert(0); case X:" draws no warning (jq's jv_aux.c,
 * jvp_cmp), so code placed on that (impossible) fall-through edge needs
 * our marker. */
bool cannot_complete(struct builder *b, uint32_t c)
{
	c = strip_parens(b, c);
	struct kids k = children(b, c);
	long long v;
	switch (kind_of(b, c)) {
	case CXCursor_CallExpr:
		return calls_noreturn(b, c);
	case CXCursor_CompoundStmt:
	case CXCursor_StmtExpr:
	case CXCursor_LabelStmt:
	case CXCursor_CaseStmt:
	case CXCursor_DefaultStmt: /* a label: its statement */
		return k.n && cannot_complete(b, k.v[k.n - 1]);
	case CXCursor_UnaryOperator:
		return k.n == 1 && void_typed(b, k.v[0]) && cannot_complete(b, k.v[0]);
	case CXCursor_BinaryOperator:
		return k.n == 2 && void_typed(b, k.v[1]) && (cannot_complete(b, k.v[0]) || cannot_complete(b, k.v[1]));
	case CXCursor_IfStmt:
	case CXCursor_ConditionalOperator: {
		if (k.n < 2 || k.n > 3)
			return false;
		bool then_ = cannot_complete(b, k.v[1]), else_ = k.n == 3 && cannot_complete(b, k.v[2]);
		if (constant_value(b, k.v[0], &v))
			return v ? then_ : else_;
		return then_ && else_;
	}
	case CXCursor_WhileStmt: /* children: the condition, the body */
	case CXCursor_DoStmt:    /* the body, the condition */
		/* "while (1) { ... break; }", "do ... while (1);": gcc lowers
		 * the loop to end with its jump back and does not warn on
		 * falling out of it through a break (dash's jobs.c, set_curjob);
		 * kpath, which does not fold the condition, has its false edge
		 * and places code after the loop.  ("for (;;)" has no
		 * condition, so no such edge.) */
		return k.n == 2 && constant_value(b, k.v[kind_of(b, c) == CXCursor_DoStmt], &v) && v;
	default:
		return false;
	}
}

/* Whether evaluated c takes an expression-level branch: an operator that
 * branches, at its top or in an operand, not below an unevaluated one. */
static bool scan_branch(struct builder *b, uint32_t c)
{
	struct memo *m = &b->memo[c];
	if (m->branch < 0) {
		bool r = false;
		if (!unevaluated(b, c)) {
			r = branch_op(b, c) != OP_NONE;
			struct kids k = children(b, c);
			for (unsigned i = 0; i < k.n && !r; i++)
				r = scan_branch(b, k.v[i]);
		}
		m->branch = r;
	}
	return m->branch;
}

/* Whether evaluating c takes an expression-level branch.  (When c itself is
 * unevaluated, its operands are still looked at.) */
static bool has_branch(struct builder *b, uint32_t c)
{
	if (!unevaluated(b, c))
		return scan_branch(b, c);
	struct kids k = children(b, c);
	for (unsigned i = 0; i < k.n; i++)
		if (scan_branch(b, k.v[i]))
			return true;
	return false;
}

/* Whether c is a comma expression, whose operands are sequenced. */
static bool is_comma(struct builder *b, uint32_t c)
{
	if (kind_of(b, c) != CXCursor_BinaryOperator)
		return false;
	struct kids k = children(b, c);
	uint32_t f, l;
	return k.n == 2 && expr_range(b, k.v[0], &f, &l) && tok_is(b, l + 1, ",");
}

/* Control continues in block t when c is true, in f when false.  The edges
 * leave the blocks that evaluate c's leaves (operands that do not branch
 * further), each through a wrapper site around its leaf. */
void cond_branch(struct builder *b, uint32_t c, uint32_t t, uint32_t f)
{
	uint32_t s = strip_parens(b, c);
	enum branch_op op = branch_op(b, s);
	const uint32_t *ops = children(b, s).v;
	if (op == OP_AND || op == OP_OR) {
		uint32_t mid = new_block(b, offset_line(b, cursor_start(b, ops[1])));
		if (op == OP_AND)
			cond_branch(b, ops[0], mid, f);
		else
			cond_branch(b, ops[0], t, mid);
		b->cur = mid;
		cond_branch(b, ops[1], t, f);
		return;
	}
	if (op == OP_COND) {
		uint32_t x = new_block(b, offset_line(b, cursor_start(b, ops[1])));
		uint32_t y = new_block(b, offset_line(b, cursor_start(b, ops[2])));
		cond_branch(b, ops[0], x, y);
		b->cur = x;
		cond_branch(b, ops[1], t, f);
		b->cur = y;
		cond_branch(b, ops[2], t, f);
		return;
	}
	uint32_t first, last;
	if (!expr_range(b, c, &first, &last))
		fail_macro(b, cursor_start(b, c), "condition operand inside a macro expansion");
	uint32_t open = add_site(b, SITE_COND_OPEN, b->toks[first].off, 1);
	uint32_t leaf = b->cur, nblocks0 = b->plan->g->nblocks;
	value_expr(b, c);
	extend_to_end(b, leaf, nblocks0, c);
	uint32_t cl = add_site(b, SITE_COND_CLOSE, tok_end(b, last), 0);
	b->plan->sites[open].partner = cl;
	b->plan->sites[open].wrap = b->plan->sites[cl].wrap = true;
	b->plan->sites[cl].edge_false = edge(b, b->cur, f, 0, cl);
	b->plan->sites[cl].edge_true = edge(b, b->cur, t, 1, cl);
}

/* Whether c branches at its top (then cond_branch places all its edges). */
bool compound_cond(struct builder *b, uint32_t c)
{
	return branch_op(b, strip_parens(b, c)) != OP_NONE;
}

/* Walks an evaluated expression in evaluation order, turning its &&, ||
 * and ?: into branches; the expression's value is not tested here. */
void value_expr(struct builder *b, uint32_t c)
{
	if (!b->expr_branches || unevaluated(b, c))
		return;
	enum branch_op op = branch_op(b, c);
	const uint32_t *ops = children(b, c).v;
	if (op == OP_NONE) {
		/* The operands of most operators, and a call's arguments, are
		 * unsequenced (C11 6.5p2-3): branches in two of them would update
		 * the path register without a sequence point between, and in no
		 * fixed order.  Such an expression stays atomic; one branching
		 * operand is fine, increments commute. */
		struct kids k = children(b, c);
		unsigned branching = 0;
		if (k.n > 1)
			for (unsigned i = 0; i < k.n && branching < 2; i++)
				branching += has_branch(b, k.v[i]);
		if (branching == 2 && is_comma(b, c)) /* the operands of "," are sequenced */
			branching = 0;
		if (branching < 2)
			for (unsigned i = 0; i < k.n; i++)
				value_expr(b, k.v[i]);
		return;
	}
	uint32_t join = new_block(b, 0);
	if (op == OP_COND) {
		uint32_t x = new_block(b, offset_line(b, cursor_start(b, ops[1])));
		uint32_t y = new_block(b, offset_line(b, cursor_start(b, ops[2])));
		cond_branch(b, ops[0], x, y);
		b->cur = x;
		value_expr(b, ops[1]);
		edge(b, b->cur, join, 0, CFG_NONE);
		b->cur = y;
		value_expr(b, ops[2]);
		edge(b, b->cur, join, 0, CFG_NONE);
	} else {
		/* "a && b": b is evaluated only when a is true; the result is b's
		 * truth value, which needs no branch of its own. */
		uint32_t mid = new_block(b, offset_line(b, cursor_start(b, ops[1])));
		if (op == OP_AND)
			cond_branch(b, ops[0], mid, join);
		else
			cond_branch(b, ops[0], join, mid);
		b->cur = mid;
		value_expr(b, ops[1]);
		edge(b, b->cur, join, 0, CFG_NONE);
	}
	b->cur = join;
}

/* The initialisers of a declaration's automatic variables (C11 6.7.9):
 * what follows each declarator's "=". */
static void decl_child(struct builder *b, uint32_t c)
{
	if (kind_of(b, c) != CXCursor_VarDecl)
		return;
	enum CX_StorageClass sc = clang_Cursor_getStorageClass(cursor_of(b, c));
	if (sc == CX_SC_Static || sc == CX_SC_Extern)
		return;
	bool in;
	uint32_t name = loc_offset(b, clang_getCursorLocation(cursor_of(b, c)), &in);
	uint32_t i = tok_at(b, name);
	if (!in || i == CFG_NONE)
		return;
	uint32_t semi = find_semi(b, i);
	uint32_t eq = CFG_NONE;
	int depth = 0;
	for (uint32_t k = i + 1; k < b->ntoks && k != semi; k++) {
		if (tok_is(b, k, "(") || tok_is(b, k, "["))
			depth++;
		else if ((tok_is(b, k, ")") || tok_is(b, k, "]")) && depth > 0)
			depth--; /* a ")" of a declarator around the name: depth stays 0 */
		else if (depth == 0 && tok_is(b, k, ","))
			break;
		else if (depth == 0 && tok_is(b, k, "=")) {
			eq = k;
			break;
		}
	}
	if (eq == CFG_NONE)
		return;
	struct kids k = children(b, c);
	for (unsigned j = 0; j < k.n; j++) /* an initialiser an #include brings in stays atomic */
		if (ast_start(&b->ast, k.v[j])->s_in && cursor_start(b, k.v[j]) > b->toks[eq].off)
			value_expr(b, k.v[j]);
}

/* decl_child for each declaration of declaration statement c. */
void decl_children(struct builder *b, uint32_t c)
{
	struct kids k = children(b, c);
	for (unsigned i = 0; i < k.n; i++)
		decl_child(b, k.v[i]);
}

/* Whether expression c holds a &&, || or ?: token (calls.c); true when its
 * text is not all in the file. */
bool expr_has_branch_op(struct builder *b, uint32_t c)
{
	return !none_inside(b, c, b->andor, b->nandor) || !none_inside(b, c, b->quest, b->nquest);
}
