/*
 * coverage_cmd.c: `kpath coverage PROFILE...`: read the profiles with the
 * validated reader (rep_load), build the coverage (coverage.c), drop the
 * lines of readable sources that hold no code (coverage_src.c), write the
 * exports (coverage_export.c), print a summary per file and in total (text
 * or --json), and apply the --fail-under gates.  Exit statuses are
 * coverage.h's.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "coverage.h"
#include "opts.h"
#include "profile.h" /* kp_atomic_write */
#include "rep.h"
#include "report.h"

enum { GATE_LINE, GATE_BRANCH, GATE_FUNCTION, GATE_PATH, NGATES };
static const char *const gate_name[NGATES] = { "line", "branch", "function", "path" };

struct cov_opts {
	const char **profiles;
	size_t nprofiles;
	int json, help;
	const char *source_dir;
	const char *lcov, *cobertura; /* export files, "-" for stdout, or NULL */
	double gate[NGATES]; /* -1: no gate */
};

static void cov_usage(FILE *out)
{
	fputs("usage: kpath coverage PROFILE... [--json] [--source-dir DIR]\n"
	      "                      [--fail-under-line P] [--fail-under-branch P]\n"
	      "                      [--fail-under-function P] [--fail-under-path P]\n"
	      "  line, branch, function and Ball-Larus path coverage of the union of the\n"
	      "  profiles (docs/coverage.md), per source file and in total\n"
	      "  --json               one kpath-coverage/1 document\n"
	      "  --source-dir DIR     find relative source file names under DIR (blank and\n"
	      "                       comment lines of readable sources are not counted)\n"
	      "  --fail-under-KIND P  exit 3 when KIND coverage is below P percent\n"
	      "  --lcov FILE          also write an lcov tracefile (- for stdout: no summary)\n"
	      "  --cobertura FILE     also write Cobertura XML (- for stdout: no summary)\n"
	      "exit status: 0 ok, 1 unreadable profile, 2 usage, 3 below a threshold\n",
	      out);
}

static int usage_error(FILE *err, const char *what, const char *arg)
{
	fprintf(err, "kpath coverage: %s%s%s\n", what, arg ? ": " : "", arg ? kp_term(arg) : "");
	cov_usage(err);
	return REP_EXIT_USAGE;
}

/* A percentage in [0, 100]: digits with at most one '.'. */
static int parse_percent(const char *s, double *out)
{
	char *end;
	const char *p;
	int dots = 0;

	if (!*s)
		return -1;
	for (p = s; *p; p++)
		if (*p == '.' ? dots++ : (*p < '0' || *p > '9'))
			return -1;
	*out = strtod(s, &end);
	return *end || *out < 0 || *out > 100 ? -1 : 0;
}

enum { CV_JSON = 1, CV_HELP, CV_SOURCE_DIR, CV_LCOV, CV_COBERTURA, CV_GATE /* + gate index */ };

static const struct kp_opt cov_opts_tab[] = {
	{"--json", CV_JSON, KP_OPT_FLAG},
	{"--help", CV_HELP, KP_OPT_FLAG},
	{"-h", CV_HELP, KP_OPT_FLAG},
	{"--source-dir", CV_SOURCE_DIR, KP_OPT_NEEDS},
	{"--lcov", CV_LCOV, KP_OPT_NEEDS},
	{"--cobertura", CV_COBERTURA, KP_OPT_NEEDS},
	{"--fail-under-line", CV_GATE + 0, KP_OPT_NEEDS},
	{"--fail-under-branch", CV_GATE + 1, KP_OPT_NEEDS},
	{"--fail-under-function", CV_GATE + 2, KP_OPT_NEEDS},
	{"--fail-under-path", CV_GATE + 3, KP_OPT_NEEDS},
	{NULL, 0, KP_OPT_FLAG},
};

struct cov_args {
	struct cov_opts *o;
	FILE *err;
};

/* One item of the command line (kp_opt_fn). */
static int cov_item(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	struct cov_opts *o = ((struct cov_args *)ctx)->o;
	FILE *err = ((struct cov_args *)ctx)->err;

	switch (id) {
	case KP_OPT_ARG:
		o->profiles[o->nprofiles++] = v;
		return 0;
	case KP_OPT_UNKNOWN:
		return usage_error(err, "unknown option", v);
	case CV_JSON:
		o->json = 1;
		return 0;
	case CV_HELP:
		o->help = 1;
		return 0;
	case CV_SOURCE_DIR:
		if (st->missing)
			return usage_error(err, "--source-dir needs a value", NULL);
		o->source_dir = v;
		return 0;
	case CV_LCOV:
	case CV_COBERTURA:
		if (st->missing)
			return usage_error(err, id == CV_LCOV ? "--lcov needs a file name" : "--cobertura needs a file name",
			                   NULL);
		*(id == CV_LCOV ? &o->lcov : &o->cobertura) = v;
		return 0;
	}
	assert(id >= CV_GATE && id < CV_GATE + NGATES);
	if (st->missing)
		return usage_error(err, "a percentage is missing after", st->arg);
	if (parse_percent(v, &o->gate[id - CV_GATE]) < 0)
		return usage_error(err, "not a percentage from 0 to 100", v);
	return 0;
}

