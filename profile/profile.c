/*
 * profile.c: kp_profile in memory: construction, lookup, canonical order,
 * compatibility and merging (profile.h).  Reading and writing JSON is
 * profile_json.c; decoding path IDs is decode.c; pairing the functions of
 * two profiles is join.c.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile_int.h"

void kp_profile_init(struct kp_profile *p, unsigned k)
{
	memset(p, 0, sizeof *p);
	p->k = k;
	p->version = 2;
}

static void func_free(struct kp_func *f)
{
	if (!f->borrowed_strings) {
		free(f->name);
		free(f->file);
		free(f->checksum);
	}
	kp_ipf_free(&f->ipf);
	for (uint32_t i = 0; i < f->npaths; i++) {
		free(f->paths[i].lines);
		free(f->paths[i].last_lines);
	}
	free(f->paths);
	kp_kiter_free(f->kiter);
	kp_ppp_free(f->ppp);
	kp_overlap_free(f->overlap);
	kp_cfg_free(&f->cfg);
}

void kp_profile_free(struct kp_profile *p)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		func_free(&p->funcs[i]);
	free(p->funcs);
	memset(p, 0, sizeof *p);
}

static struct kp_func *add_func(struct kp_profile *p, const char *name, const char *file, unsigned line,
				const char *checksum, uint64_t num_paths, int borrow)
{
	struct kp_func *a = kp_grow(p->funcs, &p->cap, p->nfuncs + 1, sizeof *p->funcs);
	if (!a)
		return NULL;
	p->funcs = a;
	struct kp_func *f = &p->funcs[p->nfuncs];
	memset(f, 0, sizeof *f);
	f->borrowed_strings = borrow;
	f->name = borrow ? (char *)name : strdup(name);
	f->file = borrow ? (char *)file : strdup(file);
	f->checksum = borrow ? (char *)checksum : strdup(checksum);
	f->line = line;
	f->num_paths = num_paths;
	if (!f->name || !f->file || !f->checksum || kp_ipf_init(&f->ipf) != 0) {
		func_free(f);
		return NULL;
	}
	p->nfuncs++;
	return f;
}

void kp_profile_reserve(struct kp_profile *p, size_t n)
{
	struct kp_func *a = kp_grow(p->funcs, &p->cap, n, sizeof *p->funcs);
	if (a)
		p->funcs = a;
}

struct kp_func *kp_profile_add_func(struct kp_profile *p, const char *name, const char *file, unsigned line,
				    const char *checksum, uint64_t num_paths)
{
	return add_func(p, name, file, line, checksum, num_paths, 0);
}

struct kp_func *kp_profile_add_func_borrowed(struct kp_profile *p, const char *name, const char *file,
					     unsigned line, const char *checksum, uint64_t num_paths)
{
	return add_func(p, name, file, line, checksum, num_paths, 1);
}

struct kp_func *kp_profile_find(struct kp_profile *p, const char *name, const char *file, const char *checksum)
{
	for (size_t i = 0; i < p->nfuncs; i++) {
		struct kp_func *f = &p->funcs[i];
		if (strcmp(f->name, name) == 0 && strcmp(f->file, file) == 0 &&
		    (!checksum || strcmp(f->checksum, checksum) == 0))
			return f;
	}
	return NULL;
}

const struct kp_path *kp_func_path(const struct kp_func *f, uint64_t id)
{
	uint32_t lo = 0, hi = f->npaths;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (f->paths[mid].id < id)
			lo = mid + 1;
		else if (f->paths[mid].id > id)
			hi = mid;
		else
			return &f->paths[mid];
	}
	return NULL;
}

static int cmp_func(const void *a, const void *b)
{
	const struct kp_func *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->checksum, y->checksum);
}

static int cmp_path(const void *a, const void *b)
{
	const struct kp_path *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

void kp_profile_sort(struct kp_profile *p)
{
	size_t in_order = 1; /* a profile read back is in order already */
	while (in_order < p->nfuncs && cmp_func(&p->funcs[in_order - 1], &p->funcs[in_order]) < 0)
		in_order++;
	if (in_order < p->nfuncs)
		qsort(p->funcs, p->nfuncs, sizeof *p->funcs, cmp_func);
	for (size_t i = 0; i < p->nfuncs; i++) {
		struct kp_func *f = &p->funcs[i];
		kp_ipf_compact(&f->ipf, p->k); /* on ENOMEM the old order stays */
		uint32_t j = 1; /* paths are kept sorted: checked, not sorted again */
		while (j < f->npaths && f->paths[j - 1].id < f->paths[j].id)
			j++;
		if (j < f->npaths)
			qsort(f->paths, f->npaths, sizeof *f->paths, cmp_path);
	}
}

