/*
 * rt_test.h: helpers shared by the runtime tests: a CHECK macro that
 * counts failures, brute-force n-gram counting into a k-IPF, and forest
 * comparison in canonical form.
 */
#ifndef KPATH_RT_TEST_H
#define KPATH_RT_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

static int rt_failures;

#define CHECK_FAILURES rt_failures
#include "../check.h"

/* Brute force (k-BLPP paper, Definition "k-Iteration Path Forest"): adds
 * every n-gram (n <= k) of the marker-free sequence s[0..len) to t. */
static inline int rt_ngrams(struct kp_ipf *t, const uint64_t *s, size_t len, unsigned k)
{
	for (size_t i = 0; i < len; i++) {
		uint32_t v = 0;
		for (size_t n = 0; n < k && i + n < len; n++) {
			if (kp_ipf_child(t, v, s[i + n], &v) != 0)
				return -1;
			t->nodes[v].count++;
		}
	}
	return 0;
}

/* Equal as labelled trees with equal counters.  Compacts both (prunes
 * all-zero subtrees, sorts). */
static inline int rt_ipf_equal(struct kp_ipf *a, struct kp_ipf *b)
{
	if (kp_ipf_compact(a, KP_KMAX) || kp_ipf_compact(b, KP_KMAX))
		return 0;
	if (a->n != b->n)
		return 0;
	for (uint32_t i = 0; i < a->n; i++)
		if (a->nodes[i].id != b->nodes[i].id || a->nodes[i].count != b->nodes[i].count ||
		    a->nodes[i].first_child != b->nodes[i].first_child ||
		    a->nodes[i].next_sibling != b->nodes[i].next_sibling)
			return 0;
	return 1;
}

/* Property 1: counters never increase going down. */
static inline int rt_monotone(const struct kp_ipf *t, uint32_t v)
{
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		if (v != 0 && t->nodes[c].count > t->nodes[v].count)
			return 0;
		if (t->nodes[c].count == 0 || !rt_monotone(t, c))
			return 0;
	}
	return 1;
}

/* Count of the path labelled s[0..n) from the roots, 0 if absent. */
static inline uint64_t rt_count(struct kp_ipf *t, const uint64_t *s, size_t n)
{
	uint32_t v = 0;
	for (size_t i = 0; i < n; i++)
		if ((v = kp_ipf_find(t, v, s[i])) == KP_NONE)
			return 0;
	return t->nodes[v].count;
}

static inline int rt_done(const char *name)
{
	if (rt_failures) {
		fprintf(stderr, "%s: %d check(s) failed\n", name, rt_failures);
		return 1;
	}
	printf("%s: ok\n", name);
	return 0;
}

#endif
