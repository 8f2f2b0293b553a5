/*
 * html_cov.c: the coverage the pages show, and the names the source links.
 *
 * There is one coverage computation, coverage.c's (docs/coverage.md): the
 * profile already read is turned into the report's model (rep_load.c,
 * rep_from_profile), cov_build decodes every executed path on the
 * function's static graph, and cov_filter_sources drops the lines that hold
 * no code, exactly as `kpath coverage PROFILE --source-dir DIR` does, so
 * the index's figures are that command's.  This file only sums files into
 * directories and maps each html_file to its cov_file.
 *
 * Directories: every prefix of a file name that ends before a '/', from the
 * files' longest common directory on (its ancestors would repeat the
 * total).  A directory's figures are the sums over the files below it, at
 * any depth.
 */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "report.h"

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void add_counts(struct cov_counts *t, struct cov_counts s)
{
	t->covered = add_sat(t->covered, s.covered);
	t->total = add_sat(t->total, s.total);
}

static int cmp_dir(const void *a, const void *b)
{
	return strcmp(((const struct html_dir *)a)->dir, ((const struct html_dir *)b)->dir);
}

/* The length of the files' longest common directory ("a/b" of "a/b/c.c"
 * and "a/b/d/e.c"), 0 if they share none. */
static size_t common_dir(const struct cov_report *c)
{
	size_t n = 0, i;
	const char *s;

	if (c->nfiles == 0 || !(s = strrchr(c->files[0].file, '/')))
		return 0;
	n = (size_t)(s - c->files[0].file);
	for (i = 1; i < c->nfiles && n; i++) {
		const char *f = c->files[i].file;

		while (n && (strncmp(f, c->files[0].file, n) != 0 || f[n] != '/')) {
			while (n && c->files[0].file[--n] != '/')
				;
		}
	}
	return n;
}

/* Finds or adds the row of dir[0..n). */
static struct html_dir *dir_row(struct html_model *m, const char *dir, size_t n, size_t *cap)
{
	size_t i;

	for (i = 0; i < m->ndirs; i++)
		if (strlen(m->dirs[i].dir) == n && !strncmp(m->dirs[i].dir, dir, n))
			return &m->dirs[i];
	if (m->ndirs == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		struct html_dir *nd = realloc(m->dirs, nc * sizeof *nd);

		if (!nd)
			return NULL;
		m->dirs = nd;
		*cap = nc;
	}
	memset(&m->dirs[m->ndirs], 0, sizeof m->dirs[0]);
	if (!(m->dirs[m->ndirs].dir = strndup(dir, n)))
		return NULL;
	return &m->dirs[m->ndirs++];
}

static int build_dirs(struct html_model *m)
{
	size_t cp = common_dir(&m->cov), cap = 0, i, j;

	for (i = 0; i < m->cov.nfiles; i++) {
		const struct cov_file *f = &m->cov.files[i];

		for (j = cp; f->file[j]; j++) {
			struct html_dir *d;

			if (f->file[j] != '/' || j == 0)
				continue;
			if (!(d = dir_row(m, f->file, j, &cap)))
				return -1;
			d->nfiles++;
			add_counts(&d->line, f->line);
			add_counts(&d->branch, f->branch);
			add_counts(&d->func, f->func);
			add_counts(&d->path, f->path);
		}
	}
	if (m->ndirs)
		qsort(m->dirs, m->ndirs, sizeof *m->dirs, cmp_dir);
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	const struct html_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->func > y->func) - (x->func < y->func);
}

static int build_names(struct html_model *m)
{
	size_t i;

	m->byname = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *m->byname);
	if (!m->byname)
		return -1;
	for (i = 0; i < m->nfuncs; i++)
		m->byname[i] = (struct html_name){ m->funcs[i].rf->name, i };
	qsort(m->byname, m->nfuncs, sizeof *m->byname, cmp_name);
	return 0;
}

int html_model_coverage(struct html_model *m, const char *source_root, FILE *err, char *why, size_t whylen)
{
	const struct rep_report *one = &m->rep;
	const char *name = "the profile";
	size_t i, j;

	if (build_names(m) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	/* A path that does not decode on its function's graph (a profile the
	 * reader accepts but coverage.c cannot use): the pages go without
	 * coverage, as `kpath report` does, and say so. */
	if (cov_build(&m->cov, &one, &name, 1, why, whylen) < 0) {
		if (err)
			fprintf(err, "kpath html: warning: no coverage: %s\n", kp_term(why));
		return 0;
	}
	m->has_cov = 1;
	cov_filter_sources(&m->cov, source_root, "html", err);
	for (i = 0; i < m->nfiles; i++)
		for (j = 0; j < m->cov.nfiles; j++)
			if (!strcmp(m->files[i].name, m->cov.files[j].file))
				m->files[i].cov = &m->cov.files[j];
	if (build_dirs(m) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

const struct html_func *html_model_link(const struct html_model *m, const struct html_func *f, const char *name,
                                        size_t n)
{
	size_t lo = 0, hi = m->nfuncs, i, found = 0;
	const struct html_func *pick = NULL;

	/* the first entry whose name is >= name[0..n) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		/* names that start with name[0..n) are contiguous */
		if (strncmp(m->byname[mid].name, name, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < m->nfuncs && !strncmp(m->byname[i].name, name, n); i++) {
		const struct html_func *g = &m->funcs[m->byname[i].func];

		if (g->rf->name[n] != '\0')
			continue; /* a longer name with the same start */
		found++;
		if (g->file == f->file) {
			pick = g;
			found = 1;
			break;
		}
		pick = g;
	}
	return found == 1 && pick != f ? pick : NULL;
}
