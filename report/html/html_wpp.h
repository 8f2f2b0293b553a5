/*
 * html_wpp.h: the hot-subpaths page of `kpath html --wpp FILE`
 * (html_wpp.c; docs/html.md, "Whole program paths").
 *
 * A whole program path (docs/wpp.md) written by the same build as the
 * profile: its hot subpaths (wpp/, one implementation with `kpath wpp
 * hot`) go to wpp.html, each path linked to its row on its function's
 * page; the index and every function page a shown subpath touches link
 * to them.  The WPP is read and analysed before the site is opened, so a
 * bad file fails with nothing written.
 */
#ifndef KPATH_HTML_WPP_H
#define KPATH_HTML_WPP_H

#include <stdint.h>
#include <stdio.h>

struct html_model;
struct html_func;
struct html_opts;
struct html_wpp;

#define HTML_WPP_PAGE "wpp.html"
#define HTML_WPP_MIN_LEN 2
#define HTML_WPP_MAX_LEN 8
#define HTML_WPP_AUTO_PERMILLE 10 /* default minimum cost: 1% of a thread's */

/* Reads o->wpp, matches its functions with m's, finds each thread's hot
 * subpaths.  0 with *out set, or -1 with "FILE: reason" in why. */
int html_wpp_load(struct html_wpp **out, const struct html_opts *o, const struct html_model *m, char *why,
                  size_t whylen);
void html_wpp_free(struct html_wpp *w);
/* wpp.html.  0 or -1 on a write error. */
int html_wpp_page(FILE *out, const struct html_model *m);
/* The hooks on the other pages: nothing when m has no WPP. */
void html_wpp_index_note(FILE *out, const struct html_model *m);
void html_wpp_func_note(FILE *out, const struct html_model *m, const struct html_func *f);

#endif
