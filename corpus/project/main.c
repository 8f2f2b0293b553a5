/* main.c: stk [--ast] [--dump] [--stats] [FILE.stk]
 * Without a file, runs the built-in test programs (programs.c) and prints a
 * disassembly of one function.  Output is deterministic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "compile.h"
#include "programs.h"
#include "vm.h"

struct options {
	int ast, dump, stats;
	const char *file;
};

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1024, n = 0;
	char *s = xmalloc(cap);
	size_t got;
	while ((got = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n < 2) {
			cap *= 2;
			s = xrealloc(s, cap);
		}
	}
	fclose(f);
	s[n] = 0;
	return s;
}

/* Compiles and runs one program; returns 0 ok, 1 compile error, 2 run-time
 * error. */
static int run_source(const char *name, const char *src, const struct options *opt)
{
	char err[200];
	struct node *ast = parse_program(src, err, sizeof err);
	printf("== %s ==\n", name);
	if (!ast) {
		printf("syntax error: %s\n", err);
		return 1;
	}
	int folds = fold_program(ast);
	if (opt->ast)
		ast_dump(ast, 0);
	struct program *prog = xmalloc(sizeof *prog);
	int status = 0;
	if (!compile_program(ast, prog, err, sizeof err)) {
		printf("compile error: %s\n", err);
		status = 1;
	} else {
		if (opt->dump) {
			for (int i = 0; i < prog->nfuncs; i++)
				chunk_disasm(&prog->funcs[i].chunk, prog->funcs[i].name);
		}
		struct vm *vm = xmalloc(sizeof *vm);
		vm_init(vm, prog);
		vm->fuel = 50000000;
		int ok = vm_run(vm);
		if (vm->out)
			fputs(vm->out, stdout);
		if (!ok) {
			printf("runtime error (line %d): %s\n", vm->error_line, vm->error);
			status = 2;
		}
		if (opt->stats)
			printf("[%d functions, %d folds, %lld instructions, %lld calls, depth %d, stack %d]\n",
			       prog->nfuncs, folds, vm->stats.instructions, vm->stats.calls, vm->stats.max_depth,
			       vm->stats.max_stack);
		vm_free(vm);
		free(vm);
	}
	program_free(prog);
	free(prog);
	node_free(ast);
	return status;
}

static void disasm_one(const char *src, const char *fname)
{
	char err[200];
	struct node *ast = parse_program(src, err, sizeof err);
	if (!ast)
		return;
	fold_program(ast);
	struct program *prog = xmalloc(sizeof *prog);
	if (compile_program(ast, prog, err, sizeof err)) {
		int i = program_find_function(prog, fname);
		if (i >= 0)
			chunk_disasm(&prog->funcs[i].chunk, prog->funcs[i].name);
	}
	program_free(prog);
	free(prog);
	node_free(ast);
}

int main(int argc, char **argv)
{
	struct options opt = {0, 0, 0, NULL};
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--ast"))
			opt.ast = 1;
		else if (!strcmp(argv[i], "--dump"))
			opt.dump = 1;
		else if (!strcmp(argv[i], "--stats"))
			opt.stats = 1;
		else if (argv[i][0] == '-') {
			fprintf(stderr, "usage: stk [--ast] [--dump] [--stats] [FILE]\n");
			return 2;
		} else {
			opt.file = argv[i];
		}
	}
	if (opt.file) {
		char *src = read_file(opt.file);
		if (!src) {
			fprintf(stderr, "stk: cannot read %s\n", opt.file);
			return 2;
		}
		int st = run_source(opt.file, src, &opt);
		free(src);
		return st;
	}
	opt.stats = 1;
	int counts[3] = {0, 0, 0};
	for (int i = 0; i < test_program_count; i++)
		counts[run_source(test_programs[i].name, test_programs[i].source, &opt)]++;
	const struct test_program *sorting = find_test_program("sorting");
	if (sorting)
		disasm_one(sorting->source, "bsearch");
	printf("summary: %d ok, %d compile errors, %d run-time errors\n", counts[0], counts[1], counts[2]);
	return 0;
}
