/*
 * html_model.c: what the pages show, computed from the report model of a
 * kpath profile (rep.h), the model `kpath report`, show and diff use.
 *
 * rep_from_profile flattens each function's k-IPF (k-BLPP paper, "k-Iteration
 * Path Forest") into sequences: the node reached from the dummy root by the
 * labels a1..an counts the runs of the n consecutive Ball-Larus paths
 * a1..an in one activation.  Depth-1 nodes are the Ball-Larus paths (their
 * counts are the plain BL counts), deeper nodes the multi-iteration paths;
 * rep_rank_report orders them.  Added here: per-line counts, which follow
 * from the depth-1 counts and the decoded lines, the files, and the order
 * of the pages.  See html_int.h for the invariants.
 */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "profile.h"

static uint64_t sat_add(uint64_t a, uint64_t b, int *saturated)
{
	if (a > UINT64_MAX - b) {
		*saturated = 1;
		return UINT64_MAX;
	}
	return a + b;
}

double html_share(uint64_t count, uint64_t flow)
{
	return flow ? 100.0 * (double)count / (double)flow : 0.0;
}

const struct rep_decode *html_func_path(const struct html_func *f, uint64_t id)
{
	return rep_func_lines(f->rf, id);
}

/* linecount: for each executed BL path, each distinct line its blocks span
 * (first..last of each block; the first line only without spans) gets the
 * path's count, once per path: seen[l - lo] == i + 1 once path i counted
 * line l.  Requires every line to be checked against the source (html_
 * model_lines), so [lo, hi] is within the file. */
static int func_lines(struct html_func *f)
{
	size_t i, j, n, *seen;
	uint64_t *count;
	uint32_t lo = f->rf->line ? f->rf->line : 1, hi = lo, l;
	int sat = 0;

	for (i = 0; i < f->nsingle; i++) {
		const struct rep_decode *p = html_func_path(f, f->single[i].ids[0]);

		for (j = 0; p && j < p->nlines; j++) {
			if (p->lines[j] && p->lines[j] < lo)
				lo = p->lines[j];
			if (rep_decode_last(p, j) > hi)
				hi = rep_decode_last(p, j);
		}
	}
	n = (size_t)(hi - lo) + 1;
	seen = calloc(n, sizeof *seen);
	count = calloc(n, sizeof *count);
	f->linecount = calloc(n, sizeof *f->linecount);
	if (!seen || !count || !f->linecount) {
		free(seen);
		free(count);
		return -1;
	}
	for (i = 0; i < f->nsingle; i++) {
		const struct rep_decode *p = html_func_path(f, f->single[i].ids[0]);

		for (j = 0; p && j < p->nlines; j++)
			for (l = p->lines[j]; l != 0 && l <= rep_decode_last(p, j); l++) {
				if (seen[l - lo] == i + 1)
					continue;
				if (!seen[l - lo] && l < f->min_line)
					f->min_line = l;
				if (!seen[l - lo] && l > f->max_line)
					f->max_line = l;
				seen[l - lo] = i + 1;
				count[l - lo] = sat_add(count[l - lo], f->single[i].count, &sat);
			}
	}
	/* a line any path reached has a count (seen[] stays non-zero) */
	for (i = 0; i < n; i++)
		if (seen[i]) {
			f->linecount[f->nlinecount].line = lo + (uint32_t)i;
			f->linecount[f->nlinecount++].count = count[i];
		}
	free(seen);
	free(count);
	return 0;
}

/* Checks f's lines against a source of nlines lines, then counts them.
 * 0, -1 (out of memory), or -2 with "functions[I]...: reason" in why. */
int html_model_lines(struct html_func *f, size_t at, uint32_t nlines, char *why, size_t whylen)
{
	size_t i;
	uint32_t j;

	if (f->rf->line > nlines) {
		snprintf(why, whylen, "functions[%zu].line: line %u is beyond the end of %s (%u lines)", at,
		         f->rf->line, f->rf->file, nlines);
		return -2;
	}
	/* decode is sorted by id, as the profile's "paths" are */
	for (i = 0; i < f->rf->ndecode; i++) {
		const struct rep_decode *p = &f->rf->decode[i];

		for (j = 0; j < p->nlines; j++)
			if (rep_decode_last(p, j) > nlines) {
				snprintf(why, whylen, "functions[%zu].paths[%zu].%s[%u]: line %u is beyond the end of %s "
				         "(%u lines)", at, p->at, p->last_lines ? "spans" : "lines", j,
				         rep_decode_last(p, j), f->rf->file, nlines);
				return -2;
			}
	}
	return func_lines(f);
}

