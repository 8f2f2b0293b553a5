/*
 * html_paths.c: a function page's two path tables.
 *
 * Multi-iteration paths: like `kpath report` (rep_rank.c), the table lists
 * the maximal sequences, the leaves of the k-IPF; a prefix (a node with
 * children: a longer recorded sequence starts with it, k-BLPP paper,
 * Property 1) is a row of class "prefix", hidden until the box
 * input#show-prefixes is ticked (assets/kpath.js sets "show-prefixes" on
 * the table).  Maximal rows are ranked kp1, kp2, ... and prefix rows kpp1,
 * kpp2, ..., each series in count order and cut at --top on its own.
 *
 * Ball-Larus paths: each row carries the lines its blocks run, in path
 * order with consecutive spans joined ("7 11-13 16").
 *
 * A path ID longer than ID_DIGITS digits (macro-heavy code numbers its
 * paths past 10^18) is shown as its first and last digits around an
 * ellipsis; the full ID is in the chip's title and in data-ids.
 *
 * The contract with assets/kpath.js: a selectable path is a
 * <tr class="path" tabindex="0" data-ids="A B .." data-iters="L L ..;L L ..">
 * where data-iters holds, per iteration (';'-separated), the decoded lines
 * (a block spanning several lines as "first-last") of that iteration's
 * Ball-Larus path (an empty list when the profile does not decode it).
 * data-* attributes hold only decimal numbers.
 */
#include <inttypes.h>
#include <string.h>

#include "html_int.h"

/* Iterations cycle through this many colours (kpath.css .it1 ...). */
#define ITER_COLOURS 6
/* IDs of more digits are shortened to ID_HEAD digits ... ID_TAIL digits. */
#define ID_DIGITS 9
#define ID_HEAD 4
#define ID_TAIL 3

/* data-ids and data-iters of a sequence. */
static void seq_data(FILE *out, const struct html_func *f, const struct rep_seq *s)
{
	uint32_t i, j;

	fputs(" data-ids=\"", out);
	for (i = 0; i < s->depth; i++)
		fprintf(out, "%s%" PRIu64, i ? " " : "", s->ids[i]);
	fputs("\" data-iters=\"", out);
	for (i = 0; i < s->depth; i++) {
		const struct rep_decode *p = html_func_path(f, s->ids[i]);

		if (i)
			fputc(';', out);
		for (j = 0; p && j < p->nlines; j++) {
			uint32_t last = rep_decode_last(p, j);

			if (last > p->lines[j])
				fprintf(out, "%s%u-%u", j ? " " : "", p->lines[j], last);
			else
				fprintf(out, "%s%u", j ? " " : "", p->lines[j]);
		}
	}
	fputc('"', out);
}

/* An ID as shown: whole up to ID_DIGITS digits, else shortened. */
static void put_id(FILE *out, uint64_t id)
{
	char d[24];
	int n = snprintf(d, sizeof d, "%" PRIu64, id);

	if (n <= ID_DIGITS)
		fputs(d, out);
	else
		fprintf(out, "%.*s\xe2\x80\xa6%s", ID_HEAD, d, d + n - ID_TAIL);
}

/* The lines of path id: its blocks' spans in path order, a span that
 * starts inside or right after the previous one joined to it. */
static void put_lines(FILE *out, const struct html_func *f, uint64_t id)
{
	const struct rep_decode *p = html_func_path(f, id);
	uint32_t a = 0, b = 0, j;
	int any = 0;

	if (!p) {
		fputs("<span class=\"none\" title=\"the profile does not decode this path\">?</span>", out);
		return;
	}
	for (j = 0; j < p->nlines; j++) {
		uint32_t c = p->lines[j], d = rep_decode_last(p, j);

		if (c == 0)
			continue;
		if (any && c >= a && c <= b + 1) {
			b = d > b ? d : b;
			continue;
		}
		if (any)
			fprintf(out, a == b ? "%u " : "%u-%u ", a, b);
		a = c;
		b = d;
		any = 1;
	}
	if (any)
		fprintf(out, a == b ? "%u" : "%u-%u", a, b);
	else
		fputs("-", out);
}

