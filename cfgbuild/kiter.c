/*
 * kiter.c: loops, the loop-unrolled DAG Glu, and Roy & Srikant's numbering
 * of k-iteration paths (paper Algorithms 1 and 2).
 *
 * Glu is built explicitly, one slot per (node, version), because it is small
 * (sum of K over the nodes of k-iteration loops, plus one per other node)
 * and because the paper's way of walking it without building it (Algorithm
 * 1: "Set the list pointer to the tail node of the loop L") assumes one tail
 * and a loop contiguous in the reverse topological order (docs/kiter-paths.md,
 * departure 2).  Which Gδ edges exist in which version is the paper's
 * Ignored(e, i), decided here by the edge's target (add_slot_arcs).
 *
 * Invariants after numbering, for every slot s with arcs a_1 .. a_m:
 *   numPaths(s)     = [s is End] + sum numPaths(dst(a_j))
 *   val(a_j)        = [s is End] + sum_{l<j} numPaths(dst(a_l))   (Ball-Larus)
 *   invalidPaths(s) = sum invalid(a_j)                             (equation 2)
 *   cval(a_j)       = sum_{l<j} invalid(a_l)
 * so the paths from s that began at δstart of s's loop get the IDs
 * [0, numPaths(s) - invalidPaths(s)) with weights val - cval (Lemma 2), and
 * every other path from s the IDs [0, numPaths(s)) with weights val.
 * ki_check verifies all of it by enumeration.
 */
#include "kiter.h"

#include <assert.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Work state of one build: adjacency in CSR form, loop bodies. */
struct work {
	const struct ki_graph *g;
	const struct ki_options *o;
	struct ki_numbering *n;
	uint32_t *out_first, *out_edge; /* out-edges per node, in edge id order */
	uint32_t *in_first, *in_edge;   /* in-edges per node */
	unsigned char *body;            /* nloops x nnodes: node in loop body */
	char *err;
	size_t errlen;
};

static void fail(struct work *w, const char *fmt, ...)
{
	va_list ap;

	if (!w->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(w->err, w->errlen, fmt, ap);
	va_end(ap);
}

static bool add_checked(uint64_t a, uint64_t b, uint64_t *r)
{
	if (a > UINT64_MAX - b)
		return false;
	*r = a + b;
	return true;
}

/* CSR adjacency; out-edges keep edge id order (the order of val). */
static bool adjacency(struct work *w)
{
	const struct ki_graph *g = w->g;
	uint32_t nn = g->nnodes, *opos, *ipos;

	w->out_first = calloc(nn + 1, sizeof(uint32_t));
	w->in_first = calloc(nn + 1, sizeof(uint32_t));
	w->out_edge = malloc((g->nedges + 1) * sizeof(uint32_t));
	w->in_edge = malloc((g->nedges + 1) * sizeof(uint32_t));
	opos = malloc((nn + 1) * sizeof(uint32_t));
	ipos = malloc((nn + 1) * sizeof(uint32_t));
	if (!w->out_first || !w->in_first || !w->out_edge || !w->in_edge || !opos || !ipos) {
		free(opos);
		free(ipos);
		return false;
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		w->out_first[g->edges[e].src + 1]++;
		w->in_first[g->edges[e].dst + 1]++;
	}
	for (uint32_t v = 0; v < nn; v++) {
		w->out_first[v + 1] += w->out_first[v];
		w->in_first[v + 1] += w->in_first[v];
	}
	memcpy(opos, w->out_first, nn * sizeof(uint32_t));
	memcpy(ipos, w->in_first, nn * sizeof(uint32_t));
	for (uint32_t e = 0; e < g->nedges; e++) {
		w->out_edge[opos[g->edges[e].src]++] = e;
		w->in_edge[ipos[g->edges[e].dst]++] = e;
	}
	free(opos);
	free(ipos);
	return true;
}

static bool check_graph(struct work *w)
{
	const struct ki_graph *g = w->g;

	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct ki_edge *x = &g->edges[e];
		if (x->src >= g->nnodes || x->dst >= g->nnodes) {
			fail(w, "edge %u: node out of range", e);
			return false;
		}
		if (x->dst == KI_START || x->src == KI_END) {
			fail(w, "edge %u: %s", e, x->dst == KI_START ? "edge into Start" : "edge out of End");
			return false;
		}
	}
	return true;
}

/* Natural loop of back edge t->h: h and every node reaching t without
 * passing h (marks body row of loop l). */
