/*
 * oracle.c: see oracle.h.  The current path is always a contiguous range of
 * the run (a cut only ever drops a prefix of it), so it is kept as the index
 * of its first edge.
 */
#include "oracle.h"

#include <stdlib.h>
#include <string.h>

size_t oracle_cut(const struct ki_numbering *n, const uint32_t *run, size_t len,
                  struct oracle_path *out, size_t cap)
{
	const struct ki_graph *g = n->g;
	size_t cur = 0, prefix = 0, m = 0, count = 0;
	size_t *iter = malloc((len + 2) * sizeof *iter); /* iter[j]: first edge of I_j */
	uint32_t visit = KI_NONE;                           /* loop of the current visit */

	for (size_t p = 0; p < len; p++) {
		const struct ki_edge *e = &g->edges[run[p]];
		uint32_t Lu = n->kloop[e->src], Lv = n->kloop[e->dst];
		/* rule 3: back edge b_m of the visited loop */
		if (visit != KI_NONE && e->back && e->dst == n->loops[visit].head && Lu == visit) {
			unsigned K = n->loops[visit].k;
			m++;
			if (m >= K) {
				if (count < cap)
					out[count] = (struct oracle_path){ m == K ? prefix : iter[m - K + 1], p };
				count++;
			}
			iter[m + 1] = p + 1;
			continue;
		}
		/* rule 3: the exit edge ends the visit */
		if (visit != KI_NONE && Lv != visit) {
			unsigned K = n->loops[visit].k;
			cur = m + 1 <= K ? prefix : iter[m - K + 2];
			visit = KI_NONE;
		}
		/* rule 3: an entry edge begins a visit; P includes it */
		if (Lv != KI_NONE && Lu != Lv) {
			visit = Lv;
			prefix = cur;
			m = 0;
			iter[1] = p + 1;
		}
		if (e->back) { /* rule 2: acyclic loop */
			if (count < cap)
				out[count] = (struct oracle_path){ cur, p };
			count++;
			cur = p + 1;
		} else if (e->dst == KI_END) { /* rule 4 */
			if (count < cap)
				out[count] = (struct oracle_path){ cur, p };
			count++;
		}
	}
	free(iter);
	return count;
}

void oracle_blocks(const struct ki_graph *g, const uint32_t *edges, size_t len,
                   const char *const *label, char *buf, size_t cap)
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
