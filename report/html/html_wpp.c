/*
 * html_wpp.c: `kpath html PROFILE --wpp FILE`: the hot subpaths of a whole
 * program path (docs/wpp.md) beside the k-IPF pages.
 *
 * The WPP's functions are matched with the profile's by name, file and
 * definition line; a match whose checksum differs means the two files come
 * from different builds, and the WPP is refused (its path IDs would name
 * other paths).  Each thread's minimal hot subpaths are those `kpath wpp
 * hot` reports (wpp_hot_find, the exact search, path cost = blocks), with
 * lengths --wpp-min-len..--wpp-max-len and a minimum cost of --wpp-min-cost,
 * by default 1% of the thread's whole cost (the sum of every path's cost
 * over the stream: Ammons, Ball and Larus's hot paths are 0.1-1.0% of a
 * metric, the WPP paper section 4.2).  The page shows the --top costliest
 * per thread; each path links to its row in its function's Ball-Larus
 * table when that row is shown (the page's script selects it), else to the
 * page, and each line to its source row.
 *
 * The contract with tests/html/browser_wpp_test.js: a subpath is
 * <section class="hot" id="hot-T-K" data-thread data-cost data-freq>, its
 * paths <tr class="hotpath" data-func data-id data-lines>, in order.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "html_wpp.h"
#include "wpp.h"

#define NO_FUNC SIZE_MAX

struct html_wpp_thread {
	struct wpp_hot *hot; /* by cost desc, then discovery order */
	size_t n;
	uint64_t min_cost, total;
};

struct html_wpp {
	const char *path;
	struct wpp_file w;
	size_t *fmap; /* per WPP function: its index in the model's funcs, or NO_FUNC */
	struct html_wpp_thread *t;
	unsigned min_len, max_len;
	size_t top;
};

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Sets w->fmap; -1 with why when the WPP and the profile disagree. */
static int match_funcs(struct html_wpp *w, const struct html_model *m, char *why, size_t whylen)
{
	size_t matched = 0;

	w->fmap = malloc(((size_t)w->w.nfuncs + 1) * sizeof *w->fmap);
	if (!w->fmap) {
		snprintf(why, whylen, "%s: out of memory", w->path);
		return -1;
	}
	for (uint32_t i = 0; i < w->w.nfuncs; i++) {
		const struct wpp_func *f = &w->w.funcs[i];

		w->fmap[i] = NO_FUNC;
		for (size_t j = 0; j < m->nfuncs; j++) {
			const struct rep_func *p = m->funcs[j].rf;

			if (strcmp(p->name, f->name) || strcmp(p->file, f->file) || p->line != f->line)
				continue;
			if (f->checksum && strcmp(p->checksum, f->checksum)) {
				snprintf(why, whylen, "%s: function %s (%s:%u) has checksum %s, the profile's has %s: "
				         "the WPP and the profile come from different builds", w->path, f->name, f->file,
				         f->line, f->checksum, p->checksum);
				return -1;
			}
			w->fmap[i] = j;
			matched++;
			break;
		}
	}
	if (w->w.nfuncs && !matched) {
		snprintf(why, whylen, "%s: none of its %u functions is in the profile (a WPP of another program?)",
		         w->path, w->w.nfuncs);
		return -1;
	}
	return 0;
}

/* The sum of every path's cost over g's stream: sum over rules r of
 * freq(r) x the cost of r's own terminals. */
static uint64_t total_cost(const struct wpp_grammar *g, const uint64_t *freq, const uint64_t *cost)
{
	uint64_t sum = 0;

	for (uint32_t r = 0; r < g->nrules; r++)
		for (uint64_t k = g->start[r]; k < g->start[r + 1]; k++)
			if (!WPP_SYM_IS_RULE(g->syms[k]))
				sum = add_sat(sum, mul_sat(freq[r], cost[WPP_SYM_VAL(g->syms[k])]));
	return sum;
}

