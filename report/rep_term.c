/*
 * rep_term.c: names and text from a profile or a source file, made safe to
 * print on a terminal (report.h, kp_term).
 *
 * A profile is data from anywhere, and a function or file name in it may
 * hold ESC sequences that would move the cursor, retitle the window or
 * rewrite what the user reads.  Every control character (C0 except tab,
 * DEL, and the C1 controls U+0080..U+009F, which some terminals obey in
 * their UTF-8 form) is printed as \xHH, its bytes in hex.
 */
#include <stdio.h>
#include <string.h>

#include "report.h"

#define TERM_RING 8
#define TERM_CAP 8192

/* 1 for a control byte (at s, C1 is the 2-byte UTF-8 form: *n = 2). */
static int is_control(const unsigned char *s, size_t *n)
{
	*n = 1;
	if ((s[0] < 0x20 && s[0] != '\t') || s[0] == 0x7f)
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f) {
		*n = 2;
		return 1;
	}
	return 0;
}

const char *kp_term(const char *s)
{
	static char ring[TERM_RING][TERM_CAP];
	static unsigned next;
	char *out = ring[next++ % TERM_RING];
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0, n, i;

	while (*p) {
		if (o + 8 + 4 >= TERM_CAP) { /* room for \xHH\xHH and "..." */
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		if (is_control(p, &n)) {
			for (i = 0; i < n; i++)
				o += (size_t)snprintf(out + o, TERM_CAP - o, "\\x%02x", p[i]);
		} else {
			out[o++] = (char)*p;
		}
		p += n;
	}
	out[o] = '\0';
	return out;
}

void kp_term_puts(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	for (; *p; p += n) {
		if (is_control(p, &n))
			fprintf(out, n == 2 ? "\\x%02x\\x%02x" : "\\x%02x", p[0], p[1]);
		else
			fputc(*p, out);
	}
}
