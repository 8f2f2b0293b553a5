/*
 * overlap_internal.h: what the overlap core's files share and nothing
 * else calls.
 */
#ifndef KPATH_OVERLAP_INTERNAL_H
#define KPATH_OVERLAP_INTERNAL_H

#include <stddef.h>

/* calloc that never returns NULL (aborts: the tool writes nothing then). */
void *ol_xcalloc(size_t n, size_t size);

#endif
