/*
 * rep_rank.c: the orders in which the report lists things.
 *
 * Every order is total (ties are broken down to a unique key), so the
 * output never depends on the order of the profile's arrays or on qsort's
 * instability:
 *  - functions: flow desc, name, file, line asc;
 *  - Ball-Larus paths: count desc, id asc (ids are unique among roots);
 *  - multi-iteration paths: count desc, depth desc (a longer sequence with
 *    the same count says more), ids lexicographically asc (unique among
 *    the nodes of a prefix forest); with --sort length, depth desc first.
 *
 * Which multi-iteration rows are shown (rep_select_multi): a k-IPF holds
 * every prefix of every recorded sequence (k-BLPP paper, Property 1), so a
 * hot k-iteration path "1 | 2 | 1 | 2" drags along "1 | 2" and "1 | 2 | 1"
 * with nearly the same counts, which say nothing new.  By default only the
 * maximal rows are kept: the leaves of the k-IPF, i.e. sequences that no
 * recorded longer sequence starts with (k iterations, or fewer when the
 * activation ended there).  A prefix's count is the sum of its extensions'
 * counts plus the times the activation ended right after it, so nothing is
 * lost; --prefixes lists them anyway.
 */
#include <stdlib.h>
#include <string.h>

#include "rep.h"

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

static int cmp_seq(const void *pa, const void *pb)
{
	const struct rep_seq *a = pa, *b = pb;
	uint32_t i, n;
	int c;

	if ((c = cmp_u64_desc(a->count, b->count)) != 0)
		return c;
	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	n = a->depth;
	for (i = 0; i < n; i++)
		if (a->ids[i] != b->ids[i])
			return a->ids[i] < b->ids[i] ? -1 : 1;
	return 0;
}

/* --sort length: iterations desc, then the count order. */
static int cmp_seq_length(const void *pa, const void *pb)
{
	const struct rep_seq *a = pa, *b = pb;

	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	return cmp_seq(pa, pb);
}

static int cmp_decode(const void *pa, const void *pb)
{
	const struct rep_decode *a = pa, *b = pb;

	return (a->id > b->id) - (a->id < b->id);
}

static int cmp_func(const void *pa, const void *pb)
{
	const struct rep_func *a = pa, *b = pb;
	int c;

	if ((c = cmp_u64_desc(a->flow, b->flow)) != 0)
		return c;
	if ((c = strcmp(a->name, b->name)) != 0)
		return c;
	if ((c = strcmp(a->file, b->file)) != 0)
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

void rep_rank_report(struct rep_report *r)
{
	size_t i, j, n;

	for (i = 0; i < r->nfuncs; i++) {
		struct rep_func *f = &r->funcs[i];

		if (f->nsingle)
			qsort(f->single, f->nsingle, sizeof *f->single, cmp_seq);
		if (f->nmulti)
			qsort(f->multi, f->nmulti, sizeof *f->multi, cmp_seq);
		if (f->ndecode)
			qsort(f->decode, f->ndecode, sizeof *f->decode,
			      cmp_decode);
		/* A profile that decodes an ID twice keeps the first. */
		for (n = 0, j = 0; j < f->ndecode; j++) {
			if (n && f->decode[n - 1].id == f->decode[j].id) {
				free(f->decode[j].lines);
				continue;
			}
			f->decode[n++] = f->decode[j];
		}
		f->ndecode = n;
	}
	if (r->nfuncs)
		qsort(r->funcs, r->nfuncs, sizeof *r->funcs, cmp_func);
}

void rep_select_multi(struct rep_func *f, const struct rep_opts *o)
{
	size_t i, n = 0;

	f->nmulti_all = f->nmulti;
	for (i = 0; i < f->nmulti; i++) {
		const struct rep_seq *s = &f->multi[i];

		if (s->depth < o->min_iter || (s->extended && !o->prefixes))
			continue;
		f->multi[n++] = *s;
	}
	f->nmulti = n;
	if (n && o->sort == REP_SORT_LENGTH)
		qsort(f->multi, n, sizeof *f->multi, cmp_seq_length);
}

double rep_share(uint64_t count, uint64_t flow)
{
	if (flow == 0)
		return 0.0;
	return 100.0 * (double)count / (double)flow;
}

size_t rep_shown(size_t n, size_t top)
{
	return top && top < n ? top : n;
}

#ifndef NDEBUG
int rep_check(const struct rep_report *r)
{
	size_t i, j;

	for (i = 0; i < r->nfuncs; i++) {
		const struct rep_func *f = &r->funcs[i];
		uint64_t sum = 0;
		int sat = 0;

		if (i && cmp_func(&r->funcs[i - 1], f) > 0)
			return 0;
		for (j = 0; j < f->nsingle; j++) {
			if (f->single[j].depth != 1)
				return 0;
			if (j && cmp_seq(&f->single[j - 1], &f->single[j]) > 0)
				return 0;
			if (sum > UINT64_MAX - f->single[j].count)
				sat = 1, sum = UINT64_MAX;
			else if (!sat)
				sum += f->single[j].count;
		}
		if (sum != f->flow || sat != f->flow_saturated)
			return 0;
		for (j = 0; j < f->nmulti; j++) {
			if (f->multi[j].depth < 2)
				return 0;
			if (j && cmp_seq(&f->multi[j - 1], &f->multi[j]) > 0)
				return 0;
		}
		for (j = 1; j < f->ndecode; j++)
			if (f->decode[j - 1].id >= f->decode[j].id)
				return 0;
	}
	return 1;
}
#endif
