/* parser.c: recursive-descent parser, one function per precedence level:
 *   expr := assign; assign := or ['=' assign | '+=' assign | '-=' assign]
 *   or := and {'or' and}; and := equality {'and' equality}
 *   equality := comparison {('=='|'!=') comparison}
 *   comparison := term {('<'|'<='|'>'|'>=') term}
 *   term := factor {('+'|'-') factor}; factor := unary {('*'|'/'|'%') unary}
 *   unary := ('-'|'not') unary | postfix; postfix := primary {call | index}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

struct parser {
	struct lexer lx;
	struct token cur, prev;
	int failed;
	char *err;
	size_t errcap;
};

struct node *node_new(enum nkind kind, int line)
{
	struct node *n = xmalloc(sizeof *n);
	memset(n, 0, sizeof *n);
	n->kind = kind;
	n->line = line;
	return n;
}

void node_append(struct node *n, struct node *item)
{
	n->list = xrealloc(n->list, (size_t)(n->nlist + 1) * sizeof *n->list);
	n->list[n->nlist++] = item;
}

void node_free(struct node *n)
{
	if (!n)
		return;
	node_free(n->a);
	node_free(n->b);
	node_free(n->c);
	for (int i = 0; i < n->nlist; i++)
		node_free(n->list[i]);
	free(n->list);
	free(n->name);
	free(n->sval);
	free(n);
}

static void fail(struct parser *p, const char *msg)
{
	if (p->failed)
		return;
	p->failed = 1;
	if (p->cur.kind == T_ERROR)
		snprintf(p->err, p->errcap, "line %d: %.*s", p->cur.line, p->cur.len, p->cur.start);
	else
		snprintf(p->err, p->errcap, "line %d: %s, found %s", p->cur.line, msg, tok_name(p->cur.kind));
}

static void advance(struct parser *p)
{
	p->prev = p->cur;
	p->cur = lexer_next(&p->lx);
	if (p->cur.kind == T_ERROR)
		fail(p, "bad token");
}

static int accept(struct parser *p, enum tok k)
{
	if (p->cur.kind != k)
		return 0;
	advance(p);
	return 1;
}

static void expect(struct parser *p, enum tok k, const char *msg)
{
	if (!accept(p, k))
		fail(p, msg);
}

static struct str *unescape(const char *s, int len)
{
	char *buf = xmalloc((size_t)len + 1);
	int n = 0;
	for (int i = 0; i < len; i++) {
		char c = s[i];
		if (c == '\\' && i + 1 < len) {
			c = s[++i];
			switch (c) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case '0':
				c = 0;
				break;
			default:
				break;
			}
		}
		buf[n++] = c;
	}
	struct str *r = str_new(buf, n);
	free(buf);
	return r;
}

static struct node *expr(struct parser *p);
static struct node *statement(struct parser *p);
static struct node *block(struct parser *p);

static struct node *primary(struct parser *p)
{
	int line = p->cur.line;
	struct node *n;
	switch (p->cur.kind) {
	case T_INT:
		n = node_new(N_INT, line);
		n->ival = p->cur.ival;
		advance(p);
		return n;
	case T_STRING:
		n = node_new(N_STR, line);
		n->sval = unescape(p->cur.start + 1, p->cur.len - 2);
		advance(p);
		return n;
	case T_NIL:
		advance(p);
		return node_new(N_NIL, line);
	case T_IDENT:
		n = node_new(N_VAR, line);
		n->name = xstrndup(p->cur.start, (size_t)p->cur.len);
		advance(p);
		return n;
	case T_LPAREN:
		advance(p);
		n = expr(p);
		expect(p, T_RPAREN, "')' expected");
		return n;
	case T_LBRACKET:
		advance(p);
		n = node_new(N_ARRAY, line);
		while (!p->failed && p->cur.kind != T_RBRACKET) {
			node_append(n, expr(p));
			if (!accept(p, T_COMMA))
				break;
		}
		expect(p, T_RBRACKET, "']' expected");
		return n;
	default:
		fail(p, "expression expected");
		advance(p);
		return node_new(N_NIL, line);
	}
}

static struct node *postfix(struct parser *p)
{
	struct node *n = primary(p);
	while (!p->failed) {
		int line = p->cur.line;
		if (accept(p, T_LPAREN)) {
			struct node *call = node_new(N_CALL, line);
			call->a = n;
			while (!p->failed && p->cur.kind != T_RPAREN) {
				node_append(call, expr(p));
				if (!accept(p, T_COMMA))
					break;
			}
			expect(p, T_RPAREN, "')' expected after arguments");
			n = call;
		} else if (accept(p, T_LBRACKET)) {
			struct node *ix = node_new(N_INDEX, line);
			ix->a = n;
			ix->b = expr(p);
			expect(p, T_RBRACKET, "']' expected after index");
			n = ix;
		} else {
			break;
		}
	}
	return n;
}

static struct node *unary(struct parser *p)
{
	int line = p->cur.line;
	if (p->cur.kind == T_MINUS || p->cur.kind == T_NOT) {
		enum tok op = p->cur.kind;
		advance(p);
		struct node *n = node_new(N_UNARY, line);
		n->op = op;
		n->a = unary(p);
		return n;
	}
	return postfix(p);
}

static struct node *binary(struct node *l, enum tok op, struct node *r, int line)
{
	struct node *n = node_new(N_BINARY, line);
	n->op = op;
	n->a = l;
	n->b = r;
	return n;
}

static struct node *factor(struct parser *p)
{
	struct node *n = unary(p);
	while (!p->failed && (p->cur.kind == T_STAR || p->cur.kind == T_SLASH || p->cur.kind == T_PERCENT)) {
		enum tok op = p->cur.kind;
		int line = p->cur.line;
		advance(p);
		n = binary(n, op, unary(p), line);
	}
	return n;
}

static struct node *term(struct parser *p)
{
	struct node *n = factor(p);
	while (!p->failed && (p->cur.kind == T_PLUS || p->cur.kind == T_MINUS)) {
		enum tok op = p->cur.kind;
		int line = p->cur.line;
		advance(p);
		n = binary(n, op, factor(p), line);
	}
	return n;
}

static int is_comparison(enum tok k)
{
	return k == T_LT || k == T_LE || k == T_GT || k == T_GE;
}

static struct node *comparison(struct parser *p)
{
	struct node *n = term(p);
	while (!p->failed && is_comparison(p->cur.kind)) {
		enum tok op = p->cur.kind;
		int line = p->cur.line;
		advance(p);
		n = binary(n, op, term(p), line);
	}
	return n;
}

static struct node *equality(struct parser *p)
{
	struct node *n = comparison(p);
	while (!p->failed && (p->cur.kind == T_EQ || p->cur.kind == T_NE)) {
		enum tok op = p->cur.kind;
		int line = p->cur.line;
		advance(p);
		n = binary(n, op, comparison(p), line);
	}
	return n;
}

static struct node *and_expr(struct parser *p)
{
	struct node *n = equality(p);
	while (!p->failed && p->cur.kind == T_AND) {
		int line = p->cur.line;
		advance(p);
		struct node *a = node_new(N_AND, line);
		a->a = n;
		a->b = equality(p);
		n = a;
	}
	return n;
}

static struct node *or_expr(struct parser *p)
{
	struct node *n = and_expr(p);
	while (!p->failed && p->cur.kind == T_OR) {
		int line = p->cur.line;
		advance(p);
		struct node *o = node_new(N_OR, line);
		o->a = n;
		o->b = and_expr(p);
		n = o;
	}
	return n;
}

/* x = e, a[i] = e, x += e (sugar for x = x + e) */
static struct node *expr(struct parser *p)
{
	struct node *target = or_expr(p);
	enum tok k = p->cur.kind;
	if (p->failed || (k != T_ASSIGN && k != T_PLUSEQ && k != T_MINUSEQ))
		return target;
	int line = p->cur.line;
	advance(p);
	struct node *value = expr(p);
	if (k != T_ASSIGN) {
		struct node *copy;
		if (target->kind == N_VAR) {
			copy = node_new(N_VAR, line);
			copy->name = xstrndup(target->name, strlen(target->name));
		} else {
			fail(p, "'+=' and '-=' need a variable");
			node_free(value);
			return target;
		}
		value = binary(copy, k == T_PLUSEQ ? T_PLUS : T_MINUS, value, line);
	}
	if (target->kind == N_VAR) {
		struct node *n = node_new(N_ASSIGN, line);
		n->name = target->name;
		target->name = NULL;
		node_free(target);
		n->a = value;
		return n;
	}
	if (target->kind == N_INDEX) {
		struct node *n = node_new(N_SETINDEX, line);
		n->a = target->a;
		n->b = target->b;
		n->c = value;
		target->a = target->b = NULL;
		node_free(target);
		return n;
	}
	fail(p, "cannot assign to this expression");
	node_free(value);
	return target;
}

