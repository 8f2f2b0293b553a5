#pragma once
#include <stdio.h>
#define ODD_PART(i) ((i) & 1 ? (i) : 0)
static inline void say(const char *what, int v)
{
	if (v < 0)
		printf("%s: negative, from %s line %d\n", what, __FILE__, __LINE__);
	else
		printf("%s: %d\n", what, v);
}
