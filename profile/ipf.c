/*
 * ipf.c: building and merging k-Iteration Path Forests (k-BLPP paper,
 * Definition "k-Iteration Path Forest").
 *
 * Invariants of struct kp_ipf (profile.h): nodes[0] is the dummy root phi
 * of make_k_ipf; every other node is reachable from it through
 * first_child/next_sibling; no two siblings share a label.  The index idx,
 * when present, maps (parent, label) to the child and covers every node but
 * the root: idx_used == n - 1.  Functions that relink nodes without going
 * through kp_ipf_child drop the index; kp_ipf_child rebuilds it.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "profile_int.h"

static uint32_t hash_key(uint32_t parent, uint64_t id)
{
	uint64_t h = (id + 0x9e3779b97f4a7c15ull) * 0xbf58476d1ce4e5b9ull;
	h ^= (uint64_t)parent * 0x94d049bb133111ebull;
	h ^= h >> 31;
	return (uint32_t)h;
}

int kp_ipf_init(struct kp_ipf *t)
{
	memset(t, 0, sizeof *t);
	/* the root alone: most forests of a profile are empty (a function
	 * registered and never run), and a forest that grows doubles */
	t->nodes = kp_calloc(1, sizeof *t->nodes);
	if (!t->nodes)
		return KP_ENOMEM;
	t->cap = 1;
	t->n = 1;
	return 0;
}

void kp_ipf_free(struct kp_ipf *t)
{
	if (!t->borrowed)
		free(t->nodes);
	free(t->idx);
	memset(t, 0, sizeof *t);
}

static void drop_index(struct kp_ipf *t)
{
	free(t->idx);
	t->idx = NULL;
	t->idx_cap = t->idx_used = 0;
}

void kp_ipf_drop_index(struct kp_ipf *t)
{
	drop_index(t);
}

void kp_ipf_clear(struct kp_ipf *t)
{
	if (!t->nodes)
		return;
	assert(!t->borrowed);
	t->n = 1;
	t->compact_n = 0;
	memset(&t->nodes[0], 0, sizeof t->nodes[0]);
	drop_index(t);
}

/* idx holds pairs (parent, child); child 0 marks an empty slot. */
static void index_put(uint32_t *idx, uint32_t cap, uint32_t parent, uint64_t id, uint32_t child)
{
	uint32_t i = hash_key(parent, id) & (cap - 1);
	while (idx[2 * i + 1] != KP_NONE)
		i = (i + 1) & (cap - 1);
	idx[2 * i] = parent;
	idx[2 * i + 1] = child;
}

/* Makes room for one more entry (load <= 1/2), rebuilding from the links
 * when the index is absent. */
static int index_reserve(struct kp_ipf *t)
{
	uint32_t need = t->n; /* entries after one insertion: n - 1 + 1 */
	if (t->idx && 2 * (uint64_t)need <= t->idx_cap)
		return 0;
	uint64_t cap = 64;
	while (cap < 2 * (uint64_t)need)
		cap *= 2;
	if (cap > (1ull << 31))
		return KP_ENOMEM;
	uint32_t *idx = kp_calloc(2 * cap, sizeof *idx);
	if (!idx)
		return KP_ENOMEM;
	for (uint32_t p = 0; p < t->n; p++)
		for (uint32_t c = t->nodes[p].first_child; c != KP_NONE; c = t->nodes[c].next_sibling)
			index_put(idx, (uint32_t)cap, p, t->nodes[c].id, c);
	free(t->idx);
	t->idx = idx;
	t->idx_cap = (uint32_t)cap;
	t->idx_used = t->n - 1;
	return 0;
}

uint32_t kp_ipf_find(struct kp_ipf *t, uint32_t parent, uint64_t id)
{
	if (!t->idx) {
		for (uint32_t c = t->nodes[parent].first_child; c != KP_NONE; c = t->nodes[c].next_sibling)
			if (t->nodes[c].id == id)
				return c;
		return KP_NONE;
	}
	uint32_t i = hash_key(parent, id) & (t->idx_cap - 1);
	for (;;) {
		uint32_t c = t->idx[2 * i + 1];
		if (c == KP_NONE)
			return KP_NONE;
		if (t->idx[2 * i] == parent && t->nodes[c].id == id)
			return c;
		i = (i + 1) & (t->idx_cap - 1);
	}
}

