/*
 * html_model.c: what the pages show, computed from a kpath-profile/1.
 *
 * A function's k-IPF (k-BLPP paper, "k-Iteration Path Forest") is
 * flattened into sequences: the node reached from the dummy root by the
 * labels a1..an counts the runs of the n consecutive Ball-Larus paths
 * a1..an in one activation.  Depth-1 nodes are the Ball-Larus paths (their
 * counts are the plain BL counts), deeper nodes the multi-iteration paths.
 * Per-line counts follow from the depth-1 counts and the decoded lines.
 * See html_int.h for the invariants.
 */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"

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

const struct kp_path *html_func_path(const struct html_func *f, uint64_t id)
{
	return kp_func_path(f->pf, id);
}

/* Counts the nodes of the forest below node i (i itself excluded). */
static size_t count_below(const struct kp_ipf *ipf, uint32_t i, size_t depth, size_t *idslots)
{
	size_t n = 0;
	uint32_t c;

	for (c = ipf->nodes[i].first_child; c != KP_NONE; c = ipf->nodes[c].next_sibling) {
		n++;
		*idslots += depth + 1;
		n += count_below(ipf, c, depth + 1, idslots);
	}
	return n;
}

struct flatten {
	const struct kp_ipf *ipf;
	uint64_t path[KP_KMAX + 1];
	uint64_t *pool;
	size_t used;
	struct html_func *f;
};

/* Appends every node below i, whose root path is fl->path[0..depth). */
static void flatten_below(struct flatten *fl, uint32_t i, uint32_t depth)
{
	uint32_t c;

	for (c = fl->ipf->nodes[i].first_child; c != KP_NONE; c = fl->ipf->nodes[c].next_sibling) {
		const struct kp_node *nd = &fl->ipf->nodes[c];
		struct html_seq *s;

		if (depth >= KP_KMAX)
			return; /* the reader guarantees depth <= k <= KP_KMAX */
		fl->path[depth] = nd->id;
		s = depth == 0 ? &fl->f->single[fl->f->nsingle++] : &fl->f->multi[fl->f->nmulti++];
		s->count = nd->count;
		s->depth = depth + 1;
		s->extended = nd->first_child != KP_NONE;
		memcpy(fl->pool + fl->used, fl->path, (depth + 1) * sizeof *fl->pool);
		s->ids = fl->pool + fl->used;
		fl->used += depth + 1;
		flatten_below(fl, c, depth + 1);
	}
}

static int cmp_single(const void *a, const void *b)
{
	const struct html_seq *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return (x->ids[0] > y->ids[0]) - (x->ids[0] < y->ids[0]);
}

static int cmp_multi(const void *a, const void *b)
{
	const struct html_seq *x = a, *y = b;
	uint32_t i;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	for (i = 0; i < x->depth; i++)
		if (x->ids[i] != y->ids[i])
			return x->ids[i] < y->ids[i] ? -1 : 1;
	return 0;
}