static int parse_args(int argc, char **argv, struct cov_opts *o, FILE *err)
{
	struct cov_args ca = { o, err };
	int k, r;

	memset(o, 0, sizeof *o);
	for (k = 0; k < NGATES; k++)
		o->gate[k] = -1;
	o->profiles = calloc((size_t)argc + 1, sizeof *o->profiles);
	if (!o->profiles)
		return fprintf(err, "kpath coverage: out of memory\n"), REP_EXIT_FAIL;
	if ((r = kp_opt_parse(argc, argv, cov_opts_tab, cov_item, &ca)) != 0)
		return r;
	if (!o->help && o->nprofiles == 0)
		return usage_error(err, "no profile given", NULL);
	if (o->lcov && o->cobertura && !strcmp(o->lcov, "-") && !strcmp(o->cobertura, "-"))
		return usage_error(err, "--lcov and --cobertura cannot both go to stdout", NULL);
	return REP_EXIT_OK;
}

static void print_cell(FILE *out, struct cov_counts k)
{
	char n[48];
	double p = cov_percent(k);

	cov_frac(n, sizeof n, k, "/");
	if (p < 0)
		fprintf(out, "  %15s       -", n);
	else
		fprintf(out, "  %15s  %5.1f%%", n, p);
}

static void print_row(FILE *out, int width, const char *name, const struct cov_counts k[4])
{
	fprintf(out, "%-*s", width, name);
	for (int i = 0; i < 4; i++)
		print_cell(out, k[i]);
	fputc('\n', out);
}

/* The first column is as wide as the longest file name (at least 28,
 * at most 120: longer names push their row right). */
static void render_text(FILE *out, const struct cov_report *c)
{
	int width = 28;
	for (size_t i = 0; i < c->nfiles; i++) {
		size_t n = strlen(kp_term(c->files[i].file));
		if (n > (size_t)width)
			width = n > 120 ? 120 : (int)n;
	}
	fprintf(out, "%-*s  %23s  %23s  %23s  %23s\n", width, "File", "Lines", "Branches", "Functions", "Paths");
	for (size_t i = 0; i < c->nfiles; i++) {
		const struct cov_file *f = &c->files[i];
		const struct cov_counts k[4] = { f->line, f->branch, f->func, f->path };
		print_row(out, width, kp_term(f->file), k);
	}
	const struct cov_counts t[4] = { c->line, c->branch, c->func, c->path };
	print_row(out, width, "TOTAL", t);
}

static json_t *counts_json(struct cov_counts k)
{
	double p = cov_percent(k);
	return json_pack("{sIsIso}", "covered", (json_int_t)(k.covered > INT64_MAX ? INT64_MAX : k.covered), "total",
	                 (json_int_t)(k.total > INT64_MAX ? INT64_MAX : k.total), "percent",
	                 p < 0 ? json_null() : json_real(p));
}

static json_t *summary_json(const struct cov_counts k[4])
{
	return json_pack("{sosososo}", "lines", counts_json(k[0]), "branches", counts_json(k[1]), "functions",
	                 counts_json(k[2]), "paths", counts_json(k[3]));
}