static char *ident(struct parser *p, const char *msg)
{
	if (p->cur.kind != T_IDENT) {
		fail(p, msg);
		return xstrndup("?", 1);
	}
	char *s = xstrndup(p->cur.start, (size_t)p->cur.len);
	advance(p);
	return s;
}

static struct node *if_statement(struct parser *p, int line)
{
	struct node *n = node_new(N_IF, line);
	expect(p, T_LPAREN, "'(' expected after 'if'");
	n->a = expr(p);
	expect(p, T_RPAREN, "')' expected after condition");
	n->b = block(p);
	if (accept(p, T_ELSE)) {
		if (accept(p, T_IF))
			n->c = if_statement(p, p->prev.line);
		else
			n->c = block(p);
	}
	return n;
}

static struct node *statement(struct parser *p)
{
	int line = p->cur.line;
	struct node *n;
	if (accept(p, T_LET)) {
		n = node_new(N_LET, line);
		n->name = ident(p, "variable name expected after 'let'");
		if (accept(p, T_ASSIGN))
			n->a = expr(p);
		expect(p, T_SEMI, "';' expected after declaration");
		return n;
	}
	if (accept(p, T_FN)) {
		n = node_new(N_FN, line);
		n->name = ident(p, "function name expected");
		expect(p, T_LPAREN, "'(' expected after function name");
		while (!p->failed && p->cur.kind != T_RPAREN) {
			struct node *param = node_new(N_VAR, p->cur.line);
			param->name = ident(p, "parameter name expected");
			node_append(n, param);
			if (!accept(p, T_COMMA))
				break;
		}
		expect(p, T_RPAREN, "')' expected after parameters");
		n->a = block(p);
		return n;
	}
	if (accept(p, T_IF))
		return if_statement(p, line);
	if (accept(p, T_WHILE)) {
		n = node_new(N_WHILE, line);
		expect(p, T_LPAREN, "'(' expected after 'while'");
		n->a = expr(p);
		expect(p, T_RPAREN, "')' expected after condition");
		n->b = block(p);
		return n;
	}
	if (accept(p, T_FOR)) {
		n = node_new(N_FOR, line);
		n->name = ident(p, "loop variable expected after 'for'");
		expect(p, T_IN, "'in' expected");
		n->a = expr(p);
		expect(p, T_DOTDOT, "'..' expected in range");
		n->b = expr(p);
		n->c = block(p);
		return n;
	}
	if (accept(p, T_BREAK)) {
		expect(p, T_SEMI, "';' expected after 'break'");
		return node_new(N_BREAK, line);
	}
	if (accept(p, T_CONTINUE)) {
		expect(p, T_SEMI, "';' expected after 'continue'");
		return node_new(N_CONTINUE, line);
	}
	if (accept(p, T_RETURN)) {
		n = node_new(N_RETURN, line);
		if (p->cur.kind != T_SEMI)
			n->a = expr(p);
		expect(p, T_SEMI, "';' expected after return");
		return n;
	}
	if (p->cur.kind == T_LBRACE)
		return block(p);
	n = node_new(N_EXPR, line);
	n->a = expr(p);
	expect(p, T_SEMI, "';' expected after expression");
	return n;
}

static struct node *block(struct parser *p)
{
	struct node *n = node_new(N_BLOCK, p->cur.line);
	expect(p, T_LBRACE, "'{' expected");
	while (!p->failed && p->cur.kind != T_RBRACE && p->cur.kind != T_EOF)
		node_append(n, statement(p));
	expect(p, T_RBRACE, "'}' expected");
	return n;
}

struct node *parse_program(const char *src, char *err, size_t errcap)
{
	struct parser p;
	memset(&p, 0, sizeof p);
	p.err = err;
	p.errcap = errcap;
	lexer_init(&p.lx, src);
	advance(&p);
	struct node *prog = node_new(N_BLOCK, 1);
	while (!p.failed && p.cur.kind != T_EOF)
		node_append(prog, statement(&p));
	if (p.failed) {
		node_free(prog);
		return NULL;
	}
	return prog;
}
