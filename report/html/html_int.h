/*
 * html_int.h: internals of `kpath html`, shared by its files and nothing
 * else.
 *
 * The pipeline (html_main.c): parse the command line (html_args.c), read the
 * profile through profile/profile.h into the report model every profile
 * command shares (report/rep.h: rep_from_profile, rep_rank_report: each
 * function's k-IPF flattened into ranked path sequences), add per-line
 * counts, files and page names (html_model.c), read and
 * syntax-highlight each source file once (html_source.c, html_highlight.c),
 * write the pages (html_page.c) into a fresh temporary directory that
 * replaces DIR only when everything is written (html_site.c).
 *
 * Invariants of a built model (html_model_build):
 *  - funcs is sorted by flow desc, then file, line, name asc (functions that
 *    never ran come last); files by flow desc, then name;
 *  - in a function, single holds depth-1 sequences sorted by count desc,
 *    then id asc; multi holds depth >= 2 sequences sorted by count desc,
 *    then depth desc, then ids lexicographically;
 *  - flow is the sum of the depth-1 counts (saturated at UINT64_MAX);
 *  - linecount[] is sorted by line, unique: a line's count is the sum of
 *    the counts of the executed Ball-Larus paths whose decoded lines
 *    contain it (once per path, however often the path lists it).
 */
#ifndef KPATH_HTML_INT_H
#define KPATH_HTML_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "coverage.h"
#include "rep.h"

enum {
	HTML_EXIT_OK = 0,
	HTML_EXIT_FAIL = 1,
	HTML_EXIT_USAGE = 2,
};

/* html_args.c */
struct html_opts {
	const char *profile;     /* the one positional argument */
	const char *out;         /* -o DIR */
	const char *source_root; /* --source-root DIR, or NULL (current dir) */
	size_t top;              /* --top N rows per path table, 0 = all */
	const char *wpp;         /* --wpp FILE, or NULL (html_wpp.h) */
	unsigned wpp_min_len, wpp_max_len; /* 0: the defaults of html_wpp.h */
	uint64_t wpp_min_cost;
	int wpp_min_cost_set;
	int help;
};
#define HTML_TOP_DEFAULT 25
int html_args_parse(int argc, char **argv, struct html_opts *o, FILE *err);
void html_usage(FILE *out);

/* html_escape.c: text for HTML element content and quoted attribute
 * values: & < > " ' are escaped, NUL becomes U+FFFD; other bytes pass
 * through (pages are UTF-8). */
void html_escape_n(FILE *out, const char *s, size_t n);
void html_escape(FILE *out, const char *s);
/* A file-name-safe slug of s: [A-Za-z0-9_-] kept, anything else '_', at
 * most cap-1 bytes, never empty. */
void html_slug(char *buf, size_t cap, const char *s);

/* html_model.c.  A function's sequences are the report model's
 * (struct rep_seq, rep.h: count, depth, extended, ids), ranked. */
struct html_linecount {
	uint32_t line;
	uint64_t count;
};

struct html_func {
	const struct rep_func *rf; /* the report model's, in html_model.rep */
	uint64_t flow;             /* rf's */
	int flow_saturated;
	const struct rep_seq *single, *multi; /* rf's, ranked */
	size_t nsingle, nmulti;
	struct html_linecount *linecount;
	size_t nlinecount;
	uint32_t min_line, max_line; /* over f->line and every counted line */
	int stale;                   /* the file on disk is not the one instrumented */
	size_t file;                 /* index into html_model.files */
	char page[96];               /* the page's file name in DIR */
};

struct html_file {
	const char *name; /* as in the profile */
	uint64_t flow;
	size_t nfuncs;
	struct html_source *src; /* NULL if not loaded or unreadable */
	char why[512];           /* why src is NULL */
	const struct cov_file *cov; /* its coverage (html_model_coverage), or NULL */
};

/* A directory of the index: the files whose name starts with dir + "/"
 * (at any depth), coverage summed (html_model_coverage). */
struct html_dir {
	char *dir;
	size_t nfiles;
	struct cov_counts line, branch, func, path;
};

/* A function by name, for links from the source (html_model_link). */
struct html_name {
	const char *name;
	size_t func; /* index into html_model.funcs */
};

struct html_model {
	/* The report model of the profile (rep.h), ranked: what funcs view,
	 * and what cov points into. */
	struct rep_report rep;
	struct html_func *funcs;
	size_t nfuncs;
	struct html_file *files;
	size_t nfiles;
	uint64_t total_flow;
	const struct html_wpp *wpp; /* --wpp, or NULL; owned by html_main.c */
	/* Coverage: computed by coverage.c from rep, the one computation
	 * `kpath coverage` and `kpath report` use (html_model_coverage). */
	struct cov_report cov;
	int has_cov;
	struct html_dir *dirs; /* sorted by name */
	size_t ndirs;
	struct html_name *byname; /* sorted by name, then function index */
};

/* Builds m from a read profile (rep_from_profile; p is freed and emptied).
 * Returns 0 or -1 with the reason in why. */
struct kp_profile;
int html_model_build(struct html_model *m, struct kp_profile *p, char *why, size_t whylen);
void html_model_free(struct html_model *m);
/* Builds m->cov from m->rep with coverage.c (blank and comment lines of
 * the sources readable under source_root dropped, as kpath coverage does;
 * warnings about the others go to err unless it is NULL) and the
 * directory rows.  A profile coverage.c cannot use leaves has_cov 0 after
 * a warning.  0, or -1 (out of memory) with the reason in why. */
