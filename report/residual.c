/*
 * residual.c: `kpath residual TESTS.json PROD.json`: the Ball-Larus paths
 * PROD ran that TESTS never did (the residual paths of the PPP paper's
 * section 1), per function, hottest first, and the share of PROD's flow
 * they carry; --fail-under PCT makes it a path-coverage gate.
 *
 * Both profiles are read by rep_load (profile/profile.h's validated
 * reader), so a bad profile is refused the same way as everywhere else.
 * Only level 1 of each k-IPF counts: a Ball-Larus path ran when its level-1
 * count is > 0, whatever k either profile has.
 *
 * Matching: a PROD function is compared with the TESTS function of the
 * same name, file and checksum (equal checksums decode every ID to the same
 * blocks, cfg.h's bl_checksum).  A PROD function with no TESTS function of
 * that name and file, or one the tests never ran, is "not run by the
 * tests": every path it ran is residual.  One whose checksum differs was
 * built from other code: its IDs mean other paths, so every path it ran is
 * counted as residual too (the gate must not pass on paths nobody tested),
 * and the output says why.  Two profiles that share no (name, file) at all
 * are of different programs: an error, not an empty answer.
 *
 * Invariants of a result: rows of a function are sorted by count desc, then
 * id asc (the order of rep_func.single); functions by residual flow desc,
 * then name, file, line; residual_flow <= prod_flow (both saturated).
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "rep.h"
#include "report.h"

enum {
	RES_EXIT_GATE = 3, /* --fail-under not met */
};

enum res_status { RES_COMPARED, RES_UNTESTED, RES_CODE_CHANGED };
static const char *const status_name[] = { "compared", "not_run_by_tests", "code_changed" };

struct res_opts {
	const char *tests_path, *prod_path;
	size_t top;       /* rows per function; 0 = all */
	int json;
	int gate;         /* --fail-under given */
	double fail_under;
};

struct res_func {
	const struct rep_func *prod;
	const struct rep_func *tests; /* same name and file, or NULL */
	enum res_status status;
	const struct rep_seq **rows;  /* PROD's residual level-1 paths */
	size_t nrows;
	uint64_t residual_flow;       /* saturated sum of the rows' counts */
};

struct res_result {
	struct res_func *funcs; /* only those with rows */
	size_t nfuncs;
	size_t ran;             /* PROD functions with flow > 0 */
	uint64_t prod_flow, residual_flow, residual_paths;
	double residual_share, tested_share;
};

static void res_usage(FILE *out)
{
	fputs("usage: kpath residual TESTS.json PROD.json [--top N] [--json]\n"
	      "                      [--fail-under PCT]\n"
	      "\n"
	      "The Ball-Larus paths PROD ran that TESTS never ran (residual paths),\n"
	      "per function, hottest first, with their source lines, and their\n"
	      "share of PROD's flow.  Functions are matched by name, file and\n"
	      "checksum; a function whose code differs, or that the tests never\n"
	      "ran, counts every path as residual.\n"
	      "\n"
	      "  --top N          rows per function (default 0 = all)\n"
	      "  --json           print the result as JSON (kpath-residual/1)\n"
	      "  --fail-under PCT exit 3 when tested paths carry less than PCT\n"
	      "                   percent of PROD's flow (a path-coverage gate)\n"
	      "  --help           print this help\n"
	      "\n"
	      "Exit status: 0 ok, 1 unreadable or foreign profile, 2 usage,\n"
	      "3 the --fail-under gate failed.\n",
	      out);
}

static int usage_error(FILE *err, const char *what, const char *arg)
{
	fprintf(err, "kpath residual: %s%s%s\n", what, arg ? ": " : "", arg ? kp_term(arg) : "");
	res_usage(err);
	return REP_EXIT_USAGE;
}

