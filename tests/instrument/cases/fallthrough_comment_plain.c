/* A comment before a case label that gcc does not take for a fall-through
 * marker: oniguruma's enc/mktable.c has comments reading just "fall" (gcc's
 * -Wimplicit-fallthrough=3, the level of -Wextra, wants "fall through",
 * "FALLTHRU"...), and gcc warns 8 times natively.  The fall-through edge's
 * code goes before the comment (cfgbuild/fallthrough.c, fall_off) and was
 * followed by kpath's own marker (kp_fallthrough, the attribute), which
 * silenced all 8 warnings in the instrumented build: a kpath-cc build
 * hid them.  Without the marker the comment still precedes the label and
 * gcc judges it as in the original: "fall" warns, "fall through" does not.
 * Where only null statements follow a label (null_case: "case 1: ;",
 * regexec.c's "fail: MOP_OUT;" with MOP_OUT empty, written out), nothing
 * falls through in the original and gcc does not warn: the code gets the
 * marker, with a comment before the label or not (without, the marker
 * was missing before, and gcc warned on the instrumented file only).
 * Step 5 of run_cases.sh checks that no warning is new and no fall-through
 * warning is lost.
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: is_alpha=9 count=4 null_case=7 */
#include <stdio.h>

static int is_alpha(int enc, int c)
{
	switch (enc) {
	case 0:
		if (c == 0xa3 || c == 0xb3)
			return 1;
		/* fall */
	case 1:
		if (c >= 0xc0 && c <= 0xff)
			return 1;
		break;
	default:
		return -1;
	}
	return 0;
}

static int count(int x)
{
	int n = 0;
	switch (x) {
	case 3:
		n++;
		/* fall through */
	case 2:
		n++;
		// next
	case 1:
		n++;
		break;
	default:
		n = -1;
	}
	return n;
}

static int null_case(int x, int c)
{
	switch (x) {
	case 1:
		if (c > 2)
			goto fail;
		return 1;
	fail:
		;
		/* fall */
	case 2:
		c--;
		break;
	case 3:
		;
	case 4:
		c++;
		break;
	case 5:
		c += 2;
		break;
	}
	return c;
}

int main(void)
{
	unsigned s = 0; /* wraps: a signed s overflowed (UBSan) */
	for (int enc = 0; enc < 3; enc++)
		for (int c = 0xa0; c < 0x100; c += 3)
			s = s * 3u + (unsigned)is_alpha(enc, c);
	for (int x = 0; x < 5; x++)
		printf("count(%d) = %d\n", x, count(x));
	for (int x = 0; x < 7; x++)
		printf("null_case(%d) = %d %d\n", x, null_case(x, x), null_case(x, 0));
	printf("s = %u\n", s);
	return 0;
}
