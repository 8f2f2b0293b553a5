/*
 * rep_summary.c: the summary `kpath report` opens with: how many functions
 * ran, and the line, branch, function and Ball-Larus path coverage of the
 * whole profile, computed by coverage.c (the figures `kpath coverage`
 * prints in its TOTAL row for the same profile and --source-dir).
 *
 *   summary
 *     functions run       3 / 4
 *     lines              10 / 12   83.3%
 *     branches            3 / 4    75.0%
 *     functions           3 / 4    75.0%
 *     Ball-Larus paths    5 / 14   35.7%
 *
 * A figure with nothing to cover (no function has a static graph) shows
 * "-" for its percentage, and a note says why.  The summary is of the whole
 * profile, whatever --function and --file select.  --json carries the same
 * as "summary" (rep_summary_json).
 */
#include <inttypes.h>
#include <jansson.h>
#include <string.h>

#include "coverage.h"
#include "rep.h"
#include "report.h"

enum { SUM_ROWS = 5 };

int rep_summary_print(FILE *out, const struct rep_report *r, const char *path, const char *source_dir)
{
	static const char *const label[SUM_ROWS] = { "functions run", "lines", "branches", "functions",
		                                     "Ball-Larus paths" };
	const struct rep_report *one = r;
	struct cov_report c;
	struct cov_counts k[SUM_ROWS];
	char frac[SUM_ROWS][48], why[600];
	size_t i, ran = 0, unread = 0;
	int w = 0;

	for (i = 0; i < r->nfuncs; i++)
		ran += r->funcs[i].flow > 0;
	fputs("summary\n", out);
	if (cov_build(&c, &one, &path, 1, why, sizeof why) < 0) {
		fprintf(out, "  functions run  %zu / %zu\n  coverage unavailable: %s\n", ran, r->nfuncs,
		        kp_term(why));
		return ferror(out) ? -1 : 0;
	}
	unread = cov_filter_sources(&c, source_dir, "report", NULL);
	k[0] = (struct cov_counts){ ran, r->nfuncs };
	k[1] = c.line;
	k[2] = c.branch;
	k[3] = c.func;
	k[4] = c.path;
	for (i = 0; i < SUM_ROWS; i++) {
		cov_frac(frac[i], sizeof frac[i], k[i], " / ");
		int n = (int)strlen(frac[i]);
		if (n > w)
			w = n;
	}
	for (i = 0; i < SUM_ROWS; i++) {
		double p = cov_percent(k[i]);

		fprintf(out, "  %-17s  %*s", label[i], w, frac[i]);
		if (i == 0)
			fputc('\n', out);
		else if (p < 0)
			fputs("       -\n", out);
		else
			fprintf(out, "  %5.1f%%\n", p);
	}
	if (c.nocfg)
		fprintf(out, "  (%zu function%s without a static graph in the profile: not in the line and "
		        "branch figures)\n", c.nocfg, c.nocfg == 1 ? "" : "s");
	if (c.line.total && unread)
		fprintf(out, "  (%zu source file%s not read: %s blank and comment lines inside blocks are "
		        "counted; see --source-dir)\n", unread, unread == 1 ? "" : "s", unread == 1 ? "its" : "their");
	cov_free(&c);
	return ferror(out) ? -1 : 0;
}

static json_t *counts_json(struct cov_counts k)
{
	double p = cov_percent(k);

	return json_pack("{sIsIso}", "covered", (json_int_t)(k.covered > INT64_MAX ? INT64_MAX : k.covered), "total",
	                 (json_int_t)(k.total > INT64_MAX ? INT64_MAX : k.total), "percent",
	                 p < 0 ? json_null() : json_real(p));
}

json_t *rep_summary_json(const struct rep_report *r, const char *path, const char *source_dir)
{
	const struct rep_report *one = r;
	struct cov_report c;
	char why[600];
	size_t i, ran = 0;
	json_t *o;

	for (i = 0; i < r->nfuncs; i++)
		ran += r->funcs[i].flow > 0;
	if (cov_build(&c, &one, &path, 1, why, sizeof why) < 0)
		return json_pack("{sIsIss}", "functions_run", (json_int_t)ran, "functions_total", (json_int_t)r->nfuncs,
		                 "coverage_unavailable", why);
	cov_filter_sources(&c, source_dir, "report", NULL);
	o = json_pack("{sIsIsosososo}", "functions_run", (json_int_t)ran, "functions_total", (json_int_t)r->nfuncs,
	              "lines", counts_json(c.line), "branches", counts_json(c.branch), "functions",
	              counts_json(c.func), "paths", counts_json(c.path));
	cov_free(&c);
	return o;
}