uint32_t html_path_last(const struct kp_path *p, size_t j)
{
	return p->last_lines && p->last_lines[j] > p->lines[j] ? p->last_lines[j] : p->lines[j];
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
	uint32_t lo = f->pf->line ? f->pf->line : 1, hi = lo, l;
	int sat = 0;

	for (i = 0; i < f->nsingle; i++) {
		const struct kp_path *p = html_func_path(f, f->single[i].ids[0]);

		for (j = 0; p && j < p->nlines; j++) {
			if (p->lines[j] && p->lines[j] < lo)
				lo = p->lines[j];
			if (html_path_last(p, j) > hi)
				hi = html_path_last(p, j);
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
		const struct kp_path *p = html_func_path(f, f->single[i].ids[0]);

		for (j = 0; p && j < p->nlines; j++)
			for (l = p->lines[j]; l != 0 && l <= html_path_last(p, j); l++) {
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
	uint32_t i, j;

	if (f->pf->line > nlines) {
		snprintf(why, whylen, "functions[%zu].line: line %u is beyond the end of %s (%u lines)", at,
		         f->pf->line, f->pf->file, nlines);
		return -2;
	}
	for (i = 0; i < f->pf->npaths; i++) {
		const struct kp_path *p = &f->pf->paths[i];

		for (j = 0; j < p->nlines; j++)
			if (html_path_last(p, j) > nlines) {
				snprintf(why, whylen, "functions[%zu].paths[%u].%s[%u]: line %u is beyond the end of %s "
				         "(%u lines)", at, p->json_index, p->last_lines ? "spans" : "lines", j,
				         html_path_last(p, j), f->pf->file, nlines);
				return -2;
			}
	}
	return func_lines(f);
}

static int func_build(struct html_func *f, const struct kp_func *pf)
{
	struct flatten fl;
	size_t slots = 0, nodes, nroots = 0, i;
	uint32_t c;

	memset(f, 0, sizeof *f);
	f->pf = pf;
	f->min_line = f->max_line = pf->line;
	if (pf->ipf.n == 0)
		return 0;
	nodes = count_below(&pf->ipf, 0, 0, &slots);
	for (c = pf->ipf.nodes[0].first_child; c != KP_NONE; c = pf->ipf.nodes[c].next_sibling)
		nroots++;
	f->single = calloc(nroots ? nroots : 1, sizeof *f->single);
	f->multi = calloc(nodes - nroots ? nodes - nroots : 1, sizeof *f->multi);
	f->idpool = calloc(slots ? slots : 1, sizeof *f->idpool);
	if (!f->single || !f->multi || !f->idpool)
		return -1;
	memset(&fl, 0, sizeof fl);
	fl.ipf = &pf->ipf;
	fl.pool = f->idpool;
	fl.f = f;
	flatten_below(&fl, 0, 0);
	qsort(f->single, f->nsingle, sizeof *f->single, cmp_single);
	qsort(f->multi, f->nmulti, sizeof *f->multi, cmp_multi);
	for (i = 0; i < f->nsingle; i++)
		f->flow = sat_add(f->flow, f->single[i].count, &f->flow_saturated);
	return 0;
}

static int cmp_func(const void *a, const void *b)
{
	const struct html_func *x = a, *y = b;
	int c;

	if (x->flow != y->flow)
		return x->flow > y->flow ? -1 : 1;
	if ((c = strcmp(x->pf->file, y->pf->file)) != 0)
		return c;
	if (x->pf->line != y->pf->line)
		return x->pf->line < y->pf->line ? -1 : 1;
	return strcmp(x->pf->name, y->pf->name);
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
		const char *name = m->funcs[i].pf->file;

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

		for (j = 0; strcmp(m->files[j].name, f->pf->file) != 0; j++)
			;
		f->file = j;
		html_slug(slug, sizeof slug, f->pf->name);
		snprintf(f->page, sizeof f->page, "f%zu-%s.html", i + 1, slug);
	}
	return 0;
}

int html_model_build(struct html_model *m, struct kp_profile *p)
{
	size_t i;

	memset(m, 0, sizeof *m);
	m->prof = *p;
	memset(p, 0, sizeof *p);
	m->funcs = calloc(m->prof.nfuncs ? m->prof.nfuncs : 1, sizeof *m->funcs);
	if (!m->funcs)
		return -1;
	for (i = 0; i < m->prof.nfuncs; i++) {
		m->nfuncs++;
		if (func_build(&m->funcs[i], &m->prof.funcs[i]) < 0)
			return -1;
	}
	qsort(m->funcs, m->nfuncs, sizeof *m->funcs, cmp_func);
	return build_files(m);
}

void html_model_free(struct html_model *m)
{
	size_t i;

	for (i = 0; i < m->nfuncs; i++) {
		free(m->funcs[i].single);
		free(m->funcs[i].multi);
		free(m->funcs[i].idpool);
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
	kp_profile_free(&m->prof);
	memset(m, 0, sizeof *m);
}