static void mark_natural(struct work *w, uint32_t l, uint32_t t, uint32_t h, uint32_t *stk)
{
	unsigned char *b = w->body + (size_t)l * w->g->nnodes;
	uint32_t sp = 0;

	b[h] = 1;
	if (!b[t]) {
		b[t] = 1;
		stk[sp++] = t;
	}
	while (sp) {
		uint32_t v = stk[--sp];
		for (uint32_t j = w->in_first[v]; j < w->in_first[v + 1]; j++) {
			uint32_t p = w->g->edges[w->in_edge[j]].src;
			if (!b[p]) {
				b[p] = 1;
				stk[sp++] = p;
			}
		}
	}
}

/*
 * Loops by head; their bodies; the K each keeps (mixed mode, section 5:
 * only innermost reducible loops keep K >= 2); kloop per node.
 */
static bool find_loops(struct work *w)
{
	const struct ki_graph *g = w->g;
	struct ki_numbering *n = w->n;
	uint32_t nn = g->nnodes, *stk;

	n->loop_of_head = malloc(nn * sizeof(uint32_t));
	n->kloop = malloc(nn * sizeof(uint32_t));
	if (!n->loop_of_head || !n->kloop)
		return false;
	for (uint32_t v = 0; v < nn; v++)
		n->loop_of_head[v] = n->kloop[v] = KI_NONE;
	for (uint32_t e = 0; e < g->nedges; e++)
		if (g->edges[e].back)
			n->loop_of_head[g->edges[e].dst] = 0;
	for (uint32_t v = 0; v < nn; v++)
		if (n->loop_of_head[v] != KI_NONE)
			n->loop_of_head[v] = n->nloops++;
	n->loops = calloc(n->nloops + 1, sizeof *n->loops);
	w->body = calloc((size_t)n->nloops * nn + 1, 1);
	stk = malloc((nn + 1) * sizeof(uint32_t));
	if (!n->loops || !w->body || !stk) {
		free(stk);
		return false;
	}
	for (uint32_t v = 0; v < nn; v++) {
		uint32_t l = n->loop_of_head[v];
		if (l == KI_NONE)
			continue;
		unsigned k = w->o->k_head ? w->o->k_head[v] : w->o->k;
		if (k < 1)
			k = 1;
		if (k > KI_MAX_K)
			k = KI_MAX_K;
		n->loops[l] = (struct ki_loop){ .head = v, .k_asked = k, .k = k, .start_arc = KI_NONE };
	}
	for (uint32_t e = 0; e < g->nedges; e++)
		if (g->edges[e].back)
			mark_natural(w, n->loop_of_head[g->edges[e].dst], g->edges[e].src, g->edges[e].dst, stk);
	free(stk);

	for (uint32_t l = 0; l < n->nloops; l++) {
		struct ki_loop *L = &n->loops[l];
		const unsigned char *b = w->body + (size_t)l * nn;
		bool irreducible = b[KI_START], inner = true;
		if (L->k < 2)
			continue;
		for (uint32_t e = 0; e < g->nedges && !irreducible; e++) {
			const struct ki_edge *x = &g->edges[e];
			if (b[x->dst] && !b[x->src] && x->dst != L->head)
				irreducible = true;
		}
		for (uint32_t v = 0; v < nn; v++)
			if (b[v] && v != L->head && n->loop_of_head[v] != KI_NONE)
				inner = false;
		if (irreducible || !inner) {
			L->k = 1;
			L->lowered = irreducible ? KI_LOWER_IRREDUCIBLE : KI_LOWER_NOT_INNERMOST;
		}
	}
	for (uint32_t l = 0; l < n->nloops; l++) {
		const unsigned char *b = w->body + (size_t)l * nn;
		if (n->loops[l].k < 2)
			continue;
		if (n->loops[l].k > n->max_k)
			n->max_k = n->loops[l].k;
		for (uint32_t v = 0; v < nn; v++)
			if (b[v]) {
				/* innermost reducible loops are disjoint */
				assert(n->kloop[v] == KI_NONE);
				n->kloop[v] = l;
			}
	}
	if (n->max_k < 1)
		n->max_k = 1;
	return true;
}

static unsigned versions(const struct ki_numbering *n, uint32_t v)
{
	return n->kloop[v] == KI_NONE ? 1 : n->loops[n->kloop[v]].k;
}

static uint32_t slot(const struct ki_numbering *n, uint32_t v, unsigned i)
{
	assert(i >= 1 && i <= versions(n, v));
	return n->slot_base[v] + i - 1;
}

