/*
 * window.c: the window forest, the default k >= 2 stream consumer.  It
 * builds, online and in O(1) amortised work per item like the k-SF of the
 * k-BLPP paper (ksf.c), a prefix forest that make_k_ipf (kp_ksf_to_ipf)
 * turns into the same k-IPF, but with far fewer nodes.
 *
 * The k-IPF counts every n-gram (n <= k) of each activation's stream.  The
 * occurrences of n-grams ending at item j of a stream are exactly the
 * suffixes of its window at j: the last min(j, k) items.  So if the forest
 * holds each window w as a root-to-node path whose counter is the number
 * of times w was the window, the k-IPF is, for every node rho and every
 * node below it within depth k, the path between them counted with the
 * lower node's counter, which is what make_k_ipf computes (join_subtree
 * from every node).  The k-SF holds the concatenations of two chunks of
 * k-1 items (depth 2k-2); windows have depth k, so on branchy code the
 * forest has about as many nodes as the k-IPF itself, not exponentially
 * more: with two random branch outcomes per item, 2^k against 2^(2k-2).
 *
 * Node levels are 0..k-1 (level = items - 1).  A node of level < k-1 is
 * both a window (of an activation's first items) and a state: the
 * cursor's p after that window.  Every node keeps in up its suffix link,
 * the node of its window without the first item (0 for roots: the empty
 * window, whose children are the roots).  A node at level k-1 (a full
 * window) is never a state: its next is its up, the node of its last k-1
 * items, where the next item continues.  Nodes of lower levels have next =
 * themselves.  So the item after state p is the child y of p labelled r,
 * counted, and the cursor moves to y->next: kpath_rt_step, unchanged.
 *
 * Creating the child y of p also creates the suffix chain it links to
 * (child of p's suffix labelled r, recursively), at most k - 1 nodes with
 * counter 0, each once per forest.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>

#include "kp_internal.h"

int kp_win_init(struct kp_ksf *s, unsigned k)
{
	assert(k >= 2); /* k = 1 has no window: the k-SF serves it (consumer.c) */
	int rc = kp_ksf_init(s, k);
	if (rc == 0)
		s->bottom = k - 1;
	return rc;
}

/* The child of state p labelled r, with its suffix link (created, with the
 * links it needs, if absent); NULL if out of memory.  p is a node of s. */
static struct kpath_rt_node *window_child(struct kp_ksf *s, struct kpath_rt_node *p, uint64_t r)
{
	struct kpath_rt_node *x = kp_ksf_find(s, p, r);
	if (x)
		return x;
	/* the suffix of p.r: p's suffix followed by r */
	struct kpath_rt_node *sfx = p->up ? window_child(s, kp_ksf_node(s, p->up), r) : kp_ksf_root_node(s, r);
	return sfx ? kp_ksf_child(s, p, r, sfx) : NULL;
}

/* One node x of a window forest and its subtree, under gamma in dst,
 * counted with the totals its counters hold during kp_win_to_ipf, looked
 * up in dst's index. */
static int join_window(struct kp_ipf *dst, uint32_t gamma, const struct kpath_rt_node *x)
{
	uint32_t delta;
	if (kp_ipf_child(dst, gamma, x->id, &delta) != 0)
		return KP_ENOMEM;
	dst->nodes[delta].count += x->count;
	const struct kpath_rt_node *y;
	for (uint32_t i = 0; (y = kp_kids_next(x, &i));)
		if (join_window(dst, delta, y) != 0)
			return KP_ENOMEM;
	return 0;
}

