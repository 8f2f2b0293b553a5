/*
 * html_page.c: a function's page: its source (highlighted, with per-line
 * counts, uncovered lines and branches not taken marked) beside its
 * hottest multi-iteration and Ball-Larus paths; and what every page shares.
 *
 * The path tables are html_paths.c's, the index html_index.c's.  The
 * contract with assets/kpath.js: every shown source line is
 * <tr id="L<n>" data-line="<n>"> with a td.badges cell; its class is "unc"
 * when coverage counts the line and no executed path ran it, "cov" when
 * one did (coverage.c's lines, as `kpath coverage` counts them); its td.br
 * holds taken/total of the branches whose condition ends on it (class
 * "full", "part" or "none").  A function name in the source that names a
 * function of the profile links to its page (a.fnlink).  Everything taken
 * from the profile or the source goes through html_escape; data-*
 * attributes hold only decimal numbers.
 */
#include <inttypes.h>
#include <string.h>

#include "html_int.h"
#include "html_wpp.h"

void html_head(FILE *out, const char *title_a, const char *title_b)
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

void html_foot(FILE *out)
{
	fputs("<script src=\"kpath.js\"></script>\n</body>\n</html>\n", out);
}

void html_share_cell(FILE *out, uint64_t count, uint64_t flow)
{
	double s = html_share(count, flow);

	fprintf(out, "<td class=\"share\" data-sort=\"%.4f\"><span class=\"sbar\"><span style=\"width:%.1f%%\">"
	        "</span></span>%.1f%%</td>", s, s, s);
}

/* A count with its digits grouped by threes with thin spaces (U+2009), so
 * that 1572996 reads 1 572 996. */
void html_put_count(FILE *out, uint64_t v)
{
	char d[24];
	int n = snprintf(d, sizeof d, "%" PRIu64, v), i;

	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			fputs("\xe2\x80\x89", out);
		fputc(d[i], out);
	}
}

void html_stat_item(FILE *out, const char *label, uint64_t v)
{
	fprintf(out, "<div><dt>%s</dt><dd>", label);
	html_put_count(out, v);
	fputs("</dd></div>", out);
}

/* A function page */

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
	if (src && src->highlighted && html_hl_function_lines(&src->hl, f->rf->line, &a, &b)) {
		*first = a < *first ? a : *first;
		*last = b > *last ? b : *last;
	}
}

/* The coverage of a line: 1 covered, 0 not, -1 not counted. */
static int line_cov(const struct cov_file *c, uint32_t line)
{
	size_t lo = 0, hi = c ? c->nlines : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->lines[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	return c && lo < c->nlines && c->lines[lo].line == line ? c->lines[lo].count > 0 : -1;
}

/* The branches of c at line: [*b, *e) (sorted by line). */
static void line_branches(const struct cov_file *c, uint32_t line, size_t *b, size_t *e)
{
	size_t lo = 0, hi = c ? c->nbranches : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->branches[mid].line < line)
			lo = mid + 1;
		else
			hi = mid;
	}
	*b = *e = lo;
	while (c && *e < c->nbranches && c->branches[*e].line == line)
		++*e;
}

/* The branch cell: taken/total, class "br full|part|none", and each
 * out-edge's count in the title. */
static void branch_cell(FILE *out, const struct cov_file *c, uint32_t line)
{
	size_t b, e, i, taken = 0;

	line_branches(c, line, &b, &e);
	if (b == e) {
		fputs("<td class=\"br\"></td>", out);
		return;
	}
	for (i = b; i < e; i++)
		taken += c->branches[i].count > 0;
	fprintf(out, "<td class=\"br %s\" data-taken=\"%zu\" data-branches=\"%zu\" title=\"",
	        taken == e - b ? "full" : taken ? "part" : "none", taken, e - b);
	for (i = b; i < e; i++) {
		const struct cov_branch *x = &c->branches[i];

		if (x->count)
			fprintf(out, "%sbranch %u of block %u: taken %" PRIu64 " time%s", i > b ? "&#10;" : "",
			        x->index + 1, x->block, x->count, x->count == 1 ? "" : "s");
		else
			fprintf(out, "%sbranch %u of block %u: never taken", i > b ? "&#10;" : "", x->index + 1,
			        x->block);
	}
	fprintf(out, "\">%s%zu/%zu</td>", taken < e - b ? "\xe2\x97\x86\xc2\xa0" : "", taken, e - b);
}

struct link_ctx {
	const struct html_model *m;
	const struct html_func *f;
};

static const char *link_page(const char *name, size_t n, void *ctx)
{
	const struct link_ctx *lc = ctx;
	const struct html_func *g = html_model_link(lc->m, lc->f, name, n);

	return g ? g->page : NULL;
}

