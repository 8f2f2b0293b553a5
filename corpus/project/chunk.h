/* chunk.h: bytecode.  Operands are 1 byte (u8) or 2 bytes big-endian (u16). */
#ifndef STK_CHUNK_H
#define STK_CHUNK_H

#include "value.h"

enum op {
	OP_CONST,    /* u16 constant index */
	OP_NIL,
	OP_POP,
	OP_GETL,     /* u8 slot */
	OP_SETL,     /* u8 slot (value stays on the stack) */
	OP_GETG,     /* u16 global */
	OP_SETG,     /* u16 global (value stays) */
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_NEG, OP_NOT,
	OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_JMP,      /* u16 forward offset */
	OP_JZ,       /* u16 forward offset; pops the condition */
	OP_JZ_KEEP,  /* u16: jump if false keeping it, else pop (and) */
	OP_JNZ_KEEP, /* u16: jump if true keeping it, else pop (or) */
	OP_LOOP,     /* u16 backward offset */
	OP_CALL,     /* u8 argument count */
	OP_RET,
	OP_ARRAY,    /* u16 element count */
	OP_INDEX,
	OP_SETINDEX, /* array index value -> value */
	OP_INCL,     /* u8 slot, i8 delta: slot += delta (for loops) */
	OP_COUNT
};

struct chunk {
	uint8_t *code;
	int *lines;
	int n, cap;
	struct value *consts;
	int nconsts, capconsts;
};

void chunk_init(struct chunk *c);
void chunk_free(struct chunk *c);
void chunk_emit(struct chunk *c, uint8_t byte, int line);
int chunk_const(struct chunk *c, struct value v);
/* Prints one instruction; returns the offset of the next one. */
int chunk_disasm_op(const struct chunk *c, int off);
void chunk_disasm(const struct chunk *c, const char *name);
/* Instruction-size table, checked by chunk_verify. */
int op_size(enum op o);
/* Checks that jumps land on instruction boundaries; 0 if not. */
int chunk_verify(const struct chunk *c, char *err, size_t cap);

#endif
