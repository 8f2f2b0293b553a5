/*
 * overlap_calls.c: the Type I and Type II interesting paths of a call site
 * from a --mode overlap profile (Tallam, Zhang & Gupta, CGO 2004, section
 * 3.2; docs/overlap.md, "Crossings"; the instrumentation is
 * rewrite/overlap_call.c, the site's fields overlap_calls,
 * docs/profile-schema.md).
 *
 * Type I at call block c: first halves p are the caller's Ball-Larus
 * paths through c cut after c (F_p their count), second halves q the
 * callee's first paths (Ball-Larus paths from its entry, over every call:
 * F_q); the I-OL counts [p, ro, n] name p by the caller's prefix sum (a
 * path ID whose zero suffix passes c) and the prefix of q by its ID ro in
 * the callee's overlapping graph from its entry.  Type II: p the callee's
 * last paths (ending at its exit), q the caller's paths through c cut
 * before c (from c to the path's end); the II-OL counts [last, ro, n]
 * name p by its ID and q's prefix by its ID ro in the caller's graph
 * from c.  C (equation 9): the site's calls for Type I; for Type II the
 * calls that came back and extended (the II-OL counts' total), since a
 * call left by longjmp or exit has no Type II path.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap_prof.h"
#include "xalloc.h"

static uint32_t find_block(const uint32_t *s, uint32_t n, uint32_t c)
{
	for (uint32_t k = 0; k < n; k++)
		if (s[k] == c)
			return k;
	return OL_NONE;
}

/* F_p and F_q from the Ball-Larus counts of caller and callee. */
static const char *halves(struct ov_call *X)
{
	uint32_t pcap = 0, qcap = 0;
	for (int side = 0; side < 2; side++) {
		const struct ov_func *of = side ? X->callee : X->caller;
		const struct kp_ipf *t = &of->kf->ipf;
		for (uint32_t a = t->n ? t->nodes[0].first_child : KP_NONE; a != KP_NONE; a = t->nodes[a].next_sibling) {
			bool fh, tb;
			uint32_t n = ov_decode(of, t->nodes[a].id, of->buf, &fh, &tb), k;
			uint64_t cnt = t->nodes[a].count;
			if (!n)
				return "a path ID of kipf does not decode over cfg";
			uint32_t id;
			if (!side && (k = find_block(of->buf, n, X->block)) != OL_NONE) { /* the caller's path through c */
				if (X->type == 1) {
					id = ov_seq_add(&X->ps, of->buf, k + 1, &X->row, &pcap);
					X->row[id] += cnt;
				} else {
					id = ov_seq_add(&X->qs, of->buf + k, n - k, &X->col, &qcap);
					X->col[id] += cnt;
				}
			} else if (side && X->type == 1 && !fh) { /* the callee's first path */
				id = ov_seq_add(&X->qs, of->buf, n, &X->col, &qcap);
				X->col[id] += cnt;
			} else if (side && X->type == 2 && !tb) { /* the callee's last path */
				id = ov_seq_add(&X->ps, of->buf, n, &X->row, &pcap);
				X->row[id] += cnt;
			}
		}
	}
	return NULL;
}

/* The groups: prefix_theta of each q, named by its ro. */
static void groups(struct ov_call *X)
{
	X->group = xcalloc(X->qs.nseq, sizeof *X->group);
	X->group_ro = xcalloc(X->qs.nseq, sizeof *X->group_ro);
	for (uint32_t q = 0; q < X->qs.nseq; q++) {
		uint32_t n;
		const uint32_t *s = ol_seq(&X->qs, q, &n);
		uint64_t ro = ol_og_path_id(&X->og, &X->nb, s, ol_og_prefix(&X->og, s, n));
		uint32_t g = 0;
		while (g < X->ngroups && X->group_ro[g] != ro)
			g++;
		if (g == X->ngroups)
			X->group_ro[X->ngroups++] = ro;
		X->group[q] = g;
	}
}

/* OF(p, g) from the site's in (Type I) or out (Type II) counts. */
static const char *ol_counts(struct ov_call *X, const json_t *site, uint64_t *sum)
{
	const struct ov_func *of = X->type == 1 ? X->caller : X->callee;
	X->of_ = xcalloc((size_t)(X->ps.nseq ? X->ps.nseq : 1) * (X->ngroups ? X->ngroups : 1), sizeof *X->of_);
	size_t i;
	json_t *x;
	*sum = 0;
	json_array_foreach(json_object_get(site, X->type == 1 ? "in" : "out"), i, x) {
		bool fh, tb;
		uint64_t cnt = (uint64_t)json_integer_value(json_array_get(x, 2)),
		         ro = (uint64_t)json_integer_value(json_array_get(x, 1));
		uint32_t n = ov_decode(of, (uint64_t)json_integer_value(json_array_get(x, 0)), of->buf, &fh, &tb), len = n;
		if (!n)
			return X->type == 1 ? "overlap_calls: in: a prefix does not decode over the caller's cfg"
			                    : "overlap_calls: out: a last path does not decode over the callee's cfg";
		if (X->type == 1) {
			uint32_t k = find_block(of->buf, n, X->block);
			if (k == OL_NONE)
				return "overlap_calls: in: a prefix does not reach its call block";
			len = k + 1;
		} else if (tb) {
			return "overlap_calls: out: a last path does not end at the callee's exit";
		}
		*sum += cnt;
		uint32_t pid = ov_seq_find(&X->ps, of->buf, len), g = 0;
		while (g < X->ngroups && X->group_ro[g] != ro)
			g++;
		if (pid == OL_NONE || g == X->ngroups) { /* its Ball-Larus path never completed */
			X->unmatched += cnt;
			continue;
		}
		X->of_[(size_t)pid * X->ngroups + g] += cnt;
	}
	return NULL;
}

