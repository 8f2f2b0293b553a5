/*
 * ppp.c: computePPPIncrements (PPP paper, Figure 10, section 3.1) and the
 * model and coder of section 4.3 built from its result.
 *
 * Contexts.  The paper's prefix(p, e) is the part of path p before edge e.
 * The prefixes of all interesting paths form a trie (struct ppp_ctx): the
 * root is the empty prefix at the entry, and a context's child by edge e is
 * the prefix extended by e.  Prefixes are edge sequences, not the paper's
 * node sequences, because kpath's DAGs have parallel edges (docs/ppp.md).
 * Each occurrence of an edge in an interesting path (path p, position i) is
 * tagged with the context before it, pre[k]; the occurrences of one edge
 * are listed together, so Figure 10 runs in O(sum of path lengths), within
 * the paper's O(|E| x |I|).
 *
 * Figure 10, per node v in reverse topological order, per out-edge e that
 * an interesting path takes, in out-edge order:
 *   lines 3-12   W(e) = max over prefixes q through e of cis(q) - min(e,q)
 *                (Equation 1, and the join of Figure 9 when several prefixes
 *                meet at e);
 *   lines 14-16  pid(p) += W(e) for the paths through e;
 *   lines 17-20  cis(q) = max pid + 1 over the paths through e with prefix q.
 * Invariant (Lemma 5): after v, the intervals [min, max] of one prefix on
 * different out-edges of v do not overlap, and every pid at v lies in
 * [0, N_v) (docs/ppp.md), so int64_t never overflows (ppp_dag_new refuses
 * N_v > INT64_MAX).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppp_internal.h"

void ppp_numbering_free(struct ppp_numbering *n)
{
	if (!n)
		return;
	free(n->weight);
	free(n->defined);
	free(n->ppp_id);
	free(n->bl_id);
	free(n->ctx);
	free(n);
}

/* Scratch of one ppp_number call. */
struct pw {
	const struct ppp_dag *d;
	const struct ppp_set *s;
	struct ppp_numbering *n;
	uint32_t *pre;      /* per occurrence k (index into s->edges): context before it */
	uint32_t *owner;    /* per occurrence: its path */
	uint32_t *occ_start, *occ; /* occurrences of edge e: occ[occ_start[e] .. occ_start[e + 1]) */
	int64_t *pid;       /* per path */
	int64_t *mn, *mx;   /* per context, for the edge being processed */
	uint32_t *stamp;    /* per context: edge + 1 whose mn/mx are current */
	uint32_t capctx;
};

static uint32_t child(const struct ppp_numbering *n, uint32_t c, uint32_t e)
{
	uint32_t k;

	for (k = n->ctx[c].first_child; k != PPP_NONE; k = n->ctx[k].next_sibling)
		if (n->ctx[k].via == e)
			return k;
	return PPP_NONE;
}

static uint32_t new_ctx(struct pw *w, uint32_t parent, uint32_t e)
{
	struct ppp_numbering *n = w->n;
	struct ppp_ctx *c;

	if (n->nctx == w->capctx) {
		uint32_t cap = w->capctx ? 2 * w->capctx : 64;
		struct ppp_ctx *x = realloc(n->ctx, cap * sizeof *x);

		if (!x)
			return PPP_NONE;
		n->ctx = x;
		w->capctx = cap;
	}
	c = &n->ctx[n->nctx];
	c->node = parent == PPP_NONE ? w->d->entry : w->d->edges[e].dst;
	c->via = e;
	c->first_child = c->next_sibling = PPP_NONE;
	c->m = c->cis = 0;
	if (parent != PPP_NONE) {
		c->next_sibling = n->ctx[parent].first_child;
		n->ctx[parent].first_child = n->nctx;
	}
	return n->nctx++;
}

/* The prefix trie and pre/owner per occurrence. */
static bool build_contexts(struct pw *w)
{
	const struct ppp_set *s = w->s;
	uint32_t p, i;

	if (new_ctx(w, PPP_NONE, PPP_NONE) == PPP_NONE)
		return false;
	for (p = 0; p < s->n; p++) {
		uint32_t c = 0;

		for (i = 0; i < s->len[p]; i++) {
			uint64_t k = s->start[p] + i;
			uint32_t e = s->edges[k], next = child(w->n, c, e);

			if (next == PPP_NONE && (next = new_ctx(w, c, e)) == PPP_NONE)
				return false;
			w->pre[k] = c;
			w->owner[k] = p;
			c = next;
		}
		assert(w->n->ctx[c].node == w->d->exit);
	}
	return true;
}

