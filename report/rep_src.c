/*
 * rep_src.c: reading a source file a profile names (rep_src.h states the
 * rules: under the root, regular, bounded, matching the recorded hash).
 *
 * The order of the checks is what makes them hold: the name is resolved
 * with realpath (every symlink and ".." gone) and compared with the root's
 * real path, then the resolved name is opened with O_NOFOLLOW (a symlink
 * put there since is refused, not followed) and O_NONBLOCK (opening a FIFO
 * never waits), and only after fstat says "regular file" is anything read;
 * the read stops at REP_SRC_MAX + 1 bytes whatever the file claims.
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rep_src.h"

int rep_src_root_open(struct rep_src_root *r, const char *dir, char *why, size_t whylen)
{
	size_t n;

	r->real = realpath(dir ? dir : ".", NULL);
	if (!r->real) {
		snprintf(why, whylen, "%s: %s", dir ? dir : ".", strerror(errno));
		return -1;
	}
	n = strlen(r->real);
	while (n > 1 && r->real[n - 1] == '/')
		r->real[--n] = '\0';
	return 0;
}

void rep_src_root_close(struct rep_src_root *r)
{
	free(r->real);
	r->real = NULL;
}

void rep_src_hash(const char *text, size_t len, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
	snprintf(out, 17, "%016" PRIx64, h);
}

/* Whether real (a realpath) is root or below it. */
static int under(const char *root, const char *real)
{
	size_t n = strlen(root);

	if (!strcmp(root, "/"))
		return 1;
	return !strncmp(real, root, n) && (real[n] == '\0' || real[n] == '/');
}

/* Reads the regular file fd, at most REP_SRC_MAX bytes.  0 or -1 (errno;
 * EFBIG when larger). */
static int read_bounded(int fd, size_t size_hint, char **text, size_t *len)
{
	size_t cap = size_hint + 1 < 4096 ? 4096 : size_hint + 1, n = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return -1;
	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *g;

			if (cap > REP_SRC_MAX) {
				free(buf);
				errno = EFBIG;
				return -1;
			}
			g = realloc(buf, 2 * cap + 1);
			if (!g) {
				free(buf);
				return -1;
			}
			buf = g;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			free(buf);
			return -1;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > REP_SRC_MAX) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/* Whether text does not hash to hash (never when hash is unknown); got
 * receives text's hash. */
static int hash_differs(const char *text, size_t len, const char *hash, char got[17])
{
	rep_src_hash(text, len, got);
	return hash && *hash && strcmp(got, hash) != 0;
}

/* The length of file's name without the " (via MAIN.c)" that names the
 * file a header function was instrumented in (frontend/headers.c): the
 * header is "include/lib/util.h (via src/a.c)", its text is util.h's. */
static int name_len(const char *file)
{
	size_t n = strlen(file);
	const char *via = NULL, *p;

	for (p = strstr(file, " (via "); p; p = strstr(p + 1, " (via "))
		via = p;
	if (via && n > 0 && file[n - 1] == ')')
		n = (size_t)(via - file);
	return n > INT_MAX ? INT_MAX : (int)n;
}

int rep_src_read(const struct rep_src_root *r, const char *file, const char *hash, char **text, size_t *len,
                 char *why, size_t whylen)
{
	size_t n = strlen(r->real) + strlen(file) + 2;
	char *path = malloc(n), *real = NULL, got[17];
	struct stat st;
	int fd = -1, rc = REP_SRC_UNAVAILABLE, fl = name_len(file);

	*text = NULL;
	*len = 0;
	if (!path) {
		snprintf(why, whylen, "%s: out of memory", file);
		return rc;
	}
	if (file[0] == '/')
		snprintf(path, n, "%.*s", fl, file);
	else
		snprintf(path, n, "%s/%.*s", r->real, fl, file);
	if (!*file) {
		snprintf(why, whylen, "the profile names no file");
	} else if (!(real = realpath(path, NULL))) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
	} else if (!under(r->real, real)) {
		snprintf(why, whylen, "%s: outside the source root %s; not read (give --source-dir)", real, r->real);
	} else if ((fd = open(real, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)) < 0) {
		snprintf(why, whylen, "%s: %s", real, strerror(errno));
	} else if (fstat(fd, &st) < 0) {
		snprintf(why, whylen, "%s: %s", real, strerror(errno));
	} else if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "%s: not a regular file; not read", real);
	} else if ((uint64_t)st.st_size > REP_SRC_MAX) {
		snprintf(why, whylen, "%s: larger than %zu MiB; not read", real, REP_SRC_MAX >> 20);
	} else if (read_bounded(fd, (size_t)st.st_size, text, len) < 0) {
		snprintf(why, whylen, "%s: %s", real,
		         errno == EFBIG ? "grew past the size limit while read" : strerror(errno));
	} else if (hash_differs(*text, *len, hash, got)) {
		snprintf(why, whylen, "%s: differs from the file that was instrumented (source hash %s, "
		         "the profile's %s)", file, got, hash);
		free(*text);
		*text = NULL;
		*len = 0;
		rc = REP_SRC_CHANGED;
	} else {
		rc = REP_SRC_OK;
	}
	if (fd >= 0)
		close(fd);
	free(real);
	free(path);
	return rc;
}

int rep_src_rows_ok(uint64_t rows, uint64_t source_lines)
{
	return rows <= REP_SRC_ROWS_FLOOR + REP_SRC_ROWS_PER_LINE * source_lines;
}
