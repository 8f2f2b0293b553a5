/* chunk.c: bytecode buffers, constant pools, the disassembler and a
 * structural verifier (every jump lands on an instruction boundary). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chunk.h"

void chunk_init(struct chunk *c)
{
	memset(c, 0, sizeof *c);
}

void chunk_free(struct chunk *c)
{
	free(c->code);
	free(c->lines);
	free(c->consts);
	chunk_init(c);
}

void chunk_emit(struct chunk *c, uint8_t byte, int line)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->code = xrealloc(c->code, (size_t)c->cap);
		c->lines = xrealloc(c->lines, (size_t)c->cap * sizeof *c->lines);
	}
	c->code[c->n] = byte;
	c->lines[c->n] = line;
	c->n++;
}

int chunk_const(struct chunk *c, struct value v)
{
	for (int i = 0; i < c->nconsts; i++) {
		if (c->consts[i].t == v.t && value_equal(c->consts[i], v))
			return i;
	}
	if (c->nconsts == c->capconsts) {
		c->capconsts = c->capconsts ? c->capconsts * 2 : 16;
		c->consts = xrealloc(c->consts, (size_t)c->capconsts * sizeof *c->consts);
	}
	c->consts[c->nconsts] = v;
	return c->nconsts++;
}

static const char *const op_names[OP_COUNT] = {
	"CONST", "NIL", "POP", "GETL", "SETL", "GETG", "SETG", "ADD", "SUB", "MUL", "DIV", "MOD",
	"NEG", "NOT", "EQ", "NE", "LT", "LE", "GT", "GE", "JMP", "JZ", "JZ_KEEP", "JNZ_KEEP",
	"LOOP", "CALL", "RET", "ARRAY", "INDEX", "SETINDEX", "INCL",
};

int op_size(enum op o)
{
	switch (o) {
	case OP_CONST:
	case OP_GETG:
	case OP_SETG:
	case OP_JMP:
	case OP_JZ:
	case OP_JZ_KEEP:
	case OP_JNZ_KEEP:
	case OP_LOOP:
	case OP_ARRAY:
	case OP_INCL:
		return 3;
	case OP_GETL:
	case OP_SETL:
	case OP_CALL:
		return 2;
	default:
		return 1;
	}
}

static int u16(const struct chunk *c, int off)
{
	return (c->code[off] << 8) | c->code[off + 1];
}

int chunk_disasm_op(const struct chunk *c, int off)
{
	enum op o = (enum op)c->code[off];
	if (o >= OP_COUNT) {
		printf("%04d  ??? %d\n", off, (int)o);
		return off + 1;
	}
	int line = c->lines[off];
	if (off > 0 && c->lines[off - 1] == line)
		printf("%04d     | %-9s", off, op_names[o]);
	else
		printf("%04d %4d %-9s", off, line, op_names[o]);
	switch (o) {
	case OP_CONST: {
		char *buf = NULL;
		size_t len = 0, cap = 0;
		value_print(c->consts[u16(c, off + 1)], &buf, &len, &cap);
		printf(" %d (%s)", u16(c, off + 1), buf);
		free(buf);
		break;
	}
	case OP_GETG:
	case OP_SETG:
	case OP_ARRAY:
		printf(" %d", u16(c, off + 1));
		break;
	case OP_GETL:
	case OP_SETL:
	case OP_CALL:
		printf(" %d", c->code[off + 1]);
		break;
	case OP_INCL:
		printf(" %d %+d", c->code[off + 1], (int)(int8_t)c->code[off + 2]);
		break;
	case OP_JMP:
	case OP_JZ:
	case OP_JZ_KEEP:
	case OP_JNZ_KEEP:
		printf(" -> %d", off + 3 + u16(c, off + 1));
		break;
	case OP_LOOP:
		printf(" -> %d", off + 3 - u16(c, off + 1));
		break;
	default:
		break;
	}
	printf("\n");
	return off + op_size(o);
}

void chunk_disasm(const struct chunk *c, const char *name)
{
	printf("== %s (%d bytes, %d constants) ==\n", name, c->n, c->nconsts);
	for (int off = 0; off < c->n;)
		off = chunk_disasm_op(c, off);
}

int chunk_verify(const struct chunk *c, char *err, size_t cap)
{
	char *start = xmalloc((size_t)c->n + 1);
	memset(start, 0, (size_t)c->n + 1);
	int off = 0;
	while (off < c->n) {
		if (c->code[off] >= OP_COUNT) {
			snprintf(err, cap, "bad opcode %d at %d", c->code[off], off);
			free(start);
			return 0;
		}
		start[off] = 1;
		off += op_size((enum op)c->code[off]);
	}
	start[c->n] = 1;
	int ok = off == c->n;
	if (!ok)
		snprintf(err, cap, "truncated instruction at the end");
	for (off = 0; ok && off < c->n; off += op_size((enum op)c->code[off])) {
		enum op o = (enum op)c->code[off];
		int target = -1;
		if (o == OP_JMP || o == OP_JZ || o == OP_JZ_KEEP || o == OP_JNZ_KEEP)
			target = off + 3 + u16(c, off + 1);
		else if (o == OP_LOOP)
			target = off + 3 - u16(c, off + 1);
		if (target == -1)
			continue;
		if (target < 0 || target > c->n || !start[target]) {
			snprintf(err, cap, "jump at %d to %d is not an instruction", off, target);
			ok = 0;
		}
	}
	free(start);
	return ok;
}
