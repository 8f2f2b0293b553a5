/* One function per thing a stage decides: a loop with a break (back edge,
 * dummy edges), a switch with fall-through (split blocks: start sites), a
 * goto loop, and setjmp (a forced cut, a restart block). */
#include <setjmp.h>

static jmp_buf env;

int loop_break(const int *a, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (a[i] < 0)
			break;
		s += a[i] > 10 ? 2 : 1;
	}
	return s;
}

int cases(int x)
{
	int r = 0;
	switch (x) {
	case 0:
		r += 1;
		/* fall through */
	case 1:
		r += 2;
		break;
	default:
		r = -1;
	}
	return r;
}

int gotos(int n)
{
	int k = 0;
again:
	if (k < n) {
		k += 2;
		goto again;
	}
	return k;
}

int jumps(int x)
{
	if (setjmp(env) == 0) {
		if (x > 0)
			longjmp(env, 1);
		return 0;
	}
	return x;
}
