/* Case labels inside nested blocks and loops (Duff's device and friends).
 * expect: instrumented=7 skipped=0 cut=0 */
#include <stdio.h>

static void duff(int *to, const int *from, int count)
{
	int n = (count + 7) / 8;
	switch (count % 8) {
	case 0: do { *to++ = *from++;
	case 7:      *to++ = *from++;
	case 6:      *to++ = *from++;
	case 5:      *to++ = *from++;
	case 4:      *to++ = *from++;
	case 3:      *to++ = *from++;
	case 2:      *to++ = *from++;
	case 1:      *to++ = *from++;
		} while (--n > 0);
	}
}

static int into_if(int x, int y)
{
	int r = 0;
	switch (x) {
	case 0:
		if (y) {
	case 1:
			r += 1;
		} else {
	case 2:
			r += 2;
		}
		break;
	default:
		for (r = 0; r < y; r++) {
	case 3:
			r += 10;
			if (r > 30)
				break;
		}
	}
	return r;
}

static int into_while(int x)
{
	int r = 0, n = 3;
	switch (x)
		while (n-- > 0) {
		case 0:
			r += 1;
		case 1:
			r += 2;
		default:
			r += 4;
		}
	return r;
}

static int gen(void)
{
	static int state = 0, i;
	switch (state) {
	case 0:
		for (i = 0; i < 4; i++) {
			state = 1;
			return i * i;
	case 1:;
		}
		state = 2;
		/* fall through */
	case 2:
		return -1;
	}
	return -2;
}

static int deep(int x)
{
	int r = 0;
	switch (x) {
		{
			{
	case 1:
				r = 1;
			}
		}
		do {
	default:
			r += 2;
			{
	case 2:
				r += 3;
			}
		} while (0);
	}
	return r;
}

static int label_and_case(int x)
{
	int r = 0;
	if (x > 10)
		goto L;
	switch (x) {
	case 1:
	L:
	case 2:
		r += 5;
		break;
	M: case 3:
		r += 7;
		if (r < 20)
			goto M;
		break;
	}
	return r;
}

int main(void)
{
	int src[20], dst[20], i, c;
	for (i = 0; i < 20; i++)
		src[i] = i * 3;
	for (c = 1; c <= 17; c++) {
		for (i = 0; i < 20; i++)
			dst[i] = -1;
		duff(dst, src, c);
		int s = 0;
		for (i = 0; i < 20; i++)
			s += dst[i];
		printf("duff %d %d\n", c, s);
	}
	for (i = 0; i < 5; i++)
		printf("into_if %d %d %d / while %d / deep %d / lc %d\n", i, into_if(i, 0), into_if(i, 5), into_while(i),
		       deep(i), label_and_case(i));
	printf("lc %d\n", label_and_case(11));
	for (i = 0; i < 7; i++)
		printf("gen %d\n", gen());
	return 0;
}

/* A label first in a block that a statement falls into (into_if's
 * "if (y) {", deep's "do {" and "{") gets the fall-through edge's code
 * right after the "{" and kpath's marker after it, which also quiets the
 * warning gcc gives there on the original (three of them): the marker is
 * needed where nothing falls through in the original (into_while's loop
 * back to "case 0:"), and telling these apart is gcc's own analysis.
 * expect-lost-fallthrough: 3 */
