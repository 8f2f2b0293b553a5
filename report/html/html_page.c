/*
 * html_page.c: the pages.  index.html lists files and functions by flow;
 * each function page shows its source (highlighted, with per-line counts)
 * beside its hottest Ball-Larus and multi-iteration paths.
 *
 * The contract with assets/kpath.js: a selectable path is a
 * <tr class="path" tabindex="0" data-ids="A B .." data-iters="L L ..;L L ..">
 * where data-iters holds, per iteration (';'-separated), the decoded lines
 * (a block spanning several lines as "first-last")
 * of that iteration's Ball-Larus path (an empty list when the profile does
 * not decode it); every shown source line is <tr id="L<n>" data-line="<n>">
 * with a td.badges cell.  Everything taken from the profile or the source
 * goes through html_escape; data-* attributes hold only decimal numbers.
 */
#include <inttypes.h>
#include <string.h>

#include "html_int.h"
#include "html_wpp.h"

/* Iterations cycle through this many colours (kpath.css .it1 ...). */
#define ITER_COLOURS 6

static void head(FILE *out, const char *title_a, const char *title_b)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      out);
	html_escape(out, title_a);
	if (title_b) {
		fputs(" \xc2\xb7 ", out);
		html_escape(out, title_b);
	}
	fputs(" \xc2\xb7 kpath</title>\n<link rel=\"stylesheet\" href=\"kpath.css\">\n</head>\n", out);
}

static void foot(FILE *out)
{
	fputs("<script src=\"kpath.js\"></script>\n</body>\n</html>\n", out);
}

static void share_cell(FILE *out, uint64_t count, uint64_t flow)
{
	double s = html_share(count, flow);

	fprintf(out, "<td class=\"share\"><span class=\"sbar\"><span style=\"width:%.1f%%\"></span></span>%.1f%%</td>",
	        s, s);
}

/* A count with its digits grouped by threes with thin spaces (U+2009), so
 * that 1572996 reads 1 572 996. */
static void put_count(FILE *out, uint64_t v)
{
	char d[24];
	int n = snprintf(d, sizeof d, "%" PRIu64, v), i;

	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			fputs("\xe2\x80\x89", out);
		fputc(d[i], out);
	}
}

static void stat_item(FILE *out, const char *label, uint64_t v)
{
	fprintf(out, "<div><dt>%s</dt><dd>", label);
	put_count(out, v);
	fputs("</dd></div>", out);
}

/* index.html */

