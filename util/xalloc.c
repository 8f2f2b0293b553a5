/* xalloc.c: allocation that exits on failure, for the tool (xalloc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void xalloc_fail(void)
{
	fputs("kpath: out of memory\n", stderr);
	exit(1);
}

static void *check(void *p)
{
	if (!p)
		xalloc_fail();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	return check(realloc(p, n ? n : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}
