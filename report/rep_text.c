/*
 * rep_text.c: the text form of the report.
 *
 *   profile loop.json: kpath-profile/2, k 4, runs 1, 3 functions
 *
 *   summary
 *     functions run     2 / 3
 *     lines            14 / 19   73.7%
 *     ...              (rep_summary.c)
 *
 *   f  corpus/loop.c:12
 *     num_paths 8, runs 1, k 4, invalid_paths 0, flow 14
 *     Ball-Larus paths: 3 executed, top 3
 *       #  count  share  id  lines
 *       1      7  50.0%   6  12 13 15 18
 *     multi-iteration paths: 5 executed, 2 maximal, top 2
 *       #  count  share  iters  ids    lines
 *       1      4  28.6%      2  6 | 2  [12 13 15] -> [13 15]
 *
 *   not executed: 1 function
 *     g  corpus/loop.c:30
 *
 * Shares are of the function's flow (the sum of its level-1 counts), for
 * both tables: a multi-iteration share is the fraction of Ball-Larus path
 * executions that began that sequence.  Numeric columns are right-aligned,
 * ids left-aligned, each as wide as its widest shown cell; lines come last
 * and are not padded, so no line has trailing blanks.  A path the profile
 * does not decode shows "?", one that has no source lines "-".  The
 * multi-iteration title counts every recorded sequence ("executed") and the
 * rows kept by rep_select_multi ("maximal", or "listed" with --prefixes).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"
#include "report.h"

/* A growable string; on allocation failure it sets oom and stops growing,
 * so callers check once at the end. */
struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0,
	              fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = 1;
		return;
	}
	if (!b->s || (size_t)n >= b->cap - b->len) {
		size_t ncap = b->cap ? b->cap : 64;
		char *ns;

		while (ncap - b->len <= (size_t)n)
			ncap *= 2;
		ns = realloc(b->s, ncap);
		if (!ns) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = ncap;
		va_start(ap, fmt);
		vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
}

static void sb_lines(struct sbuf *b, const struct rep_func *f, uint64_t id)
{
	const struct rep_decode *d = rep_func_lines(f, id);
	size_t i;

	if (!d) {
		sb_add(b, "?");
		return;
	}
	if (!d->nlines)
		sb_add(b, "-");
	for (i = 0; i < d->nlines; i++)
		sb_add(b, i ? " %" PRIu32 : "%" PRIu32, d->lines[i]);
}

/* The cells of one shown row, each NUL-terminated inside buf. */
struct row {
	struct sbuf buf;
	size_t rank, count, share, iters, ids, lines; /* offsets into buf */
};

enum { COL_RANK, COL_COUNT, COL_SHARE, COL_ITERS, COL_IDS, NCOLS };

static const char *const col_name[NCOLS] = {"#", "count", "share", "iters",
                                            "ids"};

static void cell(struct sbuf *b, size_t *off, const char *fmt, ...)
{
	va_list ap;
	char tmp[64];

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	*off = b->len;
	sb_add(b, "%s", tmp);
	sb_add(b, "%c", '\0');
}

static void fill_row(struct row *w, const struct rep_func *f,
                     const struct rep_seq *s, size_t rank)
{
	struct sbuf *b = &w->buf;
	uint32_t i;

	cell(b, &w->rank, "%zu", rank);
	cell(b, &w->count, "%" PRIu64, s->count);
	cell(b, &w->share, "%.1f%%", rep_share(s->count, f->flow));
	cell(b, &w->iters, "%" PRIu32, s->depth);
	w->ids = b->len;
	for (i = 0; i < s->depth; i++)
		sb_add(b, i ? " | %" PRIu64 : "%" PRIu64, s->ids[i]);
	sb_add(b, "%c", '\0');
	w->lines = b->len;
	if (s->depth == 1) {
		sb_lines(b, f, s->ids[0]);
	} else {
		for (i = 0; i < s->depth; i++) {
			sb_add(b, i ? " -> [" : "[");
			sb_lines(b, f, s->ids[i]);
			sb_add(b, "]");
		}
	}
	sb_add(b, "%c", '\0');
}

/* Prints one table: rows seq[0..n), of which the first shown. */
static int print_table(FILE *out, const struct rep_func *f, const char *title,
                       const struct rep_seq *seq, size_t n, size_t shown,
                       const char *kept)
{
	struct row *rows;
	size_t i, c, width[NCOLS];
	int multi = seq == f->multi, err = 0;

	if (n == 0) {
		fprintf(out, "  %s: none%s\n", title, kept);
		return 0;
	}
	rows = calloc(shown, sizeof *rows);
	if (!rows)
		return -1;
	for (c = 0; c < NCOLS; c++)
		width[c] = strlen(col_name[c]);
	if (!multi)
		width[COL_IDS] = strlen("id");
	for (i = 0; i < shown; i++) {
		struct row *w = &rows[i];
		size_t off[NCOLS];

		fill_row(w, f, &seq[i], i + 1);
		if (w->buf.oom) {
			err = -1;
			continue;
		}
		off[COL_RANK] = w->rank;
		off[COL_COUNT] = w->count;
		off[COL_SHARE] = w->share;
		off[COL_ITERS] = w->iters;
		off[COL_IDS] = w->ids;
		for (c = 0; c < NCOLS; c++) {
			size_t len = strlen(w->buf.s + off[c]);

			if (len > width[c])
				width[c] = len;
		}
	}
	if (!err) {
		fprintf(out, "  %s: %zu executed%s, top %zu\n", title,
		        multi ? f->nmulti_all : n, kept, shown);
		fprintf(out, "    %*s  %*s  %*s", (int)width[COL_RANK], "#",
		        (int)width[COL_COUNT], "count", (int)width[COL_SHARE],
		        "share");
		if (multi)
			fprintf(out, "  %*s  %-*s", (int)width[COL_ITERS],
			        "iters", (int)width[COL_IDS], "ids");
		else
			fprintf(out, "  %*s", (int)width[COL_IDS], "id");
		fputs("  lines\n", out);
		for (i = 0; i < shown; i++) {
			const char *s = rows[i].buf.s;

			fprintf(out, "    %*s  %*s  %*s", (int)width[COL_RANK],
			        s + rows[i].rank, (int)width[COL_COUNT],
			        s + rows[i].count, (int)width[COL_SHARE],
			        s + rows[i].share);
			if (multi)
				fprintf(out, "  %*s  %-*s",
				        (int)width[COL_ITERS], s + rows[i].iters,
				        (int)width[COL_IDS], s + rows[i].ids);
			else
				fprintf(out, "  %*s", (int)width[COL_IDS],
				        s + rows[i].ids);
			fprintf(out, "  %s\n", s + rows[i].lines);
		}
	}
	for (i = 0; i < shown; i++)
		free(rows[i].buf.s);
	free(rows);
	return err;
}