int html_page_index(FILE *out, const struct html_model *m, const char *profile_name)
{
	size_t i, j, ran = 0;

	for (i = 0; i < m->nfuncs; i++)
		ran += m->funcs[i].flow > 0;
	head(out, profile_name, NULL);
	fputs("<body class=\"index\">\n<header class=\"bar\"><a class=\"brand\" href=\"index.html\">kpath</a>"
	      "<nav><span class=\"crumb\">", out);
	html_escape(out, profile_name);
	fputs("</span></nav></header>\n<main>\n<section class=\"head\">\n<h1>Path profile <code>", out);
	html_escape(out, profile_name);
	fputs("</code></h1>\n<dl class=\"stats\">", out);
	stat_item(out, "k", m->prof.k);
	stat_item(out, "runs", m->prof.runs);
	stat_item(out, "functions", m->nfuncs);
	stat_item(out, "functions that ran", ran);
	stat_item(out, "files", m->nfiles);
	stat_item(out, "total flow", m->total_flow);
	fputs("</dl>\n", out);
	html_wpp_index_note(out, m);
	if (m->prof.dropped)
		fprintf(out, "<p class=\"warn\">The runtime dropped %" PRIu64 " events for lack of memory: "
		        "counts are incomplete.</p>\n", m->prof.dropped);
	fputs("<p class=\"hint\">Flow is the number of Ball-Larus paths a function completed. "
	      "Open a function to see its source and its hottest paths.</p>\n</section>\n", out);

	fputs("<section>\n<h2>Functions</h2>\n<table class=\"list funcs\">\n<thead><tr><th>#</th><th>function</th>"
	      "<th>file</th><th class=\"num\">flow</th><th>share</th><th class=\"num\">BL paths</th>"
	      "<th class=\"num\">multi-iteration</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < m->nfuncs; i++) {
		const struct html_func *f = &m->funcs[i];

		fprintf(out, "<tr%s><td class=\"num\">%zu</td><td><a href=\"%s\"><code>", f->flow ? "" : " class=\"cold\"",
		        i + 1, f->page);
		html_escape(out, f->pf->name);
		fputs("</code></a></td><td class=\"file\">", out);
		html_escape(out, f->pf->file);
		fprintf(out, ":%u</td><td class=\"num\">", f->pf->line);
		put_count(out, f->flow);
		fprintf(out, "%s</td>", f->flow_saturated ? "+" : "");
		share_cell(out, f->flow, m->total_flow);
		fprintf(out, "<td class=\"num\">%zu / %" PRIu64 "</td><td class=\"num\">%zu</td></tr>\n", f->nsingle,
		        f->pf->num_paths, f->nmulti);
	}
	fputs("</tbody>\n</table>\n</section>\n", out);

	fputs("<section>\n<h2>Files</h2>\n<table class=\"list files\">\n<thead><tr><th>file</th>"
	      "<th class=\"num\">flow</th><th>share</th><th>functions, hottest first</th></tr></thead>\n<tbody>\n", out);
	for (j = 0; j < m->nfiles; j++) {
		const struct html_file *fl = &m->files[j];
		int first = 1;

		fputs("<tr><td class=\"file\">", out);
		html_escape(out, fl->name);
		fputs("</td><td class=\"num\">", out);
		put_count(out, fl->flow);
		fputs("</td>", out);
		share_cell(out, fl->flow, m->total_flow);
		fputs("<td class=\"fnlist\">", out);
		for (i = 0; i < m->nfuncs; i++) {
			if (m->funcs[i].file != j)
				continue;
			fprintf(out, "%s<a href=\"%s\"><code>", first ? "" : " ", m->funcs[i].page);
			html_escape(out, m->funcs[i].pf->name);
			fputs("</code></a>", out);
			first = 0;
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n</section>\n</main>\n", out);
	foot(out);
	return ferror(out) ? -1 : 0;
}

/* A function page */

/* data-ids and data-iters of a sequence. */
static void seq_data(FILE *out, const struct html_func *f, const struct html_seq *s)
{
	uint32_t i, j;

	fputs(" data-ids=\"", out);
	for (i = 0; i < s->depth; i++)
		fprintf(out, "%s%" PRIu64, i ? " " : "", s->ids[i]);
	fputs("\" data-iters=\"", out);
	for (i = 0; i < s->depth; i++) {
		const struct kp_path *p = html_func_path(f, s->ids[i]);

		if (i)
			fputc(';', out);
		for (j = 0; p && j < p->nlines; j++) {
			uint32_t last = html_path_last(p, j);

			if (last > p->lines[j])
				fprintf(out, "%s%u-%u", j ? " " : "", p->lines[j], last);
			else
				fprintf(out, "%s%u", j ? " " : "", p->lines[j]);
		}
	}
	fputc('"', out);
}

static void seq_row(FILE *out, const struct html_func *f, const struct html_seq *s, size_t rank, const char *kind)
{
	uint32_t i;

	fprintf(out, "<tr class=\"path\" tabindex=\"0\" aria-selected=\"false\" id=\"%s%zu\"", kind, rank);
	seq_data(out, f, s);
	fprintf(out, "><td class=\"num rank\">%zu</td><td class=\"num\">", rank);
	put_count(out, s->count);
	fputs("</td>", out);
	share_cell(out, s->count, f->flow);
	fputs("<td class=\"ids\">", out);
	for (i = 0; i < s->depth; i++)
		fprintf(out, "%s<span class=\"chip it%u\" title=\"iteration %u: Ball-Larus path %" PRIu64
		        "\">%" PRIu64 "</span>",
		        i ? "<span class=\"sep\">\xe2\x86\x92</span>" : "", i % ITER_COLOURS + 1, i + 1, s->ids[i],
		        s->ids[i]);
	fputs("</td></tr>\n", out);
}

static void seq_table(FILE *out, const struct html_func *f, const struct html_seq *seq, size_t n, size_t top,
                      const char *kind, const char *title, const char *empty)
{
	size_t i, shown = top && n > top ? top : n;

	fprintf(out, "<h2>%s <span class=\"total\">%zu executed", title, n);
	if (shown < n)
		fprintf(out, ", top %zu shown", shown);
	fputs("</span></h2>\n", out);
	if (n == 0) {
		fprintf(out, "<p class=\"none\">%s</p>\n", empty);
		return;
	}
	fprintf(out, "<table class=\"ptable\" id=\"%s-table\">\n<thead><tr><th class=\"num\">#</th>"
	        "<th class=\"num\">count</th><th>share</th><th>%s</th></tr></thead>\n<tbody>\n",
	        kind, !strcmp(kind, "bl") ? "path id" : "path ids, iteration by iteration");
	for (i = 0; i < shown; i++)
		seq_row(out, f, &seq[i], i + 1, kind);
	fputs("</tbody>\n</table>\n", out);
}

static uint64_t line_count(const struct html_func *f, uint32_t line, int *has)
{
	size_t lo = 0, hi = f->nlinecount;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->linecount[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	*has = lo < f->nlinecount && f->linecount[lo].line == line;
	return *has ? f->linecount[lo].count : 0;
}

void html_page_range(const struct html_func *f, const struct html_source *src, uint32_t *first, uint32_t *last)
{
	uint32_t a, b;

	*first = f->min_line;
	*last = f->max_line;
	if (src && src->highlighted && html_hl_function_lines(&src->hl, f->pf->line, &a, &b)) {
		*first = a < *first ? a : *first;
		*last = b > *last ? b : *last;
	}
}

static void source_table(FILE *out, const struct html_func *f, const struct html_source *src)
{
	uint32_t first, last, l;
	uint64_t maxc = 0;
	size_t i;

	html_page_range(f, src, &first, &last);
	for (i = 0; i < f->nlinecount; i++)
		if (f->linecount[i].count > maxc)
			maxc = f->linecount[i].count;
	fputs("<table class=\"src\">\n<thead><tr><th class=\"ln\">line</th><th class=\"cnt\">count</th>"
	      "<th class=\"badges\"></th><th class=\"code\"></th></tr></thead>\n<tbody>\n", out);
	for (l = first; l <= last && l != 0; l++) {
		int has;
		uint64_t c = line_count(f, l, &has);

		fprintf(out, "<tr id=\"L%u\" data-line=\"%u\"><td class=\"ln\">%u</td>", l, l, l);
		if (has) {
			/* heat 1..5 in proportion to the hottest line */
			unsigned heat = maxc ? (unsigned)(1 + (4.0 * (double)c) / (double)maxc) : 1;

			fprintf(out, "<td class=\"cnt heat%u\">", heat > 5 ? 5 : heat);
			put_count(out, c);
			fputs("</td>", out);
		} else {
			fputs("<td class=\"cnt\"></td>", out);
		}
		fputs("<td class=\"badges\"></td><td class=\"code\">", out);
		if (src)
			html_source_line(out, src, l);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

int html_page_func(FILE *out, const struct html_model *m, const struct html_func *f, size_t top)
{
	const struct html_file *fl = &m->files[f->file];
	const struct html_source *src = f->stale ? NULL : fl->src;

	head(out, f->pf->name, f->pf->file);
	fputs("<body class=\"function\">\n<header class=\"bar\"><a class=\"brand\" href=\"index.html\">kpath</a>"
	      "<nav><a href=\"index.html\">index</a><span class=\"gt\">\xe2\x80\xba</span><span class=\"crumb\">", out);
	html_escape(out, f->pf->file);
	fputs("</span><span class=\"gt\">\xe2\x80\xba</span><strong>", out);
	html_escape(out, f->pf->name);
	fputs("</strong></nav></header>\n<main>\n<section class=\"head\">\n<h1><code>", out);
	html_escape(out, f->pf->name);
	fputs("</code> <span class=\"where\">", out);
	html_escape(out, f->pf->file);
	fprintf(out, ":%u</span></h1>\n<dl class=\"stats\">", f->pf->line);
	stat_item(out, "flow", f->flow);
	stat_item(out, "Ball-Larus paths executed", f->nsingle);
	stat_item(out, "Ball-Larus paths in all", f->pf->num_paths);
	stat_item(out, "multi-iteration paths", f->nmulti);
	stat_item(out, "k", m->prof.k);
	fputs("</dl>\n", out);
	html_wpp_func_note(out, m, f);
	if (f->pf->invalid_paths)
		fprintf(out, "<p class=\"warn\">%" PRIu64 " invalid path IDs were received and not recorded.</p>\n",
		        f->pf->invalid_paths);
	if (!src) {
		fputs("<p class=\"warn\">Source unavailable: ", out);
		if (f->stale)
			fputs("the file on disk differs from the one that was instrumented (its source hash is not "
			      "the profile's), so its lines would not match these counts", out);
		else
			html_escape(out, fl->why);
		fputs(". Only the path tables are shown (see <code>--source-dir</code>).</p>\n", out);
	}
	fputs("</section>\n<div class=\"cols\">\n<aside class=\"paths\" aria-label=\"paths\">\n"
	      "<p class=\"hint\">Select a path (click it, or Tab to it and press Enter) to highlight its lines: "
	      "each iteration has its own colour and badge. <kbd>\xe2\x86\x90</kbd> <kbd>\xe2\x86\x92</kbd> "
	      "step through the iterations, <kbd>\xe2\x86\x91</kbd> <kbd>\xe2\x86\x93</kbd> move between paths, "
	      "<kbd>Esc</kbd> clears.</p>\n",
	      out);
	seq_table(out, f, f->multi, f->nmulti, top, "kp", "Multi-iteration paths",
	          m->prof.k < 2 ? "This profile has k = 1: no multi-iteration paths were recorded."
	                        : "No path ran twice in a row in one activation.");
	seq_table(out, f, f->single, f->nsingle, top, "bl", "Ball-Larus paths", "The function never ran.");
	fputs("</aside>\n<section class=\"source\" aria-label=\"source\">\n"
	      "<div class=\"iterbar\" id=\"iterbar\" aria-live=\"polite\"><span class=\"label\">No path selected.</span></div>\n",
	      out);
	if (src)
		source_table(out, f, src);
	fputs("</section>\n</div>\n</main>\n", out);
	foot(out);
	return ferror(out) ? -1 : 0;
}

/* For the other pages (html_wpp.h). */
void html_page_head(FILE *out, const char *title_a, const char *title_b)
{
	head(out, title_a, title_b);
}

void html_page_foot(FILE *out)
{
	foot(out);
}

void html_page_count(FILE *out, uint64_t v)
{
	put_count(out, v);
}
