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
 * The cursor keeps one node p for (n, tau, beta), and nodes cache their
 * children, so that the common item is kpath_rt_step in the instrumented
 * code (kp_ksf_process explains the encoding); this file does the rest.
 *
 * Memory: nodes come from segments that never move and node indices are
 * uint32 (0 = null); see kp_internal.h.  No lock: a k-SF belongs to one
 * thread (abi.c: signal handlers).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

struct kpath_rt_node kp_rt_idle;
struct kpath_rt_node kp_rt_lib;

static uint32_t hash_label(uint64_t r)
{
	uint64_t h = r * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(h >> 32);
}

int kp_ksf_init(struct kp_ksf *s, unsigned k)
{
	memset(s, 0, sizeof *s);
	s->k = k;
	s->bottom = 2 * k - 3;
	s->n = 1; /* index 0 is null */
	s->seg[0] = kp_malloc(((size_t)1 << KP_SEG0) * sizeof(struct kpath_rt_node));
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

/* The index of node v (a node of s, not s->start): the inverse of
 * kp_ksf_node, by finding v's segment, from the newest (which holds half
 * of the nodes, and the ones the stream just created). */
static uint32_t index_of(const struct kp_ksf *s, const struct kpath_rt_node *v)
{
	uint32_t last = s->n - 1 + (1u << KP_SEG0);
	for (unsigned g = 31u - (unsigned)__builtin_clz(last) - KP_SEG0 + 1; g-- > 0;) {
		size_t len = (size_t)1 << (g + KP_SEG0);
		if (v >= s->seg[g] && v < s->seg[g] + len)
			return (uint32_t)(len + (size_t)(v - s->seg[g]) - ((size_t)1 << KP_SEG0));
	}
	return 0; /* not reached */
}

/* A new node labelled r at depth level, with counter 0, no links, an empty
 * child cache, and for the lower slab the upper-slab node up (tau of the
 * same item); *idx its index; NULL if out of memory.  next: see
 * kp_ksf_process. */
static struct kpath_rt_node *new_node(struct kp_ksf *s, uint64_t r, unsigned level,
				      struct kpath_rt_node *up, uint32_t *idx)
{
	uint32_t i = s->n;
	uint32_t j = i + (1u << KP_SEG0);
	if (j < i)
		return NULL; /* 2^32 nodes: the index space is full */
	unsigned top = 31u - (unsigned)__builtin_clz(j);
	unsigned g = top - KP_SEG0;
	if (g >= KP_NSEG)
		return NULL;
	if (!s->seg[g]) {
		s->seg[g] = kp_malloc(((size_t)1 << top) * sizeof(struct kpath_rt_node));
		if (!s->seg[g])
			return NULL;
	}
	struct kpath_rt_node *v = kp_ksf_node(s, i);
	memset(v, 0, sizeof *v);
	v->id = r;
	v->level = level;
	v->up = up ? index_of(s, up) : 0;
	v->next = level == s->bottom ? up : v;
	s->n++;
	*idx = i;
	return v;
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

/* The root labelled r (find(R, r)), created if absent; NULL if out of
 * memory. */
struct kpath_rt_node *kp_ksf_root_node(struct kp_ksf *s, uint64_t r)
{
	uint32_t v = kp_ksf_root(s, r);
	if (v)
		return kp_ksf_node(s, v);
	struct kpath_rt_node *x = new_node(s, r, 0, NULL, &v);
	if (!x || add_root(s, v) != 0)
		return NULL; /* an unlisted node is just garbage */
	return x;
}

/* The child of p labelled r: through p's child cache, else p's list,
 * else created (appended to the list, with up as new_node wants); p's
 * cache then holds it.  NULL if out of memory. */
struct kpath_rt_node *kp_ksf_child(struct kp_ksf *s, struct kpath_rt_node *p, uint64_t r,
				   struct kpath_rt_node *up)
{
	struct kpath_rt_node *x = kp_cache_get(p, r);
	if (x)
		return x;
	uint32_t c = p->first_child, last = 0;
	while (c) {
		x = kp_ksf_node(s, c);
		if (x->id == r)
			goto found;
		last = c;
		c = x->next_sibling;
	}
	x = new_node(s, r, p->level + 1, up, &c);
	if (!x)
		return NULL;
	/* Publish the node after it is initialised: an exit-time reader of a
	 * live thread sees either the old list or the new one. */
	if (last)
		kp_ksf_node(s, last)->next_sibling = c;
	else
		p->first_child = c;
found:
	if (!s->nocache)
		kp_cache_put(p, x);
	return x;
}

void kp_ksf_marker(struct kp_ksf *s, struct kp_cursor *c)
{
	c->p = &s->start;
}

/* process_bl_path_id(r), k-BLPP paper; line numbers refer to the
 * Algorithm.  The marker case (lines 1-4) is kp_ksf_marker.
 *
 * The cursor's one node p stands for (n, tau, beta).  Levels: the upper
 * slab is depths 0..k-2, the lower slab k-1..2k-3 (top = k-2 below).
 *   p = start              n = 0, tau = beta = null (after the marker)
 *   p upper, level < top   the first chunk: beta = null, tau = p
 *   p upper, level = top   n = 0 after a chunk: tau = p (beta is moot:
 *                          lines 6-10 set beta = tau)
 *   p lower                n > 0: beta = p, tau = p->up
 * A lower-slab node keeps in up the tau that was reached with it (the
 * same chunk's items from its first: a function of the node's path), and
 * in next where the cursor goes after it: itself, or up when it is at the
 * bottom level (its chunk is over, and tau, at level top, is the parent of
 * the next beta).  An upper-slab node's next is itself.  So after an item
 * whose node (the one counted: beta, or tau when beta is null) is y, the
 * cursor's p is y->next, and an item whose node is cached in p's child
 * cache needs nothing else: if beta' exists, so does tau' = beta'->up,
 * created with it.  That is kpath_rt_step. */
int kp_ksf_process(struct kp_ksf *s, struct kp_cursor *c, uint64_t r)
{
	struct kpath_rt_node *p = c->p, *tau, *y;
	unsigned top = s->k - 2;
	if (p == &s->start) {
		/* lines 6-10 with tau = null: tau = find(R, r); line 29 */
		y = kp_ksf_root_node(s, r);
		if (y && !s->nocache)
			kp_cache_put(p, y);
	} else if (p->level < top) {
		/* lines 12-18 in the first chunk; line 29 */
		y = kp_ksf_child(s, p, r, NULL);
	} else {
		if (p->level == top)
			tau = kp_ksf_root_node(s, r); /* lines 6-10: beta = tau; tau = find(R, r) */
		else
			tau = kp_ksf_child(s, kp_ksf_node(s, p->up), r, NULL); /* lines 12-18 */
		/* lines 20-27: beta = child(beta, r) */
		y = tau ? kp_ksf_child(s, p, r, tau) : NULL;
	}
	if (!y) {
		/* Drop r and restart the stream as after a marker, so that no
		 * n-gram spans the lost item. */
		kp_ksf_marker(s, c);
		return KP_ENOMEM;
	}
	y->count++;
	/* line 30: n = n + 1, implicit in the level of y */
	c->p = y->next;
	return 0;
}

/* join_subtree(rho, gamma, d) with rho in the k-SF (see kp_ipf_join). */
static int join_ksf(struct kp_ipf *dst, uint32_t gamma, const struct kp_ksf *s, uint32_t rho, unsigned d)
{
	const struct kpath_rt_node *rn = kp_ksf_node(s, rho);
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
