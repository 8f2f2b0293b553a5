/*
 * html_source.c: a source file named by the profile, read once and
 * highlighted once for all its functions' pages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"

static char *join(const char *root, const char *name)
{
	size_t a = strlen(root), b = strlen(name);
	char *p = malloc(a + b + 2);

	if (p)
		snprintf(p, a + b + 2, "%s%s%s", root, a && root[a - 1] == '/' ? "" : "/", name);
	return p;
}

static int read_all(const char *path, char **text, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0;

	if (!f)
		return -1;
	for (;;) {
		size_t got;

		if (cap - n < 4096) {
			char *g = realloc(buf, cap ? 2 * cap : 65536);
			if (!g) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return -1;
			}
			buf = g;
			cap = cap ? 2 * cap : 65536;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		free(buf);
		fclose(f);
		errno = e ? e : EIO;
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

struct html_source *html_source_load(const char *name, const char *root, char *err, size_t errlen)
{
	struct html_source *s = calloc(1, sizeof *s);
	size_t i, l;
	char hlerr[256];

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->path = (name[0] == '/' || !root) ? strdup(name) : join(root, name);
	if (!s->path) {
		snprintf(err, errlen, "out of memory");
		free(s);
		return NULL;
	}
	if (read_all(s->path, &s->text, &s->len) < 0) {
		snprintf(err, errlen, "%s: %s", s->path, strerror(errno));
		html_source_free(s);
		return NULL;
	}
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

void html_source_line(FILE *out, const struct html_source *s, uint32_t line)
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
		if (cls >= 0)
			fprintf(out, "<span class=\"%s\">", html_hl_class(cls));
		html_escape_n(out, s->text + run, end - run);
		if (cls >= 0)
			fputs("</span>", out);
		run = end;
	}
}
