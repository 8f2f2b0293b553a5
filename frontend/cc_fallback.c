/*
 * cc_fallback.c: what kpath-cc says when a source ends up without path
 * profiling (cc_wrapper.c): one line per file, with the first error of the
 * step that failed, so a build log shows what happened and why without
 * KPATH_CC_VERBOSE; and KPATH_CC_STRICT=1, which makes that an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builds.h"

/* The first line of the file at path that holds "error" and, when prefer
 * is not NULL, names it (else the first line holding "error", else the
 * first non-blank line), without its newline, in buf; "" when the file is
 * empty or unreadable. */
static void first_error(const char *path, const char *prefer, char *buf, size_t cap)
{
	char line[1024], any_error[1024] = "", first[1024] = "";
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (!first[0] && line[strspn(line, " \t")])
			snprintf(first, sizeof first, "%s", line);
		if (!strstr(line, "error"))
			continue;
		if (!any_error[0])
			snprintf(any_error, sizeof any_error, "%s", line);
		if (prefer && strstr(line, prefer)) {
			snprintf(buf, cap, "%s", line);
			break;
		}
	}
	fclose(f);
	if (!buf[0])
		snprintf(buf, cap, "%s", any_error[0] ? any_error : first);
}

bool kp_cc_strict(void)
{
	const char *s = getenv("KPATH_CC_STRICT");
	if (!s || !*s || !strcmp(s, "0"))
		return false;
	if (strcmp(s, "1") != 0)
		fprintf(stderr, "kpath-cc: KPATH_CC_STRICT=\"%s\": expected 1 or 0; taken as 1\n", s);
	return true;
}

void kp_cc_fallback_note(const char *src, enum kp_cc_failure step, const char *log, const char *kept, bool strict)
{
	char err[1024];
	first_error(log, kp_base_name(src), err, sizeof err);
	const char *what = step == KP_CC_INSTRUMENT ? "kpath instrument failed" : "the instrumented file did not compile";
	const char *tail = kept ? "; the instrumented file is kept as " : step == KP_CC_COMPILE
			? " (KPATH_KEEP=DIR keeps the instrumented file)" : "";
	if (strict)
		fprintf(stderr, "kpath-cc: error: %s: %s (KPATH_CC_STRICT=1): %s%s%s\n", src, what,
			err[0] ? err : "no message", tail, kept ? kept : "");
	else
		fprintf(stderr, "kpath-cc: warning: %s compiled without path profiling: %s: %s%s%s\n", src, what,
			err[0] ? err : "no message", tail, kept ? kept : "");
}