const char *ov_site_callee_file(const json_t *site, const char *caller_file)
{
	if (!json_is_true(json_object_get(site, "across")))
		return caller_file;
	return json_string_value(json_object_get(site, "callee_file"));
}

const char *ov_call_init(struct ov_call *X, const struct ov_func *caller, const struct ov_func *callee,
                         const json_t *site, int type)
{
	memset(X, 0, sizeof *X);
	X->caller = caller;
	X->callee = callee;
	X->type = type;
	X->block = (uint32_t)json_integer_value(json_object_get(site, "block"));
	X->line = (unsigned)json_integer_value(json_object_get(site, "line"));
	X->callee_name = json_string_value(json_object_get(site, "callee"));
	X->calls = (uint64_t)json_integer_value(json_object_get(site, "calls"));
	if (X->block < 2 || X->block >= caller->f.nblocks)
		return "overlap_calls: a call block beyond cfg.blocks";
	if (!callee)
		return NULL; /* C only */
	if (callee->theta != caller->theta)
		return "overlap_calls: the callee was instrumented at another degree";
	X->sp = (struct ol_space){.f = type == 1 ? &callee->f : &caller->f, .start = type == 1 ? callee->f.entry : X->block};
	ol_og_build(&X->og, &X->sp, caller->theta);
	if (!ol_og_number(&X->og, &X->nb))
		return "overlap_calls: an overlapping graph with more than 2^64 - 1 paths";
	if (type == 2 && X->nb.total != (uint64_t)json_integer_value(json_object_get(site, "ids")))
		return "overlap_calls: the overlapping graph's path count differs from ids (another numbering)";
	X->max_degree = ol_max_degree(&X->sp);
	const char *why = halves(X);
	if (why)
		return why;
	groups(X);
	uint64_t sum;
	if ((why = ol_counts(X, site, &sum)))
		return why;
	/* An I-OL path is counted at its (theta+1)-th predicate, a II-OL path
	 * may be counted before the caller's path completes, C before the call:
	 * a run that ends inside a path (exit, a longjmp out) leaves OL counts
	 * above the Ball-Larus counts of its halves (overlap_cmd.c, check_loop,
	 * says the same of loops). */
	uint64_t rows = 0;
	X->unfinished = X->unmatched > 0;
	for (uint32_t p = 0; p < X->ps.nseq; p++) {
		uint64_t o = 0;
		for (uint32_t g = 0; g < X->ngroups; g++)
			o += X->of_[(size_t)p * X->ngroups + g];
		X->unfinished |= o > X->row[p];
		rows += X->row[p];
	}
	X->unfinished |= type == 1 && X->calls > rows;
	for (uint32_t g = 0; g < X->ngroups; g++) { /* the same of a group's second halves */
		uint64_t o = 0, cols = 0;
		for (uint32_t p = 0; p < X->ps.nseq; p++)
			o += X->of_[(size_t)p * X->ngroups + g];
		for (uint32_t q = 0; q < X->qs.nseq; q++)
			cols += X->group[q] == g ? X->col[q] : 0;
		X->unfinished |= o > cols;
	}
	X->in = (struct ol_est_input){.np = X->ps.nseq, .nq = X->qs.nseq, .ngroups = X->ngroups, .group = X->group,
	                              .of = X->of_, .row = X->row, .col = X->col, .use_total = true,
	                              .total = type == 1 ? X->calls : sum};
	if (!ol_estimate(&X->in, &X->b))
		return "counts too large for the estimator's 64-bit sums";
	return NULL;
}

void ov_call_release(struct ov_call *X)
{
	ol_bounds_release(&X->b);
	if (X->og.sp) {
		ol_og_numbering_release(&X->nb);
		ol_og_release(&X->og);
	}
	ov_seq_release(&X->ps);
	ov_seq_release(&X->qs);
	free(X->row);
	free(X->col);
	free(X->group);
	free(X->group_ro);
	free(X->of_);
	memset(X, 0, sizeof *X);
}
