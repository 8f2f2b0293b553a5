/* An #include inside a function body in a file whose macros with control
 * flow are written out (frontend/quiet.c, cfgbuild/build.c).
 * interp has the shape of Lua's luaV_execute: a switch through macros
 * (vmdispatch, vmcase, vmbreak) that the jump table included inside the
 * body redefines as a computed goto and labels, with the addresses of
 * those labels in the included text; it was skipped with a false reason
 * ("an #include ... where kpath must insert code") because the included
 * &&L_OP_PUSH was taken for an address escaping without a computed goto
 * (the goto * is a macro's).  table_vm has a plain computed goto and no
 * macro control flow, so it is not written out: the second parse blanked
 * its body but kept the #include, whose &&op_push then named no label,
 * and clamp (a macro with an if) was skipped: "the file with its
 * expansion does not parse".
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: clamp=3 */
#include <stdio.h>

#define RET_IF(c, v) if (c) return (v)
#define vmfetch() (op = *pc++)
#define vmdispatch(o) switch (o)
#define vmcase(l) case l:
#define vmbreak break

enum { OP_PUSH, OP_ADD, OP_NEG, OP_HALT };

static int clamp(int x)
{
	RET_IF(x < 0, 0);
	RET_IF(x > 100, 100);
	return x;
}

static int table_vm(const unsigned char *code)
{
	static const void *const jt[] = {
#include "include_in_body/jumptab.inc"
	};
	int stack[8], sp = 0;
	const unsigned char *pc = code;
	goto *jt[*pc];
op_push:
	stack[sp++] = pc[1];
	pc += 2;
	goto *jt[*pc];
op_add:
	sp--;
	stack[sp - 1] += stack[sp];
	pc++;
	goto *jt[*pc];
op_mul:
	sp--;
	stack[sp - 1] *= stack[sp];
	pc++;
	goto *jt[*pc];
op_halt:
	return sp ? stack[sp - 1] : -1;
}

static int interp(const unsigned char *pc)
{
	int stack[8], sp = 0, op;
#include "include_in_body/dispatch.inc"
	for (;;) {
		vmfetch();
		vmdispatch (op) {
			vmcase(OP_PUSH) {
				stack[sp++] = *pc++;
				vmbreak;
			}
			vmcase(OP_ADD) {
				sp--;
				stack[sp - 1] += stack[sp];
				vmbreak;
			}
			vmcase(OP_NEG) {
				stack[sp - 1] = -stack[sp - 1];
				vmbreak;
			}
			vmcase(OP_HALT) {
				return sp ? stack[sp - 1] : -1;
			}
		}
	}
}

int main(void)
{
	static const unsigned char prog[] = {0, 6, 0, 7, 2, 0, 3, 1, 3};
	static const unsigned char code[] = {OP_PUSH, 5, OP_PUSH, 9, OP_ADD, OP_NEG, OP_HALT, OP_PUSH, 2, OP_HALT};
	for (int i = -1; i < 3; i++)
		printf("%d %d %d\n", clamp(i * 70), table_vm(prog), interp(code + (i > 0 ? 7 : 0)));
	return 0;
}
