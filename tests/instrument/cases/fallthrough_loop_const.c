/* Falling out of a loop whose condition is a nonzero constant, through
 * a break, into a case label: gcc lowers "while (1)" and "do ... while
 * (1)" to end with the jump back and -Wimplicit-fallthrough (-Wextra)
 * does not warn there, but kpath, which does not fold the condition, has
 * its false edge and placed code after the loop, on which gcc warned
 * (dash's jobs.c, set_curjob: "do { ... break; ... } while (1); /\*
 * FALLTHROUGH *\/ #if JOBS case CUR_STOPPED:", whose comment gcc does not
 * take for a marker across the #if).  That code now gets our marker
 * (cfgbuild/expr.c, cannot_complete).  A loop with a condition that is
 * not constant keeps the original's warning.
 * expect: instrumented=2 skipped=0 cut=0
 * expect-paths: f=24 */
#include <stdio.h>

#define JOBS 1

static int f(int mode, int x)
{
	int r = 0;
	switch (mode) {
	case 0:
		while (1) {
			if (x > 3)
				break;
			x++;
		}
	case 1:
		r += x;
		break;
	case 2:
		do {
			if (x & 1)
				break;
			x >>= 1;
		} while (1);
		/* FALLTHROUGH */
#if JOBS
	case 3:
#endif
		r += 2 * x;
		break;
	case 4:
		while (x < 9)
			x += 2;
	case 5:
		r += 3 * x;
		break;
	case 6:
		for (;;) {
			if (x-- < 0)
				break;
		}
	default:
		r -= x;
	}
	return r;
}

int main(void)
{
	int s = 0;
	for (int m = 0; m < 8; m++)
		for (int x = -2; x < 12; x += 3)
			s += f(m, x) * (m + 1);
	printf("%d\n", s);
	return 0;
}