static int by_cost(const void *a, const void *b)
{
	const struct wpp_hot *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x < y ? -1 : x > y;
}

static int find_hot(struct html_wpp *w, const struct html_opts *o, uint32_t i)
{
	const struct wpp_grammar *g = &w->w.g[i];
	struct html_wpp_thread *t = &w->t[i];
	uint64_t *cost = wpp_term_costs(&w->w, g, WPP_COST_BLOCKS), *freq = wpp_frequencies(g);
	int rc = -1;

	if (cost && freq) {
		struct wpp_hot_opts ho = { .min_len = w->min_len, .max_len = w->max_len, .term_cost = cost };

		t->total = total_cost(g, freq, cost);
		t->min_cost = o->wpp_min_cost_set ? o->wpp_min_cost : t->total / 1000 * HTML_WPP_AUTO_PERMILLE;
		if (t->min_cost == 0)
			t->min_cost = 1;
		ho.min_cost = t->min_cost;
		rc = wpp_hot_find(g, &ho, &t->hot, &t->n);
		if (rc == 0 && t->n)
			qsort(t->hot, t->n, sizeof *t->hot, by_cost);
	}
	free(cost);
	free(freq);
	return rc;
}

int html_wpp_load(struct html_wpp **out, const struct html_opts *o, const struct html_model *m, char *why,
                  size_t whylen)
{
	struct html_wpp *w = calloc(1, sizeof *w);

	*out = NULL;
	if (!w) {
		snprintf(why, whylen, "%s: out of memory", o->wpp);
		return -1;
	}
	w->path = o->wpp;
	w->min_len = o->wpp_min_len ? o->wpp_min_len : HTML_WPP_MIN_LEN;
	w->max_len = o->wpp_max_len ? o->wpp_max_len : HTML_WPP_MAX_LEN;
	w->top = o->top;
	if (w->max_len < w->min_len) {
		snprintf(why, whylen, "%s: --wpp-min-len %u is more than --wpp-max-len %u", o->wpp, w->min_len,
		         w->max_len);
		free(w);
		return -1;
	}
	if (wpp_read(o->wpp, &w->w, why, whylen) != 0) {
		free(w);
		return -1;
	}
	if (match_funcs(w, m, why, whylen) != 0) {
		html_wpp_free(w);
		return -1;
	}
	w->t = calloc((size_t)w->w.ng + 1, sizeof *w->t);
	for (uint32_t i = 0; w->t && i < w->w.ng; i++)
		if (find_hot(w, o, i) != 0) {
			snprintf(why, whylen, "%s: out of memory", o->wpp);
			html_wpp_free(w);
			return -1;
		}
	if (!w->t) {
		snprintf(why, whylen, "%s: out of memory", o->wpp);
		html_wpp_free(w);
		return -1;
	}
	*out = w;
	return 0;
}

void html_wpp_free(struct html_wpp *w)
{
	if (!w)
		return;
	for (uint32_t i = 0; w->t && i < w->w.ng; i++)
		wpp_hot_free(w->t[i].hot, w->t[i].n);
	free(w->t);
	free(w->fmap);
	wpp_free(&w->w);
	free(w);
}

static size_t shown(const struct html_wpp *w, uint32_t i)
{
	return w->top && w->t[i].n > w->top ? w->top : w->t[i].n;
}

/* The 1-based rank of Ball-Larus path id in f's table, 0 if not shown. */
static size_t bl_rank(const struct html_func *f, uint64_t id, size_t top)
{
	for (size_t r = 0; r < f->nsingle && (!top || r < top); r++)
		if (f->single[r].ids[0] == id)
			return r + 1;
	return 0;
}

