/* strbuf.c: see strbuf.h. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sb_printf(struct sb *b, const char *f, ...)
{
	va_list ap, aq;
	va_start(ap, f);
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (b->n + (size_t)n + 1 > b->cap) {
		b->cap = (b->n + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
	}
	vsnprintf(b->s + b->n, (size_t)n + 1, f, aq);
	va_end(aq);
	b->n += (size_t)n;
}

void sb_put_cstr(struct sb *b, const char *s)
{
	sb_printf(b, "\"");
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sb_printf(b, "\\%c", c);
		else if (c < 32 || c >= 127)
			sb_printf(b, "\\%03o", c);
		else
			sb_printf(b, "%c", c);
	}
	sb_printf(b, "\"");
}

void str_append(char **dst, const char *text)
{
	size_t n = *dst ? strlen(*dst) : 0, m = strlen(text);
	char *s = realloc(*dst, n + m + 1);
	if (!s) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	memcpy(s + n, text, m + 1);
	*dst = s;
}
