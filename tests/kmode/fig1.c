/* Roy & Srikant, CGO 2009, Figure 1, as C: blocks 1 -> 2; 2 -> 3 | 4;
 * 3 -> 5; 4 -> 5 | 6; 5 -> 2 (back edge) | 6; 6.  The run takes
 * 1-(2-3-5-2-4-5)^100-6.  The branches are written so that kpath's
 * out-edge order (cfgbuild/cfg.h: an else, a fall-through or a loop's
 * exit edge first) gives the paper's numbering (Figure 5). */
#include <stdio.h>

int main(void)
{
	int i = 0, s = 0;                /* 1 */
	do {
		if (i % 2) {             /* 2 */
			s += 2;          /* 4 */
			if (s > 1000000)
				break;
		} else {
			s += 1;          /* 3 */
		}
	} while (++i < 200);             /* 5 */
	printf("%d %d\n", i, s);         /* 6 */
	return 0;
}
