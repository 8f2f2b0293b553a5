/* Calls across files (tests/overlapmode/CMakeLists.txt, overlapmode.calls_xfile):
 * main calls into xfile_b.c (a leaf, a loop, a recursive function), into
 * xfile_c.c (not instrumented, which calls back into xfile_b.c) and through
 * a pointer; xfile_b.c calls back into xf_scale here. */
#include <stdio.h>

#include "xfile.h"

static unsigned mix(unsigned x)
{
	x ^= x >> 7;
	return x * 2654435761u;
}

unsigned xf_scale(unsigned x)
{
	if (x & 16u)
		return x * 3u;
	return x + 1u;
}

int main(void)
{
	unsigned i, s = 0;
	unsigned (*fp)(unsigned) = xf_cb;
	for (i = 0; i < 300u; i++) {
		unsigned x = mix(i);
		if (x & 4u)
			s += xf_leaf(x);
		else
			s ^= xf_loop(x, i & 3u);
		s += xf_rec(x & 7u);
		if (i & 1u)
			s += xf_native(x);
		s += fp(s);
		if (s & 64u)
			s += mix(s) & 1u;
	}
	printf("%u\n", s);
	return 0;
}
