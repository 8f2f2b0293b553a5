/* The callees of xfile_a.c (tests/overlapmode/xfile.h). */
#include "xfile.h"

static unsigned helper(unsigned x)
{
	return x & 1u ? x + 3u : x;
}

unsigned xf_leaf(unsigned x)
{
	if (x & 8u)
		return x + 1u;
	return x ^ 5u;
}

unsigned xf_loop(unsigned x, unsigned n)
{
	unsigned r = 0;
	while (n--) {
		if (x & 2u)
			r += helper(x);
		else
			r += xf_scale(x);
		x >>= 1;
	}
	return r;
}

unsigned xf_rec(unsigned d)
{
	unsigned r;
	if (d == 0)
		return 1u;
	if (d & 1u)
		r = xf_rec(d - 1) + 2u;
	else
		r = xf_rec(d - 1) * 3u;
	return r;
}

unsigned xf_cb(unsigned x)
{
	if (x & 32u)
		return x >> 1;
	return x + 7u;
}
