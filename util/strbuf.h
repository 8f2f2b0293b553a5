/* strbuf.h: the growable string of the tool (util/): code text of the
 * instrumentation forms (rewrite/), the instrumented file (rewrite/output.c),
 * preprocessor output (frontend/expand.c), shell words (frontend/ccargs.c).
 * Out of memory is fatal, as everywhere in the tool (xalloc.h). */
#ifndef KPATH_STRBUF_H
#define KPATH_STRBUF_H

#include <stddef.h>

struct sb {
	char *s;        /* NUL-terminated once anything was put; NULL before */
	size_t n, cap;  /* length, allocated size */
};

/* Makes room for n more bytes and a NUL. */
void sb_reserve(struct sb *b, size_t n);
/* Appends the n bytes at s (which may hold NULs). */
void sb_put(struct sb *b, const char *s, size_t n);
void sb_putc(struct sb *b, char c);
void sb_str(struct sb *b, const char *s);
/* Appends printf(f, ...) to b, whatever its length. */
void sb_printf(struct sb *b, const char *f, ...) __attribute__((format(printf, 2, 3)));

/* Appends s as a C string literal (quotes, \" and \\ escaped, other bytes
 * outside 32..126 as octal escapes). */
void sb_put_cstr(struct sb *b, const char *s);

/* Appends text to the malloc'd string *dst (NULL: empty). */
void str_append(char **dst, const char *text);

#endif