static bool make_slots(struct work *w)
{
	struct ki_numbering *n = w->n;
	const struct ki_graph *g = w->g;
	uint32_t ns = 0, ne = 0;

	n->slot_base = malloc(g->nnodes * sizeof(uint32_t));
	n->edge_base = malloc((g->nedges + 1) * sizeof(uint32_t));
	if (!n->slot_base || !n->edge_base)
		return false;
	for (uint32_t v = 0; v < g->nnodes; v++) {
		n->slot_base[v] = ns;
		ns += versions(n, v);
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		n->edge_base[e] = ne;
		ne += versions(n, g->edges[e].src);
	}
	n->nslots = ns;
	n->slot_node = malloc(ns * sizeof(uint32_t));
	n->slot_ver = malloc(ns * sizeof(unsigned));
	n->num_paths = calloc(ns, sizeof(uint64_t));
	n->invalid_paths = calloc(ns, sizeof(uint64_t));
	n->arc_first = malloc((ns + 1) * sizeof(uint32_t));
	n->edge_arc = malloc((ne + 1) * sizeof(uint32_t));
	n->end_arc = malloc((ne + 1) * sizeof(uint32_t));
	if (!n->slot_node || !n->slot_ver || !n->num_paths || !n->invalid_paths || !n->arc_first ||
	    !n->edge_arc || !n->end_arc)
		return false;
	for (uint32_t v = 0; v < g->nnodes; v++)
		for (unsigned i = 1; i <= versions(n, v); i++) {
			n->slot_node[slot(n, v, i)] = v;
			n->slot_ver[slot(n, v, i)] = i;
		}
	for (uint32_t j = 0; j < ne; j++)
		n->edge_arc[j] = n->end_arc[j] = KI_NONE;
	return true;
}

struct arcvec {
	struct ki_arc *a;
	uint32_t len, cap;
};

static uint32_t push_arc(struct arcvec *av, enum ki_arc_kind kind, uint32_t edge, uint32_t dst)
{
	if (av->len == av->cap) {
		uint32_t cap = av->cap ? 2 * av->cap : 64;
		struct ki_arc *a = realloc(av->a, cap * sizeof *a);
		if (!a)
			return KI_NONE;
		av->a = a;
		av->cap = cap;
	}
	av->a[av->len] = (struct ki_arc){ .kind = kind, .edge = edge, .dst = dst };
	return av->len++;
}

/*
 * The Gδ edges present in Glu out of slot (u, i), in val order: u's CFG
 * out-edges in edge id order, then δend per back edge out of u, then (for
 * Start) δstart per loop in head order.  This is the paper's Ignored(e, i)
 * (Algorithm 1, function Ignored), decided by the version each edge reaches
 * (docs/kiter-paths.md, departure 2):
 *   - a back edge of u's own k-iteration loop L goes from (u, i) to
 *     (head, i+1), and is ignored at i = K ("i = k ∧ backedge");
 *   - any other back edge is not in Gδ; its δend stands for it, in every
 *     version of u (an exit of u's loop into an enclosing acyclic loop);
 *   - δend of a back edge of L leaves version K only ("i < k ∧ δend");
 *   - an edge inside L keeps the version; an entry edge, an exit edge and
 *     δstart reach version 1 ("i > 1 ∧ (entry ∨ δstart)", read on the target).
 */
static bool add_slot_arcs(struct work *w, struct arcvec *av, uint32_t u, unsigned i)
{
	struct ki_numbering *n = w->n;
	const struct ki_graph *g = w->g;
	uint32_t L = n->kloop[u];
	unsigned K = versions(n, u);
	uint32_t a;

	for (uint32_t j = w->out_first[u]; j < w->out_first[u + 1]; j++) {
		uint32_t e = w->out_edge[j], v = g->edges[e].dst;
		if (g->edges[e].back) {
			if (L == KI_NONE || v != n->loops[L].head || i == K)
				continue;
			a = push_arc(av, KI_ARC_EDGE, e, slot(n, v, i + 1));
		} else {
			unsigned tv = (L != KI_NONE && n->kloop[v] == L) ? i : 1;
			a = push_arc(av, KI_ARC_EDGE, e, slot(n, v, tv));
		}
		if (a == KI_NONE)
			return false;
		n->edge_arc[n->edge_base[e] + i - 1] = a;
	}
	for (uint32_t j = w->out_first[u]; j < w->out_first[u + 1]; j++) {
		uint32_t e = w->out_edge[j], v = g->edges[e].dst;
		if (!g->edges[e].back)
			continue;
		if (L != KI_NONE && v == n->loops[L].head && i < K)
			continue;
		a = push_arc(av, KI_ARC_END, e, slot(n, KI_END, 1));
		if (a == KI_NONE)
			return false;
		n->end_arc[n->edge_base[e] + i - 1] = a;
	}
	if (u == KI_START)
		for (uint32_t l = 0; l < n->nloops; l++) {
			a = push_arc(av, KI_ARC_START, KI_NONE, slot(n, n->loops[l].head, 1));
			if (a == KI_NONE)
				return false;
			n->loops[l].start_arc = a;
		}
	return true;
}