/* A percentage: a decimal number in [0, 100] with nothing after it. */
static int parse_pct(const char *s, double *pct)
{
	char *end;
	double v;

	if (!*s)
		return -1;
	v = strtod(s, &end);
	if (*end || !(v >= 0.0 && v <= 100.0))
		return -1;
	*pct = v;
	return 0;
}

enum { RS_HELP = 1, RS_JSON, RS_TOP, RS_FAIL_UNDER };

static const struct kp_opt res_opts_tab[] = {
	{"--help", RS_HELP, KP_OPT_FLAG},
	{"-h", RS_HELP, KP_OPT_FLAG},
	{"--json", RS_JSON, KP_OPT_FLAG},
	{"--top", RS_TOP, KP_OPT_NEEDS},
	{"--fail-under", RS_FAIL_UNDER, KP_OPT_NEEDS},
	{NULL, 0, KP_OPT_FLAG},
};

struct res_args {
	struct res_opts *o;
	int nfiles;
	FILE *out, *err;
};

/* One item of the command line (kp_opt_fn); -1 after --help. */
static int res_item(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	struct res_args *a = ctx;
	struct res_opts *o = a->o;

	switch (id) {
	case KP_OPT_ARG:
		if (a->nfiles == 2)
			return usage_error(a->err, "more than two profiles", v);
		*(a->nfiles++ ? &o->prod_path : &o->tests_path) = v;
		return 0;
	case KP_OPT_UNKNOWN:
		return usage_error(a->err, "unknown option", v);
	case RS_HELP:
		res_usage(a->out);
		return -1;
	case RS_JSON:
		o->json = 1;
		return 0;
	case RS_TOP:
		if (st->missing || rep_parse_count(v, &o->top) < 0)
			return usage_error(a->err, "--top: not a count", v);
		return 0;
	default:
		if (st->missing || parse_pct(v, &o->fail_under) < 0)
			return usage_error(a->err, "--fail-under: not a percentage from 0 to 100", v);
		o->gate = 1;
		return 0;
	}
}

/* 0, -1 after --help, or REP_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct res_opts *o, FILE *out, FILE *err)
{
	struct res_args ra = { o, 0, out, err };
	int r, nfiles;

	memset(o, 0, sizeof *o);
	if ((r = kp_opt_parse(argc, argv, res_opts_tab, res_item, &ra)) != 0)
		return r;
	nfiles = ra.nfiles;
	if (nfiles != 2)
		return usage_error(err, "two profiles needed (TESTS.json PROD.json)", NULL);
	return 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static const struct rep_func *find_named(const struct rep_report *r, const struct rep_func *f)
{
	const struct rep_func *same_code = NULL, *other = NULL;
	size_t i;

	for (i = 0; i < r->nfuncs; i++) {
		const struct rep_func *g = &r->funcs[i];

		if (strcmp(g->name, f->name) || strcmp(g->file, f->file))
			continue;
		if (!strcmp(g->checksum, f->checksum))
			same_code = g;
		else if (!other)
			other = g;
	}
	return same_code ? same_code : other;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Fills rf->rows: PROD's level-1 paths that ran and, when the function was
 * compared, that TESTS never ran.  -1 on allocation failure. */
static int residual_rows(struct res_func *rf)
{
	const struct rep_func *p = rf->prod, *t = rf->tests;
	uint64_t *tested = NULL;
	size_t ntested = 0, i;

	rf->rows = malloc((p->nsingle + 1) * sizeof *rf->rows);
	if (!rf->rows)
		return -1;
	if (rf->status == RES_COMPARED) {
		tested = malloc((t->nsingle + 1) * sizeof *tested);
		if (!tested)
			return -1;
		for (i = 0; i < t->nsingle; i++)
			if (t->single[i].count > 0)
				tested[ntested++] = t->single[i].ids[0];
		qsort(tested, ntested, sizeof *tested, cmp_u64);
	}
	for (i = 0; i < p->nsingle; i++) {
		const struct rep_seq *s = &p->single[i];

		if (s->count == 0 || (ntested && bsearch(&s->ids[0], tested, ntested, sizeof *tested, cmp_u64)))
			continue;
		rf->rows[rf->nrows++] = s;
		rf->residual_flow = sat_add(rf->residual_flow, s->count);
	}
	free(tested);
	return 0;
}

