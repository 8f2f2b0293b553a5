/*
 * overlap_calls_check.c: one call site's Type I or Type II bounds
 * (overlap_calls.c) against the exact counts a trace of the same run gives
 * (overlap_trace.c), for `kpath overlap check` (docs/overlap-mode.md,
 * "Checking the calls"): every pair has lower <= exact <= upper (a pair
 * the estimate has no entry for has bounds 0..0), and at the site's
 * maximum overlap lower = upper.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap_calls_check.h"
#include "xalloc.h"

void ov_call_check(const struct ov_call *X, const struct ov_xsite *xs, struct ov_call_check *c)
{
	uint32_t np = X->in.np, nq = X->in.nq;
	int t = X->type - 1;
	memset(c, 0, sizeof *c);
	c->exact = xcalloc((size_t)(np ? np : 1) * (nq ? nq : 1), sizeof *c->exact);
	for (uint32_t i = 0; xs && i < xs->pairs[t].nseq; i++) {
		uint32_t n, k = 0;
		const uint32_t *s = ol_seq(&xs->pairs[t], i, &n);
		while (k < n && s[k] != OV_PAIR_SEP)
			k++;
		assert(k < n);
		uint32_t p = ov_seq_find(&X->ps, s, k), q = ov_seq_find(&X->qs, s + k + 1, n - k - 1);
		c->real += xs->n[t][i];
		if (p == OL_NONE || q == OL_NONE) { /* a half the profile's Ball-Larus counts never saw */
			c->outside += xs->n[t][i];
			c->pairs++;
			c->unsound++;
			continue;
		}
		c->exact[(size_t)p * nq + q] += xs->n[t][i];
	}
	bool at_max = X->caller->theta >= X->max_degree;
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t q = 0; q < nq; q++) {
			size_t i = (size_t)p * nq + q;
			uint64_t x = c->exact[i], lo = X->b.lower[i], up = X->b.upper[i];
			if (!up && !x)
				continue;
			c->pairs++;
			c->exact_pairs += lo == x && x == up;
			if (lo > x || x > up)
				c->unsound++;
			else if (at_max && lo != up)
				c->not_exact++;
		}
}

void ov_call_check_release(struct ov_call_check *c)
{
	free(c->exact);
	memset(c, 0, sizeof *c);
}
