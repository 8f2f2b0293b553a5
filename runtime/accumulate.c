/*
 * accumulate.c: adding a profile into the file KPATH_OUT, safely against
 * concurrent processes and against files we must not touch.
 *
 * Protocol: flock(LOCK_EX) on "<out>.lock" (never removed: removing a lock
 * file races with the next locker), then read <out>; if it is a compatible
 * profile (kp_profile_compatible: same k, same checksums) merge and write it
 * back atomically (temp file in the same directory, fsync, rename), else if
 * it does not exist write ours; else (malformed, unreadable, incompatible)
 * leave it untouched and accumulate into "<out minus .json>.<pid>.json"
 * beside it, saying so on stderr.  The lock is held across
 * read-merge-write, so concurrent runs lose nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "kp_internal.h"

static char *beside(const char *out)
{
	size_t n = strlen(out);
	if (n >= 5 && strcmp(out + n - 5, ".json") == 0)
		n -= 5;
	char *s = malloc(n + 32);
	if (s)
		snprintf(s, n + 32, "%.*s.%ld.json", (int)n, out, (long)getpid());
	return s;
}

static int lock_open(const char *out)
{
	size_t n = strlen(out);
	char *lp = malloc(n + 6);
	if (!lp)
		return -1;
	memcpy(lp, out, n);
	memcpy(lp + n, ".lock", 6);
	int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		fprintf(stderr, "kpath: %s: %s; writing without a lock\n", lp, strerror(errno));
	free(lp);
	if (fd >= 0)
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
			;
	return fd;
}

int kp_accumulate(const char *out, struct kp_profile *p, char **redirect)
{
	char err[1024];
	struct kp_profile old;
	int fd = lock_open(out);
	int rc = kp_profile_read(out, &old, err, sizeof err);
	if (rc == 0) {
		char why[768];
		rc = kp_profile_compatible(&old, p, why, sizeof why);
		if (rc != 0)
			snprintf(err, sizeof err, "%s: %s", out, why);
		if (rc == 0) {
			rc = kp_profile_merge_into(&old, p, err, sizeof err);
			if (rc == 0)
				rc = kp_profile_write_atomic(out, &old, err, sizeof err);
			if (rc != 0)
				fprintf(stderr, "kpath: %s\n", err);
			goto done;
		}
	} else if (rc == KP_ENOENT) {
		rc = kp_profile_write_atomic(out, p, err, sizeof err);
		if (rc != 0)
			fprintf(stderr, "kpath: %s\n", err);
		goto done;
	} else if (rc == KP_ENOMEM) {
		fprintf(stderr, "kpath: %s\n", err);
		goto done;
	}
	/* out exists but we must not touch it */
	kp_profile_free(&old);
	if (fd >= 0)
		close(fd);
	char *alt = redirect ? beside(out) : NULL;
	if (!alt) {
		fprintf(stderr, "kpath: %s; profile not written\n", err);
		return rc;
	}
	fprintf(stderr, "kpath: %s; left it as is, writing the profile to %s\n", err, alt);
	rc = kp_accumulate(alt, p, NULL);
	if (rc == 0)
		*redirect = alt;
	else
		free(alt);
	return rc;
done:
	kp_profile_free(&old);
	if (fd >= 0)
		close(fd);
	return rc;
}
