/* A stack-machine bytecode interpreter: the classic switch-dispatch loop.
 * Runs three bytecode programs: a prime sieve, an iterative loop nest with a
 * data-dependent branch (Collatz steps), and a recursive Fibonacci through
 * CALL/RET (recursion in the interpreted program, not in C).  Every
 * instruction is checked (stack bounds, jump targets); a bad program stops
 * with an error.  usage: interp [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op {
	OP_HALT, OP_PUSH, OP_LOAD, OP_STORE, OP_ALOAD, OP_ASTORE, OP_ADD, OP_SUB, OP_MUL,
	OP_MOD, OP_DIV, OP_LT, OP_EQ, OP_JZ, OP_JNZ, OP_JMP, OP_DUP, OP_POP, OP_CALL,
	OP_RET, OP_ARG, OP_SWAP,
};

#define STACK 4096
#define FRAMES 1024
#define VARS 16
#define MEM 65536

struct vm {
	int64_t stack[STACK];
	size_t sp;
	int64_t var[VARS];
	int64_t mem[MEM];
	size_t frame_pc[FRAMES], frame_bp[FRAMES];
	size_t fp;
	uint64_t steps;
};

/* Runs code from pc 0; returns the value on top of the stack at HALT, or
 * sets *err and returns 0. */
static int64_t run(struct vm *m, const int64_t *code, size_t len, const char **err)
{
	size_t pc = 0, bp = 0;
	m->sp = 0;
	m->fp = 0;
	*err = NULL;
	for (;;) {
		if (pc >= len) {
			*err = "pc out of range";
			return 0;
		}
		int64_t op = code[pc++];
		int64_t arg = 0;
		m->steps++;
		switch (op) {
		case OP_PUSH: case OP_LOAD: case OP_STORE: case OP_JZ: case OP_JNZ:
		case OP_JMP: case OP_CALL: case OP_ARG:
			if (pc >= len) {
				*err = "missing operand";
				return 0;
			}
			arg = code[pc++];
			break;
		default:
			break;
		}
		/* stack effect checks: pops needed, pushes made */
		static const unsigned char pops[] = {1, 0, 0, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 0, 1, 1, 0, 1, 0, 2};
		if (op < 0 || op > OP_SWAP) {
			*err = "bad opcode";
			return 0;
		}
		if (m->sp < pops[op]) {
			*err = "stack underflow";
			return 0;
		}
		if (m->sp + 2 > STACK) {
			*err = "stack overflow";
			return 0;
		}
		int64_t *s = m->stack;
		size_t sp = m->sp;
		switch ((enum op)op) {
		case OP_HALT:
			return s[sp - 1];
		case OP_PUSH:
			s[sp++] = arg;
			break;
		case OP_LOAD:
		case OP_STORE:
			if (arg < 0 || arg >= VARS) {
				*err = "bad variable";
				return 0;
			}
			if (op == OP_LOAD)
				s[sp++] = m->var[arg];
			else
				m->var[arg] = s[--sp];
			break;
		case OP_ALOAD:
			if (s[sp - 1] < 0 || s[sp - 1] >= MEM) {
				*err = "bad address";
				return 0;
			}
			s[sp - 1] = m->mem[s[sp - 1]];
			break;
		case OP_ASTORE: /* addr value ASTORE */
			if (s[sp - 2] < 0 || s[sp - 2] >= MEM) {
				*err = "bad address";
				return 0;
			}
			m->mem[s[sp - 2]] = s[sp - 1];
			sp -= 2;
			break;
		case OP_ADD:
			s[sp - 2] = (int64_t)((uint64_t)s[sp - 2] + (uint64_t)s[sp - 1]);
			sp--;
			break;
		case OP_SUB:
			s[sp - 2] = (int64_t)((uint64_t)s[sp - 2] - (uint64_t)s[sp - 1]);
			sp--;
			break;
		case OP_MUL:
			s[sp - 2] = (int64_t)((uint64_t)s[sp - 2] * (uint64_t)s[sp - 1]);
			sp--;
			break;
		case OP_MOD:
		case OP_DIV:
			if (s[sp - 1] <= 0 || s[sp - 2] < 0) {
				*err = "bad division";
				return 0;
			}
			s[sp - 2] = op == OP_MOD ? s[sp - 2] % s[sp - 1] : s[sp - 2] / s[sp - 1];
			sp--;
			break;
		case OP_LT:
			s[sp - 2] = s[sp - 2] < s[sp - 1];
			sp--;
			break;
		case OP_EQ:
			s[sp - 2] = s[sp - 2] == s[sp - 1];
			sp--;
			break;
		case OP_JZ:
		case OP_JNZ:
			if ((s[--sp] == 0) == (op == OP_JZ))
				pc = (size_t)arg;
			break;
		case OP_JMP:
			pc = (size_t)arg;
			break;
		case OP_DUP:
			s[sp] = s[sp - 1];
			sp++;
			break;
		case OP_POP:
			sp--;
			break;
		case OP_SWAP: {
			int64_t t = s[sp - 1];
			s[sp - 1] = s[sp - 2];
			s[sp - 2] = t;
			break;
		}
		case OP_CALL: /* the argument is on the stack; bp points at it */
			if (m->fp >= FRAMES) {
				*err = "call stack overflow";
				return 0;
			}
			m->frame_pc[m->fp] = pc;
			m->frame_bp[m->fp++] = bp;
			bp = sp - 1;
			pc = (size_t)arg;
			break;
		case OP_ARG:
			s[sp++] = s[bp + (size_t)arg];
			break;
		case OP_RET: { /* result on top replaces the argument */
			if (m->fp == 0) {
				*err = "return without call";
				return 0;
			}
			int64_t r = s[sp - 1];
			sp = bp;
			s[sp++] = r;
			pc = m->frame_pc[--m->fp];
			bp = m->frame_bp[m->fp];
			break;
		}
		}
		m->sp = sp;
	}
}

