/* pathtext.c: see pathtext.h. */
#include "pathtext.h"

#include <stdio.h>

void path_blocks(const struct ki_graph *g, const uint32_t *edges, size_t len, const char *const *label, char *buf,
                 size_t cap)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t j = 0; j <= len && at < cap; j++) {
		uint32_t v;
		if (j == 0) {
			if (!len || g->edges[edges[0]].src == KI_START)
				continue;
			v = g->edges[edges[0]].src;
		} else if (j == len) {
			break;
		} else {
			v = g->edges[edges[j - 1]].dst;
		}
		at += (size_t)snprintf(buf + at, at < cap ? cap - at : 0, "%s%s", at ? "-" : "", label[v]);
	}
	(void)at;
}
