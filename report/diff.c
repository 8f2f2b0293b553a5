/*
 * diff.c: `kpath diff OLD.json NEW.json`: which paths appeared, vanished or
 * changed frequency the most between two profiles.
 *
 * Functions are matched by name + file + checksum.  A function present in
 * both under different checksums was rebuilt from other code: its path IDs
 * mean other paths, so it is listed as changed code and not compared.
 *
 * Within a function, every sequence of 1..k' Ball-Larus paths (k' the
 * smaller k of the two, exact by the argument in merge.c) is compared by
 * its share of the function's flow in each profile, not by its raw count:
 * the two profiles may hold different numbers of runs or inputs of other
 * sizes, and "path 3 went from 10% to 60% of the executions" is the change
 * a user is after.  Rows are ranked by |new share - old share| (percentage
 * points, the "delta(pp)" column) desc, then fewer iterations first, then ids; rows whose share did
 * not move are left out.  A sequence with count 0 on one side "appeared" or
 * "vanished".
 */
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "rep.h"
#include "report.h"

enum change { CH_APPEARED, CH_VANISHED, CH_CHANGED };
static const char *const change_name[] = {"appeared", "vanished", "changed"};

struct diff_row {
	const struct rep_seq *seq; /* from NEW if it ran there, else from OLD */
	uint64_t old_count, new_count;
	double old_share, new_share, delta;
	enum change change;
};

/* One compared function: the row storage and what the header says. */
struct diff_func {
	const struct rep_func *old, *new;
	struct diff_row *rows;
	size_t nrows, appeared, vanished, changed;
	double max_delta;
};

struct diff_opts {
	const char *old_path, *new_path, *function, *file;
	size_t top;
	int json;
};

static void diff_usage(FILE *out)
{
	fputs("usage: kpath diff OLD.json NEW.json [--top N] [--function RE]\n"
	      "                  [--file RE] [--json]\n"
	      "\n"
	      "Per function, the Ball-Larus and multi-iteration paths that\n"
	      "appeared, vanished or changed their share of the function's flow\n"
	      "the most from OLD to NEW (shares, not counts, so profiles of\n"
	      "different numbers of runs compare).  Profiles of different k are\n"
	      "compared at the smaller k.  Functions whose checksum differs (the\n"
	      "code changed) are listed, not compared.\n"
	      "\n"
	      "  --top N         rows per function (default 10; 0 = all)\n"
	      "  --function RE   only functions whose whole name matches RE\n"
	      "  --file RE       only functions whose file name contains RE\n"
	      "  --json          print the result as JSON (kpath-diff/1)\n"
	      "  --help          print this help\n",
	      out);
}

static int diff_usage_error(FILE *err, const char *what, const char *arg)
{
	fprintf(err, "kpath diff: %s%s%s\n", what, arg ? ": " : "",
	        arg ? arg : "");
	diff_usage(err);
	return REP_EXIT_USAGE;
}

enum { DF_HELP = 1, DF_JSON, DF_TOP, DF_FUNCTION, DF_FILE };

static const struct kp_opt diff_opts_tab[] = {
	{"--help", DF_HELP, KP_OPT_FLAG},
	{"-h", DF_HELP, KP_OPT_FLAG},
	{"--json", DF_JSON, KP_OPT_FLAG},
	{"--top", DF_TOP, KP_OPT_NEEDS},
	{"--function", DF_FUNCTION, KP_OPT_NEEDS},
	{"--file", DF_FILE, KP_OPT_NEEDS},
	{NULL, 0, KP_OPT_FLAG},
};

struct diff_args {
	struct diff_opts *o;
	int nfiles;
	FILE *out, *err;
};

/* One item of the command line (kp_opt_fn); -1 after --help. */
static int diff_item(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	struct diff_args *a = ctx;
	struct diff_opts *o = a->o;

	switch (id) {
	case KP_OPT_ARG:
		if (a->nfiles == 2)
			return diff_usage_error(a->err, "more than two profiles", v);
		*(a->nfiles++ ? &o->new_path : &o->old_path) = v;
		return 0;
	case KP_OPT_UNKNOWN:
		return diff_usage_error(a->err, "unknown option", v);
	case DF_HELP:
		diff_usage(a->out);
		return -1;
	case DF_JSON:
		o->json = 1;
		return 0;
	case DF_TOP:
		if (st->missing || rep_parse_count(v, &o->top) < 0)
			return diff_usage_error(a->err, "--top: not a count", v);
		return 0;
	case DF_FUNCTION:
		if (st->missing)
			return diff_usage_error(a->err, "--function needs a value", NULL);
		o->function = v;
		return 0;
	default:
		if (st->missing)
			return diff_usage_error(a->err, "--file needs a value", NULL);
		o->file = v;
		return 0;
	}
}

