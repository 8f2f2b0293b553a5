/*
 * placement.c: spanning-forest placement of the path register's code (see
 * placement.h for the model and its invariant r = prefix + pot(v)).
 *
 * 1. known prefixes: K(ENTRY) = 0; in topological order of the DAG, K(v) is
 *    known when every DAG in-edge x->v has K(x) known and K(x) + val equal.
 * 2. loop nesting: for each back-edge target w, innermost first (decreasing
 *    DFS preorder), the loop body is found by walking predecessors from the
 *    back edges' sources, keeping to DFS descendants of w (natural loops for
 *    reducible flow; the DFS subtree bounds irreducible ones).  Inner loops
 *    already found are attached to w as children (Havlak's union of loops).
 *    An edge's weight is the depth of the innermost loop holding both ends.
 * 3. Kruskal's maximum spanning forest over nodes = blocks plus a pre-node
 *    per split block; candidate edges are the DAG's CFG edges that carry no
 *    code anyway (not out of ENTRY or a restart block, not into EXIT) and
 *    the split blocks' start edges.  Keys: site-less first (they must be
 *    tree edges), then depth, then start edges, awkward sites, edges out of
 *    blocks with one successor, then branch edges by order key (the
 *    builder's val-0 edge first), then edge id.
 * 4. potentials: pot(root) = 0 for each component, pot(b) = pot(a) - val
 *    along each tree edge a->b, then the component is shifted so that its
 *    smallest potential is 0; nodes outside the forest keep 0.
 * 5. validation: every site-less edge carries nothing; restart blocks have a
 *    known prefix.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"

struct cand {
	uint64_t key;
	uint32_t id;   /* CFG edge, or nedges + block for a start edge */
	uint32_t a, b; /* forest nodes */
	uint64_t val;
};

struct pw {
	const struct cfg *g;
	const struct bl_dag *d;
	const struct bl_place_in *in;
	struct bl_placement *p;
	uint32_t nb, ne;
	uint32_t *out_start;   /* DAG edges by src: d->edges[out_start[v] .. out_start[v+1]) */
	uint32_t *loop_of;     /* per block: innermost loop header holding it, CFG_NONE if none */
	uint32_t *parent;      /* per header: enclosing loop header */
	uint32_t *in_start, *in_list; /* CFG in-edges per block (not dead) */
	char *err;
	size_t errlen;
};

static bool is_split(const struct pw *w, uint32_t v)
{
	return w->in->split && w->in->split[v];
}

static bool is_restart(const struct bl_placement *p, uint32_t v)
{
	return p->restart && p->restart[v];
}

/* Forest node an edge into v enters: its pre-node when split. */
static uint32_t node_in(const struct pw *w, uint32_t v)
{
	return is_split(w, v) ? w->nb + v : v;
}

static void known_prefixes(struct pw *w)
{
	const struct bl_dag *d = w->d;
	struct bl_placement *p = w->p;
	uint32_t *indeg = calloc(w->nb, sizeof *indeg), *queue = malloc(w->nb * sizeof *queue);
	bool *seen = calloc(w->nb, sizeof *seen);
	uint32_t qh = 0, qt = 0, i;

	if (!indeg || !queue || !seen)
		goto out;
	for (i = 0; i < d->nedges; i++)
		indeg[d->edges[i].dst]++;
	p->known[CFG_ENTRY] = true;
	p->prefix[CFG_ENTRY] = 0;
	queue[qt++] = CFG_ENTRY;
	while (qh < qt) {
		uint32_t u = queue[qh++];

		for (i = w->out_start[u]; i < w->out_start[u + 1]; i++) {
			const struct bl_edge *e = &d->edges[i];
			uint64_t k = p->prefix[u] + e->val;

			if (!seen[e->dst]) {
				seen[e->dst] = true;
				p->known[e->dst] = p->known[u];
				p->prefix[e->dst] = k;
			} else if (!p->known[u] || p->prefix[e->dst] != k) {
				p->known[e->dst] = false;
			}
			if (--indeg[e->dst] == 0)
				queue[qt++] = e->dst;
		}
	}
out:
	free(indeg);
	free(queue);
	free(seen);
}

