/* compile.c: one pass over the folded syntax tree per function.  Locals live
 * in stack slots (parameters first, then let-bound variables, scoped by
 * blocks); top-level variables and functions are globals resolved by name at
 * compile time (builtins are the first globals). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "compile.h"

struct local {
	const char *name;
	int depth;
};

struct loop {
	int start;          /* offset of the condition (continue target of while) */
	int nlocals;        /* locals alive outside the loop */
	int breaks[64], nbreaks;
	int conts[64], nconts;
	struct loop *outer;
};

struct fstate {
	struct program *prog;
	struct function *fn;
	struct local locals[STK_MAX_LOCALS];
	int nlocals;
	int depth;
	struct loop *loop;
	int toplevel;
	int failed;
	char *err;
	size_t errcap;
};

static void error(struct fstate *f, int line, const char *msg, const char *arg)
{
	if (f->failed)
		return;
	f->failed = 1;
	snprintf(f->err, f->errcap, "line %d: %s%s%s", line, msg, arg ? " " : "", arg ? arg : "");
}

static void emit(struct fstate *f, int byte, int line)
{
	chunk_emit(&f->fn->chunk, (uint8_t)byte, line);
}

static void emit16(struct fstate *f, int v, int line)
{
	emit(f, (v >> 8) & 0xff, line);
	emit(f, v & 0xff, line);
}

static void emit_const(struct fstate *f, struct value v, int line)
{
	int k = chunk_const(&f->fn->chunk, v);
	if (k > 0xffff) {
		error(f, line, "too many constants", NULL);
		return;
	}
	emit(f, OP_CONST, line);
	emit16(f, k, line);
}

/* Emits a forward jump; returns where its operand goes. */
static int emit_jump(struct fstate *f, enum op o, int line)
{
	emit(f, (int)o, line);
	emit16(f, 0xffff, line);
	return f->fn->chunk.n - 2;
}

static void patch(struct fstate *f, int at)
{
	int dist = f->fn->chunk.n - (at + 2);
	if (dist > 0xffff) {
		error(f, 0, "jump too long", NULL);
		return;
	}
	f->fn->chunk.code[at] = (uint8_t)(dist >> 8);
	f->fn->chunk.code[at + 1] = (uint8_t)dist;
}

static void emit_loop(struct fstate *f, int start, int line)
{
	emit(f, OP_LOOP, line);
	int dist = f->fn->chunk.n + 2 - start;
	if (dist > 0xffff)
		error(f, line, "loop body too large", NULL);
	emit16(f, dist, line);
}

static int resolve_local(struct fstate *f, const char *name)
{
	for (int i = f->nlocals - 1; i >= 0; i--) {
		if (!strcmp(f->locals[i].name, name))
			return i;
	}
	return -1;
}

static int resolve_global(struct fstate *f, const char *name, int create, int line)
{
	struct program *p = f->prog;
	for (int i = 0; i < p->nglobals; i++) {
		if (!strcmp(p->globals[i], name))
			return i;
	}
	if (!create) {
		error(f, line, "undefined variable", name);
		return 0;
	}
	if (p->nglobals == STK_MAX_GLOBALS) {
		error(f, line, "too many globals", NULL);
		return 0;
	}
	p->globals[p->nglobals] = xstrndup(name, strlen(name));
	return p->nglobals++;
}

static void add_local(struct fstate *f, const char *name, int line)
{
	if (f->nlocals == STK_MAX_LOCALS) {
		error(f, line, "too many local variables", NULL);
		return;
	}
	for (int i = f->nlocals - 1; i >= 0 && f->locals[i].depth == f->depth; i--) {
		if (!strcmp(f->locals[i].name, name)) {
			error(f, line, "variable declared twice in one block:", name);
			return;
		}
	}
	f->locals[f->nlocals].name = name;
	f->locals[f->nlocals].depth = f->depth;
	f->nlocals++;
}

static void end_scope(struct fstate *f, int line)
{
	f->depth--;
	while (f->nlocals > 0 && f->locals[f->nlocals - 1].depth > f->depth) {
		emit(f, OP_POP, line);
		f->nlocals--;
	}
}

static void expr(struct fstate *f, const struct node *n);
static void stmt(struct fstate *f, const struct node *n);
static void compile_function(struct fstate *outer, const struct node *n, int index);

static enum op binary_op(enum tok t)
{
	switch (t) {
	case T_PLUS: return OP_ADD;
	case T_MINUS: return OP_SUB;
	case T_STAR: return OP_MUL;
	case T_SLASH: return OP_DIV;
	case T_PERCENT: return OP_MOD;
	case T_EQ: return OP_EQ;
	case T_NE: return OP_NE;
	case T_LT: return OP_LT;
	case T_LE: return OP_LE;
	case T_GT: return OP_GT;
	default: return OP_GE;
	}
}

static void variable(struct fstate *f, const char *name, int line, int set)
{
	int slot = resolve_local(f, name);
	if (slot >= 0) {
		emit(f, set ? OP_SETL : OP_GETL, line);
		emit(f, slot, line);
		return;
	}
	int g = resolve_global(f, name, 1, line);
	emit(f, set ? OP_SETG : OP_GETG, line);
	emit16(f, g, line);
}

