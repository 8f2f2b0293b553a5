/* include/lib/gen.h: functions a macro defines in a header (include_dir.sh, 9) */
#include <stdio.h>
#include "lib/gen.h"

int main(void)
{
	int f[2];
	set_0(f, 3);
	set_1(f, -4);
	printf("%d %d %d\n", get_0(f), get_1(f), plain_gen(get_1(f)));
	return 0;
}