static int parse_args(int argc, char **argv, struct diff_opts *o, FILE *out,
                      FILE *err)
{
	struct diff_args da = { o, 0, out, err };
	int r, nfiles;

	memset(o, 0, sizeof *o);
	o->top = REP_TOP_DEFAULT;
	if ((r = kp_opt_parse(argc, argv, diff_opts_tab, diff_item, &da)) != 0)
		return r;
	nfiles = da.nfiles;
	if (nfiles != 2)
		return diff_usage_error(err, "two profiles needed (OLD.json NEW.json)", NULL);
	return 0;
}

/* Sequences of one function in key order: depth, then ids. */
static int cmp_key(const void *pa, const void *pb)
{
	const struct rep_seq *a = *(const struct rep_seq *const *)pa;
	const struct rep_seq *b = *(const struct rep_seq *const *)pb;
	uint32_t i;

	if (a->depth != b->depth)
		return a->depth < b->depth ? -1 : 1;
	for (i = 0; i < a->depth; i++)
		if (a->ids[i] != b->ids[i])
			return a->ids[i] < b->ids[i] ? -1 : 1;
	return 0;
}

/* Every sequence of f of depth <= k, in key order; NULL (with *n = 0 when f
 * is NULL or empty) on allocation failure, reported by *oom. */
static const struct rep_seq **keyed(const struct rep_func *f, unsigned k,
                                    size_t *n, int *oom)
{
	const struct rep_seq **v;
	size_t i, m = 0;

	*n = 0;
	if (!f || f->nsingle + f->nmulti == 0)
		return NULL;
	v = malloc((f->nsingle + f->nmulti) * sizeof *v);
	if (!v) {
		*oom = 1;
		return NULL;
	}
	for (i = 0; i < f->nsingle; i++)
		v[m++] = &f->single[i];
	for (i = 0; i < f->nmulti; i++)
		if (f->multi[i].depth <= k)
			v[m++] = &f->multi[i];
	qsort(v, m, sizeof *v, cmp_key);
	*n = m;
	return v;
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct diff_row *a = pa, *b = pb;
	double da = fabs(a->delta), db = fabs(b->delta);

	if (da != db)
		return da > db ? -1 : 1;
	return cmp_key(&a->seq, &b->seq);
}

/* Fills d->rows by a merge join of the two key-ordered sequence lists. */
static int compare_func(struct diff_func *d, unsigned k)
{
	const struct rep_seq **a, **b;
	size_t na, nb, i = 0, j = 0;
	int oom = 0;

	a = keyed(d->old, k, &na, &oom);
	b = keyed(d->new, k, &nb, &oom);
	d->rows = oom ? NULL : malloc((na + nb + 1) * sizeof *d->rows);
	if (!d->rows) {
		free(a);
		free(b);
		return -1;
	}
	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : cmp_key(&a[i], &b[j]);
		struct diff_row w;

		memset(&w, 0, sizeof w);
		if (c <= 0)
			w.old_count = a[i]->count;
		if (c >= 0)
			w.new_count = b[j]->count;
		w.seq = c < 0 ? a[i] : b[j];
		i += c <= 0;
		j += c >= 0;
		w.old_share = d->old ? rep_share(w.old_count, d->old->flow) : 0;
		w.new_share = d->new ? rep_share(w.new_count, d->new->flow) : 0;
		w.delta = w.new_share - w.old_share;
		w.change = !w.old_count ? CH_APPEARED
		           : !w.new_count ? CH_VANISHED : CH_CHANGED;
		if (w.change == CH_CHANGED && w.delta == 0.0)
			continue;
		d->appeared += w.change == CH_APPEARED;
		d->vanished += w.change == CH_VANISHED;
		d->changed += w.change == CH_CHANGED;
		if (fabs(w.delta) > d->max_delta)
			d->max_delta = fabs(w.delta);
		d->rows[d->nrows++] = w;
	}
	free(a);
	free(b);
	qsort(d->rows, d->nrows, sizeof *d->rows, cmp_row);
	return 0;
}

