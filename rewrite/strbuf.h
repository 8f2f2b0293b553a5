/* strbuf.h: the growable string the instrumentation forms (kiter_form.c,
 * ppp_form.c) build their code text in.  Out of memory is fatal, as
 * everywhere in the tool. */
#ifndef KPATH_STRBUF_H
#define KPATH_STRBUF_H

#include <stddef.h>

struct sb {
	char *s;        /* NUL-terminated once anything was printed; NULL before */
	size_t n, cap;  /* length, allocated size */
};

/* Appends printf(f, ...) to b. */
void sb_printf(struct sb *b, const char *f, ...) __attribute__((format(printf, 2, 3)));

/* Appends s as a C string literal (quotes, \" and \\ escaped, other bytes
 * outside 32..126 as octal escapes). */
void sb_put_cstr(struct sb *b, const char *s);

/* Appends text to the malloc'd string *dst (NULL: empty). */
void str_append(char **dst, const char *text);

#endif