/* Occurrences grouped by edge (counting sort). */
static bool group_occurrences(struct pw *w)
{
	const struct ppp_set *s = w->s;
	uint32_t e;
	uint64_t k;
	uint32_t *fill;

	for (k = 0; k < s->nedges; k++)
		w->occ_start[s->edges[k] + 1]++;
	for (e = 0; e < w->d->nedges; e++)
		w->occ_start[e + 1] += w->occ_start[e];
	fill = malloc(((size_t)w->d->nedges + 1) * sizeof *fill);
	if (!fill)
		return false;
	memcpy(fill, w->occ_start, ((size_t)w->d->nedges + 1) * sizeof *fill);
	for (k = 0; k < s->nedges; k++)
		w->occ[fill[s->edges[k]]++] = (uint32_t)k;
	free(fill);
	return true;
}

/* Figure 10, lines 2-21, for one edge e. */
static void process_edge(struct pw *w, uint32_t e)
{
	struct ppp_numbering *n = w->n;
	uint32_t a = w->occ_start[e], b = w->occ_start[e + 1], j;
	int64_t weight = INT64_MIN;

	if (a == b)
		return; /* no interesting path takes e: W(e) stays ⊥ (0) */
	/* line 5: min(e,q) (and max, for line 19) per prefix q */
	for (j = a; j < b; j++) {
		uint32_t k = w->occ[j], q = w->pre[k];
		int64_t pid = w->pid[w->owner[k]];

		if (w->stamp[q] != e + 1) {
			w->stamp[q] = e + 1;
			w->mn[q] = w->mx[q] = pid;
		} else {
			w->mn[q] = pid < w->mn[q] ? pid : w->mn[q];
			w->mx[q] = pid > w->mx[q] ? pid : w->mx[q];
		}
	}
	/* lines 7-11: the weight each prefix induces, and their join */
	for (j = a; j < b; j++) {
		uint32_t q = w->pre[w->occ[j]];
		int64_t induced = n->ctx[q].cis - w->mn[q];

		weight = induced > weight ? induced : weight;
	}
	n->weight[e] = weight;
	n->defined[e] = true;
	/* lines 14-16 */
	for (j = a; j < b; j++)
		w->pid[w->owner[w->occ[j]]] += weight;
	/* lines 17-20; m(q) is the smallest pid seen at v, for the model */
	for (j = a; j < b; j++) {
		uint32_t q = w->pre[w->occ[j]];
		struct ppp_ctx *c = &n->ctx[q];
		bool first = c->cis == 0;

		if (w->stamp[q] != e + 1)
			continue; /* q already updated for e */
		w->stamp[q] = 0;
		assert(w->mn[q] + weight >= c->cis); /* Lemma 5: no overlap with earlier edges */
		if (first || w->mn[q] + weight < c->m)
			c->m = w->mn[q] + weight;
		c->cis = w->mx[q] + weight + 1;
	}
}

struct ppp_numbering *ppp_number(const struct ppp_dag *d, const struct ppp_set *s, char *err, size_t errlen)
{
	struct pw w = { .d = d, .s = s };
	struct ppp_numbering *n = calloc(1, sizeof *n);
	uint32_t v, p, e;

	w.n = n;
	if (!n)
		goto oom;
	n->dag = d;
	n->npaths = s->n;
	n->weight = calloc(d->nedges ? d->nedges : 1, sizeof *n->weight);
	n->defined = calloc(d->nedges ? d->nedges : 1, sizeof *n->defined);
	n->ppp_id = calloc(s->n ? s->n : 1, sizeof *n->ppp_id);
	n->bl_id = calloc(s->n ? s->n : 1, sizeof *n->bl_id);
	w.pre = malloc((s->nedges ? s->nedges : 1) * sizeof *w.pre);
	w.owner = malloc((s->nedges ? s->nedges : 1) * sizeof *w.owner);
	w.occ = malloc((s->nedges ? s->nedges : 1) * sizeof *w.occ);
	w.occ_start = calloc((size_t)d->nedges + 1, sizeof *w.occ_start);
	w.pid = calloc(s->n ? s->n : 1, sizeof *w.pid);
	if (!n->weight || !n->defined || !n->ppp_id || !n->bl_id || !w.pre || !w.owner || !w.occ || !w.occ_start ||
	    !w.pid || !build_contexts(&w) || !group_occurrences(&w))
		goto oom;
	w.mn = malloc(n->nctx * sizeof *w.mn);
	w.mx = malloc(n->nctx * sizeof *w.mx);
	w.stamp = calloc(n->nctx, sizeof *w.stamp);
	if (!w.mn || !w.mx || !w.stamp)
		goto oom;
	/* Figure 10, line 1; contexts at the exit hold one path with pid 0 */
	for (v = 0; v < n->nctx; v++)
		if (n->ctx[v].node == d->exit)
			n->ctx[v].cis = 1;
	for (v = 0; v < d->nnodes; v++) {
		uint32_t u = d->rtopo[v];

		for (e = d->out_start[u]; e < d->out_start[u + 1]; e++)
			process_edge(&w, e);
	}
	n->interval = s->n ? (uint64_t)n->ctx[0].cis : 0;
	assert(s->n == 0 || n->ctx[0].m == 0);
	assert(n->interval <= d->num_paths[d->entry]);
	for (p = 0; p < s->n; p++) {
		assert(w.pid[p] >= 0 && (uint64_t)w.pid[p] < n->interval);
		n->ppp_id[p] = (uint64_t)w.pid[p];
		n->bl_id[p] = s->bl[p];
		assert(ppp_path_id(n, s->edges + s->start[p], s->len[p]) == n->ppp_id[p]);
	}
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
	ppp_numbering_free(n);
	n = NULL;
out:
	free(w.pre);
	free(w.owner);
	free(w.occ);
	free(w.occ_start);
	free(w.pid);
	free(w.mn);
	free(w.mx);
	free(w.stamp);
	return n;
}

