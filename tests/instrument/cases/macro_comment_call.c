/* A macro whose body ends with a function-like macro's name and then a
 * comment (PCRE2 10.42's pcre2posix_test.c: "#define PRINTF if (v) printf
 * / * Shorthand ... * /", printf a macro under clang's _FORTIFY_SOURCE):
 * clang -E -CC (and gcc's) keeps the comment as a token, which stands
 * between the name and the "(" after the invocation, so that the name is
 * not invoked: the original's tokens with comments are not the program's.
 * The write-out compares them with those without comments
 * (frontend/expand.c, cc_damaged) and, as they differ, preprocesses this
 * file without comments.  Without the comparison, main was skipped: "its
 * expansion reads differently when preprocessed again (show expands once
 * more: a self-referential macro?)".
 * expect: instrumented=2 skipped=0 cut=0
 * expect-paths: main=2 */
#include <stdio.h>

#define show(x) printf("%d\n", (x))
#define SHOW if (v) show     /* shorthand */

static int twice(int x)
{
	return x > 3 ? 2 * x : x;
}

int main(int argc, char **argv)
{
	int v = argc > 0;
	(void)argv;
	SHOW(twice(5));
	return 0;
}