static void expr(struct fstate *f, const struct node *n)
{
	if (f->failed)
		return;
	int j;
	switch (n->kind) {
	case N_INT:
		emit_const(f, v_int(n->ival), n->line);
		break;
	case N_STR:
		emit_const(f, v_str(n->sval), n->line);
		break;
	case N_NIL:
		emit(f, OP_NIL, n->line);
		break;
	case N_VAR:
		variable(f, n->name, n->line, 0);
		break;
	case N_ASSIGN:
		expr(f, n->a);
		variable(f, n->name, n->line, 1);
		break;
	case N_ARRAY:
		for (int i = 0; i < n->nlist; i++)
			expr(f, n->list[i]);
		emit(f, OP_ARRAY, n->line);
		emit16(f, n->nlist, n->line);
		break;
	case N_INDEX:
		expr(f, n->a);
		expr(f, n->b);
		emit(f, OP_INDEX, n->line);
		break;
	case N_SETINDEX:
		expr(f, n->a);
		expr(f, n->b);
		expr(f, n->c);
		emit(f, OP_SETINDEX, n->line);
		break;
	case N_CALL:
		if (n->nlist > 255) {
			error(f, n->line, "too many arguments", NULL);
			return;
		}
		expr(f, n->a);
		for (int i = 0; i < n->nlist; i++)
			expr(f, n->list[i]);
		emit(f, OP_CALL, n->line);
		emit(f, n->nlist, n->line);
		break;
	case N_UNARY:
		expr(f, n->a);
		emit(f, n->op == T_MINUS ? OP_NEG : OP_NOT, n->line);
		break;
	case N_BINARY:
		expr(f, n->a);
		expr(f, n->b);
		emit(f, (int)binary_op(n->op), n->line);
		break;
	case N_AND:
	case N_OR:
		expr(f, n->a);
		j = emit_jump(f, n->kind == N_AND ? OP_JZ_KEEP : OP_JNZ_KEEP, n->line);
		expr(f, n->b);
		patch(f, j);
		break;
	default:
		error(f, n->line, "statement where an expression was expected", NULL);
		break;
	}
}

static void block(struct fstate *f, const struct node *n)
{
	f->depth++;
	for (int i = 0; i < n->nlist && !f->failed; i++)
		stmt(f, n->list[i]);
	end_scope(f, n->line);
}

/* Pops the locals of the scopes a break/continue leaves. */
static void unwind_to(struct fstate *f, int nlocals, int line)
{
	for (int i = f->nlocals; i > nlocals; i--)
		emit(f, OP_POP, line);
}

static void loop_body(struct fstate *f, struct loop *lp, const struct node *body)
{
	lp->outer = f->loop;
	f->loop = lp;
	block(f, body);
	f->loop = lp->outer;
}