/* Figure 4 over W, modulo 2^64. */
uint64_t ppp_path_id(const struct ppp_numbering *n, const uint32_t *edges, uint32_t len)
{
	uint64_t id = 0;
	uint32_t i;

	for (i = 0; i < len; i++)
		id += (uint64_t)n->weight[edges[i]];
	return id;
}

/* Section 4.3: context q at node v owns the pids [m(q), cis(q)); edge e to
 * child q' owns those of q' shifted by W(e).  Relative to m(q):
 * [W(e) + m(q') - m(q), W(e) + cis(q') - m(q)) of cis(q) - m(q). */
bool ppp_model_range(const struct ppp_numbering *n, uint32_t ctx, uint32_t e, struct ppp_range *r,
                     uint32_t *next)
{
	const struct ppp_ctx *c, *k;
	uint32_t x;

	if (ctx >= n->nctx || e >= n->dag->nedges || (x = child(n, ctx, e)) == PPP_NONE)
		return false;
	c = &n->ctx[ctx];
	k = &n->ctx[x];
	r->lo = (uint64_t)(n->weight[e] + k->m - c->m);
	r->hi = (uint64_t)(n->weight[e] + k->cis - c->m);
	r->total = (uint64_t)(c->cis - c->m);
	assert(r->lo < r->hi && r->hi <= r->total);
	*next = x;
	return true;
}

/* Figure 14, pathEncoder: in = [x, x + total) narrows to [x + lo, x + hi)
 * at each edge; the child context's total is exactly hi - lo, so integer
 * ranges lose nothing.  At the exit the interval is [x, x + 1). */
bool ppp_encode(const struct ppp_numbering *n, const uint32_t *edges, uint32_t len, uint64_t *id)
{
	uint64_t x = 0;
	uint32_t c = 0, i;

	if (n->npaths == 0)
		return false;
	for (i = 0; i < len; i++) {
		struct ppp_range r;
		uint32_t next;

		if (!ppp_model_range(n, c, edges[i], &r, &next))
			return false;
		x += r.lo;
		assert(r.hi - r.lo == (uint64_t)(n->ctx[next].cis - n->ctx[next].m));
		c = next;
	}
	if (n->ctx[c].node != n->dag->exit)
		return false;
	*id = x;
	return true;
}

/* Section 4.1's decoder: at each context, the edge whose range holds the
 * value; the value is then taken relative to that range. */
uint32_t ppp_decode(const struct ppp_numbering *n, uint64_t id, uint32_t *edges, uint32_t cap)
{
	uint32_t c = 0, len = 0;

	if (id >= n->interval)
		return 0;
	while (n->ctx[c].node != n->dag->exit) {
		uint32_t k, found = PPP_NONE;
		struct ppp_range r;

		for (k = n->ctx[c].first_child; k != PPP_NONE; k = n->ctx[k].next_sibling) {
			uint32_t next;
			bool ok = ppp_model_range(n, c, n->ctx[k].via, &r, &next);

			assert(ok && next == k);
			(void)ok;
			if (r.lo <= id && id < r.hi) {
				found = k;
				break;
			}
		}
		if (found == PPP_NONE)
			return 0; /* a hole: no interesting path has this ID */
		id -= r.lo;
		if (len < cap)
			edges[len] = n->ctx[found].via;
		len++;
		c = found;
	}
	return id == 0 ? len : 0;
}