static json_t *file_json(const struct cov_file *f)
{
	const struct cov_counts k[4] = { f->line, f->branch, f->func, f->path };
	json_t *o = summary_json(k), *fns = json_array(), *unc = json_array(), *lc = json_array(), *br = json_array();
	size_t i;

	if (!o || !fns || !unc || !lc || !br)
		goto fail;
	for (i = 0; i < f->nlines; i++)
		if (json_array_append_new(lc, json_pack("[Io]", (json_int_t)f->lines[i].line, rep_json_u64(f->lines[i].count))))
			goto fail;
	for (i = 0; i < f->nbranches; i++) {
		const struct cov_branch *x = &f->branches[i];
		if (json_array_append_new(br, json_pack("{sIsssIsIso}", "line", (json_int_t)x->line, "function",
		                                        f->fns[x->fn].name, "block", (json_int_t)x->block, "index",
		                                        (json_int_t)x->index, "count", rep_json_u64(x->count))))
			goto fail;
	}
	for (i = 0; i < f->nfns; i++)
		if (json_array_append_new(fns, json_pack("{sssisosososb}", "name", f->fns[i].name, "line",
		                                         (json_int_t)f->fns[i].line, "entries", rep_json_u64(f->fns[i].entries),
		                                         "paths_run", rep_json_u64(f->fns[i].paths_run), "num_paths",
		                                         rep_json_u64(f->fns[i].num_paths), "cfg", f->fns[i].has_cfg)))
			goto fail;
	for (i = 0; i < f->nlines; i++)
		if (!f->lines[i].count && json_array_append_new(unc, json_integer(f->lines[i].line)))
			goto fail;
	/* set_new takes the reference even when it fails */
	if (json_object_set_new(o, "file", json_string(f->file)) ||
	    json_object_set_new(o, "uncovered_lines", json_incref(unc)) ||
	    json_object_set_new(o, "function_list", json_incref(fns)) ||
	    json_object_set_new(o, "line_counts", json_incref(lc)) ||
	    json_object_set_new(o, "branch_list", json_incref(br)))
		goto fail;
	json_decref(unc);
	json_decref(fns);
	json_decref(lc);
	json_decref(br);
	return o;
fail:
	json_decref(unc);
	json_decref(fns);
	json_decref(lc);
	json_decref(br);
	json_decref(o);
	return NULL;
}

static int render_json(FILE *out, const struct cov_report *c, const struct cov_opts *o)
{
	const struct cov_counts t[4] = { c->line, c->branch, c->func, c->path };
	json_t *doc = json_object(), *profs = json_array(), *files = json_array();
	int rc = -1;

	if (!doc || !profs || !files || json_object_set_new(doc, "schema", json_string("kpath-coverage/1")) ||
	    json_object_set(doc, "profiles", profs) || json_object_set_new(doc, "total", summary_json(t)) ||
	    json_object_set(doc, "files", files))
		goto out;
	for (size_t i = 0; i < o->nprofiles; i++)
		if (json_array_append_new(profs, json_string(o->profiles[i])))
			goto out;
	for (size_t i = 0; i < c->nfiles; i++)
		if (json_array_append_new(files, file_json(&c->files[i])))
			goto out;
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 && fputc('\n', out) != EOF ? 0 : -1;
out:
	json_decref(profs);
	json_decref(files);
	json_decref(doc);
	return rc;
}

struct export_job {
	const struct cov_report *c;
	int cobertura;
	const char *root;
};

static int fill_export(void *f, void *ctx, char *why, size_t whylen)
{
	const struct export_job *j = ctx;

	if ((j->cobertura ? cov_write_cobertura(f, j->c, j->root) : cov_write_lcov(f, j->c)) != 0) {
		snprintf(why, whylen, "write error: %s", strerror(errno));
		return KP_EIO;
	}
	return 0;
}

/* Writes one export to path ("-": out) atomically (kp_atomic_write), so
 * that a failed run leaves no half-written file.  0 or -1 after a
 * message. */
static int write_export(const char *path, FILE *out, FILE *err, const struct cov_report *c, int cobertura,
                        const char *root)
{
	struct export_job j = { c, cobertura, root };
	char why[1024];

	if (!strcmp(path, "-"))
		return cobertura ? cov_write_cobertura(out, c, root) : cov_write_lcov(out, c);
	if (kp_atomic_write(path, fill_export, &j, why, sizeof why) != 0) {
		fprintf(err, "kpath coverage: cannot write %s\n", kp_term(why));
		return -1;
	}
	return 0;
}

/* The gates: COV_EXIT_BELOW after naming every one that fails. */
static int apply_gates(const struct cov_report *c, const struct cov_opts *o, FILE *err)
{
	const struct cov_counts k[NGATES] = { c->line, c->branch, c->func, c->path };
	int rc = REP_EXIT_OK;

	for (int g = 0; g < NGATES; g++) {
		double p = cov_percent(k[g]);
		if (o->gate[g] < 0 || p < 0 || p >= o->gate[g])
			continue;
		fprintf(err, "kpath coverage: %s coverage %.2f%% is below %g%% (--fail-under-%s)\n", gate_name[g], p,
		        o->gate[g], gate_name[g]);
		rc = COV_EXIT_BELOW;
	}
	return rc;
}

