/* The callee of xexact_a.c: odd and even arguments take its two paths. */
unsigned ex_g(unsigned x);

unsigned ex_g(unsigned x)
{
	if (x & 1u)
		return x;
	return x + 2u;
}
