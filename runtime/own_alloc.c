/*
 * own_alloc.c: the runtime's strdup.  In libkpath_rt.a the runtime's
 * malloc, calloc, realloc and free are bound to the C library's own
 * allocator (__libc_malloc ...: runtime/CMakeLists.txt), never to a malloc
 * the program defines or preloads, so that the library halves of an item
 * run none of the program's code (kpath_rt.h, KPATH_RT_CLOB_ITEM).  The
 * C library's strdup allocates with the malloc the program sees, which
 * the runtime's free then must not free: its calls to strdup are bound
 * here instead, where malloc is the runtime's.
 */
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

char *kp_rt_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	return d ? memcpy(d, s, n) : NULL;
}
