/* Falling into a case whose statement is only "break;": gcc
 * -Wimplicit-fallthrough does not warn there (gawk's symbol.c: "case
 * Op_illegal: cant_happen(...); default: break;"), but it did on the
 * instrumented file, whose label is followed by kpath's code before the
 * break; the fall-through edge's code now gets kpath's marker
 * (cfgbuild/fallthrough.c, jump_only).  Falling into a case with more than a
 * break keeps the original's warning.
 * expect: instrumented=3 skipped=0 cut=0
 * expect-paths: f=7 */
#include <stdio.h>

static int calls;

static void note(const char *s)
{
	calls += s[0];
}

static int f(int t)
{
	int r = 0;
	switch (t) {
	case 0:
		note("x");
	case 1:
		if (t == 1)
			note("y");
		r = 1;
		break;
	case 2:
		note("z");
	case 3:
	default:
		break;
	}
	return r;
}

int main(void)
{
	for (int t = 0; t < 5; t++)
		printf("%d %d\n", f(t), calls);
	return 0;
}