static void print_header(FILE *out, const struct rep_report *r,
                         const struct rep_func *f)
{
	fprintf(out, "%s  %s:%u\n", kp_term(f->name), kp_term(f->file), f->line);
	fprintf(out,
	        "  num_paths %" PRIu64 ", runs %" PRIu64 ", k %u, "
	        "invalid_paths %" PRIu64 ", flow %" PRIu64 "%s\n",
	        f->num_paths, r->runs, r->k, f->invalid_paths, f->flow,
	        f->flow_saturated ? " (overflowed: shares are approximate)"
	                          : "");
	if (f->invalid_paths)
		fprintf(out,
		        "  !!! WARNING: %" PRIu64 " invalid path ID%s (outside "
		        "[0, num_paths)) were dropped: counts are incomplete or "
		        "the program was instrumented differently\n",
		        f->invalid_paths, f->invalid_paths == 1 ? "" : "s");
	if (f->ppp) /* docs/ppp.md */
		fprintf(out,
		        "  ppp: %" PRIu64 " interesting, interval %" PRIu64 " (compactness %.2f), residual paths %" PRIu64
		        " (flow %" PRIu64 ")\n",
		        f->ppp_interesting, f->ppp_interval,
		        f->ppp_interesting ? (double)f->ppp_interval / (double)f->ppp_interesting : 0.0, f->ppp_residual,
		        f->ppp_residual_flow);
}

static int print_func(FILE *out, const struct rep_report *r,
                      const struct rep_func *f, const struct rep_opts *o)
{
	char kept[96];

	print_header(out, r, f);
	if (f->nsingle == 0 && f->nmulti_all == 0) {
		fputs("  no paths executed\n", out);
		return 0;
	}
	char title[64];
	if (f->kiter_k) /* one level: each path is a k-iteration path */
		snprintf(title, sizeof title, "k-iteration paths (kiter K=%u)", f->kiter_k);
	else
		snprintf(title, sizeof title, "Ball-Larus paths");
	if (print_table(out, f, title, f->single, f->nsingle,
	                rep_shown(f->nsingle, o->top), "") < 0)
		return -1;
	/* Say what the multi-iteration table leaves out (rep_select_multi). */
	kept[0] = '\0';
	if (f->nmulti_all && (!o->prefixes || o->min_iter > 2))
		snprintf(kept, sizeof kept, ", %zu %s", f->nmulti,
		         o->prefixes ? "listed" : "maximal");
	if (f->nmulti_all && o->min_iter > 2) {
		size_t len = strlen(kept);

		snprintf(kept + len, sizeof kept - len, " of >= %zu iterations",
		         o->min_iter);
	}
	if (f->nmulti == 0 && f->nmulti_all) {
		fprintf(out, "  multi-iteration paths: %zu executed%s, none shown\n",
		        f->nmulti_all, kept);
		return 0;
	}
	return print_table(out, f, "multi-iteration paths", f->multi,
	                   f->nmulti, rep_shown(f->nmulti, o->top), kept);
}

int rep_text_render(FILE *out, const struct rep_report *r, const char *path,
                    const struct rep_func *const *funcs, size_t n,
                    const struct rep_opts *o, int selected)
{
	size_t i, nidle = 0;

	fprintf(out, "profile %s: %s, k %u, runs %" PRIu64 ", %zu function%s\n",
	        kp_term(path), r->schema ? r->schema : "?", r->k, r->runs, r->nfuncs,
	        r->nfuncs == 1 ? "" : "s");
	fputc('\n', out);
	if (rep_summary_print(out, r, path, o->source_dir) < 0)
		return -1;
	/* Functions that never ran are listed briefly at the end unless one
	 * was asked for by name (then it is shown in full). */
	for (i = 0; i < n; i++) {
		if (funcs[i]->flow == 0 && !selected) {
			nidle++;
			continue;
		}
		fputc('\n', out);
		if (print_func(out, r, funcs[i], o) < 0)
			return -1;
	}
	if (nidle) {
		fprintf(out, "\nnot executed: %zu function%s\n", nidle,
		        nidle == 1 ? "" : "s");
		for (i = 0; i < n; i++) {
			if (funcs[i]->flow != 0 || selected)
				continue;
			fprintf(out, "  %s  %s:%u", kp_term(funcs[i]->name),
			        kp_term(funcs[i]->file), funcs[i]->line);
			if (funcs[i]->invalid_paths)
				fprintf(out,
				        "  !!! WARNING: %" PRIu64
				        " invalid path IDs",
				        funcs[i]->invalid_paths);
			fputc('\n', out);
		}
	}
	return ferror(out) ? -1 : 0;
}
