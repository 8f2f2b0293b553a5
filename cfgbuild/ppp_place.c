/*
 * ppp_place.c: the PPP register's code on the Ball-Larus spanning forest
 * (see ppp_place.h for the model q = pprefix + ppot(v)).
 *
 * 1. potentials: over the forest bl_place chose (p->in_tree per CFG edge,
 *    p->start_in_tree per split block; pre-node nb + v for a split block),
 *    ppot(root) = 0 per component, ppot(b) = ppot(a) - W(e) along each tree
 *    edge a->b (start edges weigh 0), then each component shifted so its
 *    smallest potential, read as signed, is 0 (as placement.c does).
 * 2. known prefixes: where p->known[v], one DAG path reaches v (two paths
 *    to v with equal Ball-Larus prefixes, completed by any path from v to
 *    the exit, would share an ID), so its PPP prefix is the sum of W along
 *    it, found in topological order.
 * 3. validation: site-less edges carry nothing (they are tree edges, but a
 *    cycle of them that bl_place accepted because its val sum is 0 may have
 *    a W sum that is not).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppp_place.h"

struct pp_full {
	struct ppp_place pub;
	bool *known; /* per block: the PPP prefix is known (p->known and consistent) */
};

static uint64_t w_of(const struct ppp_numbering *n, uint32_t i)
{
	return (uint64_t)n->weight[i];
}

void ppp_place_free(struct ppp_place *pp)
{
	struct pp_full *f = (struct pp_full *)pp;

	if (!pp)
		return;
	free(pp->pot);
	free(pp->pot_in);
	free(pp->prefix);
	free(f->known);
	free(f);
}

static bool is_split(const struct bl_place_in *in, uint32_t v)
{
	return in && in->split && in->split[v];
}

/* Step 1. */
static bool potentials(struct ppp_place *pp, const struct bl_placement *p, const struct bl_place_in *in,
                       const struct cfg *g, const struct ppp_numbering *n)
{
	uint32_t nb = g->nblocks, nn = 2 * nb, ne = g->nedges, i, k, nt = 0;
	uint32_t *ta = malloc((ne + nb + 1) * sizeof *ta), *tb = malloc((ne + nb + 1) * sizeof *tb);
	uint64_t *tw = malloc((ne + nb + 1) * sizeof *tw), *pot = calloc(nn + 1, sizeof *pot);
	uint32_t *adj_start = calloc(nn + 2, sizeof *adj_start), *adj = NULL, *queue = malloc((nn + 1) * sizeof *queue);
	bool *seen = calloc(nn + 1, sizeof *seen), ok = false;

	if (!ta || !tb || !tw || !pot || !adj_start || !queue || !seen)
		goto out;
	for (i = 0; i < ne; i++)
		if (p->in_tree[i]) {
			assert(p->dag_edge[i] != CFG_NONE);
			ta[nt] = g->edges[i].src;
			tb[nt] = is_split(in, g->edges[i].dst) ? nb + g->edges[i].dst : g->edges[i].dst;
			tw[nt++] = w_of(n, p->dag_edge[i]);
		}
	for (i = 0; i < nb; i++)
		if (p->start_in_tree[i]) {
			ta[nt] = nb + i;
			tb[nt] = i;
			tw[nt++] = 0;
		}
	for (i = 0; i < nt; i++) {
		adj_start[ta[i] + 2]++;
		adj_start[tb[i] + 2]++;
	}
	for (i = 0; i < nn; i++)
		adj_start[i + 2] += adj_start[i + 1];
	adj = malloc((adj_start[nn + 1] + 1) * sizeof *adj);
	if (!adj)
		goto out;
	for (i = 0; i < nt; i++) {
		adj[adj_start[ta[i] + 1]++] = i;
		adj[adj_start[tb[i] + 1]++] = i;
	}
	for (i = 0; i < nn; i++) {
		uint32_t qh = 0, qt = 0;
		int64_t lo = 0;

		if (seen[i] || adj_start[i] == adj_start[i + 1])
			continue;
		seen[i] = true;
		queue[qt++] = i;
		while (qh < qt) {
			uint32_t x = queue[qh++];

			for (k = adj_start[x]; k < adj_start[x + 1]; k++) {
				uint32_t t = adj[k], y = ta[t] == x ? tb[t] : ta[t];

				if (seen[y])
					continue; /* a forest: only the edge back to the parent */
				seen[y] = true;
				pot[y] = ta[t] == x ? pot[x] - tw[t] : pot[x] + tw[t];
				queue[qt++] = y;
			}
		}
		for (k = 0; k < qt; k++)
			if ((int64_t)pot[queue[k]] < lo)
				lo = (int64_t)pot[queue[k]];
		for (k = 0; k < qt; k++)
			pot[queue[k]] -= (uint64_t)lo;
	}
	for (i = 0; i < nb; i++) {
		pp->pot[i] = pot[i];
		pp->pot_in[i] = pot[is_split(in, i) ? nb + i : i];
	}
	ok = true;
out:
	free(ta);
	free(tb);
	free(tw);
	free(pot);
	free(adj_start);
	free(adj);
	free(queue);
	free(seen);
	return ok;
}