static void source_table(FILE *out, const struct html_model *m, const struct html_func *f,
                         const struct html_source *src)
{
	const struct cov_file *cov = m->files[f->file].cov;
	struct link_ctx lc = { m, f };
	uint32_t first, last, l;
	uint64_t maxc = 0;
	size_t i;

	html_page_range(f, src, &first, &last);
	for (i = 0; i < f->nlinecount; i++)
		if (f->linecount[i].count > maxc)
			maxc = f->linecount[i].count;
	fputs("<div class=\"srcscroll\"><table class=\"src\">\n<thead><tr><th class=\"ln\">line</th>"
	      "<th class=\"cnt\">count</th><th class=\"br\">branches</th><th class=\"badges\"></th>"
	      "<th class=\"code\"></th></tr></thead>\n<tbody>\n", out);
	for (l = first; l <= last && l != 0; l++) {
		int has, lc_state = line_cov(cov, l);
		uint64_t c = line_count(f, l, &has);

		fprintf(out, "<tr id=\"L%u\" data-line=\"%u\"%s><td class=\"ln\">%u</td>", l, l,
		        lc_state == 0 ? " class=\"unc\"" : lc_state == 1 ? " class=\"cov\"" : "", l);
		if (has) {
			/* heat 1..5 in proportion to the hottest line */
			unsigned heat = maxc ? (unsigned)(1 + (4.0 * (double)c) / (double)maxc) : 1;

			fprintf(out, "<td class=\"cnt heat%u\">", heat > 5 ? 5 : heat);
			html_put_count(out, c);
			fputs("</td>", out);
		} else {
			fputs("<td class=\"cnt\"></td>", out);
		}
		branch_cell(out, cov, l);
		fputs("<td class=\"badges\"></td><td class=\"code\">", out);
		html_source_line(out, src, l, link_page, &lc);
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n", out);
}

/* The line and branch coverage of f's shown lines (its definition). */
static void func_cov(FILE *out, const struct html_model *m, const struct html_func *f, const struct html_source *src)
{
	const struct cov_file *cov = m->files[f->file].cov;
	struct cov_counts lines = { 0, 0 }, br = { 0, 0 };
	uint32_t first, last, l;
	size_t b, e;

	if (!cov)
		return;
	html_page_range(f, src, &first, &last);
	for (l = first; l <= last && l != 0; l++) {
		int st = line_cov(cov, l);

		lines.total += st >= 0;
		lines.covered += st == 1;
		line_branches(cov, l, &b, &e);
		for (br.total += e - b; b < e; b++)
			br.covered += cov->branches[b].count > 0;
	}
	fputs("<dl class=\"stats cov\" id=\"cov-func\">", out);
	html_cov_item(out, "line coverage", lines);
	html_cov_item(out, "branch coverage", br);
	fputs("</dl>\n", out);
}

int html_page_func(FILE *out, const struct html_model *m, const struct html_func *f, size_t top)
{
	const struct html_file *fl = &m->files[f->file];
	const struct html_source *src = f->stale ? NULL : fl->src;

	html_head(out, f->rf->name, f->rf->file);
	fputs("<body class=\"function\">\n<header class=\"bar\"><a class=\"brand\" href=\"index.html\">kpath</a>"
	      "<nav><a href=\"index.html\">index</a><span class=\"gt\">\xe2\x80\xba</span><span class=\"crumb\">", out);
	html_escape(out, f->rf->file);
	fputs("</span><span class=\"gt\">\xe2\x80\xba</span><strong>", out);
	html_escape(out, f->rf->name);
	fputs("</strong></nav></header>\n<main>\n<section class=\"head\">\n<h1><code>", out);
	html_escape(out, f->rf->name);
	fputs("</code> <span class=\"where\">", out);
	html_escape(out, f->rf->file);
	fprintf(out, ":%u</span></h1>\n<dl class=\"stats\">", f->rf->line);
	html_stat_item(out, "flow", f->flow);
	html_stat_item(out, "Ball-Larus paths executed", f->nsingle);
	html_stat_item(out, "Ball-Larus paths in all", f->rf->num_paths);
	html_stat_item(out, "multi-iteration paths", f->nmulti);
	html_stat_item(out, "k", m->rep.k);
	fputs("</dl>\n", out);
	html_wpp_func_note(out, m, f);
	if (src)
		func_cov(out, m, f, src);
	if (f->rf->invalid_paths)
		fprintf(out, "<p class=\"warn\">%" PRIu64 " invalid path IDs were received and not recorded.</p>\n",
		        f->rf->invalid_paths);
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
	html_paths_multi(out, f, top, m->rep.k);
	html_paths_bl(out, f, top);
	fputs("</aside>\n<section class=\"source\" aria-label=\"source\">\n"
	      "<div class=\"iterbar\" id=\"iterbar\" aria-live=\"polite\"><span class=\"label\">No path selected.</span></div>\n",
	      out);
	if (src)
		source_table(out, m, f, src);
	fputs("</section>\n</div>\n</main>\n", out);
	html_foot(out);
	return ferror(out) ? -1 : 0;
}