static bool make_arcs(struct work *w)
{
	struct ki_numbering *n = w->n;
	struct arcvec av = { 0 };

	for (uint32_t s = 0; s < n->nslots; s++) {
		n->arc_first[s] = av.len;
		if (!add_slot_arcs(w, &av, n->slot_node[s], n->slot_ver[s])) {
			free(av.a);
			return false;
		}
	}
	n->arc_first[n->nslots] = av.len;
	n->arcs = av.a;
	n->narcs = av.len;
	return true;
}

/* Slots in DFS postorder over Glu (a reverse topological order: every arc's
 * target comes before its source).  false with *cycle set when Glu has a
 * cycle, i.e. the marked back edges do not break every cycle of g. */
static bool postorder(const struct ki_numbering *n, uint32_t *order, bool *cycle)
{
	uint32_t ns = n->nslots, len = 0;
	unsigned char *state = calloc(ns + 1, 1);
	uint32_t *stk = malloc((ns + 1) * sizeof(uint32_t)), *next = malloc((ns + 1) * sizeof(uint32_t));

	*cycle = false;
	if (!state || !stk || !next) {
		free(state), free(stk), free(next);
		return false;
	}
	for (uint32_t root = 0; root < ns && !*cycle; root++) {
		uint32_t sp = 0;
		if (state[root])
			continue;
		stk[sp++] = root;
		state[root] = 1;
		next[root] = n->arc_first[root];
		while (sp && !*cycle) {
			uint32_t s = stk[sp - 1];
			if (next[s] == n->arc_first[s + 1]) {
				state[s] = 2;
				order[len++] = s;
				sp--;
				continue;
			}
			uint32_t t = n->arcs[next[s]++].dst;
			if (state[t] == 1)
				*cycle = true;
			else if (!state[t]) {
				state[t] = 1;
				next[t] = n->arc_first[t];
				stk[sp++] = t;
			}
		}
	}
	free(state), free(stk), free(next);
	return !*cycle;
}

/* True when arc a leaves loop L (an exit edge, or a dummy edge to End). */
static bool leaves(const struct ki_numbering *n, const struct ki_arc *a, uint32_t L)
{
	return a->kind == KI_ARC_END || n->kloop[n->slot_node[a->dst]] != L;
}

/*
 * Algorithm 1 over the slots in reverse topological order.  Per slot (u, i)
 * (the paper's u with itrNum(u) = i):
 *   "if u != End then numPaths(u) := 0 else numPaths(u) := 1", "invalidPaths(u) := 0";
 *   per arc e not Ignored: "val(e, i) := numPaths(u); numPaths(u) += numPaths(v)";
 *   "if i < k ∧ u ∈ {loop-nodes of L} ∪ {Start}": "cval(e, i) := invalidPaths(u)",
 *   and invalidPaths(u) += numPaths(v) for a loop-exit edge, invalidPaths(v)
 *   otherwise.  Out of Start only δstart carries invalid paths: the paths
 *   through Start->entry are all valid even when entry is a loop head
 *   (departure 3).
 * Returns false on overflow of a path count.
 */
static bool number(struct ki_numbering *n, const uint32_t *order)
{
	for (uint32_t j = 0; j < n->nslots; j++) {
		uint32_t s = order[j], u = n->slot_node[s], L = n->kloop[u];
		unsigned i = n->slot_ver[s];
		bool counts_invalid = u == KI_START || (L != KI_NONE && i < n->loops[L].k);
		uint64_t np = u == KI_END, inv = 0;

		for (uint32_t x = n->arc_first[s]; x < n->arc_first[s + 1]; x++) {
			struct ki_arc *a = &n->arcs[x];
			a->val = np;
			if (!add_checked(np, n->num_paths[a->dst], &np))
				return false;
			a->cval = 0;
			a->invalid = 0;
			if (!counts_invalid)
				continue;
			if (u == KI_START)
				a->invalid = a->kind == KI_ARC_START ? n->invalid_paths[a->dst] : 0;
			else
				a->invalid = leaves(n, a, L) ? n->num_paths[a->dst] : n->invalid_paths[a->dst];
			a->cval = inv;
			inv += a->invalid; /* <= np: the invalid paths are some of the paths */
			assert(inv <= np);
		}
		n->num_paths[s] = np;
		n->invalid_paths[s] = inv;
	}
	return true;
}

