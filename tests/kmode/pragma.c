/* tests/kmode/pragma.c: #pragma kpath kiter(K) on loop statements
 * (docs/kiter-mode.md), run at --kiter 2: the for of line 18 at K = 3, the
 * while of line 25 acyclic (kiter(0)), the do of line 32 at K = 1, the
 * inner for of line 44 at K = 4 and its outer for (line 42, not innermost)
 * acyclic whatever its pragma says; the last loop keeps --kiter.  A pragma
 * in a comment or in a skipped #if is no pragma:
 * #pragma kpath kiter(9)
 */
#include <stdio.h>

#if 0
#pragma kpath kiter(nonsense)
#endif
static int walk(int n)
{
	int s = 0, i, j;
#pragma kpath kiter(3)
	for (i = 0; i < n; i++) {
		if (i % 3 == 0)
			s += i;
		else
			s -= 1;
	}
	#  pragma   kpath   kiter( 0 ) /* acyclic */
	while (n > 0) {
		if (n % 4)
			s++;
		n--;
	}
	j = 0;
#pragma kpath kiter(1)
	do {
		j += j & 1 ? 1 : 2;
	} while (j < 9);
	return s + j;
}

static int grid(int n)
{
	int s = 0, i, j;
#pragma kpath kiter(2)
	for (i = 0; i < n; i++)
#pragma kpath kiter(4)
		for (j = 0; j < n; j++)
			s += (i ^ j) & 1 ? i : -j;
	for (i = 0; i < n; i++)
		s += i % 2 ? 1 : 3;
	return s;
}

int main(void)
{
	printf("%d %d\n", walk(13), grid(7));
	return 0;
}
