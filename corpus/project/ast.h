/* ast.h: the syntax tree the parser builds, the folder simplifies and the
 * compiler turns into bytecode. */
#ifndef STK_AST_H
#define STK_AST_H

#include "lexer.h"
#include "value.h"

enum nkind {
	/* expressions */
	N_INT, N_STR, N_NIL, N_VAR, N_ARRAY, N_INDEX, N_CALL, N_UNARY, N_BINARY, N_AND, N_OR,
	N_ASSIGN, N_SETINDEX,
	/* statements */
	N_EXPR, N_LET, N_BLOCK, N_IF, N_WHILE, N_FOR, N_BREAK, N_CONTINUE, N_RETURN, N_FN
};

struct node {
	enum nkind kind;
	int line;
	enum tok op;        /* N_UNARY, N_BINARY */
	long long ival;     /* N_INT */
	struct str *sval;   /* N_STR */
	char *name;         /* N_VAR, N_ASSIGN, N_LET, N_FOR, N_FN */
	struct node *a, *b, *c; /* operands / condition, then, else / body */
	struct node **list; /* N_ARRAY items, N_CALL args, N_BLOCK statements, N_FN params */
	int nlist;
};

struct node *node_new(enum nkind kind, int line);
void node_append(struct node *n, struct node *item);
void node_free(struct node *n);

/* Parses a whole program into an N_BLOCK; NULL and a message in err on a
 * syntax error. */
struct node *parse_program(const char *src, char *err, size_t errcap);

/* Constant folding and dead-branch removal; returns the number of rewrites. */
int fold_program(struct node *program);

/* Prints the tree (one node per line, indented): used by --ast. */
void ast_dump(const struct node *n, int depth);

#endif
