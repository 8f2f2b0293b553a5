/*
 * show.c: `kpath show PROFILE`: a function's source with, per line, how
 * often it ran, and its hottest k-iteration paths drawn beside it.
 *
 *   figure1  corpus/alternate.c:7  flow 210, k 4, runs 1
 *     #1  1 | 2 | 1 | 2  100 times  47.6% of the flow
 *     #2  2 | 1 | 2 | 1   99 times  47.1% of the flow
 *      line  count  #1    #2
 *         7      1  ....  ....  int figure1(int n)
 *        11    210  1234  1234      while (i < n) {
 *        13    102  .2.4  1.3.          if (i % 2) ...
 *
 * Line counts come from the Ball-Larus counts (the k-IPF's roots): a path
 * that ran c times adds c to every distinct line its blocks span (the
 * profile's "spans", [first, last] per block traversed; the first line only
 * in profiles without spans), once per path even when two of its blocks
 * share a line (a `for` header).  So a line's count is the number of
 * executed Ball-Larus paths that pass a block spanning it; for a loop
 * header that is the number of iterations plus exits, for the definition
 * line the number of calls.  A line no executed path's block spans (a
 * closing brace, a comment, code that never ran) has no count.
 *
 * A k-path column #j is one of the hottest maximal multi-iteration paths
 * (report's rep_select_multi, count order): its cell on a line has one
 * character per iteration, the iteration's number (1-9, then a-z, then *)
 * if that iteration's Ball-Larus path passes a block spanning the line,
 * '.' if not.  The lines shown run from the definition to the last line of
 * any executed path (the profile does not record where a function ends).
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opts.h"
#include "rep.h"
#include "rep_src.h"
#include "report.h"

enum { SHOW_KPATHS_DEFAULT = 3, KPATH_SHOW_CELL = 65 /* k <= 64, and NUL */ };

struct show_opts {
	const char *profile, *function, *file, *source_dir;
	size_t kpaths; /* --paths N: k-path columns */
	int color, json;
};

/* The source file, split into lines (lines[0] is line 1). */
struct source {
	char *text;
	char **lines;
	size_t nlines;
};

static void show_usage(FILE *out)
{
	fputs("usage: kpath show PROFILE [--function RE] [--file RE] [--paths N]\n"
	      "                  [--color=auto|always|never] [--source-dir DIR]\n"
	      "                  [--json]\n"
	      "\n"
	      "Prints each executed function's source with, per line, how many\n"
	      "executed Ball-Larus paths pass a block starting there, and its\n"
	      "hottest k-iteration paths drawn beside it: one column per path,\n"
	      "one character per iteration (its number if that iteration runs\n"
	      "the line, '.' if not).\n"
	      "\n"
	      "  --function RE      only functions whose whole name matches RE\n"
	      "  --file RE          only functions whose file name contains RE\n"
	      "  --paths N          k-iteration path columns (default 3; 0 = none)\n"
	      "  --color WHEN       auto (default: colour when stdout is a terminal\n"
	      "                     and NO_COLOR is unset), always or never\n"
	      "  --source-dir DIR   find relative source file names under DIR\n"
	      "                     (default: the current directory)\n"
	      "  --json             print the annotated lines as JSON (kpath-show/1)\n"
	      "  --help             print this help\n",
	      out);
}

static int show_usage_error(FILE *err, const char *what, const char *arg)
{
	fprintf(err, "kpath show: %s%s%s\n", what, arg ? ": " : "",
	        arg ? arg : "");
	show_usage(err);
	return REP_EXIT_USAGE;
}

enum { SH_HELP = 1, SH_JSON, SH_PATHS, SH_COLOR, SH_FUNCTION, SH_FILE, SH_SOURCE_DIR };

