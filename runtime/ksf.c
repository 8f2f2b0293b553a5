/*
 * ksf.c: the k-slab forest (k-SF) of the k-BLPP paper (Definition
 * "k-slab forest", Algorithm "Stream processing algorithm for k-SF
 * construction", Algorithm "make_k_ipf").
 *
 * The stream of one activation is "* r1 r2 ...".  Cut into chunks of k-1
 * items, every n-gram with n <= k lies within two consecutive chunks; the
 * k-SF is the prefix forest of the concatenations c_i . c_{i+1}.  tau walks
 * the upper slab (levels 0..k-2, the current chunk from its first item),
 * beta the lower slab (levels k-1..2k-3, the current chunk below the
 * previous one).  Each item updates at most two nodes and increments
 * exactly one counter, so the sum of all counters is the number of items.
 *
 * Many streams (activations, interleaved by recursion) share one forest:
 * each keeps its own (n, tau, beta) in its kpath_rt_cursor, and the forest
 * is the prefix forest of the union of their lists L, which is what
 * make_k_ipf needs.
 *
 * Memory: nodes come from segments that never move and node indices are
 * uint32 (0 = null); see kp_internal.h.  No lock: a k-SF belongs to one
 * thread.
 */
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

static uint32_t hash_label(uint64_t r)
{
	uint64_t h = r * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32);
}

int kp_ksf_init(struct kp_ksf *s, unsigned k)
{
	memset(s, 0, sizeof *s);
	s->k = k;
	s->n = 1; /* index 0 is null */
	s->seg[0] = kp_calloc((size_t)1 << KP_SEG0, sizeof(struct kp_node));
	s->roots = kp_calloc(16, sizeof *s->roots);
	if (!s->seg[0] || !s->roots) {
		kp_ksf_free(s);
		return KP_ENOMEM;
	}
	s->roots_cap = 16;
	return 0;
}

void kp_ksf_free(struct kp_ksf *s)
{
	for (unsigned i = 0; i < KP_NSEG; i++)
		free(s->seg[i]);
	free(s->roots);
	for (uint32_t i = 0; i < s->nretired; i++)
		free(s->retired[i]);
	free(s->retired);
	memset(s, 0, sizeof *s);
}

/* A new node labelled r with counter 0, no links; 0 if out of memory. */
static uint32_t new_node(struct kp_ksf *s, uint64_t r)
{
	uint32_t i = s->n;
	uint32_t j = i + (1u << KP_SEG0);
	if (j < i)
		return 0; /* 2^32 nodes: the index space is full */
	unsigned top = 31u - (unsigned)__builtin_clz(j);
	unsigned g = top - KP_SEG0;
	if (g >= KP_NSEG)
		return 0;
	if (!s->seg[g]) {
		s->seg[g] = kp_malloc(((size_t)1 << top) * sizeof(struct kp_node));
		if (!s->seg[g])
			return 0;
	}
	struct kp_node *v = &s->seg[g][j - (1u << top)];
	*v = (struct kp_node){ .id = r, .count = 0, .first_child = 0, .next_sibling = 0 };
	s->n++;
	return i;
}

uint32_t kp_ksf_root(const struct kp_ksf *s, uint64_t r)
{
	uint32_t m = s->roots_cap - 1;
	for (uint32_t i = hash_label(r) & m;; i = (i + 1) & m) {
		uint32_t v = s->roots[i];
		if (v == 0 || kp_ksf_node(s, v)->id == r)
			return v;
	}
}

/* Adds root v to R (load <= 1/2).  The old table is retired, not freed. */
static int add_root(struct kp_ksf *s, uint32_t v)
{
	if (2 * (s->roots_used + 1) > s->roots_cap) {
		uint32_t cap = s->roots_cap * 2;
		uint32_t *t = kp_calloc(cap, sizeof *t);
		void **ret = kp_realloc(s->retired, (s->nretired + 1) * sizeof *ret);
		if (!t || !ret || cap == 0) {
			free(t);
			if (ret)
				s->retired = ret;
			return KP_ENOMEM;
		}
		s->retired = ret;
		for (uint32_t i = 0; i < s->roots_cap; i++) {
			uint32_t w = s->roots[i];
			if (!w)
				continue;
			uint32_t j = hash_label(kp_ksf_node(s, w)->id) & (cap - 1);
			while (t[j])
				j = (j + 1) & (cap - 1);
			t[j] = w;
		}
		s->retired[s->nretired++] = s->roots;
		s->roots = t;
		s->roots_cap = cap;
	}
	uint32_t m = s->roots_cap - 1;
	uint32_t i = hash_label(kp_ksf_node(s, v)->id) & m;
	while (s->roots[i])
		i = (i + 1) & m;
	s->roots[i] = v;
	s->roots_used++;
	return 0;
}

