/* A fall-through attribute before a label that gcc would not warn about
 * falling into ("case 0: break;", or after a statement that compiles to
 * nothing): kpath's code for the edge goes before the attribute, and no
 * marker of kpath's goes with it, since the attribute is the marker (zstd's
 * ZSTD_writeFrameHeader: "default: assert(0); ZSTD_FALLTHROUGH; case 0 :
 * break;", ZSTD_FALLTHROUGH being "; __attribute__((__fallthrough__))":
 * kpath's marker before it drew gcc's "attribute 'fallthrough' not
 * preceding a case label").  Written out, through a macro like zstd's, and
 * with a statement that compiles to nothing first.
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: zstd_like=8 plain=4 nothing_first=3 */
#include <stdio.h>

#define assert_off(c) ((void)0)
#define FT ; __attribute__((__fallthrough__))

static int zstd_like(unsigned code, unsigned id)
{
	unsigned char op[8] = {0};
	int pos = 0;
	if (id > 9)
		pos = 1;
	switch (code) {
	default:
		assert_off(0); /* impossible */
		FT;
	case 0: break;
	case 1: op[pos] = (unsigned char)id; pos++; break;
	case 2: op[pos] = (unsigned char)(id >> 8); pos += 2; break;
	}
	return pos + op[0] + op[1];
}

static int plain(int x)
{
	int r = 0;
	switch (x) {
	case 5:
		r = 3;
		__attribute__((fallthrough));
	case 0:
		break;
	case 1:
		r = 1;
		break;
	default:
		r = -1;
	}
	return r;
}

static int nothing_first(int x)
{
	int r = 0;
	switch (x) {
	default:
		assert_off(x);
		__attribute__((fallthrough));
	case 0:
		r += 4;
		break;
	case 1:
		r += 2;
	}
	return r;
}

int main(void)
{
	for (unsigned c = 0; c < 4; c++)
		printf("%d %d %d %d\n", zstd_like(c, c * 7), zstd_like(c, 300 + c), plain((int)c + 3 * (c == 3)),
		       nothing_first((int)c));
	return 0;
}
