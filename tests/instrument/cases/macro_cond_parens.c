/* A loop condition whose parentheses a macro spells: libxml2's
 * xmlschemastypes.c, "while IS_WSP_BLANK_CH(*cur) cur++;", the macro
 * expanding to "(((c) == 0x20) || ...)".  The function was skipped,
 * "condition inside a macro expansion", and the retry with the macros
 * written out said "none of the invocations in its own text holds control
 * flow (the file includes itself, or a macro's name comes from another
 * file)", which was not the case (5 functions of xmlschemastypes.c).  The
 * condition's sites now wrap the invocation in parentheses of their own
 * (cfgbuild/stmt.c, cond_range; tokens.c, macro_cond_last), for while and
 * do-while; the macro's || stays atomic, as in any invocation.
 * expect: instrumented=5 skipped=0 cut=0
 * expect-paths: skip=4 count=4 both=13 back=6 */
#include <stdio.h>
#include <string.h>

#define IS_BLANK(c) (((c) == 0x20) || ((c) == 0x9))
#define IS_WSP(c) IS_BLANK(c)
#define MORE (n < 3)

static int skip(const char *cur)
{
	int n = 0;
	while IS_WSP(*cur)
		cur++, n++;
	return n;
}

static int count(const char *cur)
{
	int n = 0;
	do
		n++;
	while IS_BLANK(*cur++);
	return n;
}

static int both(const char *cur)
{
	int n = 0;
	while MORE {
		if IS_BLANK(*cur)
			n++;
		cur++;
		n++;
	}
	while IS_BLANK(*cur) {
		cur++;
		if (*cur == 'x')
			break;
	}
	return n + (*cur == 'x');
}

static int back(const char *s)
{
	int n = 0;
	const char *cur = s;
	do {
		if (*cur == 0)
			break;
		n++;
	} while IS_WSP(*cur++);
	return n;
}

int main(void)
{
	const char *in[] = {"  \tx", "x", "", " \t x", "\t\t\t", "x y"};
	for (unsigned i = 0; i < sizeof in / sizeof *in; i++) {
		char buf[16] = {0}; /* both() reads three bytes whatever the string */
		strcpy(buf, in[i]);
		printf("%d %d %d %d\n", skip(buf), count(buf), both(buf), back(buf));
	}
	return 0;
}
