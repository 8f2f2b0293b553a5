/* Functions a macro defines, with fall-through comments in the macro's
 * definition (expat's DEFINE_UTF16_TO_UTF8): gcc's -Wimplicit-fallthrough
 * (-Wextra) honours such a comment inside a #define, so the written-out
 * expansion must keep it, or the instrumented file warns where the
 * original does not.  Comments without "fall" are dropped from the
 * expansion, a line comment ending the definition too; a function whose
 * macro has no comment warns in both (the same warning).
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: conv_a=7 conv_b=7 plain_c=3 */
#include <stdio.h>

#define DEFINE_CONV(name, k) \
static int name(int x) \
{ \
	int r = 0; \
	/* a comment that is not a marker: \
	# not a directive */ \
	switch (x & 3) { \
	case 0: \
		r += k; \
		/* fall through */ \
	case 1: \
		r += 2 * k; \
		/* FALLTHRU */ \
	case 2: \
		if (r > 5) \
			r--; \
		break; \
	default: \
		r = -k; \
	} \
	return r; \
}

#define DEFINE_PLAIN(name) \
static int name(int x) \
{ \
	if (x > 2) \
		return x; \
	return x > 1 ? 1 : 0; \
} // a line comment ending the definition

DEFINE_CONV(conv_a, 3)
DEFINE_CONV(conv_b, 7)
DEFINE_PLAIN(plain_c)

int main(void)
{
	int s = 0;
	for (int i = 0; i < 12; i++)
		s += conv_a(i) * 3 + conv_b(i) + plain_c(i);
	printf("%d\n", s);
	return 0;
}
