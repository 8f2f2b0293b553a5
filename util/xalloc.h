/*
 * xalloc.h: allocation for the kpath tool (not the runtime, which must never
 * exit a user's program): on failure, "kpath: out of memory" and exit 1.
 * A size of 0 allocates 1 byte, so a NULL result never means "empty".
 */
#ifndef KPATH_XALLOC_H
#define KPATH_XALLOC_H

#include <stddef.h>

void *xrealloc(void *p, size_t n);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
/* "kpath: out of memory" and exit 1. */
void xalloc_fail(void);

#endif