void ki_free(struct ki_numbering *n)
{
	if (!n)
		return;
	free(n->loops);
	free(n->loop_of_head);
	free(n->kloop);
	free(n->slot_base);
	free(n->slot_node);
	free(n->slot_ver);
	free(n->num_paths);
	free(n->invalid_paths);
	free(n->arc_first);
	free(n->arcs);
	free(n->edge_base);
	free(n->edge_arc);
	free(n->end_arc);
	free(n);
}

static void work_free(struct work *w)
{
	free(w->out_first);
	free(w->out_edge);
	free(w->in_first);
	free(w->in_edge);
	free(w->body);
}

/* Builds everything; on KI_TOO_MANY the numbering is still returned in
 * *out (loops and slots valid, counts not) for ki_fit. */
static enum ki_status build(const struct ki_graph *g, const struct ki_options *o,
                            struct ki_numbering **out, char *err, size_t errlen)
{
	struct work w = { .g = g, .o = o, .err = err, .errlen = errlen };
	enum ki_status st = KI_NOMEM;
	uint32_t *order = NULL;
	bool cycle;

	*out = NULL;
	if (errlen)
		err[0] = 0;
	if (!check_graph(&w))
		return KI_BAD_GRAPH;
	w.n = calloc(1, sizeof *w.n);
	if (!w.n)
		return KI_NOMEM;
	w.n->g = g;
	if (!adjacency(&w) || !find_loops(&w) || !make_slots(&w) || !make_arcs(&w))
		goto done;
	order = malloc((w.n->nslots + 1) * sizeof(uint32_t));
	if (!order)
		goto done;
	if (!postorder(w.n, order, &cycle)) {
		if (cycle) {
			fail(&w, "a cycle without a back edge");
			st = KI_BAD_GRAPH;
		}
		goto done;
	}
	if (!number(w.n, order)) {
		fail(&w, "more than 2^64 - 1 paths");
		st = KI_TOO_MANY;
		*out = w.n;
		w.n = NULL;
		goto done;
	}
	{
		uint32_t s = slot(w.n, KI_START, 1);
		w.n->total = w.n->num_paths[s] - w.n->invalid_paths[s];
	}
	st = KI_OK;
	*out = w.n;
	w.n = NULL;
done:
	if (st == KI_NOMEM)
		fail(&w, "out of memory");
	free(order);
	ki_free(w.n);
	work_free(&w);
	return st;
}

enum ki_status ki_build(const struct ki_graph *g, const struct ki_options *o,
                        struct ki_numbering **out, char *err, size_t errlen)
{
	enum ki_status st = build(g, o, out, err, errlen);

	if (st == KI_OK && o->limit && (*out)->total > o->limit) {
		if (errlen)
			snprintf(err, errlen, "%llu k-iteration paths, more than the limit %llu",
			         (unsigned long long)(*out)->total, (unsigned long long)o->limit);
		st = KI_TOO_MANY;
	}
	if (st != KI_OK) {
		ki_free(*out);
		*out = NULL;
	}
	return st;
}

uint64_t ki_count(const struct ki_graph *g, const struct ki_options *o)
{
	struct ki_numbering *n;
	uint64_t total;

	if (build(g, o, &n, NULL, 0) != KI_OK) {
		ki_free(n);
		return UINT64_MAX;
	}
	total = n->total;
	ki_free(n);
	return total;
}

uint64_t ki_fit(const struct ki_graph *g, const struct ki_options *o, unsigned *k_out)
{
	struct ki_options opt = *o;
	struct ki_numbering *n;
	uint64_t limit = o->limit ? o->limit : UINT64_MAX, count;

	enum ki_status st = build(g, o, &n, NULL, 0);

	if (!n)
		return UINT64_MAX;
	for (uint32_t v = 0; v < g->nnodes; v++)
		k_out[v] = 1;
	for (uint32_t l = 0; l < n->nloops; l++)
		k_out[n->loops[l].head] = n->loops[l].k;
	count = st == KI_OK ? n->total : UINT64_MAX;
	ki_free(n);
	opt.k_head = k_out;
	while (count > limit) {
		uint32_t best = KI_NONE;
		uint64_t best_count = UINT64_MAX;
		for (uint32_t v = 0; v < g->nnodes; v++) {
			if (k_out[v] < 2)
				continue;
			k_out[v]--;
			uint64_t c = ki_count(g, &opt);
			k_out[v]++;
			if (best == KI_NONE || c < best_count) {
				best = v;
				best_count = c;
			}
		}
		if (best == KI_NONE)
			return UINT64_MAX;
		k_out[best]--;
		count = best_count;
	}
	return count;
}