static void seq_row(FILE *out, const struct html_func *f, const struct rep_seq *s, const char *id, size_t rank,
                    int bl)
{
	uint32_t i;

	fprintf(out, "<tr class=\"path%s\" tabindex=\"0\" aria-selected=\"false\" id=\"%s%zu\"",
	        s->depth > 1 && s->extended ? " prefix" : "", id, rank);
	seq_data(out, f, s);
	fprintf(out, "><td class=\"num rank\"%s>%zu</td><td class=\"num\">",
	        s->depth > 1 && s->extended ? " title=\"a prefix: a longer listed sequence starts with it\"" : "",
	        rank);
	html_put_count(out, s->count);
	fputs("</td>", out);
	html_share_cell(out, s->count, f->flow);
	fputs("<td class=\"ids\">", out);
	for (i = 0; i < s->depth; i++) {
		fprintf(out, "%s<span class=\"chip it%u\" title=\"iteration %u: Ball-Larus path %" PRIu64 "\">",
		        i ? "<span class=\"sep\">\xe2\x86\x92</span>" : "", i % ITER_COLOURS + 1, i + 1, s->ids[i]);
		put_id(out, s->ids[i]);
		fputs("</span>", out);
	}
	fputs("</td>", out);
	if (bl) {
		fputs("<td class=\"lines\">", out);
		put_lines(out, f, s->ids[0]);
		fputs("</td>", out);
	}
	fputs("</tr>\n", out);
}

static void table_head(FILE *out, const char *kind, const char *ids, int bl)
{
	fprintf(out, "<table class=\"ptable\" id=\"%s-table\">\n<thead><tr><th class=\"num\">#</th>"
	        "<th class=\"num\">count</th><th>share</th><th>%s</th>%s</tr></thead>\n<tbody>\n",
	        kind, ids, bl ? "<th>lines</th>" : "");
}

void html_paths_bl(FILE *out, const struct html_func *f, size_t top)
{
	size_t i, n = f->nsingle, shown = top && n > top ? top : n;

	fprintf(out, "<h2>Ball-Larus paths <span class=\"total\">%zu executed", n);
	if (shown < n)
		fprintf(out, ", top %zu shown", shown);
	fputs("</span></h2>\n", out);
	if (n == 0) {
		fputs("<p class=\"none\">The function never ran.</p>\n", out);
		return;
	}
	table_head(out, "bl", "path id", 1);
	for (i = 0; i < shown; i++)
		seq_row(out, f, &f->single[i], "bl", i + 1, 1);
	fputs("</tbody>\n</table>\n", out);
}

void html_paths_multi(FILE *out, const struct html_func *f, size_t top, unsigned k)
{
	size_t i, nmax = 0, npre, rmax = 0, rpre = 0;

	for (i = 0; i < f->nmulti; i++)
		nmax += !f->multi[i].extended;
	npre = f->nmulti - nmax;
	fprintf(out, "<h2>Multi-iteration paths <span class=\"total\">%zu executed, %zu maximal", f->nmulti, nmax);
	if (top && nmax > top)
		fprintf(out, ", top %zu shown", top);
	fputs("</span></h2>\n", out);
	if (f->nmulti == 0) {
		fprintf(out, "<p class=\"none\">%s</p>\n", k < 2 ? "This profile has k = 1: no multi-iteration paths "
		        "were recorded." : "No path ran twice in a row in one activation.");
		return;
	}
	if (npre)
		fprintf(out, "<p class=\"toggle\"><label><input type=\"checkbox\" id=\"show-prefixes\"> also show the "
		        "%zu prefixes</label> <span class=\"hint\">(sequences a longer listed one starts with, as "
		        "<code>kpath report --prefixes</code>)</span></p>\n", npre);
	table_head(out, "kp", "path ids, iteration by iteration", 0);
	for (i = 0; i < f->nmulti; i++) {
		const struct rep_seq *s = &f->multi[i];

		if (!s->extended && (!top || rmax < top))
			seq_row(out, f, s, "kp", ++rmax, 0);
		else if (s->extended && (!top || rpre < top))
			seq_row(out, f, s, "kpp", ++rpre, 0);
	}
	fputs("</tbody>\n</table>\n", out);
}
