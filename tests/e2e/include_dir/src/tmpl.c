/* include/lib/tmpl.h as a template, included twice (include_dir.sh, 7) */
#include <stdio.h>

#define TYPE int
#define TMPL_ONCE
#include "lib/tmpl.h"
#undef TYPE
#undef TMPL_ONCE

#define TYPE double
#include "lib/tmpl.h"

int main(void)
{
	int a[] = {3, 9, 2};
	double d[] = {1.5, -2, 0.25};
	printf("%d %g %d\n", max_int(a, 3), max_double(d, 3), tmpl_once(-4));
	return 0;
}
