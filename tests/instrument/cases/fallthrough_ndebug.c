/* A case label whose statement compiles to nothing: assert under NDEBUG,
 * "((void) (0))" (gawk's support/dfa.c: "case LPAREN: case RPAREN:
 * assert (!\"...\"); case EMPTY:").  gcc treats such a case as empty and
 * does not warn; kpath placed the fall-through edge's code after it
 * without its marker, and gcc -Wimplicit-fallthrough (-Wextra) warned on
 * that code (cfgbuild/stmt.c, no_code).  A statement with code before
 * such an assert keeps the original's warning.
 * expect: instrumented=2 skipped=0 cut=0
 * expect-paths: f=6 */
#define NDEBUG 1
#include <assert.h>
#include <stdio.h>

static int f(int t)
{
	int r = 0;
	switch (t) {
	case 1:
	case 2:
		assert(!"neither 1 nor 2 may appear here");
	case 3:
		r += 3;
		break;
	case 4:
		r = 4;
		assert(r == 4);
	case 5:
		r += 5;
		break;
	}
	return r;
}

int main(void)
{
	for (int t = 0; t < 7; t++)
		printf("%d\n", f(t));
	return 0;
}