static void path_row(FILE *out, const struct html_model *m, const struct html_wpp *w, const struct wpp_term *t,
                     size_t j)
{
	const struct wpp_func *wf = &w->w.funcs[t->func];
	const struct html_func *f = w->fmap[t->func] == NO_FUNC ? NULL : &m->funcs[w->fmap[t->func]];
	uint32_t *lines = NULL, n = 0;
	size_t rank = f ? bl_rank(f, t->id, w->top) : 0;

	if (kp_decode_path(&wf->dag, t->id, &lines, &n) != 0) {
		lines = NULL;
		n = 0;
	}
	fputs("<tr class=\"hotpath\" data-func=\"", out);
	html_escape(out, wf->name);
	fprintf(out, "\" data-id=\"%" PRIu64 "\" data-lines=\"", t->id);
	for (uint32_t k = 0; k < n; k++)
		fprintf(out, "%s%u", k ? " " : "", lines[k]);
	fprintf(out, "\"><td class=\"num\">%zu</td><td>", j + 1);
	if (f)
		fprintf(out, "<a href=\"%s\"><code>", f->page);
	else
		fputs("<code>", out);
	html_escape(out, wf->name);
	fputs(f ? "</code></a>" : "</code>", out);
	fputs("</td><td class=\"file\">", out);
	html_escape(out, wf->file);
	fprintf(out, ":%u</td><td class=\"num\">", wf->line);
	if (rank)
		fprintf(out, "<a class=\"blrow\" href=\"%s#bl%zu\">%" PRIu64 "</a>", f->page, rank, t->id);
	else
		fprintf(out, "%" PRIu64, t->id);
	fputs("</td><td class=\"lines\">", out);
	for (uint32_t k = 0; k < n; k++)
		if (f)
			fprintf(out, "%s<a href=\"%s#L%u\">%u</a>", k ? " " : "", f->page, lines[k], lines[k]);
		else
			fprintf(out, "%s%u", k ? " " : "", lines[k]);
	if (!n)
		fputs("(does not decode)", out);
	fprintf(out, "</td><td class=\"num\">%" PRIu64 "</td></tr>\n", wpp_path_cost(wf, t->id, WPP_COST_BLOCKS));
	free(lines);
}

static void thread_section(FILE *out, const struct html_model *m, const struct html_wpp *w, uint32_t i)
{
	const struct wpp_grammar *g = &w->w.g[i];
	const struct html_wpp_thread *t = &w->t[i];
	size_t k, nshow = shown(w, i);

	fprintf(out, "<section class=\"thread\" id=\"thread-%u\">\n<h2>Thread %" PRIu64
	        " <span class=\"total\">%zu minimal hot subpath%s", i, g->thread, t->n, t->n == 1 ? "" : "s");
	if (nshow < t->n)
		fprintf(out, ", top %zu shown", nshow);
	fprintf(out, "</span></h2>\n<p class=\"hint\">%" PRIu64 " paths in the stream, whole cost %" PRIu64
	        "; subpaths of %u..%u paths with cost &ge; %" PRIu64 ".</p>\n",
	        g->length, t->total, w->min_len, w->max_len, t->min_cost);
	if (g->dropped)
		fprintf(out, "<p class=\"warn\">%" PRIu64 " paths were dropped at run time (out of memory): the stream "
		        "stops early.</p>\n", g->dropped);
	if (t->n == 0)
		fputs("<p class=\"none\">No subpath reaches the minimum cost.</p>\n", out);
	for (k = 0; k < nshow; k++) {
		const struct wpp_hot *h = &t->hot[k];

		fprintf(out, "<section class=\"hot\" id=\"hot-%u-%zu\" data-thread=\"%" PRIu64 "\" data-cost=\"%" PRIu64
		        "\" data-freq=\"%" PRIu64 "\">\n<h3>#%zu <span class=\"total\">cost ",
		        i, k + 1, g->thread, h->cost, h->freq, k + 1);
		html_put_count(out, h->cost);
		fputs(" = frequency ", out);
		html_put_count(out, h->freq);
		fprintf(out, " &times; %" PRIu64 ", %u paths</span></h3>\n", h->freq ? h->cost / h->freq : 0, h->len);
		fputs("<table class=\"list hotpaths\">\n<thead><tr><th class=\"num\">#</th><th>function</th><th>file</th>"
		      "<th class=\"num\">path</th><th>lines</th><th class=\"num\">cost</th></tr></thead>\n<tbody>\n",
		      out);
		for (unsigned j = 0; j < h->len; j++)
			path_row(out, m, w, &g->terms[h->terms[j]], j);
		fputs("</tbody>\n</table>\n</section>\n", out);
	}
	fputs("</section>\n", out);
}

