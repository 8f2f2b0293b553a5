/*
 * stale.c: the temporary files of atomic writes, and removing those a
 * killed process left.
 *
 * A profile is written to "<out>.tmp.<host>.<pid>.<n>" and renamed onto
 * <out> (profile/profile_json.c).  A process killed between the two (kill -9, a
 * crash in another thread) leaves its temporary file behind.  Before each
 * write, the writer removes every "<out>.tmp.H.P.N" beside <out> that is
 * certainly dead, which needs all three:
 *   - H is this host's name: a pid means nothing on another host sharing
 *     the directory (NFS);
 *   - kill(P, 0) fails with ESRCH: no process P exists here (EPERM means
 *     one does);
 *   - the file was last modified KP_STALE_AGE seconds ago or earlier: a
 *     process of another pid namespace with the same host name (a
 *     container sharing the directory) may be writing it now, and no write
 *     takes that long.
 * Anything else stays.  Files named by kpath before the host was part of
 * the name ("<out>.tmp.P.N") are left alone, since their host is unknown.
 */
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kp_internal.h"

#define KP_STALE_AGE 60

/* The pid of a temporary file's name "H.P.N" (what follows ".tmp.") when H
 * is host and P, N are decimal numbers; else 0. */
static long tmp_pid(const char *rest, const char *host)
{
	const char *dot_n = strrchr(rest, '.');
	if (!dot_n || dot_n == rest || !dot_n[1] || strspn(dot_n + 1, "0123456789") != strlen(dot_n + 1))
		return 0;
	const char *dot_p = dot_n - 1;
	while (dot_p > rest && *dot_p != '.')
		dot_p--;
	if (*dot_p != '.' || dot_p + 1 == dot_n || (size_t)(dot_p - rest) != strlen(host) ||
	    strncmp(rest, host, strlen(host)) != 0)
		return 0;
	long pid = 0;
	for (const char *s = dot_p + 1; s < dot_n; s++) {
		if (*s < '0' || *s > '9' || pid > 99999999)
			return 0;
		pid = pid * 10 + (*s - '0');
	}
	return pid;
}

void kp_stale_sweep(const char *out)
{
	const char *slash = strrchr(out, '/');
	const char *base = slash ? slash + 1 : out;
	size_t dirlen = slash ? (size_t)(slash - out) : 0;
	char *dir = malloc(dirlen + 2), *prefix = malloc(strlen(base) + sizeof ".tmp.");
	char host[65];
	DIR *d = NULL;
	if (!dir || !prefix)
		goto out;
	memcpy(dir, slash ? out : ".", slash ? (dirlen ? dirlen : 1) : 1);
	dir[slash ? (dirlen ? dirlen : 1) : 1] = 0;
	snprintf(prefix, strlen(base) + sizeof ".tmp.", "%s.tmp.", base);
	kp_hostname(host, sizeof host);
	d = opendir(dir);
	if (!d)
		goto out;
	size_t plen = strlen(prefix);
	time_t now = time(NULL);
	for (struct dirent *e; (e = readdir(d));) {
		if (strncmp(e->d_name, prefix, plen) != 0)
			continue;
		long pid = tmp_pid(e->d_name + plen, host);
		struct stat st;
		if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
		    now - st.st_mtime < KP_STALE_AGE)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0)
			fprintf(stderr, "kpath: removed %s/%s, left by process %ld (no longer running)\n", dir,
				e->d_name, pid);
	}
out:
	if (d)
		closedir(d);
	free(dir);
	free(prefix);
}