static int cmp_diff_func(const void *pa, const void *pb)
{
	const struct diff_func *a = pa, *b = pb;
	int c;

	if (a->max_delta != b->max_delta)
		return a->max_delta > b->max_delta ? -1 : 1;
	if ((c = strcmp(a->new->name, b->new->name)) != 0)
		return c;
	return strcmp(a->new->file, b->new->file);
}

static const struct rep_func *find(const struct rep_report *r,
                                   const struct rep_func *f, int same_sum)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++) {
		const struct rep_func *g = &r->funcs[i];

		int same = strcmp(g->checksum, f->checksum) == 0;

		if (!strcmp(g->name, f->name) && !strcmp(g->file, f->file) &&
		    same == same_sum)
			return g;
	}
	return NULL;
}

/* Whether f is one of r's functions (the "only" list mixes both sides). */
static int in_report(const struct rep_report *r, const struct rep_func *f)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++)
		if (&r->funcs[i] == f)
			return 1;
	return 0;
}

static void print_rows(FILE *out, const struct diff_func *d, size_t top)
{
	size_t i, shown = rep_shown(d->nrows, top);
	int wo = 3, wn = 3;

	for (i = 0; i < shown; i++) {
		int a = snprintf(NULL, 0, "%" PRIu64, d->rows[i].old_count);
		int b = snprintf(NULL, 0, "%" PRIu64, d->rows[i].new_count);

		wo = a > wo ? a : wo;
		wn = b > wn ? b : wn;
	}
	fprintf(out, "    %3s  %-8s  %*s  %*s  %9s  %9s  %9s  %5s  %s\n", "#",
	        "change", wo, "old", wn, "new", "old share", "new share",
	        "delta(pp)", "iters", "ids: lines");
	for (i = 0; i < shown; i++) {
		const struct diff_row *w = &d->rows[i];
		const struct rep_func *f = w->new_count ? d->new : d->old;
		uint32_t j;

		fprintf(out,
		        "    %3zu  %-8s  %*" PRIu64 "  %*" PRIu64
		        "  %8.1f%%  %8.1f%%  %+9.1f  %5" PRIu32 "  ",
		        i + 1, change_name[w->change], wo, w->old_count, wn,
		        w->new_count, w->old_share, w->new_share, w->delta,
		        w->seq->depth);
		for (j = 0; j < w->seq->depth; j++)
			fprintf(out, j ? " | %" PRIu64 : "%" PRIu64, w->seq->ids[j]);
		fputs(": ", out);
		rep_print_lines(out, f, w->seq->ids, w->seq->depth);
		fputc('\n', out);
	}
}

static void print_text(FILE *out, const struct diff_opts *o,
                       const struct rep_report *ro,
                       const struct rep_report *rn, unsigned k,
                       const struct diff_func *d, size_t nd,
                       const struct rep_func *const *only, size_t nonly,
                       size_t nunchanged)
{
	size_t i;

	fprintf(out,
	        "diff %s -> %s: k %u -> %u (compared at k %u), runs %" PRIu64
	        " -> %" PRIu64 "\n",
	        kp_term(o->old_path), kp_term(o->new_path), ro->k, rn->k, k, ro->runs, rn->runs);
	for (i = 0; i < nd; i++) {
		const struct rep_func *f = d[i].new;

		fprintf(out, "\n%s  %s:%u\n", kp_term(f->name), kp_term(f->file), f->line);
		fprintf(out,
		        "  flow %" PRIu64 " -> %" PRIu64 "; %zu appeared, %zu "
		        "vanished, %zu changed; top %zu\n",
		        d[i].old->flow, f->flow, d[i].appeared, d[i].vanished,
		        d[i].changed, rep_shown(d[i].nrows, o->top));
		print_rows(out, &d[i], o->top);
	}
	if (nunchanged)
		fprintf(out, "\nunchanged: %zu function%s\n", nunchanged,
		        nunchanged == 1 ? "" : "s");
	if (nonly)
		fputs("\nnot compared:\n", out);
	for (i = 0; i < nonly; i++) {
		const struct rep_func *f = only[i];
		int in_old = in_report(ro, f);
		int code = find(in_old ? rn : ro, f, 0) != NULL;

		if (code && !in_old)
			continue; /* said once, from the OLD side */
		fprintf(out, "  %s  %s:%u", kp_term(f->name), kp_term(f->file), f->line);
		if (code)
			fprintf(out, "  code changed (checksum %s -> %s): not "
			        "compared\n", f->checksum,
			        find(rn, f, 0)->checksum);
		else
			fprintf(out, "  only in %s (flow %" PRIu64 ")\n",
			        in_old ? o->old_path : o->new_path, f->flow);
	}
}

