/*
 * ppp_dag.c: the standalone DAG of the PPP numbering and its Ball-Larus
 * side (PPP paper, Figure 1 computeBLIncrements, Figure 4
 * computePathIdentifier, Figure 12 computeBLModel with Figure 14's encoder).
 *
 * Invariant after ppp_dag_new: edges are grouped by src in input order,
 * rtopo lists every node with each edge's dst before its src, and for every
 * v, N_v = sum of N_dst over out(v) (Lemma 1), N_exit = 1, each N_v <=
 * INT64_MAX, bl_val(e) = sum of N_dst of the out-edges before e.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppp_internal.h"

void ppp_dag_free(struct ppp_dag *d)
{
	if (!d)
		return;
	free(d->edges);
	free(d->out_start);
	free(d->rtopo);
	free(d->num_paths);
	free(d);
}

/* Kahn's algorithm on the reversed graph: a node enters rtopo once all its
 * successors have.  Returns false on a cycle. */
static bool reverse_topo(struct ppp_dag *d)
{
	uint32_t *outdeg = calloc(d->nnodes ? d->nnodes : 1, sizeof *outdeg);
	uint32_t *in_start = calloc((size_t)d->nnodes + 1, sizeof *in_start);
	uint32_t *in_list = malloc((d->nedges ? d->nedges : 1) * sizeof *in_list);
	uint32_t qh = 0, qt = 0, i, v;
	bool ok = false;

	if (!outdeg || !in_start || !in_list)
		goto out;
	for (i = 0; i < d->nedges; i++) {
		outdeg[d->edges[i].src]++;
		in_start[d->edges[i].dst + 1]++;
	}
	for (v = 0; v < d->nnodes; v++)
		in_start[v + 1] += in_start[v];
	{
		uint32_t *fill = malloc(((size_t)d->nnodes + 1) * sizeof *fill);

		if (!fill)
			goto out;
		memcpy(fill, in_start, ((size_t)d->nnodes + 1) * sizeof *fill);
		for (i = 0; i < d->nedges; i++)
			in_list[fill[d->edges[i].dst]++] = i;
		free(fill);
	}
	for (v = 0; v < d->nnodes; v++)
		if (outdeg[v] == 0)
			d->rtopo[qt++] = v;
	while (qh < qt) {
		v = d->rtopo[qh++];
		for (i = in_start[v]; i < in_start[v + 1]; i++) {
			uint32_t u = d->edges[in_list[i]].src;

			if (--outdeg[u] == 0)
				d->rtopo[qt++] = u;
		}
	}
	ok = qt == d->nnodes;
out:
	free(outdeg);
	free(in_start);
	free(in_list);
	return ok;
}

/* Figure 1, computeBLIncrements, with checked additions. */
static bool number_bl(struct ppp_dag *d, char *err, size_t errlen)
{
	uint32_t k, i;

	for (k = 0; k < d->nnodes; k++) {
		uint32_t v = d->rtopo[k];
		uint64_t nv = v == d->exit ? 1 : 0;

		for (i = d->out_start[v]; i < d->out_start[v + 1]; i++) {
			uint64_t nd = d->num_paths[d->edges[i].dst];

			d->edges[i].bl_val = nv;
			if (nd > (uint64_t)INT64_MAX - nv) {
				snprintf(err, errlen, "node %u has more than %lld paths to the exit", v,
				         (long long)INT64_MAX);
				return false;
			}
			nv += nd;
		}
		d->num_paths[v] = nv;
	}
	return true;
}