static int cmp_node_id(const void *a, const void *b)
{
	const struct kpath_rt_node *x = *(const struct kpath_rt_node *const *)a, *y = *(const struct kpath_rt_node *const *)b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The children of x in increasing id order (labels are unique among
 * siblings), into few[0..16) or a new array (*v; free it unless it is
 * few): their number, or -1 without memory. */
static int64_t kids_sorted(const struct kpath_rt_node *x, const struct kpath_rt_node **few,
			   const struct kpath_rt_node ***v)
{
	uint32_t n = kp_kids_count(x), m = 0;
	const struct kpath_rt_node **a = n <= 16 ? few : kp_malloc(n * sizeof *a), *y;
	if (!a)
		return -1;
	for (uint32_t i = 0; m < n && (y = kp_kids_next(x, &i));) {
		uint32_t j = m++;
		if (a == few) /* an insertion sort where they are few */
			for (; j > 0 && a[j - 1]->id > y->id; j--)
				a[j] = a[j - 1];
		a[j] = y;
	}
	if (a != few)
		qsort(a, m, sizeof *a, cmp_node_id);
	*v = a;
	return m;
}

static int append_kids(struct kp_ipf *dst, uint32_t parent, const struct kp_ksf *s, const struct kpath_rt_node *x,
		       unsigned depth, bool *compact);

/* join_window into a fresh k-IPF, in the compact form (kp_ipf_compact,
 * profile/ipf.c): x's subtree appended after the sibling prev, children in
 * increasing id order, each before its own children (preorder).  *compact
 * is cleared where the copy would differ: a subtree without a count (a
 * node left by a failed allocation), or deeper than k. */
static int append_window(struct kp_ipf *dst, uint32_t gamma, uint32_t prev, const struct kp_ksf *s,
			 const struct kpath_rt_node *x, unsigned depth, bool *compact, uint32_t *delta)
{
	uint64_t n = x->count; /* its total, in kp_win_to_ipf */
	if (n == 0 || depth > s->k)
		*compact = false;
	if (kp_ipf_append_after(dst, gamma, prev, x->id, n, delta) != 0)
		return KP_ENOMEM;
	return append_kids(dst, *delta, s, x, depth + 1, compact);
}

/* x's children (at depth) under parent, in id order; in their table's
 * order, *compact cleared, when there is no memory to sort them (the
 * same k-IPF, which the snapshot then copies in order). */
static int append_kids(struct kp_ipf *dst, uint32_t parent, const struct kp_ksf *s, const struct kpath_rt_node *x,
		       unsigned depth, bool *compact)
{
	if (kp_kids_count(x) == 0)
		return 0; /* a leaf: most nodes */
	const struct kpath_rt_node *few[16], **v, *y;
	int64_t m = kids_sorted(x, few, &v);
	uint32_t last = KP_NONE;
	int rc = 0;
	if (m < 0) {
		*compact = false;
		for (uint32_t i = 0; rc == 0 && (y = kp_kids_next(x, &i));)
			rc = append_window(dst, parent, last, s, y, depth, compact, &last);
		return rc;
	}
	for (int64_t i = 0; i < m && rc == 0; i++)
		rc = append_window(dst, parent, last, s, v[i], depth, compact, &last);
	if (v != few)
		free(v);
	return rc;
}

/* make_k_ipf of the window forest in one lookup per node, not one per
 * node and ancestor within depth k (kp_ksf_to_ipf's join_subtree from
 * every node: about k lookups per node).  The k-IPF counts each n-gram g
 * with the counters of the windows g is a suffix of (the comment at the
 * top); every suffix of a window is a node (its suffix chain), and the
 * suffixes of window x are x, up(x), up(up(x)), ...  So g's count is the
 * sum of the counters over its subtree in the tree of suffix links, which
 * one pass over the nodes from the newest accumulates: a node is created
 * after its suffix (window_child), so its index is the larger.  And the
 * k-IPF's nodes are the forest's, with the same parents: one walk from
 * the roots copies them.  The same k-IPF as kp_ksf_to_ipf
 * (tests/runtime/test_ksf.c compares the two on random streams). */
int kp_win_to_ipf(const struct kp_ksf *s, struct kp_ipf *dst)
{
	/* The totals are summed in place, in the nodes' counters, and the
	 * counters restored after the walk: a node reads its own total
	 * without the segment search that finds an index from an address
	 * (kp_ksf_index), and no array of totals is allocated.  Restoring goes
	 * the other way, from the oldest: when node j's total is taken off
	 * its suffix up(j) < j, no node created after j has been restored
	 * yet, so j's counter still holds its total.  (The runtime zeroes the
	 * counters after the conversion anyway: thread.c, kp_thread_flush.) */
	for (uint32_t i = s->n - 1; i >= 1; i--) {
		struct kpath_rt_node *x = kp_ksf_node(s, i);
		assert(x->up < i);
		if (x->up) /* the roots' sum is not wanted */
			kp_ksf_node(s, x->up)->count += x->count;
	}
	int rc = 0;
	const struct kpath_rt_node *x;
	if (dst->n == 1 && dst->nodes[0].first_child == KP_NONE) {
		/* the usual case, one thread's forest: in the compact form,
		 * stamped, so that the snapshot takes the array as it is; room
		 * for every node of s made at once (each becomes one of dst) */
		kp_ipf_drop_index(dst);
		kp_ipf_reserve(dst, s->n);
		bool compact = true;
		rc = append_kids(dst, 0, s, &s->start, 1, &compact);
		if (rc == 0 && compact)
			dst->compact_n = dst->n, dst->compact_k = s->k;
	} else {
		for (uint32_t i = 0; rc == 0 && (x = kp_kids_next(&s->start, &i));)
			rc = join_window(dst, 0, x);
	}
	for (uint32_t j = 1; j < s->n; j++) {
		const struct kpath_rt_node *y = kp_ksf_node(s, j);
		if (y->up)
			kp_ksf_node(s, y->up)->count -= y->count;
	}
	return rc;
}

int kp_win_process(struct kp_ksf *s, struct kp_cursor *c, uint64_t r)
{
	struct kpath_rt_node *p = c->p, *y;
	if (p == &s->start) {
		y = kp_ksf_root_node(s, r);
		if (y && !s->nocache)
			kp_cache_put(p, y);
	} else {
		y = window_child(s, p, r);
	}
	if (!y) {
		/* Drop r and restart the stream as after a marker, so that no
		 * n-gram spans the lost item. */
		kp_ksf_marker(s, c);
		return KP_ENOMEM;
	}
	y->count++;
	c->p = y->next;
	return 0;
}
