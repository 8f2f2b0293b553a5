/*
 * html_index.c: index.html.  The profile's figures and its coverage in
 * total, then three tables: functions (by flow), files and directories
 * (each with its line, branch, function and Ball-Larus path coverage, the
 * figures of `kpath coverage`: html_cov.c).  A filter box and sortable
 * columns work through assets/kpath.js; the markup contract:
 *  - table.sortable: a th with data-type="num" sorts its column by the
 *    cells' data-sort (a number), any other th by the cells' text;
 *  - input#filter hides the rows of every table.filterable whose text does
 *    not contain the filter (case-insensitive);
 *  - a coverage cell is <td class="pct" data-sort="P"> (P = -1 when there
 *    is nothing to cover) holding the percentage and "covered/total".
 * Everything from the profile goes through html_escape.
 */
#include <inttypes.h>
#include <string.h>

#include "html_int.h"
#include "html_wpp.h"

/* Percentages below LOW are red, from LOW to HIGH amber, above green (as
 * lcov's genhtml colours them by default). */
#define COV_LOW 75.0
#define COV_HIGH 90.0

static const char *cov_class(double p)
{
	return p < 0 ? "na" : p < COV_LOW ? "lo" : p < COV_HIGH ? "mid" : "hi";
}

void html_cov_cell(FILE *out, struct cov_counts k)
{
	double p = cov_percent(k);

	if (p < 0) {
		fputs("<td class=\"pct na\" data-sort=\"-1\">-</td>", out);
		return;
	}
	fprintf(out, "<td class=\"pct %s\" data-sort=\"%.4f\"><span class=\"cbar\"><span style=\"width:%.1f%%\">"
	        "</span></span>%.1f%% <span class=\"frac\">%" PRIu64 "/%" PRIu64 "</span></td>",
	        cov_class(p), p, p, p, k.covered, k.total);
}

void html_cov_item(FILE *out, const char *label, struct cov_counts k)
{
	double p = cov_percent(k);

	fprintf(out, "<div class=\"%s\"><dt>%s</dt><dd>", cov_class(p), label);
	if (p < 0)
		fputs("-", out);
	else
		fprintf(out, "%.1f%% <small>%" PRIu64 " / %" PRIu64 "</small>", p, k.covered, k.total);
	fputs("</dd></div>", out);
}

static const char cov_heads[] = "<th data-type=\"num\">lines</th><th data-type=\"num\">branches</th>"
                                "<th data-type=\"num\">functions</th><th data-type=\"num\">BL paths</th>";

static void cov_cells(FILE *out, struct cov_counts line, struct cov_counts branch, struct cov_counts func,
                      struct cov_counts path)
{
	html_cov_cell(out, line);
	html_cov_cell(out, branch);
	html_cov_cell(out, func);
	html_cov_cell(out, path);
}

static void head_section(FILE *out, const struct html_model *m, const char *profile_name)
{
	size_t i, ran = 0;

	for (i = 0; i < m->nfuncs; i++)
		ran += m->funcs[i].flow > 0;
	fputs("<section class=\"head\">\n<h1>Path profile <code>", out);
	html_escape(out, profile_name);
	fputs("</code></h1>\n<dl class=\"stats\">", out);
	html_stat_item(out, "k", m->rep.k);
	html_stat_item(out, "runs", m->rep.runs);
	html_stat_item(out, "functions", m->nfuncs);
	html_stat_item(out, "functions that ran", ran);
	html_stat_item(out, "files", m->nfiles);
	html_stat_item(out, "total flow", m->total_flow);
	fputs("</dl>\n", out);
	html_wpp_index_note(out, m);
	if (m->has_cov) {
		fputs("<dl class=\"stats cov\" id=\"cov-total\">", out);
		html_cov_item(out, "line coverage", m->cov.line);
		html_cov_item(out, "branch coverage", m->cov.branch);
		html_cov_item(out, "function coverage", m->cov.func);
		html_cov_item(out, "Ball-Larus path coverage", m->cov.path);
		fputs("</dl>\n", out);
		if (m->cov.nocfg)
			fprintf(out, "<p class=\"warn\">%zu function%s of this profile carry no static graph "
			        "(written before profiles had one): their lines and branches are not counted.</p>\n",
			        m->cov.nocfg, m->cov.nocfg == 1 ? "" : "s");
	}
	if (m->rep.dropped)
		fprintf(out, "<p class=\"warn\">The runtime dropped %" PRIu64 " events for lack of memory: "
		        "counts are incomplete.</p>\n", m->rep.dropped);
	fputs("<p class=\"hint\">Flow is the number of Ball-Larus paths a function completed; coverage is "
	      "<code>kpath coverage</code>'s (docs/coverage.md). Open a function to see its source, its uncovered "
	      "lines and branches, and its hottest paths. Click a column heading to sort.</p>\n", out);
	fputs("<p class=\"filter\"><input type=\"search\" id=\"filter\" placeholder=\"Filter functions, files and "
	      "directories\" aria-label=\"filter functions, files and directories\" autocomplete=\"off\">"
	      " <span id=\"filter-count\" aria-live=\"polite\"></span></p>\n</section>\n", out);
}

