/* An #include inside a function body, as zlib's fixedtables (inffixed.h)
 * and an interpreter's jump table: the included text is not edited, and
 * when it is plain statements, declarations or initialisers it is
 * straight-line code of the block it sits in (its && || ?: stay atomic).
 * When it holds control flow, or is the brace-less body kpath must brace,
 * the function is skipped at its own line with that reason.
 * The path counts are those of the file with the included text pasted in,
 * but for the ?: in step.inc, which stays atomic here (4 paths, not 6).
 * expect: instrumented=4 skipped=2 cut=0
 * expect-skip: with_branch braceless
 * expect-paths: fixedtables=2 vm=10 stepper=4 */
#include <stdio.h>

static int fixedtables(int i)
{
#include "include_in_body/fixed.inc"
	if (i < 8)
		return lenfix[i];
	return distfix[i & 3];
}

static int vm(const unsigned char *code)
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

static int stepper(int x)
{
	int acc = 1;
	while (x-- > 0) {
#include "include_in_body/step.inc"
	}
	return acc;
}

static int with_branch(int x)
{
	int acc = 0;
#include "include_in_body/branch.inc"
	return acc;
}

static int braceless(int x)
{
	int acc = 0;
	if (x)
#include "include_in_body/half.inc"
	return acc;
}

int main(void)
{
	static const unsigned char prog[] = {0, 6, 0, 7, 2, 0, 3, 1, 3};
	for (int i = 0; i < 12; i++)
		printf("%d %d %d %d %d\n", fixedtables(i), stepper(i), with_branch(i), braceless(i), vm(prog));
	return 0;
}
