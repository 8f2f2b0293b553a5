/* An empty macro between a case label and its statement: flex's
 * scanners, "case 1:\n YY_RULE_SETUP\n { ... }" with YY_USER_ACTION
 * empty.  The label's site went right before the statement, where the
 * ":" had to be: the function failed, "case label inside a macro
 * expansion", and its macros had to be written out, which an assert
 * written over two lines (glibc's has an if; __LINE__) prevents (flex's
 * tests/quotes.c, testlex, the whole scanner skipped).  The site now goes
 * after the ":" when only macro invocations, which expand to nothing, lie
 * between (cfgbuild/stmt.c, label_colon).
 * expect: instrumented=2 skipped=0 cut=0
 * expect-paths: f=5 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#define SETUP
#define ACTION(x)

static int f(int c)
{
	int r = 0;
	switch (c) {
	case 1:
	SETUP
	{
		assert(!strcmp("]]m4_define(alpha, beta)[[",
		               "]""]m4_""define(alpha, beta)[""["));
		r = 1;
		break;
	}
	case 2: ACTION(r = 5) ACTION((a, b)) SETUP
		if (c > 1)
			r = 2;
	case 3:
	SETUP
		break;
	default:
	SETUP
	return 0;
	}
	return r;
}

int main(void)
{
	for (int i = 0; i < 5; i++)
		printf("%d\n", f(i));
	return 0;
}