static json_t *jfunc(const struct rep_func *f, const char *status)
{
	return json_pack("{s:s?, s:s?, s:i, s:s, s:s}", "name", f->name, "file",
	                 f->file, "line", (json_int_t)f->line, "checksum",
	                 f->checksum, "status", status);
}

static int print_json(FILE *out, const struct diff_opts *o,
                      const struct rep_report *ro,
                      const struct rep_report *rn, unsigned k,
                      const struct diff_func *d, size_t nd,
                      const struct rep_func *const *only, size_t nonly,
                      size_t nunchanged)
{
	json_t *root, *fa, *oa;
	size_t i, j;
	int e;

	root = json_pack("{s:s, s:s?, s:s?, s:i, s:i, s:i, s:o, s:o, s:i}",
	                 "schema", "kpath-diff/1", "old", o->old_path, "new",
	                 o->new_path, "old_k", (json_int_t)ro->k, "new_k",
	                 (json_int_t)rn->k, "k", (json_int_t)k, "old_runs",
	                 rep_json_u64(ro->runs), "new_runs", rep_json_u64(rn->runs), "unchanged",
	                 (json_int_t)nunchanged);
	if (!root)
		return -1;
	e = json_object_set_new(root, "functions", fa = json_array());
	e |= json_object_set_new(root, "not_compared", oa = json_array());
	for (i = 0; !e && i < nd; i++) {
		json_t *fo = jfunc(d[i].new, "compared"), *rows = json_array();

		e |= !fo || !rows;
		e |= json_array_append_new(fa, fo);
		e |= json_object_set_new(fo, "old_flow", rep_json_u64(d[i].old->flow));
		e |= json_object_set_new(fo, "new_flow", rep_json_u64(d[i].new->flow));
		e |= json_object_set_new(fo, "rows", rows);
		for (j = 0; !e && j < rep_shown(d[i].nrows, o->top); j++) {
			const struct diff_row *w = &d[i].rows[j];
			json_t *ids = json_array(), *row;
			uint32_t m;

			for (m = 0; ids && m < w->seq->depth; m++)
				e |= json_array_append_new(ids, rep_json_u64(w->seq->ids[m]));
			row = json_pack("{s:i, s:s, s:o, s:o, s:o, s:f, s:f, s:f}",
			                "rank", (json_int_t)(j + 1), "change",
			                change_name[w->change], "ids", ids,
			                "old_count", rep_json_u64(w->old_count), "new_count",
			                rep_json_u64(w->new_count), "old_share", w->old_share,
			                "new_share", w->new_share, "delta", w->delta);
			e |= json_array_append_new(rows, row);
		}
	}
	for (i = 0; !e && i < nonly; i++) {
		const struct rep_func *f = only[i];
		int in_old = in_report(ro, f);
		const char *status = find(in_old ? rn : ro, f, 0)
		                         ? (in_old ? "checksum_old" : "checksum_new")
		                         : (in_old ? "only_old" : "only_new");

		e |= json_array_append_new(oa, jfunc(f, status));
	}
	if (!e)
		e = json_dumpf(root, out, JSON_INDENT(2)) < 0 ||
		    fputc('\n', out) == EOF;
	json_decref(root);
	return e ? -1 : 0;
}

/* Whether f passes --function / --file. */
static int wanted(const struct rep_func *f, const regex_t *fre,
                  const regex_t *file_re)
{
	return (!fre || !regexec(fre, f->name, 0, NULL, 0)) &&
	       (!file_re || !regexec(file_re, f->file, 0, NULL, 0));
}