/* ---- a two-pass assembler: "name: op arg; op; ..." ---------------------- */

static const char *const op_names[] = {
	"halt", "push", "load", "store", "aload", "astore", "add", "sub", "mul",
	"mod", "div", "lt", "eq", "jz", "jnz", "jmp", "dup", "pop", "call",
	"ret", "arg", "swap",
};

#define MAX_LABELS 32
#define MAX_CODE 512

struct label {
	char name[16];
	size_t pc;
};

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || c == '_';
}

/* Reads one word (letters, or digits with an optional '-') into w; returns
 * the position after it. */
static const char *word(const char *p, char *w, size_t cap)
{
	size_t n = 0;
	while (*p == ' ' || *p == '\n' || *p == ';')
		p++;
	while ((is_alpha(*p) || (*p >= '0' && *p <= '9') || *p == '-') && n + 1 < cap)
		w[n++] = *p++;
	w[n] = '\0';
	return p;
}

static long find_label(const struct label *l, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(l[i].name, name) == 0)
			return (long)l[i].pc;
	return -1;
}

/* Assembles src into code; returns the length, or 0 with *err set.  Pass 1
 * records labels ("name:"), pass 2 emits with labels resolved. */
static size_t assemble(const char *src, int64_t *code, const char **err)
{
	struct label labels[MAX_LABELS];
	size_t nlabels = 0, pc = 0;
	char w[16];
	for (int pass = 0; pass < 2; pass++) {
		const char *p = src;
		pc = 0;
		for (;;) {
			p = word(p, w, sizeof w);
			if (w[0] == '\0') {
				if (*p == '\0')
					break;
				*err = "unexpected character";
				return 0;
			}
			if (*p == ':') {
				p++;
				if (pass == 0) {
					if (nlabels == MAX_LABELS) {
						*err = "too many labels";
						return 0;
					}
					strcpy(labels[nlabels].name, w);
					labels[nlabels++].pc = pc;
				}
				continue;
			}
			int op = -1;
			for (int i = 0; i < (int)(sizeof op_names / sizeof op_names[0]); i++) {
				if (strcmp(op_names[i], w) == 0) {
					op = i;
					break;
				}
			}
			if (op < 0) {
				*err = "unknown instruction";
				return 0;
			}
			if (pc + 2 > MAX_CODE) {
				*err = "program too long";
				return 0;
			}
			code[pc++] = op;
			switch (op) {
			case OP_PUSH: case OP_LOAD: case OP_STORE: case OP_JZ: case OP_JNZ:
			case OP_JMP: case OP_CALL: case OP_ARG:
				p = word(p, w, sizeof w);
				if (w[0] >= '0' && w[0] <= '9') {
					code[pc++] = atol(w);
				} else if (w[0] == '-') {
					code[pc++] = -atol(w + 1);
				} else if (pass == 0) {
					code[pc++] = 0;
				} else {
					long target = find_label(labels, nlabels, w);
					if (target < 0) {
						*err = "undefined label";
						return 0;
					}
					code[pc++] = target;
				}
				break;
			default:
				break;
			}
		}
	}
	return pc;
}

