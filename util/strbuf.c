/* strbuf.c: see strbuf.h. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void sb_reserve(struct sb *b, size_t n)
{
	if (b->n + n + 1 <= b->cap)
		return;
	while (b->n + n + 1 > b->cap)
		b->cap = b->cap ? 2 * b->cap : 256;
	b->s = xrealloc(b->s, b->cap);
}

void sb_put(struct sb *b, const char *s, size_t n)
{
	sb_reserve(b, n);
	if (n)
		memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = 0;
}

void sb_putc(struct sb *b, char c)
{
	sb_put(b, &c, 1);
}

void sb_str(struct sb *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

/* Formatted once into a buffer on the stack when it fits, which is nearly
 * always. */
void sb_printf(struct sb *b, const char *f, ...)
{
	char tmp[256];
	va_list ap, aq;
	va_start(ap, f);
	va_copy(aq, ap);
	int n = vsnprintf(tmp, sizeof tmp, f, ap);
	va_end(ap);
	if (n < 0) {
		va_end(aq);
		return;
	}
	if ((size_t)n < sizeof tmp) {
		va_end(aq);
		sb_put(b, tmp, (size_t)n);
		return;
	}
	sb_reserve(b, (size_t)n);
	vsnprintf(b->s + b->n, (size_t)n + 1, f, aq);
	va_end(aq);
	b->n += (size_t)n;
}

void sb_put_cstr(struct sb *b, const char *s)
{
	sb_putc(b, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			sb_printf(b, "\\%c", c);
		else if (c < 32 || c >= 127)
			sb_printf(b, "\\%03o", c);
		else
			sb_putc(b, (char)c);
	}
	sb_putc(b, '"');
}

void str_append(char **dst, const char *text)
{
	size_t n = *dst ? strlen(*dst) : 0, m = strlen(text);
	char *s = xrealloc(*dst, n + m + 1);
	memcpy(s + n, text, m + 1);
	*dst = s;
}
