/*
 * html_source.c: a source file named by the profile, read once and
 * highlighted once for all its functions' pages.  Only what rep_src.h
 * allows is read: a regular file under the source root, of bounded size.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "rep_src.h"

struct html_source *html_source_load(const char *name, const struct rep_src_root *root, char *err, size_t errlen)
{
	struct html_source *s = calloc(1, sizeof *s);
	size_t i, l;
	char hlerr[256];

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->path = strdup(name);
	if (!s->path) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	if (rep_src_read(root, name, NULL, &s->text, &s->len, err, errlen) != REP_SRC_OK) {
		html_source_free(s);
		return NULL;
	}
	rep_src_hash(s->text, s->len, s->hash);
	for (i = 0, l = 1; i < s->len; i++)
		l += s->text[i] == '\n';
	/* a last line without '\n' is a line; a final '\n' does not start one */
	if (s->len && s->text[s->len - 1] == '\n')
		l--;
	s->nlines = (uint32_t)l;
	s->line_start = malloc((l + 1) * sizeof *s->line_start);
	if (!s->line_start) {
		snprintf(err, errlen, "out of memory");
		html_source_free(s);
		return NULL;
	}
	s->line_start[0] = 0;
	for (i = 0, l = 1; i < s->len && l <= s->nlines; i++)
		if (s->text[i] == '\n')
			s->line_start[l++] = i + 1;
	s->line_start[s->nlines] = s->len;
	if (html_hl_run(&s->hl, s->text, s->len, hlerr, sizeof hlerr) == 0)
		s->highlighted = 1;
	else
		fprintf(stderr, "kpath html: warning: %s: not highlighted: %s\n", s->path, hlerr);
	return s;
}

void html_source_free(struct html_source *s)
{
	if (!s)
		return;
	if (s->highlighted)
		html_hl_free(&s->hl);
	free(s->path);
	free(s->text);
	free(s->line_start);
	free(s);
}

void html_source_line(FILE *out, const struct html_source *s, uint32_t line, html_link_fn *link, void *ctx)
{
	size_t b, e, run;
	int cls = -1;

	if (line == 0 || line > s->nlines)
		return;
	b = s->line_start[line - 1];
	e = s->line_start[line];
	while (e > b && (s->text[e - 1] == '\n' || s->text[e - 1] == '\r'))
		e--;
	if (!s->highlighted) {
		html_escape_n(out, s->text + b, e - b);
		return;
	}
	/* runs of bytes with the same class become one span */
	for (run = b; run < e;) {
		size_t end = run;

		cls = s->hl.cls[run];
		while (end < e && s->hl.cls[end] == cls)
			end++;
		const char *href = link && cls >= 0 && !strcmp(html_hl_class(cls), "tok-function")
		                       ? link(s->text + run, end - run, ctx) : NULL;

		if (href)
			fprintf(out, "<a class=\"fnlink\" href=\"%s\">", href);
		if (cls >= 0)
			fprintf(out, "<span class=\"%s\">", html_hl_class(cls));
		html_escape_n(out, s->text + run, end - run);
		if (cls >= 0)
			fputs("</span>", out);
		if (href)
			fputs("</a>", out);
		run = end;
	}
}