/* Primes below var0: a sieve in mem[]. */
static const char sieve_src[] =
	"push 0; store 2; push 2; store 1;\n"
	"outer: load 1; load 0; lt; jz done;\n"
	"  load 1; aload; jnz next;\n"
	"  load 2; push 1; add; store 2;\n"
	"  load 1; dup; add; store 3;\n"
	"inner: load 3; load 0; lt; jz next;\n"
	"  load 3; push 1; astore;\n"
	"  load 3; load 1; add; store 3; jmp inner;\n"
	"next: load 1; push 1; add; store 1; jmp outer;\n"
	"done: load 2; halt;\n";

/* Sum of the Collatz step counts of 1..var0-1. */
static const char collatz_src[] =
	"push 0; store 2; push 1; store 1;\n"
	"outer: load 1; load 0; lt; jz done;\n"
	"  load 1; store 3;\n"
	"step: load 3; push 1; eq; jnz next;\n"
	"  load 3; push 2; mod; jz even;\n"
	"  load 3; push 3; mul; push 1; add; store 3; jmp count;\n"
	"even: load 3; push 2; div; store 3;\n"
	"count: load 2; push 1; add; store 2; jmp step;\n"
	"next: load 1; push 1; add; store 1; jmp outer;\n"
	"done: load 2; halt;\n";

/* fib(var0) by naive recursion. */
static const char fib_src[] =
	"load 0; call fib; halt;\n"
	"fib: arg 0; push 2; lt; jz rec; arg 0; ret;\n"
	"rec: arg 0; push 1; sub; call fib;\n"
	"  arg 0; push 2; sub; call fib; add; ret;\n";

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	static struct vm m;
	static int64_t code[3][MAX_CODE];
	const char *const sources[3] = {sieve_src, collatz_src, fib_src};
	size_t len[3];
	const char *err = NULL;
	uint64_t sum = 0;

	for (int i = 0; i < 3; i++) {
		len[i] = assemble(sources[i], code[i], &err);
		if (err)
			goto fail;
	}
	for (long round = 0; round < scale; round++) {
		for (size_t i = 0; i < MEM; i++)
			m.mem[i] = 0;
		m.var[0] = 20000 + round % 7;
		int64_t primes = run(&m, code[0], len[0], &err);
		if (err)
			goto fail;
		m.var[0] = 1000 + round % 5;
		int64_t steps = run(&m, code[1], len[1], &err);
		if (err)
			goto fail;
		m.var[0] = 16 + round % 3;
		int64_t f = run(&m, code[2], len[2], &err);
		if (err)
			goto fail;
		sum = sum * 1000003u + (uint64_t)primes * 7u + (uint64_t)steps * 11u + (uint64_t)f;
	}
	printf("checksum %016llx\n", (unsigned long long)(sum ^ m.steps));
	return 0;
fail:
	fprintf(stderr, "interp: %s\n", err);
	return 1;
}
