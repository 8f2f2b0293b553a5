/*
 * ppp_slots.c: the counter array of the PPP paper's section 2.3 (one slot
 * per PPP ID, holding the Ball-Larus ID of the interesting path that owns
 * it, so an alias is told apart by one compare) with section 5's policy
 * for residual profiling (slots stop at a limit; interesting paths above it
 * are demoted to the residual side), and the selection of interesting
 * paths by heat for --interesting-top.
 */
#include <assert.h>
#include <stdlib.h>

#include "ppp_internal.h"

struct ppp_slots *ppp_slots_new(const struct ppp_numbering *n, uint64_t limit)
{
	struct ppp_slots *t = calloc(1, sizeof *t);
	uint64_t i;
	uint32_t p;

	if (!t)
		return NULL;
	t->nslots = n->interval < limit ? n->interval : limit;
	t->bl = malloc((t->nslots ? t->nslots : 1) * sizeof *t->bl);
	if (!t->bl) {
		free(t);
		return NULL;
	}
	for (i = 0; i < t->nslots; i++)
		t->bl[i] = PPP_HOLE;
	for (p = 0; p < n->npaths; p++) {
		if (n->ppp_id[p] >= t->nslots) {
			t->demoted++;
			continue;
		}
		assert(t->bl[n->ppp_id[p]] == PPP_HOLE); /* interesting IDs are unique */
		t->bl[n->ppp_id[p]] = n->bl_id[p];
	}
	t->holes = 0;
	for (i = 0; i < t->nslots; i++)
		t->holes += t->bl[i] == PPP_HOLE;
	return t;
}

void ppp_slots_free(struct ppp_slots *t)
{
	if (!t)
		return;
	free(t->bl);
	free(t);
}

static const uint64_t *sort_ids, *sort_counts; /* qsort has no context argument in C11 */

/* count desc, then id asc */
static int cmp_heat(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (sort_counts[x] != sort_counts[y])
		return sort_counts[x] > sort_counts[y] ? -1 : 1;
	return sort_ids[x] < sort_ids[y] ? -1 : sort_ids[x] > sort_ids[y];
}

uint32_t ppp_select_top(const uint64_t *ids, const uint64_t *counts, uint32_t n, double pct, uint32_t *keep)
{
	long double total = 0, target, cum = 0;
	uint32_t i, k = 0;

	if (pct <= 0 || n == 0)
		return 0;
	for (i = 0; i < n; i++) {
		total += counts[i];
		keep[i] = i;
	}
	sort_ids = ids;
	sort_counts = counts;
	qsort(keep, n, sizeof *keep, cmp_heat);
	target = pct >= 100 ? total : total * (long double)pct / 100;
	while (k < n && counts[keep[k]] > 0 && (pct >= 100 || cum < target))
		cum += counts[keep[k++]];
	return k;
}