static int cmp_res_func(const void *pa, const void *pb)
{
	const struct res_func *a = pa, *b = pb;
	int c;

	if (a->residual_flow != b->residual_flow)
		return a->residual_flow > b->residual_flow ? -1 : 1;
	if ((c = strcmp(a->prod->name, b->prod->name)) != 0)
		return c;
	if ((c = strcmp(a->prod->file, b->prod->file)) != 0)
		return c;
	return a->prod->line < b->prod->line ? -1 : a->prod->line > b->prod->line;
}

/* Whether TESTS and PROD name at least one common function (or either has
 * none, which proves nothing). */
static int same_program(const struct rep_report *tests, const struct rep_report *prod)
{
	size_t i;

	if (tests->nfuncs == 0 || prod->nfuncs == 0)
		return 1;
	for (i = 0; i < prod->nfuncs; i++)
		if (find_named(tests, &prod->funcs[i]))
			return 1;
	return 0;
}

static int compute(const struct rep_report *tests, const struct rep_report *prod, struct res_result *res)
{
	size_t i;

	memset(res, 0, sizeof *res);
	res->funcs = calloc(prod->nfuncs + 1, sizeof *res->funcs);
	if (!res->funcs)
		return -1;
	for (i = 0; i < prod->nfuncs; i++) {
		const struct rep_func *p = &prod->funcs[i];
		struct res_func *rf = &res->funcs[res->nfuncs];

		if (p->flow == 0)
			continue;
		res->ran++;
		res->prod_flow = sat_add(res->prod_flow, p->flow);
		memset(rf, 0, sizeof *rf);
		rf->prod = p;
		rf->tests = find_named(tests, p);
		rf->status = !rf->tests || rf->tests->flow == 0             ? RES_UNTESTED
		             : strcmp(rf->tests->checksum, p->checksum) != 0 ? RES_CODE_CHANGED
		                                                             : RES_COMPARED;
		if (residual_rows(rf) < 0) {
			free(rf->rows);
			return -1;
		}
		if (rf->nrows == 0) {
			free(rf->rows);
			continue;
		}
		res->residual_paths += rf->nrows;
		res->residual_flow = sat_add(res->residual_flow, rf->residual_flow);
		res->nfuncs++;
	}
	if (res->nfuncs > 1)
		qsort(res->funcs, res->nfuncs, sizeof *res->funcs, cmp_res_func);
	res->residual_share = rep_share(res->residual_flow, res->prod_flow);
	res->tested_share = res->prod_flow ? 100.0 - res->residual_share : 100.0;
	return 0;
}

static void result_free(struct res_result *res)
{
	size_t i;

	for (i = 0; i < res->nfuncs; i++)
		free(res->funcs[i].rows);
	free(res->funcs);
}

/* The gate: tested flow * 100 < PCT * flow, in long double (exact for
 * counts below 2^64 within the rounding of PCT itself). */
static int gate_fails(const struct res_opts *o, const struct res_result *res)
{
	long double tested = (long double)(res->prod_flow - res->residual_flow);

	if (!o->gate || res->prod_flow == 0)
		return 0;
	return tested * 100.0L < (long double)o->fail_under * (long double)res->prod_flow;
}

static const char *status_note(const struct res_func *rf)
{
	switch (rf->status) {
	case RES_UNTESTED: return "  (not run by the tests: every path is residual)";
	case RES_CODE_CHANGED: return "  (code differs from the tests' build: every path is residual)";
	default: return "";
	}
}

