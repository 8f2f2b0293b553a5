/*
 * kiter_cut.c: the definition of a run's k-iteration paths
 * (docs/kiter-paths.md, "A run's k-iteration paths", rules 1-4), applied to
 * a run's edge sequence.  Independent of the numbering's weights and of the
 * counters of Algorithm 3 (kiter_exec.c): only the loop structure (heads,
 * K, which k-iteration loop holds each node) is taken from the numbering.
 * It is the oracle the tests compare ki_exec with, and the way to derive a
 * k-iteration profile from a traced run.
 *
 * The current path is always a contiguous range of the run (a cut only ever
 * drops a prefix of it), so it is kept as the index of its first edge.
 */
#include "kiter.h"

#include <stdlib.h>

size_t ki_cut(const struct ki_numbering *n, const uint32_t *run, size_t len, struct ki_span *out, size_t cap)
{
	const struct ki_graph *g = n->g;
	size_t cur = 0, prefix = 0, m = 0, count = 0;
	size_t *iter = malloc((len + 2) * sizeof *iter); /* iter[j]: first edge of I_j */
	uint32_t visit = KI_NONE;                           /* loop of the current visit */

	if (!iter)
		return SIZE_MAX;

	for (size_t p = 0; p < len; p++) {
		const struct ki_edge *e = &g->edges[run[p]];
		uint32_t Lu = n->kloop[e->src], Lv = n->kloop[e->dst];
		/* rule 3: back edge b_m of the visited loop */
		if (visit != KI_NONE && e->back && e->dst == n->loops[visit].head && Lu == visit) {
			unsigned K = n->loops[visit].k;
			m++;
			if (m >= K) {
				if (count < cap)
					out[count] = (struct ki_span){ m == K ? prefix : iter[m - K + 1], p };
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
				out[count] = (struct ki_span){ cur, p };
			count++;
			cur = p + 1;
		} else if (e->dst == KI_END) { /* rule 4 */
			if (count < cap)
				out[count] = (struct ki_span){ cur, p };
			count++;
		}
	}
	free(iter);
	return count;
}
