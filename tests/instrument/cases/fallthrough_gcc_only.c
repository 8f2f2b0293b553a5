/* A fall-through attribute that only gcc sees: libbacktrace's internal.h
 * (and libiberty's ansidecl.h) define ATTRIBUTE_FALLTHROUGH as
 * __attribute__ ((__fallthrough__)) when GCC_VERSION >= 7000 and as
 * nothing otherwise, and libclang, which kpath parses with, says
 * __GNUC__ 4.  For kpath "ATTRIBUTE_FALLTHROUGH;" is then a null
 * statement after an identifier; the fall-through edge's code went after
 * it, right before the case label, and gcc warned twice per use ("attribute
 * 'fallthrough' not preceding a case label", "this statement may fall
 * through") on the instrumented file only: 16 warnings in libbacktrace's
 * elf.c.  Such a null statement is placed like an attribute
 * (cfgbuild/stmt.c, fallthrough.c): the code goes before it.  Step 5 of
 * run_cases.sh checks that no warning is new.
 * expect: instrumented=3 skipped=0 cut=0
 * expect-paths: expand=4 skip=2 */
#include <stdio.h>

#define GCC_VERSION (__GNUC__ * 1000 + __GNUC_MINOR__)
#if GCC_VERSION >= 7000 && !defined(__clang__)
#define ATTRIBUTE_FALLTHROUGH __attribute__ ((__fallthrough__))
#else
#define ATTRIBUTE_FALLTHROUGH
#endif
#define NOTHING

static int expand(int c, int *out)
{
	int n = 0;
	switch (c) {
	case 3:
		out[n++] = 7;
		ATTRIBUTE_FALLTHROUGH;
	case 2:
		out[n++] = 5;
		ATTRIBUTE_FALLTHROUGH;
	case 1:
		out[n++] = 3;
		break;
	default:
		break;
	}
	return n;
}

static int skip(int x)
{
	int r = 0;
	if (x > 2)
		r = x;
	NOTHING;
	return r;
}

int main(void)
{
	int out[3];
	for (int c = 0; c < 5; c++)
		printf("%d ", expand(c, out));
	printf("%d %d\n", skip(1), skip(5));
	return 0;
}