struct ppp_dag *ppp_dag_new(uint32_t nnodes, uint32_t entry, uint32_t exit, const uint32_t *src,
                            const uint32_t *dst, uint32_t nedges, char *err, size_t errlen)
{
	struct ppp_dag *d;
	uint32_t i, v;

	if (entry >= nnodes || exit >= nnodes || entry == exit) {
		snprintf(err, errlen, "entry %u or exit %u is not a node of %u", entry, exit, nnodes);
		return NULL;
	}
	for (i = 0; i < nedges; i++) {
		if (src[i] >= nnodes || dst[i] >= nnodes) {
			snprintf(err, errlen, "edge %u: %u->%u names a node out of range", i, src[i], dst[i]);
			return NULL;
		}
		if (src[i] == exit) {
			snprintf(err, errlen, "edge %u leaves the exit node", i);
			return NULL;
		}
	}
	d = calloc(1, sizeof *d);
	if (!d)
		goto oom;
	d->nnodes = nnodes;
	d->nedges = nedges;
	d->entry = entry;
	d->exit = exit;
	d->edges = calloc(nedges ? nedges : 1, sizeof *d->edges);
	d->out_start = calloc((size_t)nnodes + 1, sizeof *d->out_start);
	d->rtopo = calloc(nnodes, sizeof *d->rtopo);
	d->num_paths = calloc(nnodes, sizeof *d->num_paths);
	if (!d->edges || !d->out_start || !d->rtopo || !d->num_paths)
		goto oom;
	/* counting sort by src, stable */
	for (i = 0; i < nedges; i++)
		d->out_start[src[i] + 1]++;
	for (v = 0; v < nnodes; v++)
		d->out_start[v + 1] += d->out_start[v];
	{
		uint32_t *fill = malloc(((size_t)nnodes + 1) * sizeof *fill);

		if (!fill)
			goto oom;
		memcpy(fill, d->out_start, ((size_t)nnodes + 1) * sizeof *fill);
		for (i = 0; i < nedges; i++) {
			struct ppp_edge *e = &d->edges[fill[src[i]]++];

			e->src = src[i];
			e->dst = dst[i];
		}
		free(fill);
	}
	if (!reverse_topo(d)) {
		snprintf(err, errlen, "the graph has a cycle");
		ppp_dag_free(d);
		return NULL;
	}
	if (!number_bl(d, err, errlen)) {
		ppp_dag_free(d);
		return NULL;
	}
	return d;
oom:
	snprintf(err, errlen, "out of memory");
	ppp_dag_free(d);
	return NULL;
}

bool ppp_is_path(const struct ppp_dag *d, const uint32_t *edges, uint32_t n)
{
	uint32_t v = d->entry, i;

	for (i = 0; i < n; i++) {
		if (edges[i] >= d->nedges || d->edges[edges[i]].src != v)
			return false;
		v = d->edges[edges[i]].dst;
	}
	return v == d->exit;
}

/* Figure 4, computePathIdentifier, over the Ball-Larus vals. */
uint64_t ppp_bl_path_id(const struct ppp_dag *d, const uint32_t *edges, uint32_t n)
{
	uint64_t id = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		id += d->edges[edges[i]].bl_val;
	return id;
}

uint32_t ppp_dag_bl_step(const struct ppp_dag *d, uint32_t v, uint64_t id)
{
	uint32_t i;

	assert(id < d->num_paths[v]);
	for (i = d->out_start[v]; i < d->out_start[v + 1]; i++) {
		const struct ppp_edge *e = &d->edges[i];

		if (e->bl_val <= id && id - e->bl_val < d->num_paths[e->dst])
			return i;
	}
	assert(!"Lemma 1: the out-edges' ranges cover [0, N_v)");
	return PPP_NONE;
}

uint32_t ppp_bl_decode(const struct ppp_dag *d, uint64_t id, uint32_t *edges, uint32_t cap)
{
	uint32_t v = d->entry, n = 0;

	if (id >= d->num_paths[d->entry])
		return 0;
	while (v != d->exit) {
		uint32_t e = ppp_dag_bl_step(d, v, id);

		if (n < cap)
			edges[n] = e;
		n++;
		id -= d->edges[e].bl_val;
		v = d->edges[e].dst;
	}
	return n;
}

/* Figure 14, pathEncoder, with the model of Figure 12 (computeBLModel):
 * at node v the interval has N_v units and edge e owns [val(e), val(e) +
 * N_dst(e)), i.e. probability N_dst / N_v.  Integer arithmetic makes the
 * narrowing exact: in = [x, x + N_v) becomes [x + val, x + val + N_dst). */
bool ppp_bl_encode(const struct ppp_dag *d, const uint32_t *edges, uint32_t len, uint64_t *id)
{
	uint64_t x = 0, n = d->num_paths[d->entry];
	uint32_t i;

	if (!ppp_is_path(d, edges, len))
		return false;
	for (i = 0; i < len; i++) {
		const struct ppp_edge *e = &d->edges[edges[i]];

		assert(n == d->num_paths[e->src]);
		x += e->bl_val;
		n = d->num_paths[e->dst];
	}
	assert(n == 1);
	(void)n;
	*id = x;
	return true;
}