static void stmt(struct fstate *f, const struct node *n)
{
	if (f->failed)
		return;
	int j, k;
	struct loop lp;
	switch (n->kind) {
	case N_EXPR:
		expr(f, n->a);
		emit(f, OP_POP, n->line);
		break;
	case N_LET:
		if (n->a)
			expr(f, n->a);
		else
			emit(f, OP_NIL, n->line);
		if (f->toplevel && f->depth == 0) {
			int g = resolve_global(f, n->name, 1, n->line);
			emit(f, OP_SETG, n->line);
			emit16(f, g, n->line);
			emit(f, OP_POP, n->line);
		} else {
			add_local(f, n->name, n->line);
		}
		break;
	case N_BLOCK:
		block(f, n);
		break;
	case N_IF:
		expr(f, n->a);
		j = emit_jump(f, OP_JZ, n->line);
		stmt(f, n->b);
		if (n->c) {
			k = emit_jump(f, OP_JMP, n->line);
			patch(f, j);
			stmt(f, n->c);
			patch(f, k);
		} else {
			patch(f, j);
		}
		break;
	case N_WHILE:
		memset(&lp, 0, sizeof lp);
		lp.start = f->fn->chunk.n;
		lp.nlocals = f->nlocals;
		expr(f, n->a);
		j = emit_jump(f, OP_JZ, n->line);
		loop_body(f, &lp, n->b);
		for (int i = 0; i < lp.nconts; i++)
			patch(f, lp.conts[i]);
		emit_loop(f, lp.start, n->line);
		patch(f, j);
		for (int i = 0; i < lp.nbreaks; i++)
			patch(f, lp.breaks[i]);
		break;
	case N_FOR:
		/* for v in a..b { body }: locals v and a hidden end bound */
		f->depth++;
		expr(f, n->a);
		add_local(f, n->name, n->line);
		expr(f, n->b);
		add_local(f, " end", n->line);
		memset(&lp, 0, sizeof lp);
		lp.nlocals = f->nlocals;
		lp.start = f->fn->chunk.n;
		emit(f, OP_GETL, n->line);
		emit(f, f->nlocals - 2, n->line);
		emit(f, OP_GETL, n->line);
		emit(f, f->nlocals - 1, n->line);
		emit(f, OP_LT, n->line);
		j = emit_jump(f, OP_JZ, n->line);
		loop_body(f, &lp, n->c);
		for (int i = 0; i < lp.nconts; i++)
			patch(f, lp.conts[i]);
		emit(f, OP_INCL, n->line);
		emit(f, lp.nlocals - 2, n->line);
		emit(f, 1, n->line);
		emit_loop(f, lp.start, n->line);
		patch(f, j);
		for (int i = 0; i < lp.nbreaks; i++)
			patch(f, lp.breaks[i]);
		end_scope(f, n->line);
		break;
	case N_BREAK:
	case N_CONTINUE:
		if (!f->loop) {
			error(f, n->line, n->kind == N_BREAK ? "'break' outside a loop" : "'continue' outside a loop", NULL);
			break;
		}
		unwind_to(f, f->loop->nlocals, n->line);
		if (n->kind == N_BREAK) {
			if (f->loop->nbreaks == 64) {
				error(f, n->line, "too many breaks in one loop", NULL);
				break;
			}
			f->loop->breaks[f->loop->nbreaks++] = emit_jump(f, OP_JMP, n->line);
		} else {
			if (f->loop->nconts == 64) {
				error(f, n->line, "too many continues in one loop", NULL);
				break;
			}
			f->loop->conts[f->loop->nconts++] = emit_jump(f, OP_JMP, n->line);
		}
		break;
	case N_RETURN:
		if (f->toplevel) {
			error(f, n->line, "'return' outside a function", NULL);
			break;
		}
		if (n->a)
			expr(f, n->a);
		else
			emit(f, OP_NIL, n->line);
		emit(f, OP_RET, n->line);
		break;
	case N_FN: {
		if (!f->toplevel || f->depth != 0) {
			error(f, n->line, "functions must be declared at the top level:", n->name);
			break;
		}
		if (f->prog->nfuncs == STK_MAX_FUNCS) {
			error(f, n->line, "too many functions", NULL);
			break;
		}
		int index = f->prog->nfuncs++;
		int g = resolve_global(f, n->name, 1, n->line);
		compile_function(f, n, index);
		struct value v;
		v.t = V_FN;
		v.u.fn = index;
		emit_const(f, v, n->line);
		emit(f, OP_SETG, n->line);
		emit16(f, g, n->line);
		emit(f, OP_POP, n->line);
		break;
	}
	default:
		expr(f, n);
		emit(f, OP_POP, n->line);
		break;
	}
}

static void compile_function(struct fstate *outer, const struct node *n, int index)
{
	struct fstate f;
	memset(&f, 0, sizeof f);
	f.prog = outer->prog;
	f.fn = &outer->prog->funcs[index];
	f.err = outer->err;
	f.errcap = outer->errcap;
	snprintf(f.fn->name, sizeof f.fn->name, "%s", n->name);
	f.fn->arity = n->nlist;
	chunk_init(&f.fn->chunk);
	for (int i = 0; i < n->nlist; i++)
		add_local(&f, n->list[i]->name, n->line);
	block(&f, n->a);
	emit(&f, OP_NIL, n->line);
	emit(&f, OP_RET, n->line);
	if (f.failed)
		outer->failed = 1;
}

int compile_program(const struct node *ast, struct program *prog, char *err, size_t cap)
{
	memset(prog, 0, sizeof *prog);
	for (int i = 0; i < builtin_count(); i++)
		prog->globals[prog->nglobals++] = xstrndup(builtin_name(i), strlen(builtin_name(i)));
	prog->nfuncs = 1;
	struct fstate f;
	memset(&f, 0, sizeof f);
	f.prog = prog;
	f.fn = &prog->funcs[0];
	f.toplevel = 1;
	f.err = err;
	f.errcap = cap;
	snprintf(f.fn->name, sizeof f.fn->name, "<main>");
	chunk_init(&f.fn->chunk);
	for (int i = 0; i < ast->nlist && !f.failed; i++)
		stmt(&f, ast->list[i]);
	emit(&f, OP_NIL, 0);
	emit(&f, OP_RET, 0);
	for (int i = 0; i < prog->nfuncs && !f.failed; i++) {
		char why[128];
		if (!chunk_verify(&prog->funcs[i].chunk, why, sizeof why)) {
			snprintf(err, cap, "internal error: %s: %s", prog->funcs[i].name, why);
			f.failed = 1;
		}
	}
	return !f.failed;
}

void program_free(struct program *prog)
{
	for (int i = 0; i < prog->nfuncs; i++)
		chunk_free(&prog->funcs[i].chunk);
	for (int i = 0; i < prog->nglobals; i++)
		free(prog->globals[i]);
	prog->nfuncs = prog->nglobals = 0;
}

int program_find_function(const struct program *prog, const char *name)
{
	for (int i = 0; i < prog->nfuncs; i++) {
		if (!strcmp(prog->funcs[i].name, name))
			return i;
	}
	return -1;
}
