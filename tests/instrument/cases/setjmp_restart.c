/* setjmp and sigsetjmp as an if condition or an expression statement: a
 * path starts at the call (a forced cut) and the edges out of it set the path
 * register absolutely, so the second return (longjmp from a nested call or
 * from a loop) records no stale path.  A setjmp in a declaration's
 * initializer is placed the same way.
 * expect: instrumented=7 skipped=0 cut=0 */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static int depth;

static void deep(int n)
{
	if (n == 0)
		longjmp(env, 7);
	depth++;
	deep(n - 1);
}

static int guarded(int n)
{
	int r = 0;
	for (int i = 0; i < n; i++)
		r += i & 1 ? 2 : 1;
	if (setjmp(env) == 0) {
		r += 100;
		deep(n);
	} else {
		r += 1000;
	}
	return r;
}

static int again(int n)
{
	static volatile int tries;
	tries = 0;
	setjmp(env);
	tries++;
	if (tries < n)
		longjmp(env, 1);
	return tries;
}

static int in_decl(void)
{
	int v = setjmp(env);
	if (v == 0)
		longjmp(env, 3);
	return v;
}

/* the declaration in a loop, with a second declarator */
static int in_decl_loop(int n)
{
	static volatile int round, total; /* modified between setjmp and longjmp */
	round = 0;
	total = 0;
	for (int i = 0; i < n; i++) {
		int a = i * 2, v = setjmp(env);
		total += a + v;
		if (v < 3 && (round++ & 1) == 0)
			longjmp(env, v + 1);
	}
	return total;
}

static int loop_jump(int n)
{
	static volatile int i;
	static volatile int s;
	i = 0;
	s = 0;
	if (!setjmp(env))
		s += 5;
	while (i < n) {
		i++;
		if (i % 3 == 0)
			longjmp(env, 1);
		s += i;
	}
	return s;
}

int main(void)
{
	printf("%d %d %d %d %d\n", guarded(5), again(4), in_decl(), loop_jump(10), depth);
	printf("%d\n", in_decl_loop(6));
	return 0;
}
