/*
 * html_escape.c: every string that reaches a page from outside (function
 * and file names, source text) goes through html_escape; every file name in
 * DIR is built from html_slug, so no name in the profile can break out of an
 * element, an attribute or the directory.
 */
#include <string.h>

#include "html_int.h"

void html_escape_n(FILE *out, const char *s, size_t n)
{
	size_t i, run = 0;

	for (i = 0; i < n; i++) {
		const char *rep;

		switch (s[i]) {
		case '&': rep = "&amp;"; break;
		case '<': rep = "&lt;"; break;
		case '>': rep = "&gt;"; break;
		case '"': rep = "&quot;"; break;
		case '\'': rep = "&#39;"; break;
		case '\0': rep = "&#xFFFD;"; break;
		default: continue;
		}
		fwrite(s + run, 1, i - run, out);
		fputs(rep, out);
		run = i + 1;
	}
	fwrite(s + run, 1, n - run, out);
}

void html_escape(FILE *out, const char *s)
{
	html_escape_n(out, s, strlen(s));
}

void html_slug(char *buf, size_t cap, const char *s)
{
	size_t n = 0;

	if (cap == 0)
		return;
	for (; *s && n + 1 < cap; s++) {
		char c = *s;
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		           (c >= '0' && c <= '9') || c == '_' || c == '-';
		buf[n++] = keep ? c : '_';
	}
	if (n == 0 && cap > 1)
		buf[n++] = '_';
	buf[n] = '\0';
}
