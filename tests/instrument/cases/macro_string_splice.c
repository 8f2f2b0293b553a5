/* A string literal continued with a backslash-newline inside a macro
 * invocation written out (binutils' readelf.c: printf (_("Key to
 * Flags:\n\ ...")) in process_section_headers).  The marked copy flattened
 * the invocation but kept the literal's line splices, and added the
 * region's newlines after it: every later line moved down, __LINE__ (an
 * assert) read differently, and the function was skipped ("its expansion
 * depends on the invocation's layout").
 * expect: instrumented=2 skipped=0 cut=0 */
#include <stdio.h>

static int verbose = 1;
#define SAY(s) do { if (verbose) fputs(s, stdout); } while (0)

static int report(int x)
{
	SAY("key:\n\
  a (first),\n\
  b (second)\n");
	if (x > 2)
		return __LINE__;
	SAY(x ? "one\n" : "zero\n");
	return x;
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 4; i++)
		s += report(i);
	printf("%d\n", s);
	return 0;
}
