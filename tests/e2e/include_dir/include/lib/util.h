/* Functions defined in a header under --include-dir: instrumented in every
 * file that includes it, as separate profile entries. */
#ifndef UTIL_H
#define UTIL_H
#include "base.h" /* a nested include, resolved next to this header */
static inline int clampi(int x, int lo, int hi)
{
	if (x < lo)
		return lo;
	if (x > hi)
		return hi;
	return x;
}
static inline int sum_odd(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (i > 40)
			break;
		s += ODD_PART(i);
	}
	return s;
}
#ifdef UTIL_EXTRA
static inline int extra(int n)
{
	while (n > 10)
		n /= 2;
	return n;
}
#endif
#endif
