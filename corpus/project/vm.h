/* vm.h: the stack machine that runs compiled programs. */
#ifndef STK_VM_H
#define STK_VM_H

#include "compile.h"

struct frame {
	struct function *fn;
	int ip;
	int base; /* stack index of local slot 0 */
};

struct vm_stats {
	long long instructions;
	long long calls;
	int max_depth;
	int max_stack;
};

struct vm {
	struct program *prog;
	struct value stack[STK_STACK_MAX];
	int sp;
	struct frame frames[STK_FRAMES_MAX];
	int nframes;
	struct value globals[STK_MAX_GLOBALS];
	char error[160];
	int error_line;
	struct vm_stats stats;
	/* print() appends here; flushed by the caller */
	char *out;
	size_t outlen, outcap;
	long long fuel; /* instruction budget, <= 0: unlimited */
};

void vm_init(struct vm *vm, struct program *prog);
void vm_free(struct vm *vm);
/* Runs the top-level code; 1 on success, 0 on a run-time error. */
int vm_run(struct vm *vm);
/* Sets the error message (printf-like with one string argument). */
void vm_error(struct vm *vm, const char *msg, const char *arg);
void vm_write(struct vm *vm, const char *s, size_t n);

#endif
