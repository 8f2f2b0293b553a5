/* A macro invocation written out right after a '/': the marker comment
 * that precedes the expansion must not make "//" (a line comment that
 * took the rest of the line, and the function was skipped as "reads
 * differently when preprocessed again"; opus 1.3.1's analysis.c,
 * tonality_analysis: "alphaE = 1.f/IMIN(25, 1+tonal->count);", IMIN's
 * ?: written out).
 * expect: instrumented=3 skipped=0 cut=0
 * expect-paths: g=8 */
#include <stdio.h>
#include <stdlib.h>

#define IMIN(a, b) ((a) < (b) ? (a) : (b)) /**< Minimum int value. */
#define FATAL(str) fatal(str, __FILE__, __LINE__);
#define check(cond) {if (!(cond)) {FATAL("assertion failed: " #cond);}}

static void fatal(const char *s, const char *f, int l)
{
	fprintf(stderr, "%s %s %d\n", s, f, l);
	abort();
}

static float g(int x)
{
	float a = 1.f/IMIN(25, 1 + x), b = 2.f /IMIN(x, 3);
	check(x <= 19);
	return a + b;
}

int main(void)
{
	printf("%.4f %.4f %.4f\n", g(1), g(5), g(30 - 11));
	return 0;
}