/* Whether the runtime may accumulate y (of the new profile) into x (of the
 * file): the same name and file, so they must have the same checksum and
 * the same mode's fields.  0, or KP_EINCOMPAT with the reason in err. */
static int pair_compatible(const struct kp_func *x, const struct kp_func *y, char *err, size_t errlen)
{
	if (strcmp(x->checksum, y->checksum) != 0) {
		if (err)
			snprintf(err, errlen,
				 "incompatible profile: %s (%s) has checksum %s there, %s here "
				 "(the program changed)",
				 y->name, y->file, x->checksum, y->checksum);
		return KP_EINCOMPAT;
	}
	if (!kp_ppp_same(x->ppp, y->ppp)) {
		if (err)
			snprintf(err, errlen,
				 "incompatible profile: %s (%s) is profiled %s there, %s here (kpath "
				 "instrument --mode ppp: counts of two interesting sets are not merged)",
				 y->name, y->file, x->ppp ? "in ppp mode" : "without ppp",
				 y->ppp ? x->ppp ? "with another interesting set" : "in ppp mode" : "without ppp");
		return KP_EINCOMPAT;
	}
	if (!kp_overlap_same(x->overlap, y->overlap)) {
		if (err) {
			char a[48] = "without overlap", b[48] = "without overlap";
			if (x->overlap)
				snprintf(a, sizeof a, "in overlap mode, degree %u", kp_overlap_degree(x->overlap));
			if (y->overlap)
				snprintf(b, sizeof b, "in overlap mode, degree %u", kp_overlap_degree(y->overlap));
			snprintf(err, errlen,
				 "incompatible profile: %s (%s) is profiled %s there, %s here (kpath "
				 "instrument --mode overlap: OL counts of different modes or degrees "
				 "are not merged)", y->name, y->file, a, b);
		}
		return KP_EINCOMPAT;
	}
	return 0;
}

/* The pairs of functions with the same name and file come from the
 * merge-join (join.c) in the order of a scan over b, then a, so the first
 * conflict reported is the one that scan would meet first.  A function of
 * b is checked against the one of a with its checksum, where a has one
 * (it accumulates there, kp_profile_merge_into); only where a has the
 * name and file under other checksums alone did the program change.  One
 * program may hold two functions of one name and file: two static ones
 * in files of the same name in different directories, each compiled in
 * its own (recursive make); their profile used to be refused at the next
 * run (tests/rtuse, case same_basename). */
int kp_profile_compatible(const struct kp_profile *a, const struct kp_profile *b, char *err, size_t errlen)
{
	if (a->k != b->k) {
		if (err)
			snprintf(err, errlen, "incompatible profile: k is %u there, %u here", a->k, b->k);
		return KP_EINCOMPAT;
	}
	struct kp_match *m;
	size_t n;
	if (kp_profile_join(a, b, &m, &n) != 0) {
		if (err)
			snprintf(err, errlen, "out of memory while comparing profiles");
		return KP_ENOMEM;
	}
	int rc = 0;
	for (size_t t = 0, u; t < n && rc == 0; t = u) {
		size_t pick = t; /* the pair with b's checksum, else the first */
		for (u = t; u < n && m[u].b == m[t].b; u++)
			if (pick == t && strcmp(a->funcs[m[u].a].checksum, b->funcs[m[u].b].checksum) == 0)
				pick = u;
		rc = pair_compatible(&a->funcs[m[pick].a], &b->funcs[m[pick].b], err, errlen);
	}
	free(m);
	return rc;
}