int html_model_coverage(struct html_model *m, const char *source_root, FILE *err, char *why, size_t whylen);
/* The function a call to name[0..n) in f's file most likely reaches: the
 * one of that name in f's file, else the only one of that name; NULL if
 * none (or f itself). */
const struct html_func *html_model_link(const struct html_model *m, const struct html_func *f, const char *name,
                                        size_t n);
/* Checks every line of f against the nlines of its source (a line
 * beyond it is an error, not a row) and counts the lines (linecount,
 * min_line, max_line; without it a page has no line table).  at is f's
 * index in the profile.  0, -1 (out of memory), or -2 with the JSON path
 * and the reason in why. */
int html_model_lines(struct html_func *f, size_t at, uint32_t nlines, char *why, size_t whylen);
/* The decoded lines of id in f, or NULL (rep_func_lines). */
const struct rep_decode *html_func_path(const struct html_func *f, uint64_t id);
/* Percentage of count in flow (0 when flow is 0). */
double html_share(uint64_t count, uint64_t flow);

/* html_highlight.c: tree-sitter, the C grammar and its highlights query. */
struct html_hl {
	int16_t *cls;     /* per byte of the text: a class index, or -1 */
	void *tree;       /* TSTree * */
	const char *text;
	size_t len;
};
/* Parses text and resolves the highlights query's captures into cls.
 * Returns 0, or -1 with a reason in err. */
int html_hl_run(struct html_hl *h, const char *text, size_t len, char *err, size_t errlen);
void html_hl_free(struct html_hl *h);
/* Frees the compiled query (once, at the end of a run). */
void html_hl_cleanup(void);
/* The CSS class (e.g. "tok-keyword") of a class index. */
const char *html_hl_class(int cls);
/* The 1-based first and last line of the innermost function definition
 * that contains line; 0 if none. */
int html_hl_function_lines(const struct html_hl *h, uint32_t line, uint32_t *first, uint32_t *last);

/* html_source.c: a source file, split into lines and highlighted. */
struct html_source {
	char *path; /* the path it was read from */
	char *text;
	size_t len;
	size_t *line_start; /* nlines + 1 entries; line L is [start[L-1], start[L]) */
	uint32_t nlines;
	struct html_hl hl;
	int highlighted; /* 0 if tree-sitter failed: plain text */
	char hash[17];   /* its source hash (rep_src.h) */
};
/* Reads name under root as report/rep_src.h allows.  NULL with a reason in
 * err when it cannot be read. */
struct rep_src_root;
struct html_source *html_source_load(const char *name, const struct rep_src_root *root, char *err, size_t errlen);
void html_source_free(struct html_source *s);
/* Writes line (1-based) as highlighted, escaped HTML (without its end of
 * line).  With link, a token highlighted as a function name for which
 * link(text, n, ctx) gives a page becomes <a href="PAGE">. */
typedef const char *html_link_fn(const char *text, size_t n, void *ctx);
void html_source_line(FILE *out, const struct html_source *s, uint32_t line, html_link_fn *link, void *ctx);

/* html_page.c: the pieces every page shares.  html_put_count groups
 * digits by threes (thin spaces); html_share_cell is a <td> with a bar. */
void html_head(FILE *out, const char *title_a, const char *title_b);
void html_foot(FILE *out);
void html_put_count(FILE *out, uint64_t v);
void html_share_cell(FILE *out, uint64_t count, uint64_t flow);
void html_stat_item(FILE *out, const char *label, uint64_t v);
/* html_index.c: a coverage cell (<td class="pct" data-sort=P>). */
void html_cov_cell(FILE *out, struct cov_counts k);
/* ... and a figure of a dl.stats (<div class=lo|mid|hi|na>). */
void html_cov_item(FILE *out, const char *label, struct cov_counts k);

/* html_paths.c: a function page's path tables (top 0 = all rows). */
void html_paths_bl(FILE *out, const struct html_func *f, size_t top);
void html_paths_multi(FILE *out, const struct html_func *f, size_t top, unsigned k);

/* html_page.c.  The lines a function's page shows: its counted lines and
 * the definition around f->line (tree-sitter), within src. */
void html_page_range(const struct html_func *f, const struct html_source *src, uint32_t *first, uint32_t *last);
/* Each returns 0 or -1 on a write error (errno set). */
int html_page_index(FILE *out, const struct html_model *m, const char *profile_name); /* html_index.c */
int html_page_func(FILE *out, const struct html_model *m, const struct html_func *f, size_t top);

/* html_site.c: the output directory, replaced atomically. */
struct html_site {
	char *final; /* DIR */
	char *tmp;   /* a fresh directory beside it */
};
/* Creates the temporary directory beside dir.  Refuses (before writing
 * anything) a dir that exists and is neither empty nor an earlier kpath
 * html site.  Returns 0 or -1 with a reason in err. */
int html_site_open(struct html_site *s, const char *dir, char *err, size_t errlen);
/* Opens NAME (a plain file name) for writing inside the temporary dir. */
FILE *html_site_create(struct html_site *s, const char *name, char *err, size_t errlen);
/* Closes f, reporting a write error on NAME. */
int html_site_close(FILE *f, const char *name, char *err, size_t errlen);
/* Writes the embedded assets (kpath.css, kpath.js) and the site marker. */
int html_site_assets(struct html_site *s, char *err, size_t errlen);
/* Moves the temporary directory to DIR (replacing an earlier site). */
int html_site_commit(struct html_site *s, char *err, size_t errlen);
/* Removes the temporary directory (after a failure); frees s. */
void html_site_abort(struct html_site *s);

#endif
