/*
 * ppp_set.c: the set I of interesting paths, given as edge sequences or as
 * Ball-Larus IDs (the PPP paper's section 5, "Representing paths and
 * prefixes": the implementation names interesting paths by their
 * Ball-Larus identifiers).  A set has no duplicates: by_bl is kept sorted
 * by Ball-Larus ID, which is unique per path.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppp_internal.h"

struct ppp_set *ppp_set_new(const struct ppp_dag *d)
{
	struct ppp_set *s = calloc(1, sizeof *s);

	if (s)
		s->dag = d;
	return s;
}

void ppp_set_free(struct ppp_set *s)
{
	if (!s)
		return;
	free(s->start);
	free(s->len);
	free(s->bl);
	free(s->by_bl);
	free(s->edges);
	free(s);
}

uint32_t ppp_set_size(const struct ppp_set *s)
{
	return s->n;
}

uint64_t ppp_set_bl_id(const struct ppp_set *s, uint32_t i)
{
	return s->bl[i];
}

/* Position of bl in by_bl: the first entry whose ID is >= bl. */
static uint32_t find(const struct ppp_set *s, uint64_t bl)
{
	uint32_t lo = 0, hi = s->n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (s->bl[s->by_bl[mid]] < bl)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool grow(struct ppp_set *s, uint32_t len)
{
	if (s->n == s->cap) {
		uint32_t cap = s->cap ? 2 * s->cap : 16;
		uint64_t *start = realloc(s->start, cap * sizeof *start);
		uint32_t *l = start ? realloc(s->len, cap * sizeof *l) : NULL;
		uint64_t *bl = l ? realloc(s->bl, cap * sizeof *bl) : NULL;
		uint32_t *by = bl ? realloc(s->by_bl, cap * sizeof *by) : NULL;

		/* each successful realloc is kept, so a failure leaves s consistent */
		if (start)
			s->start = start;
		if (l)
			s->len = l;
		if (bl)
			s->bl = bl;
		if (!by)
			return false;
		s->by_bl = by;
		s->cap = cap;
	}
	if (s->nedges + len > s->capedges) {
		uint64_t cap = s->capedges ? 2 * s->capedges : 256;
		uint32_t *e;

		while (cap < s->nedges + len)
			cap *= 2;
		e = realloc(s->edges, cap * sizeof *e);
		if (!e)
			return false;
		s->edges = e;
		s->capedges = cap;
	}
	return true;
}

uint32_t ppp_set_add_edges(struct ppp_set *s, const uint32_t *edges, uint32_t n, char *err, size_t errlen)
{
	uint64_t bl;
	uint32_t at, i;

	if (!ppp_is_path(s->dag, edges, n)) {
		snprintf(err, errlen, "not a path from the entry to the exit");
		return PPP_NONE;
	}
	bl = ppp_bl_path_id(s->dag, edges, n);
	at = find(s, bl);
	if (at < s->n && s->bl[s->by_bl[at]] == bl)
		return s->by_bl[at];
	if (!grow(s, n)) {
		snprintf(err, errlen, "out of memory");
		return PPP_NONE;
	}
	i = s->n++;
	s->start[i] = s->nedges;
	s->len[i] = n;
	s->bl[i] = bl;
	memcpy(s->edges + s->nedges, edges, n * sizeof *edges);
	s->nedges += n;
	memmove(s->by_bl + at + 1, s->by_bl + at, (s->n - 1 - at) * sizeof *s->by_bl);
	s->by_bl[at] = i;
	return i;
}

uint32_t ppp_set_add_bl_id(struct ppp_set *s, uint64_t bl_id, char *err, size_t errlen)
{
	const struct ppp_dag *d = s->dag;
	uint32_t n = ppp_bl_decode(d, bl_id, NULL, 0), got, r;
	uint32_t *edges;

	if (n == 0) {
		snprintf(err, errlen, "Ball-Larus ID %llu is not below the path count %llu",
		         (unsigned long long)bl_id, (unsigned long long)d->num_paths[d->entry]);
		return PPP_NONE;
	}
	edges = malloc(n * sizeof *edges);
	if (!edges) {
		snprintf(err, errlen, "out of memory");
		return PPP_NONE;
	}
	got = ppp_bl_decode(d, bl_id, edges, n);
	assert(got == n);
	(void)got;
	r = ppp_set_add_edges(s, edges, n, err, errlen);
	free(edges);
	return r;
}