/* Appends a copy of q to f unless f's first `sorted` paths (sorted by id)
 * have its id; the caller sorts afterwards. */
static int add_path(struct kp_func *f, uint32_t sorted, const struct kp_path *q)
{
	uint32_t all = f->npaths;
	f->npaths = sorted;
	const struct kp_path *have = kp_func_path(f, q->id);
	f->npaths = all;
	if (have && (have->last_lines || !q->last_lines || have->nlines != q->nlines))
		return 0;
	if (have) { /* an older profile without spans: take q's */
		uint32_t *last = kp_malloc((q->nlines ? q->nlines : 1) * sizeof *last);
		if (!last)
			return KP_ENOMEM;
		if (q->nlines)
			memcpy(last, q->last_lines, q->nlines * sizeof *last);
		f->paths[have - f->paths].last_lines = last;
		return 0;
	}
	struct kp_path *a = kp_realloc(f->paths, (f->npaths + 1) * sizeof *a);
	if (!a)
		return KP_ENOMEM;
	f->paths = a;
	uint32_t *lines = kp_malloc((q->nlines ? q->nlines : 1) * sizeof *lines);
	if (!lines)
		return KP_ENOMEM;
	uint32_t *last = NULL;
	if (q->last_lines) {
		last = kp_malloc((q->nlines ? q->nlines : 1) * sizeof *last);
		if (!last) {
			free(lines);
			return KP_ENOMEM;
		}
		if (q->nlines)
			memcpy(last, q->last_lines, q->nlines * sizeof *last);
	}
	if (q->nlines)
		memcpy(lines, q->lines, q->nlines * sizeof *lines);
	f->paths[f->npaths++] = (struct kp_path){ .id = q->id, .nlines = q->nlines, .lines = lines, .last_lines = last };
	return 0;
}

/* For each function i of b, in to[i]: the first function of a (in a's
 * order) with the same name, file and checksum, else KP_UNMATCHED; the
 * index of a's funcs the nested lookup kp_profile_find would return.  From
 * the merge-join (join.c): the matches come in (b, a) order. */
#define KP_UNMATCHED SIZE_MAX
static int match_funcs(const struct kp_profile *a, const struct kp_profile *b, size_t *to)
{
	struct kp_match *m;
	size_t n;
	for (size_t i = 0; i < b->nfuncs; i++)
		to[i] = KP_UNMATCHED;
	if (kp_profile_join(a, b, &m, &n) != 0)
		return KP_ENOMEM;
	for (size_t t = 0; t < n; t++)
		if (to[m[t].b] == KP_UNMATCHED && strcmp(a->funcs[m[t].a].checksum, b->funcs[m[t].b].checksum) == 0)
			to[m[t].b] = m[t].a;
	free(m);
	return 0;
}

/* Whether p lists a function twice (the same name, file and checksum):
 * one source compiled twice with another macro, the function not
 * depending on it (PCRE2's pcre2_auto_possess.c, built for each code
 * unit width: 142 such functions in pcre2test's profile, hunt G). */
int kp_profile_has_twins(const struct kp_profile *p, int *twins)
{
	size_t *lead = kp_malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *lead);
	*twins = 0;
	if (!lead || match_funcs(p, p, lead) != 0) {
		free(lead);
		return KP_ENOMEM;
	}
	for (size_t i = 0; i < p->nfuncs && !*twins; i++)
		*twins = lead[i] != i;
	free(lead);
	return 0;
}

