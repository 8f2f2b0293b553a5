/* fold.c: constant folding over the syntax tree (integer arithmetic,
 * comparisons, string concatenation, not/negate, and/or with a constant
 * left side) and removal of dead branches (if/while on constants). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"

static int is_const(const struct node *n)
{
	return n && (n->kind == N_INT || n->kind == N_STR || n->kind == N_NIL);
}

static int const_truthy(const struct node *n)
{
	if (n->kind == N_INT)
		return n->ival != 0;
	if (n->kind == N_STR)
		return n->sval->len > 0;
	return 0;
}

/* Replaces n's contents by those of with (which is freed). */
static void replace(struct node *n, struct node *with)
{
	struct node old = *n;
	*n = *with;
	free(with);
	node_free(old.a);
	node_free(old.b);
	node_free(old.c);
	for (int i = 0; i < old.nlist; i++)
		node_free(old.list[i]);
	free(old.list);
	free(old.name);
	free(old.sval);
}

/* Detaches child *slot from its parent and returns it. */
static struct node *take(struct node **slot)
{
	struct node *c = *slot;
	*slot = NULL;
	return c;
}

static int fold_int_binary(enum tok op, long long x, long long y, long long *out)
{
	switch (op) {
	case T_PLUS:
		*out = x + y;
		return 1;
	case T_MINUS:
		*out = x - y;
		return 1;
	case T_STAR:
		*out = x * y;
		return 1;
	case T_SLASH:
		if (y == 0)
			return 0; /* keep it: the error happens at run time */
		*out = x / y;
		return 1;
	case T_PERCENT:
		if (y == 0)
			return 0;
		*out = x % y;
		return 1;
	case T_EQ:
		*out = x == y;
		return 1;
	case T_NE:
		*out = x != y;
		return 1;
	case T_LT:
		*out = x < y;
		return 1;
	case T_LE:
		*out = x <= y;
		return 1;
	case T_GT:
		*out = x > y;
		return 1;
	case T_GE:
		*out = x >= y;
		return 1;
	default:
		return 0;
	}
}

static int fold(struct node *n)
{
	int count = 0;
	if (!n)
		return 0;
	count += fold(n->a);
	count += fold(n->b);
	count += fold(n->c);
	for (int i = 0; i < n->nlist; i++)
		count += fold(n->list[i]);

	switch (n->kind) {
	case N_UNARY:
		if (n->a->kind == N_INT) {
			long long v = n->op == T_MINUS ? -n->a->ival : !n->a->ival;
			node_free(take(&n->a));
			n->kind = N_INT;
			n->ival = v;
			count++;
		}
		break;
	case N_BINARY: {
		long long v;
		if (n->a->kind == N_INT && n->b->kind == N_INT && fold_int_binary(n->op, n->a->ival, n->b->ival, &v)) {
			node_free(take(&n->a));
			node_free(take(&n->b));
			n->kind = N_INT;
			n->ival = v;
			count++;
		} else if (n->op == T_PLUS && n->a->kind == N_STR && n->b->kind == N_STR) {
			struct str *s = str_concat(n->a->sval, n->b->sval);
			node_free(take(&n->a));
			node_free(take(&n->b));
			n->kind = N_STR;
			n->sval = s;
			count++;
		}
		break;
	}
	case N_AND:
	case N_OR:
		if (is_const(n->a)) {
			int t = const_truthy(n->a);
			/* and: false -> left; true -> right.  or: the other way round */
			int keep_left = n->kind == N_AND ? !t : t;
			struct node *keep = keep_left ? take(&n->a) : take(&n->b);
			replace(n, keep);
			count++;
		}
		break;
	case N_IF:
		if (is_const(n->a)) {
			struct node *keep = const_truthy(n->a) ? take(&n->b) : take(&n->c);
			if (!keep)
				keep = node_new(N_BLOCK, n->line);
			node_free(n->b);
			n->b = NULL;
			node_free(n->c);
			n->c = NULL;
			replace(n, keep);
			count++;
		}
		break;
	case N_WHILE:
		if (is_const(n->a) && !const_truthy(n->a)) {
			node_free(n->b);
			n->b = NULL;
			replace(n, node_new(N_BLOCK, n->line));
			count++;
		}
		break;
	default:
		break;
	}
	return count;
}

int fold_program(struct node *program)
{
	return fold(program);
}

static const char *kind_name(enum nkind k)
{
	static const char *const names[] = {
		"int", "string", "nil", "var", "array", "index", "call", "unary", "binary", "and", "or",
		"assign", "setindex", "expr", "let", "block", "if", "while", "for", "break", "continue",
		"return", "fn",
	};
	return names[k];
}

void ast_dump(const struct node *n, int depth)
{
	if (!n)
		return;
	printf("%*s%s", depth * 2, "", kind_name(n->kind));
	switch (n->kind) {
	case N_INT:
		printf(" %lld", n->ival);
		break;
	case N_STR:
		printf(" \"%s\"", n->sval->chars);
		break;
	case N_UNARY:
	case N_BINARY:
		printf(" %s", tok_name(n->op));
		break;
	default:
		if (n->name)
			printf(" %s", n->name);
		break;
	}
	printf("\n");
	for (int i = 0; i < n->nlist; i++)
		ast_dump(n->list[i], depth + 1);
	ast_dump(n->a, depth + 1);
	ast_dump(n->b, depth + 1);
	ast_dump(n->c, depth + 1);
}