int html_wpp_page(FILE *out, const struct html_model *m)
{
	const struct html_wpp *w = m->wpp;
	const char *base = strrchr(w->path, '/') ? strrchr(w->path, '/') + 1 : w->path;

	html_head(out, "hot subpaths", base);
	fputs("<body class=\"wpp\">\n<header class=\"bar\"><a class=\"brand\" href=\"index.html\">kpath</a>"
	      "<nav><a href=\"index.html\">index</a><span class=\"gt\">\xe2\x80\xba</span><strong>hot subpaths"
	      "</strong></nav></header>\n<main>\n<section class=\"head\">\n<h1>Hot subpaths of <code>",
	      out);
	html_escape(out, base);
	fputs("</code></h1>\n<p class=\"hint\">A hot subpath is a sequence of consecutive Ball-Larus paths, across "
	      "calls and loops, whose frequency (its occurrences in the thread's stream) times the sum of its "
	      "paths' costs (their blocks with a source line) reaches the minimum cost; minimal: no shorter "
	      "prefix is hot (the whole program path's exact search, as <code>kpath wpp hot</code>). Each path "
	      "links to its row in its function's Ball-Larus table, each line to its source.</p>\n</section>\n",
	      out);
	for (uint32_t i = 0; i < w->w.ng; i++)
		thread_section(out, m, w, i);
	fputs("</main>\n", out);
	html_foot(out);
	return ferror(out) ? -1 : 0;
}

void html_wpp_index_note(FILE *out, const struct html_model *m)
{
	const struct html_wpp *w = m->wpp;
	size_t n = 0;

	if (!w)
		return;
	for (uint32_t i = 0; i < w->w.ng; i++)
		n += w->t[i].n;
	fprintf(out, "<p class=\"wpp\"><a id=\"wpp-link\" href=\"%s\">Hot subpaths</a> of the whole program path <code>",
	        HTML_WPP_PAGE);
	html_escape(out, w->path);
	fprintf(out, "</code>: %zu across %u thread%s.</p>\n", n, w->w.ng, w->w.ng == 1 ? "" : "s");
}

void html_wpp_func_note(FILE *out, const struct html_model *m, const struct html_func *f)
{
	const struct html_wpp *w = m->wpp;
	size_t fi = (size_t)(f - m->funcs), links = 0;

	if (!w)
		return;
	for (uint32_t i = 0; i < w->w.ng; i++) {
		const struct wpp_grammar *g = &w->w.g[i];

		for (size_t k = 0; k < shown(w, i); k++) {
			const struct wpp_hot *h = &w->t[i].hot[k];
			unsigned j = 0;

			while (j < h->len && w->fmap[g->terms[h->terms[j]].func] != fi)
				j++;
			if (j == h->len)
				continue;
			if (!links++)
				fprintf(out, "<p class=\"wpp\">Hot subpaths through this function (<a href=\"%s\">whole "
				        "program path</a>):", HTML_WPP_PAGE);
			fprintf(out, " <a class=\"hotlink\" href=\"%s#hot-%u-%zu\">", HTML_WPP_PAGE, i, k + 1);
			if (w->w.ng > 1)
				fprintf(out, "thread %" PRIu64 " ", g->thread);
			fprintf(out, "#%zu</a>", k + 1);
		}
	}
	if (links)
		fputs("</p>\n", out);
}