/* Adds s into d (the same function, or d new), truncating s's forest to k. */
static int merge_func(struct kp_func *d, const struct kp_func *s, unsigned k)
{
	/* equal checksums: a kiter function's K are in its checksum */
	if (s->kiter && !d->kiter && !(d->kiter = kp_kiter_copy(s->kiter)))
		return KP_ENOMEM;
	/* ppp: callers refuse two interesting sets (kp_profile_compatible,
	 * kpath merge); the first known is kept */
	if (s->ppp && !d->ppp && !(d->ppp = kp_ppp_copy(s->ppp)))
		return KP_ENOMEM;
	/* overlap: callers refuse another degree or graph (kp_profile_compatible) */
	if (s->overlap && (d->overlap ? kp_overlap_merge(d->overlap, s->overlap)
	                              : !(d->overlap = kp_overlap_copy(s->overlap))))
		return KP_ENOMEM;
	d->invalid_paths = kp_add_sat(d->invalid_paths, s->invalid_paths);
	d->emitted = kp_add_sat(d->emitted, s->emitted);
	/* Equal checksums, so equal lines; the first known source hash
	 * is kept (docs/profile-schema.md, Accumulation). */
	if (!d->source_hash[0])
		memcpy(d->source_hash, s->source_hash, sizeof d->source_hash);
	int rc = kp_ipf_add(&d->ipf, &s->ipf, k);
	if (rc == 0) /* equal checksums, equal graphs: the first known is kept */
		rc = kp_cfg_copy(d, s);
	uint32_t sorted = d->npaths;
	for (uint32_t j = 0; j < s->npaths && rc == 0; j++)
		rc = add_path(d, sorted, &s->paths[j]);
	if (d->npaths > 1)
		qsort(d->paths, d->npaths, sizeof *d->paths, cmp_path);
	return rc;
}

/* Each function of src goes into the function of dst with its name, file
 * and checksum, or into a new one appended in src's order (as a lookup per
 * function would do it, the first of equal ones taking the later ones).
 * The lookups are two merge-joins (match_funcs): dst against src, and src
 * against itself for the functions src lists twice (only an in-memory
 * profile can: the reader refuses them). */
int kp_profile_merge_into(struct kp_profile *dst, const struct kp_profile *src, char *err, size_t errlen)
{
	unsigned k = dst->k < src->k ? dst->k : src->k;
	int rc = 0;
	if (k != dst->k) {
		dst->k = k;
		for (size_t i = 0; i < dst->nfuncs && rc == 0; i++)
			rc = kp_ipf_compact(&dst->funcs[i].ipf, k);
	}
	dst->runs = kp_add_sat(dst->runs, src->runs);
	dst->forked |= src->forked;
	dst->dropped = kp_add_sat(dst->dropped, src->dropped);
	dst->totals.runs = kp_add_sat(dst->totals.runs, src->totals.runs);
	dst->totals.threads = kp_add_sat(dst->totals.threads, src->totals.threads);
	size_t *to = kp_malloc((src->nfuncs ? src->nfuncs : 1) * sizeof *to);
	size_t *lead = kp_malloc((src->nfuncs ? src->nfuncs : 1) * sizeof *lead);
	if (rc == 0 && (!to || !lead || match_funcs(dst, src, to) != 0 || match_funcs(src, src, lead) != 0))
		rc = KP_ENOMEM;
	for (size_t i = 0; i < src->nfuncs && rc == 0; i++) {
		const struct kp_func *s = &src->funcs[i];
		assert(lead[i] <= i);
		if (to[i] == KP_UNMATCHED)
			to[i] = to[lead[i]]; /* KP_UNMATCHED too when lead[i] == i */
		if (to[i] == KP_UNMATCHED) {
			struct kp_func *d = kp_profile_add_func(dst, s->name, s->file, s->line, s->checksum, s->num_paths);
			if (!d) {
				rc = KP_ENOMEM;
				break;
			}
			to[i] = (size_t)(d - dst->funcs);
		}
		rc = merge_func(&dst->funcs[to[i]], s, k);
	}
	free(to);
	free(lead);
	if (rc != 0 && err)
		snprintf(err, errlen, "out of memory while merging profiles");
	return rc;
}
