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

int kp_ksf_init(struct kp_ksf *s, unsigned k)
{
	memset(s, 0, sizeof *s);
	s->k = k;
	/* k = 1 (consumer.c: above the counter arrays' limit) has chunks of
	 * 0 items and no slabs: every item is a root, the bottom level, and
	 * the cursor goes back to start after it (new_node).  2k - 3 wrapped
	 * round to UINT_MAX and k - 2 too, so each item became the child of
	 * the one before: a node per item of an activation, not per path
	 * (PCRE2 10.42's pcre2_jit_test, match in pcre2_match.c: 24 GB). */
	s->bottom = k == 1 ? 0 : 2 * k - 3;
	s->n = 1; /* index 0 is null */
	s->seg[0] = kp_malloc(((size_t)1 << KP_SEG0) * sizeof(struct kpath_rt_node));
	if (!s->seg[0]) {
		kp_ksf_free(s);
		return KP_ENOMEM;
	}
	return 0;
}

void kp_ksf_free(struct kp_ksf *s)
{
	for (unsigned i = 0; i < KP_NSEG; i++)
		free(s->seg[i]);
	for (struct kp_tchunk *c = s->tab, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	memset(s, 0, sizeof *s);
}

uint32_t kp_ksf_index(const struct kp_ksf *s, const struct kpath_rt_node *v)
{
	/* v's segment, from the newest (which holds half of the nodes, and
	 * the ones the stream just created) */
	uint32_t last = s->n - 1 + (1u << KP_SEG0);
	for (unsigned g = 31u - (unsigned)__builtin_clz(last) - KP_SEG0 + 1; g-- > 0;) {
		size_t len = (size_t)1 << (g + KP_SEG0);
		if (v >= s->seg[g] && v < s->seg[g] + len)
			return (uint32_t)(len + (size_t)(v - s->seg[g]) - ((size_t)1 << KP_SEG0));
	}
	return 0; /* not reached */
}

/* A child table of 2^bits entries, all null, from s's arena (chunks of
 * 1 KiB doubling to 1 MiB, or just the table when it is larger); NULL if
 * out of memory. */
static struct kp_kids *kids_new(struct kp_ksf *s, unsigned bits)
{
	size_t bytes = sizeof(struct kp_kids) + ((size_t)1 << bits) * sizeof(struct kpath_rt_node *);
	struct kp_tchunk *c = s->tab;
	if (!c || c->cap - c->used < bytes) {
		size_t cap = c ? 2 * c->cap : 1024;
		if (cap > ((size_t)1 << 20))
			cap = (size_t)1 << 20;
		if (cap < bytes)
			cap = bytes;
		c = kp_malloc(sizeof *c + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		c->next = s->tab;
		s->tab = c;
	}
	struct kp_kids *t = (struct kp_kids *)(void *)((char *)c->data + c->used);
	c->used += bytes; /* a multiple of 8: data[] stays aligned */
	memset(t, 0, bytes);
	t->mask = (uint32_t)(((size_t)1 << bits) - 1);
	t->nf = !s->nocache;
	return t;
}

/* Enters x, a new child of p (no child of p has its label), into p's
 * table; a table that would be more than three quarters full is replaced
 * by one twice its size.  Stores that a reader may see (the entry, the
 * new table) come after what they publish is written.  0 or KP_ENOMEM
 * (p unchanged). */
static int kids_add(struct kp_ksf *s, struct kpath_rt_node *p, struct kpath_rt_node *x)
{
	struct kp_kids *t = p->kids;
	uint64_t n = t ? t->nf >> 1 : 0; /* children */
	if (!t || 4 * (n + 1) > 3 * ((uint64_t)t->mask + 1)) {
		unsigned bits = 1;
		while (bits < 31 && 4 * (n + 1) > 3 * ((uint64_t)1 << bits))
			bits++;
		if (4 * (n + 1) > 3 * ((uint64_t)1 << bits))
			return KP_ENOMEM; /* 2^31 entries: the largest table */
		struct kp_kids *u = kids_new(s, bits);
		if (!u)
			return KP_ENOMEM;
		for (uint32_t i = 0; t && i <= t->mask; i++) {
			struct kpath_rt_node *y = t->e[i];
			if (!y)
				continue;
			uint32_t j = kp_kids_hash(y->id) & u->mask;
			while (u->e[j])
				j = (j + 1) & u->mask;
			u->e[j] = y;
		}
		u->nf += (uint32_t)n << 1;
		t = u;
	}
	uint32_t j = kp_kids_hash(x->id) & t->mask;
	while (t->e[j])
		j = (j + 1) & t->mask;
	t->nf += 2;
	__atomic_store_n(&t->e[j], x, __ATOMIC_RELEASE);
	if (p->kids != t)
		__atomic_store_n(&p->kids, (void *)t, __ATOMIC_RELEASE);
	return 0;
}

/* A new node labelled r at depth level, with counter 0, no children, an
 * empty child cache, and for the lower slab the upper-slab node up (tau
 * of the same item); NULL if out of memory.  next: see kp_ksf_process. */
static struct kpath_rt_node *new_node(struct kp_ksf *s, uint64_t r, unsigned level, struct kpath_rt_node *up)
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
	v->up = up ? kp_ksf_index(s, up) : 0;
	v->next = level != s->bottom ? v : up ? up : &s->start; /* up is null only at k = 1 */
	s->n++;
	return v;
}

/* The child of p labelled r, created if absent (level: its level; up:
 * as new_node wants) and entered into p's table; NULL if out of memory
 * (a node created but not entered is just garbage). */
static struct kpath_rt_node *child_of(struct kp_ksf *s, struct kpath_rt_node *p, uint64_t r, unsigned level,
				      struct kpath_rt_node *up)
{
	struct kpath_rt_node *x = kp_kids_find(p, r);
	if (x)
		return x;
	x = new_node(s, r, level, up);
	if (!x || kids_add(s, p, x) != 0)
		return NULL;
	return x;
}

/* The root labelled r (find(R, r)), created if absent; NULL if out of
 * memory. */
struct kpath_rt_node *kp_ksf_root_node(struct kp_ksf *s, uint64_t r)
{
	return child_of(s, &s->start, r, 0, NULL);
}

struct kpath_rt_node *kp_ksf_find(struct kp_ksf *s, struct kpath_rt_node *p, uint64_t r)
{
	struct kpath_rt_node *x = kp_cache_get(p, r);
	if (x)
		return x;
	x = kp_kids_find(p, r);
	if (x && !s->nocache)
		kp_cache_put(p, x);
	return x;
}

/* The child of p labelled r: through p's child cache, else p's table,
 * else created; p's cache then holds it.  NULL if out of memory. */
struct kpath_rt_node *kp_ksf_child(struct kp_ksf *s, struct kpath_rt_node *p, uint64_t r,
				   struct kpath_rt_node *up)
{
	struct kpath_rt_node *x = kp_cache_get(p, r);
	if (x)
		return x;
	x = child_of(s, p, r, p->level + 1, up);
	if (x && !s->nocache)
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
static int join_ksf(struct kp_ipf *dst, uint32_t gamma, const struct kp_ksf *s, const struct kpath_rt_node *rn,
		    unsigned d)
{
	uint32_t delta;
	if (kp_ipf_child(dst, gamma, rn->id, &delta) != 0)
		return KP_ENOMEM;
	dst->nodes[delta].count += rn->count;
	if (d > 1) {
		const struct kpath_rt_node *sg;
		for (uint32_t i = 0; (sg = kp_kids_next(rn, &i));)
			if (join_ksf(dst, delta, s, sg, d - 1) != 0)
				return KP_ENOMEM;
	}
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
		if (join_ksf(dst, 0, s, kp_ksf_node(s, rho), s->k) != 0)
			return KP_ENOMEM;
	return 0;
}

uint64_t kp_ksf_table_bytes(const struct kp_ksf *s)
{
	uint64_t b = 0;
	for (const struct kp_tchunk *c = s->tab; c; c = c->next)
		b += c->used;
	return b;
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
