#include <lib/util.h>
int b_main(int);
int main(void)
{
	for (int i = -2; i < 12; i += 3)
		say("a", clampi(sum_odd(i), -1, 20));
	return b_main(3);
}