static const struct kp_opt show_opts_tab[] = {
	{"--help", SH_HELP, KP_OPT_FLAG},
	{"-h", SH_HELP, KP_OPT_FLAG},
	{"--json", SH_JSON, KP_OPT_FLAG},
	{"--paths", SH_PATHS, KP_OPT_NEEDS},
	{"--color", SH_COLOR, KP_OPT_NEEDS},
	{"--colour", SH_COLOR, KP_OPT_NEEDS},
	{"--function", SH_FUNCTION, KP_OPT_NEEDS},
	{"--file", SH_FILE, KP_OPT_NEEDS},
	{"--source-dir", SH_SOURCE_DIR, KP_OPT_NEEDS},
	{NULL, 0, KP_OPT_FLAG},
};

struct show_args {
	struct show_opts *o;
	const char *color;
	FILE *out, *err;
};

/* One item of the command line (kp_opt_fn); -1 after --help. */
static int show_item(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	struct show_args *a = ctx;
	struct show_opts *o = a->o;

	switch (id) {
	case KP_OPT_ARG:
		if (o->profile)
			return show_usage_error(a->err, "more than one profile", v);
		o->profile = v;
		return 0;
	case KP_OPT_UNKNOWN:
		return show_usage_error(a->err, "unknown option", v);
	case SH_HELP:
		show_usage(a->out);
		return -1;
	case SH_JSON:
		o->json = 1;
		return 0;
	case SH_PATHS:
		if (st->missing || rep_parse_count(v, &o->kpaths) < 0)
			return show_usage_error(a->err, "--paths: not a count", v);
		return 0;
	case SH_COLOR:
		if (st->missing)
			return show_usage_error(a->err, "--color needs auto, always or never", NULL);
		a->color = v;
		return 0;
	}
	if (st->missing) {
		char msg[64];

		snprintf(msg, sizeof msg, "%s needs a value", st->arg);
		return show_usage_error(a->err, msg, NULL);
	}
	if (id == SH_FUNCTION)
		o->function = v;
	else if (id == SH_FILE)
		o->file = v;
	else
		o->source_dir = v;
	return 0;
}

/* Returns 0, -1 after --help, or REP_EXIT_USAGE. */
static int parse_args(int argc, char **argv, struct show_opts *o, FILE *out,
                      FILE *err)
{
	struct show_args sa = { o, "auto", out, err };
	const char *color;
	int r;

	memset(o, 0, sizeof *o);
	o->kpaths = SHOW_KPATHS_DEFAULT;
	if ((r = kp_opt_parse(argc, argv, show_opts_tab, show_item, &sa)) != 0)
		return r;
	color = sa.color;
	if (!o->profile)
		return show_usage_error(err, "no profile given", NULL);
	if (!strcmp(color, "always")) {
		o->color = 1;
	} else if (!strcmp(color, "never")) {
		o->color = 0;
	} else if (!strcmp(color, "auto")) {
		const char *nc = getenv("NO_COLOR"); /* https://no-color.org */

		o->color = isatty(fileno(out)) && !(nc && *nc);
	} else {
		return show_usage_error(err, "--color: auto, always or never, not", color);
	}
	return 0;
}

static void source_free(struct source *s)
{
	free(s->text);
	free(s->lines);
	memset(s, 0, sizeof *s);
}

/* Reads file (the profile's name for it) under root, as rep_src.h allows,
 * and splits it at '\n' (a '\r' before it is dropped).  Returns REP_SRC_OK,
 * or another REP_SRC_* with the reason in why. */
