/*
 * counts.c: k = 1, plain Ball-Larus path counting (a 1-IPF "yields exactly
 * the same counters as a canonical Ball-Larus path profiler", k-BLPP
 * paper, Properties).  An array of num_paths counters when num_paths <=
 * KP_COUNTS_SPARSE_MAX (above KP_COUNTS_ARRAY_MAX a sparse mapping whose
 * untouched pages are never committed), else an open-addressing table
 * keyed by id + 1 whose old arrays are retired, not freed (see kp_ksf in
 * kp_internal.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

/* A counter array follows a node without children (zeros but lim, the
 * number of counters, capped at KPATH_RT_LIM): the cursor's x at k = 1 is
 * that node, so that the inline step counts the IDs below lim in the
 * array, and an ID the array does not count takes the k >= 2 step on it,
 * which misses (kpath_rt.h). */
#define KP_HDR (sizeof(struct kpath_rt_node) / sizeof(kpath_rt_u64))

/* n counters and their header; *map_bytes = the mapping's size, or 0 when
 * the array is calloc'd. */
static kpath_rt_u64 *arr_new(uint64_t n, size_t *map_bytes)
{
	kpath_rt_u64 *a;
	*map_bytes = 0;
	if (n <= KP_COUNTS_ARRAY_MAX) {
		a = kp_calloc((size_t)n + KP_HDR, sizeof *a);
	} else {
		size_t bytes = ((size_t)n + KP_HDR) * sizeof *a;
		a = kp_sparse_alloc(bytes);
		if (a)
			*map_bytes = bytes;
	}
	if (!a)
		return NULL;
	((struct kpath_rt_node *)(void *)a)->lim = n < KPATH_RT_LIM ? n : KPATH_RT_LIM;
	return a + KP_HDR;
}

int kp_counts_init(struct kp_counts *t, uint64_t num_paths, uint64_t prefix)
{
	memset(t, 0, sizeof *t);
	if (num_paths <= KP_COUNTS_SPARSE_MAX) {
		t->narr = num_paths;
		if (num_paths == 0)
			return 0;
		t->arr = arr_new(num_paths, &t->map_bytes);
		return t->arr ? 0 : KP_ENOMEM;
	}
	if (prefix) { /* a ppp function's counter array: IDs below prefix (ppp.c) */
		if (prefix > num_paths)
			prefix = num_paths;
		if (prefix > KP_COUNTS_SPARSE_MAX)
			prefix = KP_COUNTS_SPARSE_MAX;
		t->arr = arr_new(prefix, &t->map_bytes);
		if (!t->arr)
			return KP_ENOMEM;
		t->narr = prefix;
	}
	t->cap = 64;
	t->keys = kp_calloc(t->cap, sizeof *t->keys);
	t->vals = kp_calloc(t->cap, sizeof *t->vals);
	if (!t->keys || !t->vals) {
		kp_counts_free(t);
		return KP_ENOMEM;
	}
	return 0;
}

void kp_counts_free(struct kp_counts *t)
{
	if (t->map_bytes)
		kp_sparse_free(t->arr - KP_HDR, t->map_bytes);
	else
		free(t->arr ? t->arr - KP_HDR : NULL);
	free(t->keys);
	free(t->vals);
	for (uint32_t i = 0; i < t->nretired; i++)
		free(t->retired[i]);
	free(t->retired);
	memset(t, 0, sizeof *t);
}

static uint32_t slot_of(uint64_t key, uint32_t cap)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (cap - 1);
}

static int grow(struct kp_counts *t)
{
	uint32_t cap = t->cap * 2;
	if (cap == 0)
		return KP_ENOMEM;
	uint64_t *keys = kp_calloc(cap, sizeof *keys), *vals = kp_calloc(cap, sizeof *vals);
	void **ret = kp_realloc(t->retired, (t->nretired + 2) * sizeof *ret);
	if (ret)
		t->retired = ret;
	if (!keys || !vals || !ret) {
		free(keys);
		free(vals);
		return KP_ENOMEM;
	}
	for (uint32_t i = 0; i < t->cap; i++) {
		if (!t->keys[i])
			continue;
		uint32_t j = slot_of(t->keys[i], cap);
		while (keys[j])
			j = (j + 1) & (cap - 1);
		keys[j] = t->keys[i];
		vals[j] = t->vals[i];
	}
	t->retired[t->nretired++] = t->keys;
	t->retired[t->nretired++] = t->vals;
	t->keys = keys;
	t->vals = vals;
	t->cap = cap;
	return 0;
}

