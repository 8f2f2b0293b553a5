#include "../include/lib/util.h"
int b_main(int k)
{
	say("b", sum_odd(k * 4));
	say("b", -k);
#ifdef UTIL_EXTRA
	say("b extra", extra(k * 100));
#endif
	return 0;
}