static int source_read(const struct rep_src_root *root, const struct rep_func *f, struct source *s, char *why,
                       size_t whylen)
{
	size_t len, i, n;
	char *p;
	int rc;

	memset(s, 0, sizeof *s);
	rc = rep_src_read(root, f->file, f->source_hash, &s->text, &len, why, whylen);
	if (rc != REP_SRC_OK)
		return rc;
	for (i = 0, n = 1; i < len; i++)
		n += s->text[i] == '\n';
	if (!(s->lines = malloc(n * sizeof *s->lines))) {
		source_free(s);
		snprintf(why, whylen, "out of memory");
		return REP_SRC_UNAVAILABLE;
	}
	for (p = s->text;;) {
		char *nl = memchr(p, '\n', len - (size_t)(p - s->text));

		s->lines[s->nlines++] = p;
		if (!nl)
			break;
		if (nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		*nl = '\0';
		p = nl + 1;
	}
	if (s->nlines > 1 && !*s->lines[s->nlines - 1])
		s->nlines--; /* the text ended with a newline */
	return REP_SRC_OK;
}

/* A line of f beyond the source's nlines: an error naming the field
 * (output is bounded by the source, and a count beside a line that does
 * not exist would be a wrong row).  Returns 0 when every line fits. */
static int lines_fit(const struct rep_func *f, size_t nlines, char *why, size_t whylen)
{
	size_t i, j;

	if (f->line > nlines) {
		snprintf(why, whylen, "functions[%zu].line: line %u is beyond the end of %s (%zu lines)", f->at,
		         f->line, kp_term(f->file), nlines);
		return -1;
	}
	for (i = 0; i < f->ndecode; i++)
		for (j = 0; j < f->decode[i].nlines; j++) {
			uint32_t last = rep_decode_last(&f->decode[i], j);

			if (last > nlines) {
				snprintf(why, whylen, "functions[%zu].paths[%zu].%s[%zu]: line %u is beyond the end of %s "
				         "(%zu lines)", f->at, f->decode[i].at, f->decode[i].last_lines ? "spans" : "lines",
				         j, last, kp_term(f->file), nlines);
				return -1;
			}
		}
	return 0;
}

/* Per-line data of one function, for lines first..last. */
struct annot {
	unsigned first, last;
	uint64_t *count; /* count[l - first]; UINT64_MAX saturates */
	char *ran;       /* ran[l - first]: a block of some executed path spans l */
	uint64_t max;
	size_t nkp; /* k-path columns: f->multi[0..nkp) (maximal, count order) */
};

static int annot_build(struct annot *a, const struct rep_func *f,
                       const struct show_opts *o)
{
	size_t i, j, n, *seen;

	memset(a, 0, sizeof *a);
	a->first = a->last = f->line;
	for (i = 0; i < f->ndecode; i++)
		for (j = 0; j < f->decode[i].nlines; j++) {
			unsigned l = f->decode[i].lines[j];
			unsigned e = rep_decode_last(&f->decode[i], j);

			if (l && l < a->first)
				a->first = l;
			if (e > a->last)
				a->last = e;
		}
	if (a->first == 0)
		a->first = 1;
	n = a->last - a->first + 1;
	a->count = calloc(n, sizeof *a->count);
	a->ran = calloc(n, 1);
	seen = calloc(n, sizeof *seen);
	if (!a->count || !a->ran || !seen) {
		free(seen);
		return -1;
	}
	/* Each executed Ball-Larus path adds its count once to each distinct
	 * line its blocks span (see the comment at the top): seen[l] == i + 1
	 * when path i has counted l already. */
	for (i = 0; i < f->nsingle; i++) {
		const struct rep_decode *d = rep_func_lines(f, f->single[i].ids[0]);
		uint64_t c = f->single[i].count;

		for (j = 0; d && j < d->nlines; j++) {
			unsigned l, e = rep_decode_last(d, j);

			for (l = d->lines[j] < a->first ? a->first : d->lines[j]; l != 0 && l <= e && l <= a->last; l++) { /* l != 0: no wrap at UINT_MAX */
				size_t at = l - a->first;

				if (seen[at] == i + 1)
					continue; /* already counted for this path */
				seen[at] = i + 1;
				a->ran[at] = 1;
				a->count[at] = a->count[at] > UINT64_MAX - c ? UINT64_MAX
				                                             : a->count[at] + c;
				if (a->count[at] > a->max)
					a->max = a->count[at];
			}
		}
	}
	free(seen);
	a->nkp = o->kpaths ? rep_shown(f->nmulti, o->kpaths) : 0;
	return 0;
}

static void annot_free(struct annot *a)
{
	free(a->count);
	free(a->ran);
}

/* The cell of k-path s on line l: one character per iteration. */
static void kp_cell(char *cell, const struct rep_func *f,
                    const struct rep_seq *s, unsigned l)
{
	static const char digits[] = "123456789abcdefghijklmnopqrstuvwxyz";
	uint32_t i;

	for (i = 0; i < s->depth; i++)
		cell[i] = rep_decode_has_line(rep_func_lines(f, s->ids[i]), l)
		              ? (i < sizeof digits - 1 ? digits[i] : '*')
		              : '.';
	cell[s->depth] = '\0';
}

#define C_RESET "\033[0m"
#define C_HOT "\033[1;31m"
#define C_WARM "\033[33m"
#define C_COOL "\033[32m"
#define C_DIM "\033[2m"
#define C_MARK "\033[1;36m"

static const char *heat(const struct annot *a, uint64_t c)
{
	if (c * 2 >= a->max && c)
		return C_HOT;
	if (c * 10 >= a->max && c)
		return C_WARM;
	return C_COOL;
}

static size_t col_width(const struct rep_seq *s)
{
	return s->depth > 3 ? s->depth : 3;
}

static void print_func_text(FILE *out, const struct rep_report *r,
                            const struct rep_func *f, const struct annot *a,
                            const struct source *src, int color)
{
	size_t j;
	unsigned l;
	char cell[KPATH_SHOW_CELL];

	fprintf(out, "%s  %s:%u  flow %" PRIu64 ", k %u, runs %" PRIu64 "\n",
	        kp_term(f->name), kp_term(f->file), f->line, f->flow, r->k, r->runs);
	for (j = 0; j < a->nkp; j++) {
		const struct rep_seq *s = &f->multi[j];
		uint32_t i;

		fprintf(out, "  #%zu  ", j + 1);
		for (i = 0; i < s->depth; i++)
			fprintf(out, i ? " | %" PRIu64 : "%" PRIu64, s->ids[i]);
		fprintf(out, "  %" PRIu64 " time%s, %.1f%% of the flow\n", s->count,
		        s->count == 1 ? "" : "s", rep_share(s->count, f->flow));
	}
	fprintf(out, "  %6s  %10s", "line", "count");
	for (j = 0; j < a->nkp; j++) {
		char h[24];

		snprintf(h, sizeof h, "#%zu", j + 1);
		fprintf(out, "  %-*s", (int)col_width(&f->multi[j]), h);
	}
	fputs("  source\n", out);
	for (l = a->first; l <= a->last; l++) {
		size_t at = l - a->first;
		const char *text = l <= src->nlines ? src->lines[l - 1] : "";

		fprintf(out, "  %6u  ", l);
		if (a->ran[at])
			fprintf(out, "%s%10" PRIu64 "%s", color ? heat(a, a->count[at]) : "",
			        a->count[at], color ? C_RESET : "");
		else
			fprintf(out, "%10s", "");
		for (j = 0; j < a->nkp; j++) {
			const struct rep_seq *s = &f->multi[j];
			size_t m, len;

			kp_cell(cell, f, s, l);
			fputs("  ", out);
			for (m = 0; cell[m]; m++) {
				if (color && cell[m] != '.')
					fprintf(out, C_MARK "%c" C_RESET, cell[m]);
				else if (color)
					fprintf(out, C_DIM "%c" C_RESET, cell[m]);
				else
					fputc(cell[m], out);
			}
			for (len = m; len < col_width(s); len++)
				fputc(' ', out);
		}
		fputs("  ", out);
		kp_term_puts(out, text);
		fputc('\n', out);
	}
}

static json_t *func_json(const struct rep_func *f, const struct annot *a,
                         const struct source *src)
{
	json_t *o, *kps, *lines;
	char cell[KPATH_SHOW_CELL];
	size_t j;
	unsigned l;
	int e;

	o = json_pack("{s:s?, s:s?, s:i, s:o}", "name", f->name, "file", f->file,
	              "line", (json_int_t)f->line, "flow", rep_json_u64(f->flow));
	if (!o)
		return NULL;
	e = json_object_set_new(o, "kpaths", kps = json_array());
	e |= json_object_set_new(o, "lines", lines = json_array());
	for (j = 0; !e && j < a->nkp; j++) {
		const struct rep_seq *s = &f->multi[j];
		json_t *ids = json_array();
		uint32_t i;

		for (i = 0; ids && i < s->depth; i++)
			e |= json_array_append_new(ids, rep_json_u64(s->ids[i]));
		e |= json_array_append_new(
		    kps, json_pack("{s:o, s:o, s:f}", "ids", ids, "count",
		                   rep_json_u64(s->count), "share",
		                   rep_share(s->count, f->flow)));
	}
	for (l = a->first; !e && l <= a->last; l++) {
		size_t at = l - a->first;
		json_t *marks = json_array(), *text;

		for (j = 0; marks && j < a->nkp; j++) {
			kp_cell(cell, f, &f->multi[j], l);
			e |= json_array_append_new(marks, json_string(cell));
		}
		text = json_string(l <= src->nlines ? src->lines[l - 1] : "");
		if (!text)
			text = json_string("?"); /* not UTF-8 */
		e |= json_array_append_new(
		    lines, json_pack("{s:i, s:o, s:o, s:o}", "line", (json_int_t)l,
		                     "count", a->ran[at] ? rep_json_u64(a->count[at])
		                                         : json_null(),
		                     "text", text, "kpaths", marks));
	}
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Whether no function before sel[i] has the file name file. */
static int first_of_file(const struct rep_func *const *sel, size_t i, const char *file)
{
	while (i-- > 0)
		if (!strcmp(sel[i]->file, file))
			return 0;
	return 1;
}

static int show_funcs(const struct show_opts *o, const struct rep_report *r,
                      const struct rep_func *const *sel, size_t n,
                      const struct rep_src_root *sroot, FILE *out, FILE *err)
{
	json_t *root = NULL, *fa = NULL;
	size_t i, shown = 0;
	uint64_t rows = 0, lines_read = 0;
	char why[1024];
	int rc = REP_EXIT_OK;

	if (o->json) {
		root = json_pack("{s:s, s:s?, s:i, s:o}", "schema", "kpath-show/1",
		                 "profile", o->profile, "k", (json_int_t)r->k, "runs",
		                 rep_json_u64(r->runs));
		if (!root || json_object_set_new(root, "functions", fa = json_array()))
			goto nomem;
	}
	for (i = 0; i < n; i++) {
		const struct rep_func *f = sel[i];
		struct source src;
		struct annot a;

		if (f->flow == 0 && !o->function)
			continue; /* never ran: nothing to show */
		if (source_read(sroot, f, &src, why, sizeof why) != REP_SRC_OK) {
			fprintf(err, "kpath show: %s (%s): source unavailable: %s%s\n", kp_term(f->name),
			        kp_term(f->file), kp_term(why),
			        o->source_dir || strstr(why, "--source-dir") ? "" : " (see --source-dir)");
			rc = REP_EXIT_FAIL;
			continue;
		}
		if (lines_fit(f, src.nlines, why, sizeof why) < 0) {
			fprintf(err, "kpath show: %s: %s\n", kp_term(o->profile), why);
			source_free(&src);
			rc = REP_EXIT_FAIL;
			continue;
		}
		if (annot_build(&a, f, o) < 0) {
			annot_free(&a);
			source_free(&src);
			goto nomem;
		}
		/* output bounded by the sources read (rep_src.h) */
		rows += a.last - a.first + 1;
		if (first_of_file(sel, i, f->file))
			lines_read += src.nlines;
		if (!rep_src_rows_ok(rows, lines_read)) {
			fprintf(err, "kpath show: %s: the functions shown span more than %d times the lines of their "
			        "sources; stopping at %s (select with --function or --file)\n", kp_term(o->profile),
			        REP_SRC_ROWS_PER_LINE, kp_term(f->name));
			annot_free(&a);
			source_free(&src);
			rc = REP_EXIT_FAIL;
			break;
		}
		if (o->json) {
			json_t *fo = func_json(f, &a, &src);

			if (json_array_append_new(fa, fo)) {
				annot_free(&a);
				source_free(&src);
				goto nomem;
			}
		} else {
			if (shown)
				fputc('\n', out);
			print_func_text(out, r, f, &a, &src, o->color);
		}
		shown++;
		annot_free(&a);
		source_free(&src);
	}
	if (o->json && json_dumpf(root, out, JSON_INDENT(2)) == 0)
		fputc('\n', out);
	if (!o->json && shown == 0 && rc == REP_EXIT_OK)
		fputs("no function of the profile ran\n", out);
	json_decref(root);
	return rc;
nomem:
	json_decref(root);
	fputs("kpath show: out of memory\n", err);
	return REP_EXIT_FAIL;
}

int kp_show_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct show_opts o;
	struct rep_opts sel_opts;
	struct rep_report r;
	const struct rep_func **sel = NULL;
	regex_t fre, file_re;
	struct rep_src_root sroot;
	char why[1024];
	size_t i, n = 0;
	int rc;

	if ((rc = parse_args(argc, argv, &o, out, err)) != 0)
		return rc < 0 ? REP_EXIT_OK : rc;
	if (o.function &&
	    rep_regex_compile(&fre, o.function, 1, "show", "--function", err) < 0)
		return REP_EXIT_USAGE;
	if (o.file && rep_regex_compile(&file_re, o.file, 0, "show", "--file", err) < 0) {
		if (o.function)
			regfree(&fre);
		return REP_EXIT_USAGE;
	}
	why[0] = '\0';
	rc = REP_EXIT_FAIL;
	if (rep_load(o.profile, 0, &r, why, sizeof why) < 0) {
		fprintf(err, "kpath show: %s: %s\n", kp_term(o.profile), kp_term(why));
		goto out;
	}
	rep_rank_report(&r);
	/* The k-path columns: the hottest maximal multi-iteration paths. */
	memset(&sel_opts, 0, sizeof sel_opts);
	sel_opts.min_iter = 2;
	sel = malloc((r.nfuncs + 1) * sizeof *sel);
	for (i = 0; sel && i < r.nfuncs; i++) {
		rep_select_multi(&r.funcs[i], &sel_opts);
		if (o.function && regexec(&fre, r.funcs[i].name, 0, NULL, 0))
			continue;
		if (o.file && regexec(&file_re, r.funcs[i].file, 0, NULL, 0))
			continue;
		sel[n++] = &r.funcs[i];
	}
	if (!sel)
		fputs("kpath show: out of memory\n", err);
	else if ((o.function || o.file) && n == 0)
		fprintf(err, "kpath show: no function matching the selection in %s\n",
		        o.profile);
	else if (rep_src_root_open(&sroot, o.source_dir, why, sizeof why) < 0)
		fprintf(err, "kpath show: --source-dir %s\n", kp_term(why));
	else {
		rep_warn_changed(err, "show", sel, n, &sroot);
		rc = show_funcs(&o, &r, sel, n, &sroot, out, err);
		rep_src_root_close(&sroot);
	}
	if (rc == REP_EXIT_OK && (ferror(out) || fflush(out) == EOF)) {
		fputs("kpath show: cannot write the output\n", err);
		rc = REP_EXIT_FAIL;
	}
	free(sel);
	rep_report_free(&r);
out:
	if (o.function)
		regfree(&fre);
	if (o.file)
		regfree(&file_re);
	return rc;
}

int kp_show_main(int argc, char **argv)
{
	return kp_show_run(argc, argv, stdout, stderr);
}