/* A new child of parent labelled id with count count, first among its
 * siblings (the index is the caller's to update): its index in *child.  0
 * or KP_ENOMEM (then t is unchanged). */
static int new_child(struct kp_ipf *t, uint32_t parent, uint64_t id, uint64_t count, uint32_t *child)
{
	assert(!t->borrowed);
	if (t->n == t->cap) {
		if (t->cap >= (1u << 30))
			return KP_ENOMEM;
		struct kp_node *nodes = kp_realloc(t->nodes, 2 * (size_t)t->cap * sizeof *nodes);
		if (!nodes)
			return KP_ENOMEM;
		t->nodes = nodes;
		t->cap *= 2;
	}
	uint32_t c = t->n++;
	t->nodes[c] = (struct kp_node){ .id = id, .count = count, .first_child = KP_NONE,
					.next_sibling = t->nodes[parent].first_child };
	t->nodes[parent].first_child = c;
	*child = c;
	return 0;
}

int kp_ipf_child(struct kp_ipf *t, uint32_t parent, uint64_t id, uint32_t *child)
{
	assert(!t->borrowed);
	if (index_reserve(t) != 0)
		return KP_ENOMEM;
	/* kp_ipf_find's probe, ending at the empty slot a new child takes */
	uint32_t i = hash_key(parent, id) & (t->idx_cap - 1), c;
	while ((c = t->idx[2 * i + 1]) != KP_NONE) {
		if (t->idx[2 * i] == parent && t->nodes[c].id == id) {
			*child = c;
			return 0;
		}
		i = (i + 1) & (t->idx_cap - 1);
	}
	if (new_child(t, parent, id, 0, &c) != 0)
		return KP_ENOMEM;
	t->idx[2 * i] = parent; /* index_put, without probing again */
	t->idx[2 * i + 1] = c;
	t->idx_used++;
	*child = c;
	return 0;
}

int kp_ipf_append(struct kp_ipf *t, uint32_t parent, uint64_t id, uint64_t count, uint32_t *child)
{
	assert(!t->idx);
	return new_child(t, parent, id, count, child);
}

/* Whether t's stamp says it is compact for k (struct kp_ipf). */
static int stamped(const struct kp_ipf *t, unsigned k)
{
	return t->compact_n == t->n && t->compact_k == k;
}

int kp_ipf_borrow(struct kp_ipf *dst, const struct kp_ipf *src, unsigned k)
{
	if (dst->n != 1 || dst->idx || !src->nodes || !stamped(src, k) ||
	    src->nodes[0].id != 0 || src->nodes[0].count != 0)
		return 0;
	free(dst->nodes);
	*dst = (struct kp_ipf){ .nodes = src->nodes, .n = src->n, .cap = src->n, .compact_n = src->n,
				.compact_k = k, .borrowed = 1 };
	return 1;
}

void kp_ipf_reserve(struct kp_ipf *t, uint32_t n)
{
	if (n <= t->cap || !t->nodes)
		return;
	struct kp_node *nodes = kp_realloc(t->nodes, (size_t)n * sizeof *nodes);
	if (nodes) {
		t->nodes = nodes;
		t->cap = n;
	}
}

int kp_ipf_append_after(struct kp_ipf *t, uint32_t parent, uint32_t prev, uint64_t id, uint64_t count,
			uint32_t *child)
{
	assert(!t->idx);
	assert(prev == KP_NONE || t->nodes[prev].next_sibling == KP_NONE);
	int rc = new_child(t, parent, id, count, child); /* first among its siblings */
	if (rc == 0 && prev != KP_NONE) {                /* moved behind prev */
		t->nodes[parent].first_child = t->nodes[*child].next_sibling;
		t->nodes[*child].next_sibling = KP_NONE;
		t->nodes[prev].next_sibling = *child;
	}
	return rc;
}