static bool descendant(const struct bl_dag *d, uint32_t x, uint32_t w)
{
	return d->dfs_pre[x] != CFG_NONE && d->dfs_pre[w] <= d->dfs_pre[x] && d->dfs_post[x] <= d->dfs_post[w];
}

static uint32_t outermost(const struct pw *w, uint32_t h)
{
	while (w->parent[h] != CFG_NONE)
		h = w->parent[h];
	return h;
}

static const struct bl_dag *sort_dag; /* qsort has no context argument in C11 */

/* Decreasing DFS preorder: inner loop headers before the loops holding them. */
static int cmp_headers(const void *a, const void *b)
{
	uint32_t x = sort_dag->dfs_pre[*(const uint32_t *)a], y = sort_dag->dfs_pre[*(const uint32_t *)b];

	return x > y ? -1 : x < y;
}

/* Step 2 (see the top): loop_of, parent, then depth per block. */
static bool loops(struct pw *w)
{
	const struct cfg *g = w->g;
	const struct bl_dag *d = w->d;
	uint32_t *headers = malloc((w->nb + 1) * sizeof *headers), *stack = malloc((w->ne + w->nb + 1) * sizeof *stack);
	bool *is_header = calloc(w->nb, sizeof *is_header);
	uint32_t nh = 0, i, k;

	if (!headers || !stack || !is_header) {
		free(headers);
		free(stack);
		free(is_header);
		return false;
	}
	for (i = 0; i < w->ne; i++)
		if (d->role[i] != ROLE_DEAD) {
			w->in_start[g->edges[i].dst + 1]++;
			if (d->role[i] == ROLE_BACK && !is_header[g->edges[i].dst]) {
				is_header[g->edges[i].dst] = true;
				headers[nh++] = g->edges[i].dst;
			}
		}
	for (i = 0; i < w->nb; i++)
		w->in_start[i + 1] += w->in_start[i];
	{
		uint32_t *fill = malloc((w->nb + 1) * sizeof *fill);

		if (!fill) {
			free(headers);
			free(stack);
			free(is_header);
			return false;
		}
		memcpy(fill, w->in_start, (w->nb + 1) * sizeof *fill);
		for (i = 0; i < w->ne; i++)
			if (d->role[i] != ROLE_DEAD)
				w->in_list[fill[g->edges[i].dst]++] = i;
		free(fill);
	}
	sort_dag = d;
	qsort(headers, nh, sizeof *headers, cmp_headers);
	for (k = 0; k < nh; k++) {
		uint32_t h = headers[k], sp = 0;

		w->loop_of[h] = h;
		for (i = w->in_start[h]; i < w->in_start[h + 1]; i++)
			if (d->role[w->in_list[i]] == ROLE_BACK)
				stack[sp++] = g->edges[w->in_list[i]].src;
		while (sp) {
			uint32_t x = stack[--sp], y;

			if (!descendant(d, x, h))
				continue; /* an entry into an irreducible region from outside h's subtree */
			if (w->loop_of[x] == CFG_NONE) {
				w->loop_of[x] = h;
				y = x;
			} else {
				y = outermost(w, w->loop_of[x]);
				if (y == h)
					continue;
				w->parent[y] = h;
			}
			for (i = w->in_start[y]; i < w->in_start[y + 1]; i++) {
				uint32_t s = g->edges[w->in_list[i]].src;

				if (s != h && (w->loop_of[s] == CFG_NONE || outermost(w, w->loop_of[s]) != h))
					stack[sp++] = s;
			}
		}
	}
	/* depth per header, outermost first (increasing preorder: reverse of headers) */
	for (k = nh; k-- > 0;) {
		uint32_t h = headers[k];

		w->p->depth[h] = w->parent[h] == CFG_NONE ? 1 : w->p->depth[w->parent[h]] + 1;
	}
	for (i = 0; i < w->nb; i++)
		if (w->loop_of[i] != CFG_NONE && w->loop_of[i] != i)
			w->p->depth[i] = w->p->depth[w->loop_of[i]];
	free(headers);
	free(stack);
	free(is_header);
	return true;
}

