/* array.c: capacities of the growable array (array.h). */
#include "array.h"
#include "xalloc.h"

#include <stdint.h>

/* Capacities stay below 2^31 so that every caller's CAP type holds them. */
#define ARRAY_MAX ((size_t)INT32_MAX)

size_t kp_array_cap(size_t cap, size_t need)
{
	size_t c = cap ? cap : 16;

	if (need > ARRAY_MAX)
		xalloc_fail();
	while (c < need)
		c = c > ARRAY_MAX / 2 ? ARRAY_MAX : 2 * c;
	return c;
}

void *kp_array_grow(void *arr, size_t cap, size_t need, size_t elem)
{
	size_t c = kp_array_cap(cap, need);

	if (elem && c > SIZE_MAX / elem)
		xalloc_fail();
	return xrealloc(arr, c * elem);
}
