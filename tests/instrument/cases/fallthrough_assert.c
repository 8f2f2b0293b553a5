/* A case label after a statement that cannot complete once gcc folds its
 * constant condition: glibc's assert(0 && "..."), a statement expression
 * "if (0) ; else __assert_fail (...)", and a ?: with a constant condition
 * and a noreturn arm.  kpath, which does not fold, has a fall-through edge
 * there and places its code before the label; gcc -Wimplicit-fallthrough
 * (-Wextra) warned on that code where the original draws no warning (jq's
 * jv_aux.c, jvp_cmp: "default: assert(0 && ...); case JV_KIND_NULL:").
 * The code now gets our marker (cfgbuild/expr.c, cannot_complete).  The
 * fall-throughs gcc does warn on keep their warnings: after an if whose
 * condition is not constant, after a plain statement.
 * expect: instrumented=3 skipped=0 cut=0
 * expect-paths: kind=11 block_end=4 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

#define DIE_IF(c) ((c) ? abort() : (void)0)
#define UNREACHABLE() (1 ? abort() : (void)0)

static int kind(int k)
{
	int r = 0;
	switch (k) {
	default:
		assert(0 && "bad kind");
	case 1:
	case 2:
		r = 1;
		break;
	case 3:
		if (k > 2)
			abort();
	case 4:
		r = 4;
		break;
	case 5:
		r = 5;
	case 6:
		r += 6;
		break;
	case 7:
		UNREACHABLE();
	case 8:
		DIE_IF(k == 8);
	case 9:
		r = 9;
	}
	return r;
}

static int block_end(int k)
{
	switch (k) {
	case 0: {
		r0:
		assert(!"unreachable");
	}
	case 1:
		return 1;
	default:
		if (k < 0)
			goto r0;
		return 2;
	}
}

int main(void)
{
	printf("%d %d %d %d %d %d\n", kind(1), kind(2), kind(4), kind(5), kind(6), kind(9));
	printf("%d %d\n", block_end(1), block_end(5));
	return 0;
}
