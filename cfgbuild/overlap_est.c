/*
 * overlap_est.c: lower and upper bounds of interesting paths from OL path
 * counts (Tallam, Zhang & Gupta, CGO 2004, sections 2.2 and 3.2).
 *
 * For the pair p ! q, with g the group of q (the second halves sharing
 * prefix_theta(q)) and r ranging over the other members of g:
 *
 *   equation 3 / 16:  OF(p, g) = sum over q' in g of F(p!q')
 *   equation 7:       U(p!q) = min( OF(p,g) - sum L(p!r), row(p), col(q) )
 *   equation 8:       L(p!q) = max( OF(p,g) - sum U(p!r), 0 )
 * and for call sites, where equation 9 gives sum over all pairs = C:
 *   equation 10/13:   U(p!q) <= C + L(p!q) - sum_all L
 *   equation 14:      L(p!q) >= C + U(p!q) - sum_all U
 * (docs/overlap.md says why calls use both the BL and the OL candidates).
 *
 * Invariant kept by ol_estimate: U never rises and L never falls from one
 * round to the next, so the iteration ends; with inputs counted from one
 * run, every L <= the true count <= every U.
 */
#include "overlap.h"
#include "overlap_internal.h"

#include <stdlib.h>
#include <string.h>

/*
 * Every intermediate value is a bound on a pair (at most its row or column
 * candidate), or a sum of them over at most max(np, nq) pairs per row or
 * column candidate, or the difference of such sums with OF or C.  So when
 * S = sum of all inputs satisfies S * max(np, nq) <= INT64_MAX / 4, the
 * int64 arithmetic below cannot overflow; ol_estimate refuses inputs
 * beyond that (fits() below), rather than give a wrong bound.
 */
static bool add_ok(uint64_t *acc, uint64_t v)
{
	if (v > (uint64_t)INT64_MAX / 4 - *acc)
		return false;
	*acc += v;
	return true;
}

static bool fits(const struct ol_est_input *in)
{
	uint64_t s = 0, m = in->np > in->nq ? in->np : in->nq;
	size_t i;

	for (i = 0; i < in->np; i++)
		if (!add_ok(&s, in->row[i]))
			return false;
	for (i = 0; i < in->nq; i++)
		if (!add_ok(&s, in->col[i]))
			return false;
	for (i = 0; i < (size_t)in->np * in->ngroups; i++)
		if (!add_ok(&s, in->of[i]))
			return false;
	if (!add_ok(&s, in->total))
		return false;
	return m == 0 || s <= (uint64_t)INT64_MAX / 4 / m;
}

/* Per (p, group) sums of b, and the sum over all pairs. */
static int64_t group_sums(const struct ol_est_input *in, const uint64_t *b, int64_t *sum)
{
	int64_t all = 0;
	uint32_t p, q;

	memset(sum, 0, (size_t)in->np * in->ngroups * sizeof *sum);
	for (p = 0; p < in->np; p++)
		for (q = 0; q < in->nq; q++) {
			uint64_t v = b[(size_t)p * in->nq + q];

			sum[(size_t)p * in->ngroups + in->group[q]] += (int64_t)v;
			all += (int64_t)v;
		}
	return all;
}

static uint64_t clamp0(int64_t v)
{
	return v < 0 ? 0 : (uint64_t)v;
}

/* Equations 7 (loops) and 13 + 17 (calls): upper bounds from lower bounds. */
static void upper_from(const struct ol_est_input *in, const uint64_t *lower, uint64_t *out, int64_t *sum)
{
	int64_t all = group_sums(in, lower, sum);
	uint32_t p, q;

	for (p = 0; p < in->np; p++)
		for (q = 0; q < in->nq; q++) {
			size_t i = (size_t)p * in->nq + q;
			int64_t l = (int64_t)lower[i];
			int64_t u = (int64_t)in->of[(size_t)p * in->ngroups + in->group[q]] - (sum[(size_t)p * in->ngroups + in->group[q]] - l);

			if ((int64_t)in->row[p] < u)
				u = (int64_t)in->row[p];
			if ((int64_t)in->col[q] < u)
				u = (int64_t)in->col[q];
			if (in->use_total && (int64_t)in->total + l - all < u)
				u = (int64_t)in->total + l - all;
			out[i] = clamp0(u);
		}
}

/* Equations 8 (loops) and 14 + 18 (calls): lower bounds from upper bounds. */
static void lower_from(const struct ol_est_input *in, const uint64_t *upper, uint64_t *out, int64_t *sum)
{
	int64_t all = group_sums(in, upper, sum);
	uint32_t p, q;

	for (p = 0; p < in->np; p++)
		for (q = 0; q < in->nq; q++) {
			size_t i = (size_t)p * in->nq + q;
			int64_t u = (int64_t)upper[i];
			int64_t l = (int64_t)in->of[(size_t)p * in->ngroups + in->group[q]] - (sum[(size_t)p * in->ngroups + in->group[q]] - u);

			if (in->use_total && (int64_t)in->total + u - all > l)
				l = (int64_t)in->total + u - all;
			out[i] = clamp0(l);
		}
}

static bool groups_ok(const struct ol_est_input *in)
{
	uint32_t i;

	for (i = 0; i < in->nq; i++)
		if (in->group[i] >= in->ngroups)
			return false;
	return true;
}

bool ol_estimate(const struct ol_est_input *in, struct ol_bounds *out)
{
	size_t n = (size_t)in->np * in->nq, i;
	uint64_t *nu, *nl;
	int64_t *sum;
	bool changed = true;

	memset(out, 0, sizeof *out);
	if (!groups_ok(in) || !fits(in))
		return false;
	nu = ol_xcalloc(n, sizeof *nu);
	nl = ol_xcalloc(n, sizeof *nl);
	sum = ol_xcalloc((size_t)in->np * in->ngroups, sizeof *sum);
	out->lower = ol_xcalloc(n, sizeof *out->lower); /* 2.2.1: start with lower bounds of zero */
	out->upper = ol_xcalloc(n, sizeof *out->upper);
	for (i = 0; i < n; i++)
		out->upper[i] = UINT64_MAX;
	while (changed) {
		changed = false;
		upper_from(in, out->lower, nu, sum);
		for (i = 0; i < n; i++)
			if (nu[i] < out->upper[i]) {
				out->upper[i] = nu[i];
				changed = true;
			}
		lower_from(in, out->upper, nl, sum);
		for (i = 0; i < n; i++)
			if (nl[i] > out->lower[i]) {
				out->lower[i] = nl[i];
				changed = true;
			}
		out->rounds++;
	}
	for (i = 0; i < n; i++) {
		out->definite += out->lower[i];
		out->potential += out->upper[i];
	}
	free(nu);
	free(nl);
	free(sum);
	return true;
}

bool ol_estimate_round(const struct ol_est_input *in, const uint64_t *lower, const uint64_t *upper,
                       uint64_t *new_lower, uint64_t *new_upper)
{
	int64_t *sum;
	size_t i;

	if (!groups_ok(in) || !fits(in))
		return false;
	for (i = 0; i < (size_t)in->np * in->nq; i++) /* given bounds must be bounds: at most the row candidate */
		if (lower[i] > in->row[i / in->nq] || upper[i] > in->row[i / in->nq])
			return false;
	sum = ol_xcalloc((size_t)in->np * in->ngroups, sizeof *sum);
	upper_from(in, lower, new_upper, sum);
	lower_from(in, upper, new_lower, sum);
	free(sum);
	return true;
}

void ol_bounds_release(struct ol_bounds *b)
{
	free(b->lower);
	free(b->upper);
	memset(b, 0, sizeof *b);
}