static int run_diff(const struct diff_opts *o, struct rep_report *ro,
                    struct rep_report *rn, const regex_t *fre,
                    const regex_t *file_re, FILE *out, FILE *err)
{
	unsigned k = ro->k < rn->k ? ro->k : rn->k;
	struct diff_func *d;
	const struct rep_func **only;
	size_t i, nd = 0, nonly = 0, nunchanged = 0;
	int rc = REP_EXIT_OK;

	d = calloc(rn->nfuncs + 1, sizeof *d);
	only = calloc(ro->nfuncs + rn->nfuncs + 1, sizeof *only);
	for (i = 0; d && only && i < rn->nfuncs; i++) {
		const struct rep_func *f = &rn->funcs[i];
		const struct rep_func *g = find(ro, f, 1);

		if (!wanted(f, fre, file_re))
			continue;
		if (!g) {
			only[nonly++] = f;
			continue;
		}
		d[nd].old = g;
		d[nd].new = f;
		if (compare_func(&d[nd], k) < 0) {
			rc = REP_EXIT_FAIL;
			break;
		}
		if (d[nd].nrows == 0) {
			free(d[nd].rows);
			nunchanged++;
		} else {
			nd++;
		}
	}
	for (i = 0; d && only && i < ro->nfuncs; i++)
		if (wanted(&ro->funcs[i], fre, file_re) &&
		    !find(rn, &ro->funcs[i], 1))
			only[nonly++] = &ro->funcs[i];
	if (!d || !only || rc != REP_EXIT_OK) {
		fputs("kpath diff: out of memory\n", err);
		rc = REP_EXIT_FAIL;
	} else if ((fre || file_re) && nd + nunchanged + nonly == 0) {
		fprintf(err, "kpath diff: no function matching the selection in %s or %s\n",
		        o->old_path, o->new_path);
		rc = REP_EXIT_FAIL;
	} else {
		qsort(d, nd, sizeof *d, cmp_diff_func);
		if (o->json)
			rc = print_json(out, o, ro, rn, k, d, nd, only, nonly,
			                nunchanged);
		else
			print_text(out, o, ro, rn, k, d, nd, only, nonly,
			           nunchanged);
		if (rc < 0 || ferror(out) || fflush(out) == EOF) {
			fputs("kpath diff: cannot write the result\n", err);
			rc = REP_EXIT_FAIL;
		}
	}
	for (i = 0; d && i < nd; i++)
		free(d[i].rows);
	free(d);
	free(only);
	return rc;
}

int kp_diff_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct diff_opts o;
	struct rep_report ro, rn;
	regex_t fre, file_re;
	char why[512];
	int rc;

	if ((rc = parse_args(argc, argv, &o, out, err)) != 0)
		return rc < 0 ? REP_EXIT_OK : rc;
	if (o.function &&
	    rep_regex_compile(&fre, o.function, 1, "diff", "--function", err) < 0)
		return REP_EXIT_USAGE;
	if (o.file && rep_regex_compile(&file_re, o.file, 0, "diff", "--file", err) < 0) {
		if (o.function)
			regfree(&fre);
		return REP_EXIT_USAGE;
	}
	rc = REP_EXIT_FAIL;
	why[0] = '\0';
	if (rep_load(o.old_path, 0, &ro, why, sizeof why) < 0) {
		fprintf(err, "kpath diff: %s: %s\n", kp_term(o.old_path), kp_term(why));
	} else {
		if (rep_load(o.new_path, 0, &rn, why, sizeof why) < 0) {
			fprintf(err, "kpath diff: %s: %s\n", kp_term(o.new_path), kp_term(why));
		} else {
			rep_rank_report(&ro);
			rep_rank_report(&rn);
			rc = run_diff(&o, &ro, &rn, o.function ? &fre : NULL,
			              o.file ? &file_re : NULL, out, err);
			rep_report_free(&rn);
		}
		rep_report_free(&ro);
	}
	if (o.function)
		regfree(&fre);
	if (o.file)
		regfree(&file_re);
	return rc;
}

int kp_diff_main(int argc, char **argv)
{
	return kp_diff_run(argc, argv, stdout, stderr);
}
