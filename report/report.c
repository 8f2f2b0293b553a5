/*
 * report.c: `kpath report`, the whole pipeline as a flat list of calls:
 * parse the command line, load the profile, rank, select, render.
 */
#include <assert.h>
#include <inttypes.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"
#include "rep_src.h"
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
			        kp_term(funcs[i]->name), kp_term(funcs[i]->file), funcs[i]->line,
			        funcs[i]->invalid_paths);
}

/* Compiles --function RE (anchored: the whole name must match) or --file
 * RE (unanchored).  Returns 0, or -1 after printing the regcomp error. */
int rep_regex_compile(regex_t *re, const char *pattern, int whole,
                      const char *cmd, const char *opt, FILE *err)
{
	size_t n = strlen(pattern) + 8;
	char *full = malloc(n), msg[256];
	int rc;

	if (!full) {
		fprintf(err, "kpath %s: out of memory\n", cmd);
		return -1;
	}
	snprintf(full, n, whole ? "^(%s)$" : "%s", pattern);
	rc = regcomp(re, full, REG_EXTENDED | REG_NOSUB);
	free(full);
	if (rc != 0) {
		regerror(rc, re, msg, sizeof msg);
		fprintf(err, "kpath %s: %s '%s': %s\n", cmd, opt, pattern, msg);
		return -1;
	}
	return 0;
}

/* Whether --force would read path (it breaks invariants, not types). */
static int forceable(const char *path)
{
	struct rep_report r;
	char why[512];
	int rc = rep_load(path, 1, &r, why, sizeof why);

	if (rc >= 0)
		rep_report_free(&r);
	return rc > 0;
}

int kp_report_run(int argc, char **argv, FILE *out, FILE *err)
{
	regex_t fre, file_re;
	struct rep_opts o;
	struct rep_report r;
	struct rep_src_root sroot;
	const struct rep_func **sel = NULL;
	char why[1024];
	size_t i, n = 0;
	int rc;

	if ((rc = rep_args_parse(argc, argv, &o, err)) != REP_EXIT_OK)
		return rc;
	if (o.help) {
		rep_usage(out);
		return REP_EXIT_OK;
	}
	if (o.function && rep_regex_compile(&fre, o.function, 1, "report",
	                                    "--function", err) < 0)
		return REP_EXIT_USAGE;
	if (o.file && rep_regex_compile(&file_re, o.file, 0, "report", "--file",
	                                err) < 0) {
		if (o.function)
			regfree(&fre);
		return REP_EXIT_USAGE;
	}
	why[0] = '\0';
	rc = rep_load(o.profile, o.force, &r, why, sizeof why);
	if (rc < 0) {
		if (o.function)
			regfree(&fre);
		if (o.file)
			regfree(&file_re);
		fprintf(err, "kpath report: %s: %s%s\n", kp_term(o.profile), kp_term(why),
		        !o.force && forceable(o.profile)
		            ? " (--force reads it anyway)" : "");
		return REP_EXIT_FAIL;
	}
	if (rc > 0)
		fprintf(err, "kpath report: warning: %s: %s: read anyway (--force); "
		        "counts may be wrong\n", kp_term(o.profile), kp_term(why));
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
	for (i = 0; i < r.nfuncs; i++) {
		rep_select_multi(&r.funcs[i], &o);
		if (o.function && regexec(&fre, r.funcs[i].name, 0, NULL, 0))
			continue;
		if (o.file && regexec(&file_re, r.funcs[i].file, 0, NULL, 0))
			continue;
		sel[n++] = &r.funcs[i];
	}
	if ((o.function || o.file) && n == 0) {
		fprintf(err, "kpath report: no function matching%s%s%s%s%s%s in %s\n",
		        o.function ? " --function '" : "", o.function ? o.function : "",
		        o.function ? "'" : "", o.file ? " --file '" : "",
		        o.file ? o.file : "", o.file ? "'" : "", o.profile);
		rc = REP_EXIT_FAIL;
	} else {
		warn(err, &r, sel, n);
		if (rep_src_root_open(&sroot, o.source_dir, why, sizeof why) == 0) {
			rep_warn_changed(err, "report", sel, n, &sroot);
			rep_src_root_close(&sroot);
		} else if (o.source_dir) {
			fprintf(err, "kpath report: warning: --source-dir %s\n", kp_term(why));
		}
		if (o.json)
			rc = rep_json_render(out, &r, o.profile, sel, n, &o);
		else
			rc = rep_text_render(out, &r, o.profile, sel, n, &o,
			                     o.function != NULL);
		if (rc < 0 || fflush(out) == EOF) {
			fprintf(err, "kpath report: cannot write the report\n");
			rc = REP_EXIT_FAIL;
		}
	}
	free(sel);
	rep_report_free(&r);
	if (o.function)
		regfree(&fre);
	if (o.file)
		regfree(&file_re);
	return rc;
}

int kp_report_main(int argc, char **argv)
{
	return kp_report_run(argc, argv, stdout, stderr);
}
