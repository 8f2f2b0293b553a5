/*
 * ppp_bl.c: the PPP DAG of a kpath Ball-Larus numbering (cfg.h), edge for
 * edge, so PPP weights index like bl_dag.edges and a later placement step
 * can put both registers' increments on the same chords (docs/ppp.md,
 * "Sharing the Ball-Larus spanning forest").
 */
#include <stdio.h>
#include <stdlib.h>

#include "cfg.h"
#include "ppp.h"

struct ppp_dag *ppp_dag_from_bl(const struct bl_dag *d, char *err, size_t errlen)
{
	uint32_t *src = malloc((d->nedges ? d->nedges : 1) * sizeof *src);
	uint32_t *dst = malloc((d->nedges ? d->nedges : 1) * sizeof *dst);
	struct ppp_dag *p = NULL;
	uint32_t i;

	if (!src || !dst) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (i = 0; i < d->nedges; i++) {
		src[i] = d->edges[i].src;
		dst[i] = d->edges[i].dst;
		/* bl_dag groups edges by src; ppp_dag_new keeps order within a src,
		 * so edge i stays edge i only if the groups are already contiguous
		 * and increasing */
		if (i > 0 && src[i] < src[i - 1]) {
			snprintf(err, errlen, "Ball-Larus DAG edges are not grouped by source");
			goto out;
		}
	}
	p = ppp_dag_new(d->nblocks, CFG_ENTRY, CFG_EXIT, src, dst, d->nedges, err, errlen);
	if (!p)
		goto out;
	for (i = 0; i < d->nedges; i++)
		if (p->edges[i].bl_val != d->edges[i].val) {
			snprintf(err, errlen, "edge %u: Figure 1 gives val %llu, kpath's numbering %llu", i,
			         (unsigned long long)p->edges[i].bl_val, (unsigned long long)d->edges[i].val);
			ppp_dag_free(p);
			p = NULL;
			goto out;
		}
out:
	free(src);
	free(dst);
	return p;
}