int kp_coverage_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct cov_opts o;
	struct rep_report *reps = NULL;
	const struct rep_report **rp = NULL;
	struct cov_report c = { 0 };
	char why[600];
	size_t i, loaded = 0;
	int rc = parse_args(argc, argv, &o, err);

	if (rc != REP_EXIT_OK || o.help) {
		if (o.help && rc == REP_EXIT_OK)
			cov_usage(out);
		free(o.profiles);
		return rc;
	}
	rc = REP_EXIT_FAIL;
	reps = calloc(o.nprofiles, sizeof *reps);
	rp = calloc(o.nprofiles, sizeof *rp);
	if (!reps || !rp) {
		fprintf(err, "kpath coverage: out of memory\n");
		goto out;
	}
	for (i = 0; i < o.nprofiles; i++, loaded++) {
		if (rep_load(o.profiles[i], 0, &reps[i], why, sizeof why) < 0) {
			fprintf(err, "kpath coverage: %s: %s\n", kp_term(o.profiles[i]), kp_term(why));
			goto out;
		}
		rp[i] = &reps[i];
	}
	if (cov_build(&c, rp, o.profiles, o.nprofiles, why, sizeof why) < 0) {
		fprintf(err, "kpath coverage: %s\n", kp_term(why));
		goto out;
	}
	if (c.nocfg)
		fprintf(err, "kpath coverage: warning: %zu function%s without a static graph (\"cfg\": profile "
		             "written before it existed); their lines and branches are not counted\n",
		        c.nocfg, c.nocfg == 1 ? "" : "s");
	if (c.twice)
		fprintf(err, "kpath coverage: warning: %zu function%s appear under two checksums (the code "
		             "changed between builds); each build's graph is counted\n",
		        c.twice, c.twice == 1 ? "" : "s");
	cov_filter_sources(&c, o.source_dir, "coverage", err);
	if (o.lcov && write_export(o.lcov, out, err, &c, 0, o.source_dir ? o.source_dir : "."))
		goto out;
	if (o.cobertura && write_export(o.cobertura, out, err, &c, 1, o.source_dir ? o.source_dir : "."))
		goto out;
	int to_stdout = (o.lcov && !strcmp(o.lcov, "-")) || (o.cobertura && !strcmp(o.cobertura, "-"));
	if (!to_stdout && (o.json ? render_json(out, &c, &o) < 0 : (render_text(out, &c), ferror(out)))) {
		fprintf(err, "kpath coverage: write error\n");
		goto out;
	}
	rc = apply_gates(&c, &o, err);
out:
	cov_free(&c);
	for (i = 0; i < loaded; i++)
		rep_report_free(&reps[i]);
	free(reps);
	free(rp);
	free(o.profiles);
	return rc;
}

/* kpath export --format lcov|cobertura [-o OUT] PROFILE... [coverage options]:
 * kpath coverage with --lcov/--cobertura OUT (default "-"). */
int kp_export_main(int argc, char **argv)
{
	enum { EX_FORMAT = 1, EX_OUT };
	static const struct kp_opt tab[] = {
		{"--format", EX_FORMAT, KP_OPT_NEEDS},
		{"-o", EX_OUT, KP_OPT_NEEDS},
		{NULL, 0, KP_OPT_FLAG},
	};
	struct kp_optstate st;
	const char *format = NULL, *outp = "-", *val, **av;
	int i, n = 0, id, rc;

	av = calloc((size_t)argc + 3, sizeof *av);
	if (!av)
		return fprintf(stderr, "kpath export: out of memory\n"), REP_EXIT_FAIL;
	av[n++] = "coverage";
	/* --format and -o are export's; the rest goes to coverage as it is */
	kp_opt_init(&st, argc, argv);
	while ((id = kp_opt_next(&st, tab, &val)) != KP_OPT_DONE) {
		if (st.missing) {
			free(av);
			fprintf(stderr, "kpath export: %s needs a value\n", kp_term(st.arg));
			return REP_EXIT_USAGE;
		}
		if (id == EX_FORMAT)
			format = val;
		else if (id == EX_OUT)
			outp = val;
		else if (id == KP_OPT_REST)
			for (av[n++] = "--", i = 0; i < st.nrest; i++)
				av[n++] = st.rest[i];
		else
			av[n++] = val;
	}
	if (!format || (strcmp(format, "lcov") && strcmp(format, "cobertura"))) {
		free(av);
		fprintf(stderr, "kpath export: --format lcov or --format cobertura is required\n"
		                "usage: kpath export --format lcov|cobertura [-o OUT] PROFILE... [--source-dir DIR]\n");
		return REP_EXIT_USAGE;
	}
	av[n++] = !strcmp(format, "lcov") ? "--lcov" : "--cobertura";
	av[n++] = outp;
	rc = kp_coverage_run(n, (char **)av, stdout, stderr);
	free(av);
	if (fflush(stdout) != 0 && rc == REP_EXIT_OK)
		rc = REP_EXIT_FAIL;
	return rc;
}

int kp_coverage_main(int argc, char **argv)
{
	int rc = kp_coverage_run(argc, argv, stdout, stderr);
	if (fflush(stdout) != 0 && rc == REP_EXIT_OK)
		rc = REP_EXIT_FAIL;
	return rc;
}
