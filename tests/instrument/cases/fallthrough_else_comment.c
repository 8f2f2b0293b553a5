/* A case label that is the brace-less body of an else or an if, after a
 * fall-through comment (gawk's debug.c, set_breakpoint: "else /\* fall
 * through *\/ case D_int:").  kpath braces the body and places the
 * fall-through edge's code after the "{", between the comment and the
 * label, where gcc -Wimplicit-fallthrough (-Wextra) no longer saw the
 * comment: a new warning.  That code now gets kpath's marker
 * (cfgbuild/fallthrough.c, fall_off).
 * expect: instrumented=2 skipped=0 cut=0
 * expect-paths: f=7 */
#include <stdio.h>

static int f(int t, int c)
{
	int r = 0;
	switch (t) {
	case 2:
		r = 3;
		if (c)
			return 6;
		else
			/* fall through */
	case 3:
		r += 4;
		break;
	case 4:
		r = 1;
		if (c > 1) // FALLTHRU
	case 5:
			r += 5;
		break;
	}
	return r;
}

int main(void)
{
	for (int t = 2; t < 6; t++)
		printf("%d %d %d\n", f(t, 0), f(t, 1), f(t, 2));
	return 0;
}
