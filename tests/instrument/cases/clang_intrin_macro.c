/* A macro with control flow whose body invokes an intrinsic that clang's
 * own header defines as a macro and gcc's as an inline function
 * (_mm_alignr_epi8: clang expands it to __builtin_ia32_palignr128 on
 * 16-byte vectors and a byte count, gcc's builtin of that name takes two
 * 64-bit-element vectors and a bit count).  Writing the invocation out as
 * clang's expansion gave gcc a call it rejects (libsodium's
 * argon2-fill-block-ssse3.c, BLAKE2_ROUND's DIAGONALIZE), or, for a builtin
 * of the same signature, could give it another computation: the function
 * is skipped.  The macro without control flow stays an invocation.
 * expect: instrumented=3 skipped=1 cut=0
 * expect-skip: rotate_all */
#include <stdio.h>
#include <string.h>
#include <tmmintrin.h>

#define ROTATE(v, w, n)                          \
	do {                                         \
		if (n)                                   \
			v = _mm_alignr_epi8(v, w, 8);        \
	} while (0)

#define SHIFT(v, w) _mm_alignr_epi8(v, w, 4)

__attribute__((target("ssse3"))) static void rotate_all(__m128i *v, __m128i w, int n)
{
	for (int i = 0; i < n; i++)
		ROTATE(v[i], w, i & 1);
}

__attribute__((target("ssse3"))) static void shift_all(__m128i *v, __m128i w, int n)
{
	for (int i = 0; i < n; i++)
		if (i & 1)
			v[i] = SHIFT(v[i], w);
}

static void show(const __m128i *v, int n)
{
	for (int i = 0; i < n; i++) {
		unsigned char b[16];
		memcpy(b, &v[i], 16);
		for (int k = 0; k < 16; k++)
			printf("%02x", b[k]);
		printf("\n");
	}
}

int main(void)
{
	__m128i v[4], w = _mm_set1_epi8(0x5a);
	for (int i = 0; i < 4; i++)
		v[i] = _mm_set_epi32(i, i + 1, i + 2, i + 3);
	rotate_all(v, w, 4);
	show(v, 4);
	shift_all(v, w, 4);
	show(v, 4);
	return 0;
}