/* The child of p labelled r, created (appended to p's children) if
 * absent; 0 if out of memory. */
static uint32_t child(struct kp_ksf *s, uint32_t p, uint64_t r)
{
	struct kp_node *pn = kp_ksf_node(s, p);
	uint32_t c = pn->first_child, last = 0;
	while (c) {
		struct kp_node *cn = kp_ksf_node(s, c);
		if (cn->id == r)
			return c;
		last = c;
		c = cn->next_sibling;
	}
	c = new_node(s, r);
	if (!c)
		return 0;
	/* Publish the node after it is initialised: an exit-time reader of a
	 * live thread sees either the old list or the new one. */
	if (last)
		kp_ksf_node(s, last)->next_sibling = c;
	else
		kp_ksf_node(s, p)->first_child = c;
	return c;
}

void kp_ksf_marker(struct kpath_rt_cursor *c)
{
	c->n = 0;
	c->tau = 0;
	c->beta = 0;
}

/* process_bl_path_id(r), k-BLPP paper; line numbers refer to the
 * Algorithm.  The marker case (lines 1-4) is kp_ksf_marker. */
int kp_ksf_process(struct kp_ksf *s, struct kpath_rt_cursor *c, uint64_t r)
{
	uint32_t tau = c->tau, beta = c->beta;
	if (c->n == 0) {
		/* lines 6-10: a new chunk starts; the previous chunk's path
		 * (ending at tau) becomes the parent of the lower slab */
		beta = tau;
		tau = kp_ksf_root(s, r);
		if (!tau) {
			tau = new_node(s, r);
			if (!tau || add_root(s, tau) != 0)
				goto oom; /* an unlisted node is just garbage */
		}
	} else {
		/* lines 12-18 */
		tau = child(s, tau, r);
		if (!tau)
			goto oom;
	}
	if (beta) {
		/* lines 20-27 */
		beta = child(s, beta, r);
		if (!beta)
			goto oom;
		kp_ksf_node(s, beta)->count++;
	} else {
		/* line 29 */
		kp_ksf_node(s, tau)->count++;
	}
	c->tau = tau;
	c->beta = beta;
	/* line 30; the algorithm reads n only as n mod (k-1), so c->n keeps
	 * that (no division on the hot path) */
	c->n = c->n + 1 == s->k - 1 ? 0 : c->n + 1;
	return 0;
oom:
	/* Drop r and restart the stream as after a marker, so that no n-gram
	 * spans the lost item. */
	kp_ksf_marker(c);
	return KP_ENOMEM;
}

/* join_subtree(rho, gamma, d) with rho in the k-SF (see kp_ipf_join). */
static int join_ksf(struct kp_ipf *dst, uint32_t gamma, const struct kp_ksf *s, uint32_t rho, unsigned d)
{
	const struct kp_node *rn = kp_ksf_node(s, rho);
	uint32_t delta;
	if (kp_ipf_child(dst, gamma, rn->id, &delta) != 0)
		return KP_ENOMEM;
	dst->nodes[delta].count += rn->count;
	if (d > 1)
		for (uint32_t sg = rn->first_child; sg; sg = kp_ksf_node(s, sg)->next_sibling)
			if (join_ksf(dst, delta, s, sg, d - 1) != 0)
				return KP_ENOMEM;
	return 0;
}

/* make_k_ipf, k-BLPP paper: for every label r in the k-SF and every node
 * rho in s(r), join_subtree(rho, phi, k), phi the dummy root (node 0 of
 * dst).  We visit the nodes in arena order rather than grouped by label:
 * joins only add counters, so the order does not change the result, and
 * the (parent, label) index of dst finds each root in O(1). */
int kp_ksf_to_ipf(const struct kp_ksf *s, struct kp_ipf *dst)
{
	for (uint32_t rho = 1; rho < s->n; rho++)
		if (join_ksf(dst, 0, s, rho, s->k) != 0)
			return KP_ENOMEM;
	return 0;
}

void kp_ksf_zero(struct kp_ksf *s)
{
	for (uint32_t i = 1; i < s->n; i++)
		kp_ksf_node(s, i)->count = 0;
}

uint64_t kp_ksf_sum(const struct kp_ksf *s)
{
	uint64_t sum = 0;
	for (uint32_t i = 1; i < s->n; i++)
		sum += kp_ksf_node(s, i)->count;
	return sum;
}
