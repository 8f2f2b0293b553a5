/*
 * html_main.c: `kpath html PROFILE -o DIR`, the driver.
 *
 *   parse args -> read profile -> build model -> read sources ->
 *   coverage (html_cov.c) -> open temp site ->
 *   write index, function pages, assets -> replace DIR
 *
 * A profile that cannot be read (missing, truncated, wrong schema) fails
 * before anything is created; a failure while writing removes the temporary
 * directory, so DIR is either the complete new site or what it was before.
 * A source file that cannot be read is a warning: its functions' pages show
 * line numbers without source.
 */
#include <inttypes.h>
#include <signal.h>
#include <string.h>

#include "html.h"
#include "html_int.h"
#include "html_wpp.h"
#include "profile.h"
#include "rep_src.h"
#include "report.h"

/* The base name of a path, for titles. */
static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s && s[1] ? s + 1 : p;
}

/* Reads each file once under the source root (rep_src.h), warning about
 * those that cannot be read and, one line per file, listing the functions
 * whose recorded source hash the file on disk does not have (their pages
 * show no lines).  Then checks every function's lines against its source
 * and counts them.  Returns 0, or -1 with the reason in why (a line beyond
 * its source; output beyond the bound of rep_src.h; out of memory). */
static int load_sources(struct html_model *m, const struct rep_src_root *root, FILE *err, char *why, size_t whylen)
{
	size_t i, j;
	uint64_t rows = 0, lines = 0;

	for (i = 0; i < m->nfiles; i++) {
		struct html_file *fl = &m->files[i];
		size_t nstale = 0;

		fl->src = html_source_load(fl->name, root, fl->why, sizeof fl->why);
		if (!fl->src) {
			fprintf(err, "kpath html: warning: source unavailable: %s; its functions' pages have no lines "
			        "(see --source-dir)\n", kp_term(fl->why));
			continue;
		}
		lines += fl->src->nlines;
		for (j = 0; j < m->nfuncs; j++) {
			struct html_func *f = &m->funcs[j];

			f->stale = f->file == i && f->rf->source_hash[0] && strcmp(f->rf->source_hash, fl->src->hash);
			nstale += f->stale;
		}
		/* one line per file, as rep_warn_changed words it */
		if (nstale)
			fprintf(err, "kpath html: warning: %s: differs from the file that was instrumented (source hash "
			        "%s); its counts would not line up with its lines, for %zu function%s:",
			        kp_term(fl->name), fl->src->hash, nstale, nstale == 1 ? "" : "s");
		for (j = 0; nstale && j < m->nfuncs; j++)
			if (m->funcs[j].file == i && m->funcs[j].stale)
				fprintf(err, " %s", kp_term(m->funcs[j].rf->name));
		if (nstale)
			fputc('\n', err);
	}
	for (i = 0; i < m->nfuncs; i++) {
		struct html_func *f = &m->funcs[i];
		const struct html_source *src = m->files[f->file].src;
		uint32_t first, last;
		int rc;

		if (!src || f->stale)
			continue;
		rc = html_model_lines(f, f->rf->at, src->nlines, why, whylen);
		if (rc == -1)
			snprintf(why, whylen, "out of memory");
		if (rc < 0)
			return -1;
		html_page_range(f, src, &first, &last);
		rows += last - first + 1;
	}
	if (!rep_src_rows_ok(rows, lines)) {
		snprintf(why, whylen, "the pages would show %" PRIu64 " source lines, more than %d times the %" PRIu64
		         " lines of the sources read; not writing them", rows, REP_SRC_ROWS_PER_LINE, lines);
		return -1;
	}
	return 0;
}

/* A signal that would end the process while pages are written only sets
 * this flag; write_pages then stops and the caller removes the temporary
 * directory before the signal takes effect.  SIGXFSZ (a file size limit)
 * is ignored instead: the write fails with EFBIG, an ordinary error. */
static volatile sig_atomic_t html_stop;