/* join_subtree(rho, gamma, d), k-BLPP paper:
 *   delta <- child of gamma labelled l(rho), created with c(rho) or
 *   incremented by c(rho); if d > 1, join every child of rho under delta
 *   with d - 1. */
int kp_ipf_join(struct kp_ipf *dst, uint32_t gamma, const struct kp_ipf *src, uint32_t rho, unsigned d)
{
	uint32_t delta;
	if (kp_ipf_child(dst, gamma, src->nodes[rho].id, &delta) != 0)
		return KP_ENOMEM;
	dst->nodes[delta].count = kp_add_sat(dst->nodes[delta].count, src->nodes[rho].count);
	if (d > 1)
		for (uint32_t s = src->nodes[rho].first_child; s != KP_NONE; s = src->nodes[s].next_sibling)
			if (kp_ipf_join(dst, delta, src, s, d - 1) != 0)
				return KP_ENOMEM;
	return 0;
}

int kp_ipf_add(struct kp_ipf *dst, const struct kp_ipf *src, unsigned k)
{
	if (!src->nodes)
		return 0;
	for (uint32_t r = src->nodes[0].first_child; r != KP_NONE; r = src->nodes[r].next_sibling)
		if (kp_ipf_join(dst, 0, src, r, k) != 0)
			return KP_ENOMEM;
	return 0;
}

static uint64_t subtree_sum(const struct kp_ipf *t, uint32_t v, unsigned d)
{
	uint64_t s = t->nodes[v].count;
	if (d > 1)
		for (uint32_t c = t->nodes[v].first_child; c != KP_NONE && s == 0; c = t->nodes[c].next_sibling)
			s = subtree_sum(t, c, d - 1);
	return s; /* nonzero iff some counter in the subtree is nonzero */
}

/* A child to copy: its label and its index in the source. */
struct kid {
	uint64_t id;
	uint32_t at;
};

static int cmp_kid(const void *a, const void *b)
{
	const struct kid *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Copies the children of src node v (depth d remaining) under dst node w in
 * id order.  Children are staged in a small sorted buffer (an insertion
 * sort where they are few, the usual case; labels are unique among
 * siblings): preorder, so equal forests end up in equal arrays. */
static int copy_sorted(struct kp_ipf *dst, uint32_t w, const struct kp_ipf *src, uint32_t v, unsigned d)
{
	uint32_t nc = 0;
	for (uint32_t c = src->nodes[v].first_child; c != KP_NONE; c = src->nodes[c].next_sibling)
		nc++;
	if (nc == 0 || d == 0)
		return 0;
	struct kid few[16], *kids = nc <= 16 ? few : kp_malloc(nc * sizeof *kids);
	if (!kids)
		return KP_ENOMEM;
	nc = 0;
	for (uint32_t c = src->nodes[v].first_child; c != KP_NONE; c = src->nodes[c].next_sibling) {
		if (src->nodes[c].count == 0 && subtree_sum(src, c, d) == 0)
			continue; /* (a count of its own settles it, without the call) */
		struct kid x = { src->nodes[c].id, c };
		uint32_t i = nc++;
		if (kids == few) /* insertion: at most 16 */
			for (; i > 0 && kids[i - 1].id > x.id; i--)
				kids[i] = kids[i - 1];
		kids[i] = x;
	}
	if (kids != few) {
		uint32_t sorted = 1;
		while (sorted < nc && kids[sorted - 1].id < kids[sorted].id)
			sorted++;
		if (sorted < nc)
			qsort(kids, nc, sizeof *kids, cmp_kid);
	}
	int rc = 0;
	uint32_t prev = KP_NONE;
	for (uint32_t i = 0; i < nc && rc == 0; i++) {
		if (dst->n == dst->cap) {
			struct kp_node *nodes = kp_realloc(dst->nodes, 2 * (size_t)dst->cap * sizeof *nodes);
			if (!nodes) {
				rc = KP_ENOMEM;
				break;
			}
			dst->nodes = nodes;
			dst->cap *= 2;
		}
		uint32_t x = dst->n++;
		dst->nodes[x] = (struct kp_node){ .id = kids[i].id, .count = src->nodes[kids[i].at].count,
						  .first_child = KP_NONE, .next_sibling = KP_NONE };
		if (prev == KP_NONE)
			dst->nodes[w].first_child = x;
		else
			dst->nodes[prev].next_sibling = x;
		prev = x;
		rc = copy_sorted(dst, x, src, kids[i].at, d - 1);
	}
	if (kids != few)
		free(kids);
	return rc;
}

/* Whether the children of v (depth d remaining), numbered from *next on,
 * are what copy_sorted would make of them: in preorder, ids strictly
 * increasing among siblings, no subtree without a count, none below depth
 * k.  Recursion depth is bounded by k <= KP_KMAX. */
static int compact_below(const struct kp_ipf *t, uint32_t v, unsigned d, uint32_t *next)
{
	uint32_t prev = KP_NONE;
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		if (d == 0 || c != *next || c >= t->n || (prev != KP_NONE && t->nodes[prev].id >= t->nodes[c].id) ||
		    (t->nodes[c].count == 0 && subtree_sum(t, c, d) == 0))
			return 0;
		++*next;
		if (!compact_below(t, c, d - 1, next))
			return 0;
		prev = c;
	}
	return 1;
}