static void print_text(FILE *out, const struct res_opts *o, const struct rep_report *tests,
                       const struct rep_report *prod, const struct res_result *res)
{
	size_t i, j;

	fprintf(out, "residual paths: run by %s (runs %" PRIu64 "), never by %s (runs %" PRIu64 ")\n",
	        kp_term(o->prod_path), prod->runs, kp_term(o->tests_path), tests->runs);
	for (i = 0; i < res->nfuncs; i++) {
		const struct res_func *rf = &res->funcs[i];
		const struct rep_func *f = rf->prod;
		size_t shown = rep_shown(rf->nrows, o->top);
		int wc = 5, wi = 2;

		fprintf(out, "\n%s  %s:%u%s\n", kp_term(f->name), kp_term(f->file), f->line, status_note(rf));
		if (rf->status == RES_CODE_CHANGED)
			fprintf(out, "  checksum %s in PROD, %s in TESTS\n", f->checksum, rf->tests->checksum);
		fprintf(out, "  flow %" PRIu64 ", residual %" PRIu64 " (%.1f%%) on %zu path%s; top %zu\n", f->flow,
		        rf->residual_flow, rep_share(rf->residual_flow, f->flow), rf->nrows, rf->nrows == 1 ? "" : "s",
		        shown);
		for (j = 0; j < shown; j++) {
			int a = snprintf(NULL, 0, "%" PRIu64, rf->rows[j]->count);
			int b = snprintf(NULL, 0, "%" PRIu64, rf->rows[j]->ids[0]);

			wc = a > wc ? a : wc;
			wi = b > wi ? b : wi;
		}
		fprintf(out, "    %3s  %*s  %6s  %*s  %s\n", "#", wc, "count", "share", wi, "id", "lines");
		for (j = 0; j < shown; j++) {
			const struct rep_seq *s = rf->rows[j];

			fprintf(out, "    %3zu  %*" PRIu64 "  %5.1f%%  %*" PRIu64 "  ", j + 1, wc, s->count,
			        rep_share(s->count, f->flow), wi, s->ids[0]);
			rep_print_lines(out, f, s->ids, 1);
			fputc('\n', out);
		}
	}
	fprintf(out,
	        "\nsummary: %" PRIu64 " residual path%s in %zu of %zu functions that ran; %" PRIu64 " of %" PRIu64
	        " (%.1f%%) of PROD's flow on untested paths, %.1f%% on tested paths\n",
	        res->residual_paths, res->residual_paths == 1 ? "" : "s", res->nfuncs, res->ran, res->residual_flow,
	        res->prod_flow, res->residual_share, res->tested_share);
	if (o->gate)
		fprintf(out, "gate: tested paths %.1f%% %s --fail-under %g: %s\n", res->tested_share,
		        gate_fails(o, res) ? "<" : ">=", o->fail_under, gate_fails(o, res) ? "FAIL" : "ok");
}

