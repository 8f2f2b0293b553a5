/* What gcc accepts and libclang rejects unless told (libquadmath, GCC
 * 12.2): an asm output operand that casts its lvalue, as longlong.h's
 * umul_ppmm writes it (clang: "invalid use of a cast in a inline asm
 * context requiring an lvalue"), and gcc's __float128 builtin
 * __builtin_huge_valq ("use of unknown builtin").  Before, kpath refused
 * the file ("does not compile"), and kpath-cc compiled it unprofiled.
 * expect: instrumented=3 skipped=0 cut=0 */
#include <stdio.h>

typedef unsigned long long uw;

#if defined(__x86_64__)
#define umul_ppmm(w1, w0, u, v) \
	__asm__("mulq %3" : "=a"((uw)(w0)), "=d"((uw)(w1)) : "%0"((uw)(u)), "rm"((uw)(v)))
#else
#define umul_ppmm(w1, w0, u, v) \
	do { \
		unsigned __int128 p_ = (unsigned __int128)(u) * (v); \
		(w1) = (uw)(p_ >> 64); \
		(w0) = (uw)p_; \
	} while (0)
#endif

static uw high_or_low(uw a, uw b)
{
	uw hi, lo;
	umul_ppmm(hi, lo, a, b);
	if (hi)
		return hi;
	return lo;
}

static int is_huge(__float128 x, int neg)
{
	__float128 h = neg ? -__builtin_huge_valq() : __builtin_huge_valq();
	return x == h;
}

int main(void)
{
	uw s = 0;
	int n = 0;
	for (uw i = 1; i < 50; i++)
		s += high_or_low(i << 58, i * 3);
	n += is_huge(1.0Q / 0.0Q, 0) + is_huge(-1.0Q / 0.0Q, 1) + is_huge(2.0Q, 1);
	printf("%llu %d\n", s, n);
	return 0;
}