int kp_ipf_compact(struct kp_ipf *t, unsigned k)
{
	struct kp_ipf out;
	if (!t->nodes)
		return kp_ipf_init(t);
	if (stamped(t, k))
		return 0; /* compacted, and no node added since */
	uint32_t next = 1;
	if (compact_below(t, 0, k, &next) && next == t->n) {
		t->compact_n = t->n, t->compact_k = k;
		return 0; /* already what the copy below would make */
	}
	if (kp_ipf_init(&out) != 0)
		return KP_ENOMEM;
	kp_ipf_reserve(&out, t->n); /* the copy has at most t's nodes */
	out.nodes[0].id = t->nodes[0].id;
	out.nodes[0].count = t->nodes[0].count;
	if (copy_sorted(&out, 0, t, 0, k) != 0) {
		kp_ipf_free(&out);
		return KP_ENOMEM;
	}
	kp_ipf_free(t);
	*t = out;
	t->compact_n = t->n, t->compact_k = k;
	return 0;
}

int kp_ipf_add_compact(struct kp_ipf *dst, const struct kp_ipf *src, unsigned k)
{
	if (dst->n != 1 || !src->nodes) {
		int rc = kp_ipf_add(dst, src, k);
		return rc ? rc : kp_ipf_compact(dst, k);
	}
	/* into an empty forest, kp_ipf_add copies src to depth k (its siblings
	 * are unique: no counts to sum), which kp_ipf_compact then sorts and
	 * prunes: copy_sorted does both in one copy, without the index, into
	 * room for all of src's nodes made at once (the copy has at most as
	 * many) */
	kp_ipf_reserve(dst, src->n);
	if (stamped(src, k) && dst->cap >= src->n) {
		/* src is what copy_sorted would make of it (struct kp_ipf): the
		 * same array, under dst's own root */
		struct kp_node root = dst->nodes[0];
		memcpy(dst->nodes, src->nodes, (size_t)src->n * sizeof *dst->nodes);
		root.first_child = src->nodes[0].first_child;
		dst->nodes[0] = root;
		dst->n = src->n;
		drop_index(dst);
		dst->compact_n = dst->n, dst->compact_k = k;
		return 0;
	}
	int rc = copy_sorted(dst, 0, src, 0, k);
	drop_index(dst);
	if (rc == 0) /* the writer's kp_profile_sort need not check it again */
		dst->compact_n = dst->n, dst->compact_k = k;
	return rc;
}

static unsigned depth_of(const struct kp_ipf *t, uint32_t v)
{
	unsigned d = 0;
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		unsigned e = depth_of(t, c);
		if (e > d)
			d = e;
	}
	return d + 1;
}

unsigned kp_ipf_depth(const struct kp_ipf *t)
{
	return t->nodes ? depth_of(t, 0) - 1 : 0;
}
