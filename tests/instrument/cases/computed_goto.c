/* GNU labels as values and computed goto: a threaded-code interpreter
 * (every handler ends in its own "goto *"), a jump table used once, a
 * label reached both by dispatch and by a direct goto or by falling in,
 * and a branching target expression (atomic: it is evaluated after the
 * code placed before "goto").
 * A dispatch edge that is a back edge (mixed: "low" is fallen into before
 * any computed goto) has no site for its emit: that function is skipped.
 * A label address that escapes a function without a computed goto depends
 * on inlining, which the added code changes (gcc's 990208-1): skipped.
 * expect: instrumented=3 skipped=2 cut=0
 * expect-skip: mixed escape
 * expect-paths: once=4 */
#include <stdio.h>

enum { OP_PUSH, OP_ADD, OP_DUP, OP_JNZ, OP_DEC, OP_HALT };

static long threaded(const int *code)
{
	static const void *const table[] = {&&push, &&add, &&dup, &&jnz, &&dec, &&halt};
	long stack[16];
	int sp = 0, pc = 0;
	goto *table[code[pc]];
push:
	stack[sp++] = code[pc + 1];
	pc += 2;
	goto *table[code[pc]];
add:
	sp--;
	stack[sp - 1] += stack[sp];
	pc++;
	goto *table[code[pc]];
dup:
	stack[sp] = stack[sp - 1];
	sp++;
	pc++;
	goto *table[code[pc]];
jnz:
	if (stack[--sp] != 0) {
		pc = code[pc + 1];
		goto *table[code[pc]];
	}
	pc += 2;
	goto *table[code[pc]];
dec:
	stack[sp - 1]--;
	pc++;
	goto *table[code[pc]];
halt:
	return sp > 0 ? stack[sp - 1] : -1;
}

static int once(int x)
{
	void *target = x > 0 ? &&pos : &&neg;
	goto *target;
pos:
	return 1;
neg:
	return -1;
}

/* "mid" is a dispatch target, a direct goto target and fallen into. */
static int mixed(int x)
{
	void *where[] = {&&low, &&mid, &&high};
	int r = 0;
	if (x > 100)
		goto mid;
	r += 1;
low:
	r += 2;
mid:
	r += 4;
	if (x < 10) {
		x += 5;
		goto *where[(x < 3) ? 0 : (x < 7) ? 1 : 2];
	}
high:
	return r + x;
}

static void *escaped;

static void escape(int cond)
{
	if (cond) {
	here:
		escaped = &&here;
	}
}

int main(void)
{
	/* counter: push 5; loop: dec; dup; jnz loop; halt -> leaves 0 ... */
	static const int prog[] = {OP_PUSH, 5, OP_DEC, OP_DUP, OP_JNZ, 2, OP_PUSH, 7, OP_ADD, OP_HALT};
	long total = 0;
	for (int i = 0; i < 50; i++)
		total += threaded(prog);
	printf("threaded %ld\n", total);
	int s = 0;
	for (int i = -3; i < 4; i++)
		s += once(i) + mixed(i * 40) + mixed(i);
	printf("once+mixed %d\n", s);
	escape(1);
	printf("escaped %d\n", escaped != 0);
	return 0;
}
