/*
 * rep_src.h: the source files a profile names, read the one safe way, for
 * every reader that shows or checks them (report, show, html).
 *
 * A profile is data from anywhere: its "file" fields may name /etc/shadow,
 * ../../secret, /dev/zero or a FIFO.  So a source file is read only when
 *  - its real path (symlinks and ".." resolved) lies under the source root,
 *    itself resolved once with realpath (--source-dir, default the current
 *    directory); absolute names too must resolve under it;
 *  - it is a regular file (opened with O_NONBLOCK | O_NOFOLLOW, then
 *    fstat: no device, FIFO or socket is ever read from) of at most
 *    REP_SRC_MAX bytes;
 *  - and, when the profile records the function's source_hash, its bytes
 *    hash to it (FNV-1a 64, as rewrite/output.c's rw_source_hash): counts
 *    are shown only beside the lines they were recorded for.
 * Otherwise the reader says the source is unavailable, and why.  A name
 * ending in " (via MAIN.c)" (a header function instrumented with
 * --include-dir) is read without that suffix.
 */
#ifndef KPATH_REP_SRC_H
#define KPATH_REP_SRC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define REP_SRC_MAX ((size_t)64 << 20) /* bytes: larger sources are refused */

struct rep_src_root {
	char *real; /* realpath of the root, no trailing '/' (except "/") */
};

/* Resolves dir (NULL: the current directory).  0, or -1 with a reason. */
int rep_src_root_open(struct rep_src_root *r, const char *dir, char *why, size_t whylen);
void rep_src_root_close(struct rep_src_root *r);

enum {
	REP_SRC_OK = 0,
	REP_SRC_UNAVAILABLE = -1, /* missing, outside the root, not regular, too big, I/O */
	REP_SRC_CHANGED = -2,     /* read, but its hash is not the recorded one */
};

/* Reads file (a profile's "file": relative to the root, or absolute) into
 * *text (malloc'd, NUL-terminated, *len bytes).  hash: the recorded
 * source_hash, or NULL/"" to skip the comparison.  On failure *text is NULL
 * and why says why, starting with the path. */
int rep_src_read(const struct rep_src_root *r, const char *file, const char *hash, char **text, size_t *len,
                 char *why, size_t whylen);

/* 16 hex digits and NUL: FNV-1a 64 of text[0..len). */
void rep_src_hash(const char *text, size_t len, char out[17]);

/* Output bound for per-line views: the rows of all functions' line tables
 * together may not exceed REP_SRC_ROWS_PER_LINE times the lines of the
 * sources read plus REP_SRC_ROWS_FLOOR, so that a small profile whose
 * many functions each claim a whole large file cannot make a reader write
 * without bound.  (Functions of one file normally cover disjoint lines;
 * macro-generated ones may share some.) */
#define REP_SRC_ROWS_PER_LINE 16
#define REP_SRC_ROWS_FLOOR 100000
int rep_src_rows_ok(uint64_t rows, uint64_t source_lines);

#endif
