/* Not instrumented (tests/overlapmode/xfile_a.c): calls back into xfile_b.c. */
#include "xfile.h"

unsigned xf_native(unsigned x)
{
	return xf_cb(x) + 1u;
}
