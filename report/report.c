/*
 * report.c: `kpath report`, the whole pipeline as a flat list of calls:
 * parse the command line, load the profile, rank, select, render.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"
#include "report.h"

/* Warnings go to err as well as into the report, so that a --json consumer
 * or a script sees them too. */
static void warn(FILE *err, const struct rep_report *r,
                 const struct rep_func *const *funcs, size_t n)
{
	size_t i;

	if (r->dropped)
		fprintf(err,
		        "kpath report: warning: the runtime dropped %" PRIu64
		        " events for lack of memory; counts are incomplete\n",
		        r->dropped);
	for (i = 0; i < n; i++)
		if (funcs[i]->invalid_paths)
			fprintf(err,
			        "kpath report: warning: %s (%s:%u): %" PRIu64
			        " invalid path IDs\n",
			        funcs[i]->name, funcs[i]->file, funcs[i]->line,
			        funcs[i]->invalid_paths);
}

int kp_report_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct rep_opts o;
	struct rep_report r;
	const struct rep_func **sel = NULL;
	char why[512];
	size_t i, n = 0;
	int rc;

	if ((rc = rep_args_parse(argc, argv, &o, err)) != REP_EXIT_OK)
		return rc;
	if (o.help) {
		rep_usage(out);
		return REP_EXIT_OK;
	}
	why[0] = '\0';
	if (rep_load(o.profile, &r, why, sizeof why) < 0) {
		fprintf(err, "kpath report: %s: %s\n", o.profile, why);
		return REP_EXIT_FAIL;
	}
	rep_rank_report(&r);
	assert(rep_check(&r));
	if (r.nfuncs) {
		sel = malloc(r.nfuncs * sizeof *sel);
		if (!sel) {
			fprintf(err, "kpath report: out of memory\n");
			rep_report_free(&r);
			return REP_EXIT_FAIL;
		}
	}
	for (i = 0; i < r.nfuncs; i++)
		if (!o.function || strcmp(r.funcs[i].name, o.function) == 0)
			sel[n++] = &r.funcs[i];
	if (o.function && n == 0) {
		fprintf(err, "kpath report: no function '%s' in %s\n", o.function,
		        o.profile);
		rc = REP_EXIT_FAIL;
	} else {
		warn(err, &r, sel, n);
		if (o.json)
			rc = rep_json_render(out, &r, o.profile, sel, n, o.top);
		else
			rc = rep_text_render(out, &r, o.profile, sel, n, o.top,
			                     o.function != NULL);
		if (rc < 0 || fflush(out) == EOF) {
			fprintf(err, "kpath report: cannot write the report\n");
			rc = REP_EXIT_FAIL;
		}
	}
	free(sel);
	rep_report_free(&r);
	return rc;
}

int kp_report_main(int argc, char **argv)
{
	return kp_report_run(argc, argv, stdout, stderr);
}