static void html_on_signal(int sig)
{
	html_stop = sig;
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
	if (m->wpp) {
		if (!(f = html_site_create(site, HTML_WPP_PAGE, why, whylen)))
			return -1;
		html_wpp_page(f, m);
		if (html_site_close(f, HTML_WPP_PAGE, why, whylen) < 0)
			return -1;
	}
	for (i = 0; i < m->nfuncs; i++) {
		const struct html_func *fn = &m->funcs[i];

		if (html_stop) {
			snprintf(why, whylen, "stopped by signal %d", (int)html_stop);
			return -1;
		}
		if (!(f = html_site_create(site, fn->page, why, whylen)))
			return -1;
		html_page_func(f, m, fn, o->top);
		if (html_site_close(f, fn->page, why, whylen) < 0)
			return -1;
	}
	return 0;
}

/* Writes the pages and replaces DIR, or removes the temporary directory
 * after an error or a signal (then re-raised: the process ends as it
 * would have, with nothing left behind).  0 or -1. */
static int write_site(struct html_site *site, const struct html_model *m, const struct html_opts *o, FILE *err)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa, old[3], oldxfsz;
	char why[1024];
	size_t i;
	int rc;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = html_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &sa, &oldxfsz);
	rc = write_pages(site, m, o, why, sizeof why);
	if (rc == 0 && html_stop) {
		snprintf(why, sizeof why, "stopped by signal %d", (int)html_stop);
		rc = -1;
	}
	if (rc == 0)
		rc = html_site_commit(site, why, sizeof why);
	if (rc < 0) {
		fprintf(err, "kpath html: %s\n", kp_term(why));
		html_site_abort(site);
	}
	sigaction(SIGXFSZ, &oldxfsz, NULL);
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	if (html_stop)
		raise(html_stop);
	return rc;
}

int kp_html_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct html_opts o;
	struct kp_profile p;
	struct html_model m;
	struct html_site site;
	struct rep_src_root root;
	struct html_wpp *wpp = NULL;
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
	if (html_model_build(&m, &p, why, sizeof why) < 0) {
		fprintf(err, "kpath html: %s: %s\n", o.profile, why);
		html_model_free(&m);
		return HTML_EXIT_FAIL;
	}
	if (rep_src_root_open(&root, o.source_root, why, sizeof why) < 0) {
		fprintf(err, "kpath html: --source-dir %s\n", kp_term(why));
		html_model_free(&m);
		return HTML_EXIT_FAIL;
	}
	rc = load_sources(&m, &root, err, why, sizeof why);
	rep_src_root_close(&root);
	if (rc == 0)
		rc = html_model_coverage(&m, o.source_root, err, why, sizeof why);
	if (rc < 0) {
		fprintf(err, "kpath html: %s: %s\n", kp_term(o.profile), kp_term(why));
		html_model_free(&m);
		html_hl_cleanup();
		return HTML_EXIT_FAIL;
	}
	if (o.wpp && html_wpp_load(&wpp, &o, &m, why, sizeof why) < 0) {
		fprintf(err, "kpath html: %s\n", kp_term(why));
		html_model_free(&m);
		html_hl_cleanup();
		return HTML_EXIT_FAIL;
	}
	m.wpp = wpp;
	if (html_site_open(&site, o.out, why, sizeof why) < 0) {
		fprintf(err, "kpath html: %s\n", kp_term(why));
		html_wpp_free(wpp);
		html_model_free(&m);
		html_hl_cleanup();
		return HTML_EXIT_FAIL;
	}
	rc = write_site(&site, &m, &o, err);
	html_wpp_free(wpp);
	if (rc == 0)
		fprintf(err, "kpath html: %s: %zu functions, %zu files -> %s/index.html\n", o.profile, m.nfuncs, m.nfiles,
		        o.out);
	html_model_free(&m);
	html_hl_cleanup();
	return rc < 0 ? HTML_EXIT_FAIL : HTML_EXIT_OK;
}

int kp_html_main(int argc, char **argv)
{
	return kp_html_run(argc, argv, stdout, stderr);
}