/* Depth of the innermost loop holding both u and v. */
static uint32_t common_depth(const struct pw *w, uint32_t u, uint32_t v)
{
	uint32_t a = u < w->nb ? w->loop_of[u] : CFG_NONE, b = v < w->nb ? w->loop_of[v] : CFG_NONE;

	while (a != CFG_NONE && b != CFG_NONE && a != b) {
		if (w->p->depth[a] >= w->p->depth[b])
			a = w->parent[a];
		else
			b = w->parent[b];
	}
	return a == CFG_NONE || b == CFG_NONE ? 0 : w->p->depth[a];
}

static uint64_t mkkey(uint32_t depth, uint32_t tier, uint32_t order)
{
	return ((uint64_t)(depth > 0x3fffffffu ? 0x3fffffffu : depth) << 34) | ((uint64_t)tier << 32) |
	       (uint64_t)(UINT32_MAX - order);
}

static int cmp_cand(const void *pa, const void *pb)
{
	const struct cand *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key > b->key ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

static uint32_t find(uint32_t *uf, uint32_t x)
{
	while (uf[x] != x) {
		uf[x] = uf[uf[x]];
		x = uf[x];
	}
	return x;
}

enum { TIER_BRANCH, TIER_SINGLE, TIER_AWKWARD, TIER_START };

/* Step 3's candidates for the spanning forest: the DAG's CFG edges and each
 * split block's start edge.  An edge with no insertion site (CFG_NONE) gets
 * the largest key, so it is taken into the tree first and never carries an
 * increment.  c has room for d->nedges + w->nb entries; returns how many. */
static uint32_t candidates(struct pw *w, struct cand *c)
{
	const struct cfg *g = w->g;
	const struct bl_dag *d = w->d;
	struct bl_placement *p = w->p;
	uint32_t nc = 0, i;

	for (i = 0; i < d->nedges; i++) {
		const struct bl_edge *b = &d->edges[i];
		const struct cfg_edge *ce;
		uint32_t tier, nout;

		if (b->kind != BL_EDGE_CFG || b->src == CFG_ENTRY || b->dst == CFG_EXIT || is_restart(p, b->src))
			continue;
		ce = &g->edges[b->cfg_edge];
		nout = w->out_start[b->src + 1] - w->out_start[b->src];
		tier = w->in->awkward && w->in->awkward[b->cfg_edge] ? TIER_AWKWARD : nout == 1 ? TIER_SINGLE : TIER_BRANCH;
		p->weight[b->cfg_edge] = common_depth(w, b->src, b->dst);
		c[nc].key = ce->site == CFG_NONE ? UINT64_MAX : mkkey(p->weight[b->cfg_edge], tier, ce->order);
		c[nc].id = b->cfg_edge;
		c[nc].a = b->src;
		c[nc].b = node_in(w, b->dst);
		c[nc++].val = b->val;
	}
	for (i = 0; i < w->nb; i++)
		if (is_split(w, i) && d->num_paths[i] > 0 && d->dfs_pre[i] != CFG_NONE) {
			c[nc].key = mkkey(p->depth[i], TIER_START, 0);
			c[nc].id = w->ne + i;
			c[nc].a = w->nb + i;
			c[nc].b = i;
			c[nc++].val = 0;
		}
	return nc;
}

/* Steps 3 and 4. */
static bool forest(struct pw *w)
{
	const struct bl_dag *d = w->d;
	struct bl_placement *p = w->p;
	uint32_t nn = 2 * w->nb, nc, i;
	struct cand *c = malloc((d->nedges + w->nb + 1) * sizeof *c);
	uint32_t *uf = malloc((nn + 1) * sizeof *uf), *adj_start = calloc(nn + 2, sizeof *adj_start);
	uint32_t *adj = NULL, *queue = malloc((nn + 1) * sizeof *queue);
	bool *seen = calloc(nn + 1, sizeof *seen), ok = false;
	uint64_t *pot = calloc(nn + 1, sizeof *pot);

	if (!c || !uf || !adj_start || !queue || !seen || !pot)
		goto out;
	nc = candidates(w, c);
	qsort(c, nc, sizeof *c, cmp_cand);
	for (i = 0; i < nn; i++)
		uf[i] = i;
	for (i = 0; i < nc; i++) {
		uint32_t ra = find(uf, c[i].a), rb = find(uf, c[i].b);

		if (ra == rb) {
			c[i].key = 0; /* a chord */
			continue;
		}
		uf[ra] = rb;
		c[i].key = 1;
		if (c[i].id < w->ne)
			p->in_tree[c[i].id] = true;
		else
			p->start_in_tree[c[i].id - w->ne] = true;
		adj_start[c[i].a + 2]++;
		adj_start[c[i].b + 2]++;
	}
	/* tree adjacency: adj holds candidate indices, by node */
	for (i = 0; i < nn; i++)
		adj_start[i + 2] += adj_start[i + 1];
	adj = malloc((adj_start[nn + 1] + 1) * sizeof *adj);
	if (!adj)
		goto out;
	for (i = 0; i < nc; i++)
		if (c[i].key == 1) {
			adj[adj_start[c[i].a + 1]++] = i;
			adj[adj_start[c[i].b + 1]++] = i;
		}
	/* now adj_start[x] .. adj_start[x + 1] are x's tree edges */
	for (i = 0; i < nn; i++) {
		uint32_t qh = 0, qt = 0;

		if (seen[i] || adj_start[i] == adj_start[i + 1])
			continue;
		seen[i] = true;
		queue[qt++] = i;
		while (qh < qt) {
			uint32_t x = queue[qh++], k;

			for (k = adj_start[x]; k < adj_start[x + 1]; k++) {
				const struct cand *t = &c[adj[k]];
				uint32_t y = t->a == x ? t->b : t->a;

				if (seen[y])
					continue;
				seen[y] = true;
				/* Inc(a->b) = val + pot(b) - pot(a) = 0 */
				pot[y] = t->a == x ? pot[x] - t->val : pot[x] + t->val;
				queue[qt++] = y;
			}
		}
		/* shift the component so its smallest potential (read as signed) is 0:
		 * the constants written (initial values, resets, absolute values) are
		 * then register values >= 0, not wrapped-around negatives */
		{
			int64_t lo = 0;
			uint32_t k;

			for (k = 0; k < qt; k++)
				if ((int64_t)pot[queue[k]] < lo)
					lo = (int64_t)pot[queue[k]];
			for (k = 0; k < qt; k++)
				pot[queue[k]] -= (uint64_t)lo;
		}
	}
	for (i = 0; i < w->nb; i++) {
		p->pot[i] = pot[i];
		p->pot_in[i] = pot[node_in(w, i)];
	}
	ok = true;
out:
	free(c);
	free(uf);
	free(adj_start);
	free(adj);
	free(queue);
	free(seen);
	free(pot);
	return ok;
}

static bool validate(struct pw *w)
{
	const struct cfg *g = w->g;
	const struct bl_dag *d = w->d;
	struct bl_placement *p = w->p;
	uint32_t e, v;

	for (v = 0; v < w->nb; v++)
		if (is_restart(p, v) && w->out_start[v] != w->out_start[v + 1] && !p->known[v]) {
			snprintf(w->err, w->errlen, "a setjmp block is not the start of a path");
			return false;
		}
	for (e = 0; e < w->ne; e++) {
		const struct cfg_edge *ce = &g->edges[e];
		struct bl_code c;

		if (ce->site != CFG_NONE || ce->src == CFG_ENTRY || !bl_code_edge(p, g, d, e, &c))
			continue;
		if (c.ends || c.upd != BL_UPD_NONE) {
			snprintf(w->err, w->errlen, "no site for the increment of a switch dispatch");
			return false;
		}
	}
	return true;
}

static struct bl_placement *alloc_placement(uint32_t nb, uint32_t ne)
{
	struct bl_placement *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	p->nblocks = nb;
	p->pot = calloc(nb + 1, sizeof *p->pot);
	p->pot_in = calloc(nb + 1, sizeof *p->pot_in);
	p->known = calloc(nb + 1, sizeof *p->known);
	p->prefix = calloc(nb + 1, sizeof *p->prefix);
	p->in_tree = calloc(ne + 1, sizeof *p->in_tree);
	p->start_in_tree = calloc(nb + 1, sizeof *p->start_in_tree);
	p->dag_edge = malloc((ne + 1) * sizeof *p->dag_edge);
	p->depth = calloc(nb + 1, sizeof *p->depth);
	p->weight = calloc(ne + 1, sizeof *p->weight);
	if (!p->weight || !p->pot || !p->pot_in || !p->known || !p->prefix || !p->in_tree || !p->start_in_tree ||
	    !p->dag_edge || !p->depth) {
		bl_placement_free(p);
		return NULL;
	}
	return p;
}

struct bl_placement *bl_place(const struct cfg *g, const struct bl_dag *d, const struct bl_place_in *in,
                              char *err, size_t errlen)
{
	static const struct bl_place_in none = {NULL, NULL, NULL};
	struct pw w;
	struct bl_placement *p = alloc_placement(g->nblocks, g->nedges);
	char dummy[1];
	bool ok = false;
	uint32_t i;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	memset(&w, 0, sizeof w);
	w.g = g;
	w.d = d;
	w.in = in ? in : &none;
	w.p = p;
	w.nb = g->nblocks;
	w.ne = g->nedges;
	w.err = err;
	w.errlen = errlen;
	w.out_start = calloc(w.nb + 2, sizeof *w.out_start);
	w.loop_of = malloc((w.nb + 1) * sizeof *w.loop_of);
	w.parent = malloc((w.nb + 1) * sizeof *w.parent);
	w.in_start = calloc(w.nb + 2, sizeof *w.in_start);
	w.in_list = malloc((w.ne + 1) * sizeof *w.in_list);
	if (p && w.out_start && w.loop_of && w.parent && w.in_start && w.in_list) {
		p->restart = w.in->restart;
		for (i = 0; i < w.nb; i++)
			w.loop_of[i] = w.parent[i] = CFG_NONE;
		for (i = 0; i < w.ne; i++)
			p->dag_edge[i] = CFG_NONE;
		for (i = 0; i < d->nedges; i++) {
			w.out_start[d->edges[i].src + 1]++;
			if (d->edges[i].kind == BL_EDGE_CFG)
				p->dag_edge[d->edges[i].cfg_edge] = i;
		}
		for (i = 0; i < w.nb; i++)
			w.out_start[i + 1] += w.out_start[i];
		known_prefixes(&w);
		ok = loops(&w) && forest(&w);
		if (!ok)
			snprintf(err, errlen, "out of memory");
		else
			ok = validate(&w);
	} else {
		snprintf(err, errlen, "out of memory");
	}
	free(w.out_start);
	free(w.loop_of);
	free(w.parent);
	free(w.in_start);
	free(w.in_list);
	if (!ok) {
		bl_placement_free(p);
		return NULL;
	}
	return p;
}

void bl_placement_free(struct bl_placement *p)
{
	if (!p)
		return;
	free(p->pot);
	free(p->pot_in);
	free(p->known);
	free(p->prefix);
	free(p->in_tree);
	free(p->start_in_tree);
	free(p->dag_edge);
	free(p->depth);
	free(p->weight);
	free(p);
}

/* A path end at block u with dummy or real edge weight v into EXIT. */
static void end_at(const struct bl_reg *r, uint32_t u, uint64_t v, struct bl_code *c)
{
	c->ends = true;
	c->end_rel = !r->known[u];
	c->end = r->known[u] ? r->prefix[u] + v : v - r->pot[u];
}

bool bl_code_edge_reg(const struct bl_placement *p, const struct bl_reg *r, const struct cfg *g,
                      const struct bl_dag *d, uint32_t e, struct bl_code *c)
{
	uint32_t u = g->edges[e].src, v = g->edges[e].dst;
	uint64_t w, inc;

	memset(c, 0, sizeof *c);
	switch (d->role[e]) {
	case ROLE_DEAD:
		return false;
	case ROLE_BACK:
	case ROLE_CUT: {
		uint32_t x = d->dummy_exit[u], n = d->dummy_entry[v];

		if (x == CFG_NONE || n == CFG_NONE)
			return false;
		end_at(r, u, r->weight(r->ctx, x), c);
		c->upd = BL_UPD_SET;
		c->val = r->weight(r->ctx, n) + r->pot_in[v];
		return true;
	}
	case ROLE_FORWARD:
		break;
	}
	if (p->dag_edge[e] == CFG_NONE)
		return false; /* into a block from which EXIT is unreachable */
	w = r->weight(r->ctx, p->dag_edge[e]);
	if (v == CFG_EXIT) {
		end_at(r, u, w, c);
		return true;
	}
	if (u == CFG_ENTRY || is_restart(p, u)) {
		c->upd = BL_UPD_SET;
		c->val = r->prefix[u] + w + r->pot_in[v];
		return true;
	}
	inc = w + r->pot_in[v] - r->pot[u];
	assert(!r->tree_free || !p->in_tree[e] || inc == 0);
	if (p->in_tree[e] || inc == 0)
		return true;
	c->upd = r->known[u] ? BL_UPD_SET : BL_UPD_ADD;
	c->val = r->known[u] ? r->prefix[u] + w + r->pot_in[v] : inc;
	return true;
}

void bl_code_start_reg(const struct bl_placement *p, const struct bl_reg *r, uint32_t b, struct bl_code *c)
{
	uint64_t inc = r->pot[b] - r->pot_in[b];

	memset(c, 0, sizeof *c);
	if (p->start_in_tree[b] || inc == 0)
		return;
	c->upd = r->known[b] ? BL_UPD_SET : BL_UPD_ADD;
	c->val = r->known[b] ? r->prefix[b] + r->pot[b] : inc;
}

static uint64_t bl_val(const void *dag, uint32_t i)
{
	return ((const struct bl_dag *)dag)->edges[i].val;
}

/* The Ball-Larus register: weights are the DAG's edge values. */
static struct bl_reg bl_register(const struct bl_placement *p, const struct bl_dag *d)
{
	struct bl_reg r;

	r.pot = p->pot;
	r.pot_in = p->pot_in;
	r.prefix = p->prefix;
	r.known = p->known;
	r.weight = bl_val;
	r.ctx = d;
	r.tree_free = false;
	return r;
}

bool bl_code_edge(const struct bl_placement *p, const struct cfg *g, const struct bl_dag *d, uint32_t e,
                  struct bl_code *c)
{
	struct bl_reg r = bl_register(p, d);

	return bl_code_edge_reg(p, &r, g, d, e, c);
}

void bl_code_start(const struct bl_placement *p, uint32_t b, struct bl_code *c)
{
	struct bl_reg r = bl_register(p, NULL);

	bl_code_start_reg(p, &r, b, c);
}
