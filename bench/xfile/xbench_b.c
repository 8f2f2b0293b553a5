/* The callees of xbench_a.c. */
unsigned xb_leaf(unsigned x);
unsigned xb_sum(unsigned x, unsigned n);

unsigned xb_leaf(unsigned x)
{
	if (x & 8u)
		return x + 1u;
	return x ^ 5u;
}

unsigned xb_sum(unsigned x, unsigned n)
{
	unsigned r = 0;
	while (n--) {
		if (x & 1u)
			r += x;
		x >>= 1;
	}
	return r;
}