/* Step 2, over the PPP DAG's topological order (its edges are d's): v's
 * prefix is known when p says so and every DAG in-edge comes from a block
 * with a known prefix giving the same sum.  (With p->known[v] the sums
 * agree unless v has no path to the exit; its code never completes a path,
 * and ADD is correct there anyway.)  Returns false when out of memory. */
static bool known_prefixes(struct pp_full *f, const struct bl_placement *p, const struct ppp_numbering *n)
{
	const struct ppp_dag *dag = n->dag;
	uint32_t *indeg = calloc(dag->nnodes + 1, sizeof *indeg), *agree = calloc(dag->nnodes + 1, sizeof *agree);
	uint32_t k, i;

	if (!indeg || !agree) {
		free(indeg);
		free(agree);
		return false;
	}
	for (i = 0; i < dag->nedges; i++)
		indeg[dag->edges[i].dst]++;
	for (k = dag->nnodes; k-- > 0;) {
		uint32_t u = dag->rtopo[k];

		f->known[u] = p->known[u] && agree[u] == indeg[u];
		if (u == dag->entry) {
			f->known[u] = p->known[u];
			f->pub.prefix[u] = 0;
		}
		if (!f->known[u])
			continue;
		for (i = dag->out_start[u]; i < dag->out_start[u + 1]; i++) {
			uint32_t v = dag->edges[i].dst;
			uint64_t q = f->pub.prefix[u] + w_of(n, i);

			if (agree[v] == 0 || f->pub.prefix[v] == q) {
				f->pub.prefix[v] = q;
				agree[v]++;
			}
		}
	}
	free(indeg);
	free(agree);
	return true;
}

struct ppp_place *ppp_place_new(const struct bl_placement *p, const struct bl_place_in *in, const struct cfg *g,
                                const struct bl_dag *d, const struct ppp_numbering *n, char *err, size_t errlen)
{
	struct pp_full *f = calloc(1, sizeof *f);
	struct ppp_place *pp = f ? &f->pub : NULL;
	uint32_t e, nb = g->nblocks;

	if (n->dag->nedges != d->nedges || n->dag->nnodes != nb) {
		snprintf(err, errlen, "the PPP numbering is not over this Ball-Larus DAG");
		free(f);
		return NULL;
	}
	if (!f || !(pp->pot = calloc(nb + 1, sizeof *pp->pot)) || !(pp->pot_in = calloc(nb + 1, sizeof *pp->pot_in)) ||
	    !(pp->prefix = calloc(nb + 1, sizeof *pp->prefix)) || !(f->known = calloc(nb + 1, sizeof *f->known)) ||
	    !potentials(pp, p, in, g, n)) {
		snprintf(err, errlen, "out of memory");
		ppp_place_free(pp);
		return NULL;
	}
	pp->nblocks = nb;
	if (!known_prefixes(f, p, n)) {
		snprintf(err, errlen, "out of memory");
		ppp_place_free(pp);
		return NULL;
	}
	for (e = 0; e < g->nedges; e++) {
		const struct cfg_edge *ce = &g->edges[e];
		struct bl_code c;

		if (p->restart && p->restart[ce->src] && p->known[ce->src] && !f->known[ce->src]) {
			snprintf(err, errlen, "a setjmp block has no known PPP prefix");
			ppp_place_free(pp);
			return NULL;
		}
		if (ce->site != CFG_NONE || ce->src == CFG_ENTRY || !ppp_code_edge(pp, p, g, d, n, e, &c))
			continue;
		if (c.ends || c.upd != BL_UPD_NONE) {
			snprintf(err, errlen, "no site for the PPP increment of a switch dispatch");
			ppp_place_free(pp);
			return NULL;
		}
	}
	return pp;
}

static uint64_t ppp_weight(const void *n, uint32_t i)
{
	return w_of(n, i);
}

/* The PPP register: the weights W of numbering n, pp's potentials. */
static struct bl_reg ppp_register(const struct ppp_place *pp, const struct ppp_numbering *n)
{
	struct bl_reg r;

	r.pot = pp->pot;
	r.pot_in = pp->pot_in;
	r.prefix = pp->prefix;
	r.known = ((const struct pp_full *)pp)->known;
	r.weight = ppp_weight;
	r.ctx = n;
	r.tree_free = true; /* tree edges are free for both registers */
	return r;
}

bool ppp_code_edge(const struct ppp_place *pp, const struct bl_placement *p, const struct cfg *g,
                   const struct bl_dag *d, const struct ppp_numbering *n, uint32_t e, struct bl_code *c)
{
	struct bl_reg r = ppp_register(pp, n);

	return bl_code_edge_reg(p, &r, g, d, e, c);
}

void ppp_code_start(const struct ppp_place *pp, const struct bl_placement *p, uint32_t b, struct bl_code *c)
{
	struct bl_reg r = ppp_register(pp, NULL);

	bl_code_start_reg(p, &r, b, c);
}