static int print_json(FILE *out, const struct res_opts *o, const struct res_result *res)
{
	json_t *root, *fa, *summary;
	size_t i, j;
	int e;

	summary = json_pack("{s:o, s:i, s:i, s:o, s:o, s:f, s:f}", "residual_paths", rep_json_u64(res->residual_paths),
	                    "residual_functions", (json_int_t)res->nfuncs, "functions_run", (json_int_t)res->ran,
	                    "prod_flow", rep_json_u64(res->prod_flow), "residual_flow", rep_json_u64(res->residual_flow),
	                    "residual_share", res->residual_share, "tested_share", res->tested_share);
	root = json_pack("{s:s, s:s?, s:s?, s:o}", "schema", "kpath-residual/1", "tests", o->tests_path, "prod",
	                 o->prod_path, "summary", summary);
	if (!root)
		return -1;
	e = json_object_set_new(root, "functions", fa = json_array());
	if (!e && o->gate)
		e = json_object_set_new(root, "gate",
		                        json_pack("{s:f, s:b}", "fail_under", o->fail_under, "passed", !gate_fails(o, res)));
	for (i = 0; !e && i < res->nfuncs; i++) {
		const struct res_func *rf = &res->funcs[i];
		const struct rep_func *f = rf->prod;
		json_t *rows = json_array();
		json_t *fo = json_pack("{s:s?, s:s?, s:i, s:s, s:s, s:o, s:o, s:i, s:o}", "name", f->name, "file", f->file,
		                       "line", (json_int_t)f->line, "checksum", f->checksum, "status",
		                       status_name[rf->status], "flow", rep_json_u64(f->flow), "residual_flow",
		                       rep_json_u64(rf->residual_flow), "residual_paths", (json_int_t)rf->nrows, "rows", rows);

		e |= !fo || !rows || json_array_append_new(fa, fo) < 0;
		for (j = 0; !e && j < rep_shown(rf->nrows, o->top); j++) {
			const struct rep_seq *s = rf->rows[j];

			e |= json_array_append_new(rows, json_pack("{s:i, s:o, s:o, s:f, s:o}", "rank", (json_int_t)(j + 1),
			                                           "id", rep_json_u64(s->ids[0]), "count", rep_json_u64(s->count), "share",
			                                           rep_share(s->count, f->flow), "lines",
			                                           rep_json_lines(f, s->ids[0]))) < 0;
		}
	}
	if (!e)
		e = json_dumpf(root, out, JSON_INDENT(2)) < 0 || fputc('\n', out) == EOF;
	json_decref(root);
	return e ? -1 : 0;
}

static int run(const struct res_opts *o, const struct rep_report *tests, const struct rep_report *prod, FILE *out,
               FILE *err)
{
	struct res_result res;
	int rc = REP_EXIT_OK;

	if (!same_program(tests, prod)) {
		fprintf(err,
		        "kpath residual: %s and %s have no function in common (by name and file): "
		        "not profiles of the same program\n",
		        kp_term(o->tests_path), kp_term(o->prod_path));
		return REP_EXIT_FAIL;
	}
	if (compute(tests, prod, &res) < 0) {
		result_free(&res);
		fputs("kpath residual: out of memory\n", err);
		return REP_EXIT_FAIL;
	}
	if (o->json)
		rc = print_json(out, o, &res);
	else
		print_text(out, o, tests, prod, &res);
	if (rc < 0 || ferror(out) || fflush(out) == EOF) {
		fputs("kpath residual: cannot write the result\n", err);
		rc = REP_EXIT_FAIL;
	} else if (gate_fails(o, &res)) {
		fprintf(err, "kpath residual: tested paths carry %.1f%% of %s's flow, under --fail-under %g\n",
		        res.tested_share, kp_term(o->prod_path), o->fail_under);
		rc = RES_EXIT_GATE;
	}
	result_free(&res);
	return rc;
}

int kp_residual_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct res_opts o;
	struct rep_report tests, prod;
	char why[512];
	int rc;

	if ((rc = parse_args(argc, argv, &o, out, err)) != 0)
		return rc < 0 ? REP_EXIT_OK : rc;
	why[0] = '\0';
	if (rep_load(o.tests_path, 0, &tests, why, sizeof why) < 0) {
		fprintf(err, "kpath residual: %s: %s\n", kp_term(o.tests_path), kp_term(why));
		return REP_EXIT_FAIL;
	}
	if (rep_load(o.prod_path, 0, &prod, why, sizeof why) < 0) {
		fprintf(err, "kpath residual: %s: %s\n", kp_term(o.prod_path), kp_term(why));
		rep_report_free(&tests);
		return REP_EXIT_FAIL;
	}
	rep_rank_report(&tests);
	rep_rank_report(&prod);
	rc = run(&o, &tests, &prod, out, err);
	rep_report_free(&prod);
	rep_report_free(&tests);
	return rc;
}

int kp_residual_main(int argc, char **argv)
{
	return kp_residual_run(argc, argv, stdout, stderr);
}
