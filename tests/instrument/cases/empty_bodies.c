/* Empty braced bodies "{}": the code entering a body and the code leaving
 * it share one offset and must run in that order.
 * expect: instrumented=8 skipped=0 cut=0 */
#include <stdio.h>

static int w(int n) { while (n-- > 0) {} return n; }
static int f(int n) { int k; for (k = 0; k < n; k++) {} return k; }
static int d(int n) { int k = 0; do {} while (k++ < n); return k; }
static int i(int n) { if (n) {} else {} if (n > 1) {} return n; }
static void v(void) {}
static int nested(int n) { while (n-- > 0) { {} } for (; n < 3; n++) { { } {} } return n; }
static void empty_switch_in_loop(int n) { while (n-- > 0) { switch (n) {} } }

int main(void)
{
	v();
	for (int k = 0; k < 4; k++) {
		empty_switch_in_loop(k);
		printf("%d: %d %d %d %d %d\n", k, w(k), f(k), d(k), i(k), nested(k));
	}
	return 0;
}
