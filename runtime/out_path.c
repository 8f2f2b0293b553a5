/*
 * out_path.c: where the profile goes.  KPATH_OUT is a pattern, expanded at
 * each write (so a forked child's %p is its own pid):
 *   %p  the process id
 *   %h  the host name (gethostname)
 *   %m  the binary's signature: 16 hex digits, FNV-1a 64 of the running
 *       executable's path (/proc/self/exe), size and modification time, so
 *       a rebuilt binary gets another name and same-binary runs share one
 *   %%  a single %
 * Any other % is kept as written (kp_out_pattern_warn says so, once).
 *
 * kp_out_check says, before anything is created, why a path cannot take a
 * profile (a directory, a missing directory, a name too long for the
 * temporary file beside it), so the one "profile NOT written" line names
 * the real reason rather than the first low-level call that failed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kp_internal.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ull;
	return h;
}

static void binary_signature(char buf[17])
{
	char exe[PATH_MAX];
	struct stat st;
	uint64_t h = 0xcbf29ce484222325ull;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		h = fnv(h, exe, (size_t)n);
		exe[n] = 0;
		if (stat(exe, &st) == 0) {
			int64_t v[3] = { (int64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec };
			h = fnv(h, v, sizeof v);
		}
	}
	snprintf(buf, 17, "%016llx", (unsigned long long)h);
}

/* The offset of pattern's first % that is not %p, %h, %m or %%, or -1. */
static int kp_out_pattern_check(const char *pattern)
{
	for (const char *s = pattern; *s; s++)
		if (*s == '%') {
			if (s[1] != 'p' && s[1] != 'h' && s[1] != 'm' && s[1] != '%')
				return (int)(s - pattern);
			s++;
		}
	return -1;
}

void kp_out_pattern_warn(const char *var, const char *pattern)
{
	int bad = kp_out_pattern_check(pattern);
	if (bad >= 0)
		fprintf(stderr, "kpath: %s=\"%s\": \"%%%c\" is not a pattern (%%p pid, %%h host, %%m binary, "
			"%%%% a %%); kept as written\n", var, pattern, pattern[bad + 1] ? pattern[bad + 1] : ' ');
}

char *kp_out_expand(const char *pattern)
{
	size_t cap = strlen(pattern) + 1, n = 0;
	char *s = malloc(cap);
	for (const char *p = pattern; s && *p; p++) {
		char piece[80];
		const char *add = piece;
		piece[0] = *p;
		piece[1] = 0;
		if (*p == '%' && (p[1] == 'p' || p[1] == 'h' || p[1] == 'm' || p[1] == '%')) {
			p++;
			if (*p == 'p')
				snprintf(piece, sizeof piece, "%ld", (long)getpid());
			else if (*p == 'h')
				kp_hostname(piece, 65);
			else if (*p == 'm')
				binary_signature(piece);
		}
		size_t len = strlen(add);
		if (n + len + 1 > cap) {
			char *t = realloc(s, cap = 2 * cap + len);
			if (!t)
				free(s);
			s = t;
		}
		if (s) {
			memcpy(s + n, add, len);
			n += len;
		}
	}
	if (s)
		s[n] = 0;
	return s;
}

int kp_out_check(const char *path, char *err, size_t errlen)
{
	struct stat st;
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t dirlen = slash ? (size_t)(slash - path) : 0;
	/* the longest name kpath puts beside path: its temporary file
	 * (stale.c), whose last number may grow to 10 digits */
	char host[65];
	kp_hostname(host, sizeof host);
	size_t suffix = (size_t)snprintf(NULL, 0, ".tmp.%s.%ld.%u", host, (long)getpid(), UINT_MAX);
	if (strlen(path) + suffix >= PATH_MAX) {
		snprintf(err, errlen, "%.200s...: the path is %zu bytes long; with the temporary file's suffix it "
			 "would exceed PATH_MAX (%d)", path, strlen(path), PATH_MAX);
		return KP_EIO;
	}
	if (!*base || strlen(base) + suffix > NAME_MAX) {
		snprintf(err, errlen, "%s: the file name is %zu bytes long; kpath writes NAME.tmp.HOST.PID.N beside "
			 "it, and a name may have at most %d bytes", path, strlen(base), NAME_MAX);
		return KP_EIO;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: is a directory (KPATH_OUT names the profile file, e.g. %s/kpath.json)",
				 path, path);
			return KP_EIO;
		}
		if (!S_ISREG(st.st_mode)) {
			snprintf(err, errlen, "%s: not a regular file", path);
			return KP_EIO;
		}
		return 0;
	}
	if (errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return KP_EIO;
	}
	char *dir = malloc(dirlen + 2);
	if (!dir) {
		snprintf(err, errlen, "%s: out of memory", path);
		return KP_ENOMEM;
	}
	if (slash && dirlen == 0)
		memcpy(dir, "/", 2);
	else if (!slash)
		memcpy(dir, ".", 2);
	else {
		memcpy(dir, path, dirlen);
		dir[dirlen] = 0;
	}
	int rc = 0;
	if (stat(dir, &st) != 0) {
		if (errno == ENOENT)
			snprintf(err, errlen, "%s: the directory %s does not exist", path, dir);
		else
			snprintf(err, errlen, "%s: directory %s: %s", path, dir, strerror(errno));
		rc = KP_EIO;
	} else if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "%s: %s is not a directory", path, dir);
		rc = KP_EIO;
	} else if (access(dir, W_OK | X_OK) != 0) {
		snprintf(err, errlen, "%s: cannot create files in %s: %s", path, dir, strerror(errno));
		rc = KP_EIO;
	}
	free(dir);
	return rc;
}
