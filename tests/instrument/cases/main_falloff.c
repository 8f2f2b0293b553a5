/* main falls off its end (returns 0, C11 5.1.2.2.3); a non-void function
 * whose end is reached only when its value is unused; an empty main-like
 * helper.
 * expect: instrumented=3 skipped=0 cut=0 */
#include <stdio.h>

static int maybe(int x)
{
	if (x > 0)
		return x;
	printf("no value for %d\n", x);
}

static int counter;
static void bump(void) { counter++; }

int main(void)
{
	int t = 0;
	for (int i = -2; i < 3; i++)
		if (i > 0)
			t += maybe(i);
		else
			maybe(i);
	bump();
	printf("t %d counter %d\n", t, counter);
	while (t > 0)
		t -= 2;
}
