/* compile.h: syntax tree -> bytecode functions. */
#ifndef STK_COMPILE_H
#define STK_COMPILE_H

#include "ast.h"
#include "chunk.h"

struct function {
	char name[STK_MAX_NAME];
	int arity;
	struct chunk chunk;
};

struct program {
	struct function funcs[STK_MAX_FUNCS]; /* funcs[0] is the top level */
	int nfuncs;
	char *globals[STK_MAX_GLOBALS];
	int nglobals;
};

/* 1 on success; 0 with a message in err. */
int compile_program(const struct node *ast, struct program *prog, char *err, size_t cap);
void program_free(struct program *prog);
int program_find_function(const struct program *prog, const char *name);

#endif