static void funcs_table(FILE *out, const struct html_model *m)
{
	size_t i;

	fputs("<section>\n<h2>Functions</h2>\n<div class=\"scroll\"><table class=\"list funcs sortable filterable\" "
	      "id=\"funcs\">\n<thead><tr><th data-type=\"num\">#</th><th>function</th><th>file</th>"
	      "<th data-type=\"num\" class=\"num\">flow</th><th data-type=\"num\">share</th>"
	      "<th data-type=\"num\" class=\"num\">BL paths</th><th data-type=\"num\" class=\"num\">multi-iteration"
	      "</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < m->nfuncs; i++) {
		const struct html_func *f = &m->funcs[i];

		fprintf(out, "<tr%s><td class=\"num\" data-sort=\"%zu\">%zu</td><td class=\"name\"><a href=\"%s\"><code>",
		        f->flow ? "" : " class=\"cold\"", i + 1, i + 1, f->page);
		html_escape(out, f->rf->name);
		fputs("</code></a></td><td class=\"file\">", out);
		html_escape(out, f->rf->file);
		fprintf(out, ":%u</td><td class=\"num\" data-sort=\"%" PRIu64 "\">", f->rf->line, f->flow);
		html_put_count(out, f->flow);
		fprintf(out, "%s</td>", f->flow_saturated ? "+" : "");
		html_share_cell(out, f->flow, m->total_flow);
		fprintf(out, "<td class=\"num\" data-sort=\"%zu\">%zu / %" PRIu64 "</td><td class=\"num\" "
		        "data-sort=\"%zu\">%zu</td></tr>\n", f->nsingle, f->nsingle, f->rf->num_paths, f->nmulti,
		        f->nmulti);
	}
	fputs("</tbody>\n</table></div>\n</section>\n", out);
}

static void files_table(FILE *out, const struct html_model *m)
{
	static const struct cov_counts none = { 0, 0 };
	size_t i, j;

	fprintf(out, "<section>\n<h2>Files</h2>\n<div class=\"scroll\"><table class=\"list files sortable filterable\" "
	        "id=\"files\">\n<thead><tr><th>file</th>%s<th data-type=\"num\" class=\"num\">flow</th>"
	        "<th>functions, hottest first</th></tr></thead>\n<tbody>\n",
	        m->has_cov ? cov_heads : "");
	for (j = 0; j < m->nfiles; j++) {
		const struct html_file *fl = &m->files[j];
		int first = 1;

		fputs("<tr><td class=\"file\">", out);
		html_escape(out, fl->name);
		fputs("</td>", out);
		if (m->has_cov)
			cov_cells(out, fl->cov ? fl->cov->line : none, fl->cov ? fl->cov->branch : none,
			          fl->cov ? fl->cov->func : none, fl->cov ? fl->cov->path : none);
		fprintf(out, "<td class=\"num\" data-sort=\"%" PRIu64 "\">", fl->flow);
		html_put_count(out, fl->flow);
		fputs("</td><td class=\"fnlist\">", out);
		for (i = 0; i < m->nfuncs; i++) {
			if (m->funcs[i].file != j)
				continue;
			fprintf(out, "%s<a href=\"%s\"><code>", first ? "" : " ", m->funcs[i].page);
			html_escape(out, m->funcs[i].rf->name);
			fputs("</code></a>", out);
			first = 0;
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody>\n", out);
	if (m->has_cov) {
		fputs("<tfoot><tr><th>total</th>", out);
		cov_cells(out, m->cov.line, m->cov.branch, m->cov.func, m->cov.path);
		fprintf(out, "<td class=\"num\">");
		html_put_count(out, m->total_flow);
		fputs("</td><td></td></tr></tfoot>\n", out);
	}
	fputs("</table></div>\n</section>\n", out);
}

static void dirs_table(FILE *out, const struct html_model *m)
{
	size_t i;

	if (!m->has_cov || m->ndirs == 0)
		return;
	fprintf(out, "<section>\n<h2>Directories</h2>\n<div class=\"scroll\"><table class=\"list dirs sortable "
	        "filterable\" id=\"dirs\">\n<thead><tr><th>directory</th><th data-type=\"num\" class=\"num\">files"
	        "</th>%s</tr></thead>\n<tbody>\n", cov_heads);
	for (i = 0; i < m->ndirs; i++) {
		const struct html_dir *d = &m->dirs[i];

		fputs("<tr><td class=\"file\">", out);
		html_escape(out, d->dir);
		fprintf(out, "/</td><td class=\"num\" data-sort=\"%zu\">%zu</td>", d->nfiles, d->nfiles);
		cov_cells(out, d->line, d->branch, d->func, d->path);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table></div>\n</section>\n", out);
}

int html_page_index(FILE *out, const struct html_model *m, const char *profile_name)
{
	html_head(out, profile_name, NULL);
	fputs("<body class=\"index\">\n<header class=\"bar\"><a class=\"brand\" href=\"index.html\">kpath</a>"
	      "<nav><span class=\"crumb\">", out);
	html_escape(out, profile_name);
	fputs("</span></nav></header>\n<main>\n", out);
	head_section(out, m, profile_name);
	funcs_table(out, m);
	files_table(out, m);
	dirs_table(out, m);
	fputs("</main>\n", out);
	html_foot(out);
	return ferror(out) ? -1 : 0;
}