static void func_build(struct html_func *f, const struct rep_func *rf)
{
	memset(f, 0, sizeof *f);
	f->rf = rf;
	f->min_line = f->max_line = rf->line;
	f->flow = rf->flow;
	f->flow_saturated = rf->flow_saturated;
	f->single = rf->single;
	f->nsingle = rf->nsingle;
	f->multi = rf->multi;
	f->nmulti = rf->nmulti;
}

static int cmp_func(const void *a, const void *b)
{
	const struct html_func *x = a, *y = b;
	int c;

	if (x->flow != y->flow)
		return x->flow > y->flow ? -1 : 1;
	if ((c = strcmp(x->rf->file, y->rf->file)) != 0)
		return c;
	if (x->rf->line != y->rf->line)
		return x->rf->line < y->rf->line ? -1 : 1;
	if ((c = strcmp(x->rf->name, y->rf->name)) != 0)
		return c;
	return strcmp(x->rf->checksum, y->rf->checksum); /* unique in a profile */
}

static int cmp_file(const void *a, const void *b)
{
	const struct html_file *x = a, *y = b;

	if (x->flow != y->flow)
		return x->flow > y->flow ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Groups the functions by file name; sets each function's file index and
 * page name (its rank, then a slug of its name: unique and safe). */
static int build_files(struct html_model *m)
{
	size_t i, j;
	int sat = 0;

	m->files = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *m->files);
	if (!m->files)
		return -1;
	for (i = 0; i < m->nfuncs; i++) {
		const char *name = m->funcs[i].rf->file;

		for (j = 0; j < m->nfiles && strcmp(m->files[j].name, name) != 0; j++)
			;
		if (j == m->nfiles)
			m->files[m->nfiles++].name = name;
		m->files[j].flow = sat_add(m->files[j].flow, m->funcs[i].flow, &sat);
		m->files[j].nfuncs++;
		m->total_flow = sat_add(m->total_flow, m->funcs[i].flow, &sat);
	}
	qsort(m->files, m->nfiles, sizeof *m->files, cmp_file);
	for (i = 0; i < m->nfuncs; i++) {
		struct html_func *f = &m->funcs[i];
		char slug[64];

		for (j = 0; strcmp(m->files[j].name, f->rf->file) != 0; j++)
			;
		f->file = j;
		html_slug(slug, sizeof slug, f->rf->name);
		snprintf(f->page, sizeof f->page, "f%zu-%s.html", i + 1, slug);
	}
	return 0;
}

int html_model_build(struct html_model *m, struct kp_profile *p, char *why, size_t whylen)
{
	size_t i;
	int rc;

	memset(m, 0, sizeof *m);
	rc = rep_from_profile(p, &m->rep, why, whylen);
	kp_profile_free(p);
	if (rc < 0)
		return -1;
	rep_rank_report(&m->rep);
	m->funcs = calloc(m->rep.nfuncs ? m->rep.nfuncs : 1, sizeof *m->funcs);
	if (!m->funcs) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (i = 0; i < m->rep.nfuncs; i++)
		func_build(&m->funcs[m->nfuncs++], &m->rep.funcs[i]);
	qsort(m->funcs, m->nfuncs, sizeof *m->funcs, cmp_func);
	if (build_files(m) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

void html_model_free(struct html_model *m)
{
	size_t i;

	for (i = 0; i < m->nfuncs; i++) {
		free(m->funcs[i].linecount);
	}
	for (i = 0; i < m->nfiles; i++)
		if (m->files[i].src)
			html_source_free(m->files[i].src);
	for (i = 0; i < m->ndirs; i++)
		free(m->dirs[i].dir);
	free(m->dirs);
	free(m->byname);
	if (m->has_cov)
		cov_free(&m->cov);
	rep_report_free(&m->rep);
	free(m->funcs);
	free(m->files);
	memset(m, 0, sizeof *m);
}
