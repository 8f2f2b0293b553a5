/*
 * html_main.c: `kpath html PROFILE -o DIR`, the driver.
 *
 *   parse args -> read profile -> build model -> open temp site ->
 *   write index, function pages, assets -> replace DIR
 *
 * A profile that cannot be read (missing, truncated, wrong schema) fails
 * before anything is created; a failure while writing removes the temporary
 * directory, so DIR is either the complete new site or what it was before.
 * A source file that cannot be read is a warning: its functions' pages show
 * line numbers without source.
 */
#include <string.h>

#include "html.h"
#include "html_int.h"

/* The base name of a path, for titles. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

/* Reads each file once, warning about those that cannot be read. */
static void load_sources(struct html_model *m, const char *root, FILE *err)
{
	size_t i;
	char why[512];

	for (i = 0; i < m->nfiles; i++) {
		struct html_file *fl = &m->files[i];

		fl->src = html_source_load(fl->name, root, why, sizeof why);
		if (!fl->src)
			fprintf(err, "kpath html: warning: %s; its functions' pages have no source (see --source-dir)\n", why);
	}
	for (i = 0; i < m->nfuncs; i++) {
		const struct html_func *f = &m->funcs[i];
		const struct html_source *src = m->files[f->file].src;

		if (src && f->max_line > src->nlines)
			fprintf(err, "kpath html: warning: %s: %u lines, but function '%s' has a path through line %u: "
			        "the source changed since it was instrumented?\n",
			        src->path, src->nlines, f->pf->name, f->max_line);
	}
}

static int write_pages(struct html_site *site, const struct html_model *m, const struct html_opts *o,
                       char *why, size_t whylen)
{
	size_t i;
	FILE *f;

	if (html_site_assets(site, why, whylen) < 0)
		return -1;
	if (!(f = html_site_create(site, "index.html", why, whylen)))
		return -1;
	html_page_index(f, m, base_name(o->profile));
	if (html_site_close(f, "index.html", why, whylen) < 0)
		return -1;
	for (i = 0; i < m->nfuncs; i++) {
		const struct html_func *fn = &m->funcs[i];

		if (!(f = html_site_create(site, fn->page, why, whylen)))
			return -1;
		html_page_func(f, m, fn, o->top);
		if (html_site_close(f, fn->page, why, whylen) < 0)
			return -1;
	}
	return 0;
}

int kp_html_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct html_opts o;
	struct kp_profile p;
	struct html_model m;
	struct html_site site;
	char why[1024];
	int rc;

	if ((rc = html_args_parse(argc, argv, &o, err)) != HTML_EXIT_OK)
		return rc;
	if (o.help) {
		html_usage(out);
		return HTML_EXIT_OK;
	}
	kp_profile_init(&p, 1);
	if (kp_profile_read(o.profile, &p, why, sizeof why) < 0) {
		fprintf(err, "kpath html: %s\n", why);
		kp_profile_free(&p);
		return HTML_EXIT_FAIL;
	}
	if (html_model_build(&m, &p) < 0) {
		fprintf(err, "kpath html: %s: out of memory\n", o.profile);
		html_model_free(&m);
		return HTML_EXIT_FAIL;
	}
	if (html_site_open(&site, o.out, why, sizeof why) < 0) {
		fprintf(err, "kpath html: %s\n", why);
		html_model_free(&m);
		return HTML_EXIT_FAIL;
	}
	load_sources(&m, o.source_root, err);
	rc = write_pages(&site, &m, &o, why, sizeof why);
	if (rc == 0)
		rc = html_site_commit(&site, why, sizeof why);
	if (rc < 0) {
		fprintf(err, "kpath html: %s\n", why);
		html_site_abort(&site);
	} else {
		fprintf(err, "kpath html: %s: %zu functions, %zu files -> %s/index.html\n", o.profile, m.nfuncs, m.nfiles,
		        o.out);
	}
	html_model_free(&m);
	html_hl_cleanup();
	return rc < 0 ? HTML_EXIT_FAIL : HTML_EXIT_OK;
}

int kp_html_main(int argc, char **argv)
{
	return kp_html_run(argc, argv, stdout, stderr);
}