int kp_counts_add(struct kp_counts *t, uint64_t id)
{
	if (id < t->narr) {
		t->arr[id]++; /* all of num_paths when no keys: checked by the caller */
		return 0;
	}
	if (!t->keys)
		return KP_ENOMEM;
	uint64_t key = id + 1; /* id < num_paths <= UINT64_MAX, so key != 0 */
	uint32_t i = slot_of(key, t->cap);
	while (t->keys[i] && t->keys[i] != key)
		i = (i + 1) & (t->cap - 1);
	if (!t->keys[i]) {
		if (2 * (t->used + 1) > t->cap) {
			if (grow(t) != 0)
				return KP_ENOMEM;
			i = slot_of(key, t->cap);
			while (t->keys[i])
				i = (i + 1) & (t->cap - 1);
		}
		t->vals[i] = 0;
		t->keys[i] = key;
		t->used++;
	}
	t->vals[i]++;
	return 0;
}

static int add_root(struct kp_ipf *dst, uint64_t id, uint64_t n)
{
	uint32_t v;
	if (n == 0)
		return 0;
	if (kp_ipf_child(dst, 0, id, &v) != 0)
		return KP_ENOMEM;
	dst->nodes[v].count += n;
	return 0;
}

/* Calls fn(t, lo, hi, arg) on the runs [lo, hi) of t's counter array that
 * may hold counts, in increasing order, until fn returns nonzero (which
 * it returns): the whole array, or, for a sparse mapping, the counters on
 * its pages that were ever written (kp_sparse_touched), so that the scans
 * at a write neither read nor map the rest (cmark-gfm's renderers spent
 * 29 M instructions, 12% of a run, scanning untouched pages). */
static int each_run(const struct kp_counts *t, int (*fn)(const struct kp_counts *, uint64_t, uint64_t, void *),
                    void *arg)
{
	unsigned char *touched = NULL; /* a bit per page of 4 KiB or more: 16 KiB at most */
	size_t page = 0, cap = t->map_bytes / 4096 / 8 + 1;
	if (!t->arr || !t->narr)
		return 0;
	if (t->map_bytes && (touched = malloc(cap)) != NULL)
		page = kp_sparse_touched(t->arr - KP_HDR, t->map_bytes, touched, cap);
	if (!page) {
		free(touched);
		return fn(t, 0, t->narr, arg);
	}
	size_t per = page / sizeof *t->arr, npages = (t->map_bytes + page - 1) / page;
	for (size_t i = 0; i < npages; i++) {
		if (!(touched[i / 8] >> (i % 8) & 1))
			continue;
		uint64_t lo = i * per > KP_HDR ? i * per - KP_HDR : 0, hi = (i + 1) * per - KP_HDR;
		if (hi > t->narr)
			hi = t->narr;
		int rc = lo < hi ? fn(t, lo, hi, arg) : 0;
		if (rc) {
			free(touched);
			return rc;
		}
	}
	free(touched);
	return 0;
}

static int run_to_ipf(const struct kp_counts *t, uint64_t lo, uint64_t hi, void *dst)
{
	for (uint64_t id = lo; id < hi; id++)
		if (add_root(dst, id, t->arr[id]) != 0)
			return KP_ENOMEM;
	return 0;
}

int kp_counts_to_ipf(const struct kp_counts *t, struct kp_ipf *dst)
{
	if (each_run(t, run_to_ipf, dst) != 0)
		return KP_ENOMEM;
	for (uint32_t i = 0; i < t->cap; i++)
		if (t->keys && t->keys[i] && add_root(dst, t->keys[i] - 1, t->vals[i]) != 0)
			return KP_ENOMEM;
	return 0;
}

static int run_sum(const struct kp_counts *t, uint64_t lo, uint64_t hi, void *sum)
{
	for (uint64_t i = lo; i < hi; i++)
		*(uint64_t *)sum += t->arr[i];
	return 0;
}

uint64_t kp_counts_sum(const struct kp_counts *t)
{
	uint64_t sum = 0;
	each_run(t, run_sum, &sum);
	for (uint32_t i = 0; t->vals && i < t->cap; i++)
		sum += t->vals[i];
	return sum;
}

static int run_zero(const struct kp_counts *t, uint64_t lo, uint64_t hi, void *arg)
{
	(void)arg;
	for (uint64_t i = lo; i < hi; i++)
		if (t->arr[i]) /* writes only where counts are */
			t->arr[i] = 0;
	return 0;
}

void kp_counts_zero(struct kp_counts *t)
{
	if (t->arr && !t->map_bytes)
		memset(t->arr, 0, (size_t)t->narr * sizeof *t->arr);
	else
		each_run(t, run_zero, NULL);
	if (t->vals)
		memset(t->vals, 0, t->cap * sizeof *t->vals);
}
