/*
 * accumulate.c: adding a profile into the file KPATH_OUT, safely against
 * concurrent processes and against files we must not touch.
 *
 * Protocol: check that out can take a profile at all (out_path.c: not a
 * directory, its directory exists and is writable, its name leaves room
 * for the temporary file); flock(LOCK_EX) on "<out>.lock" (never removed:
 * removing a lock file races with the next locker); remove the temporary
 * files dead processes left beside out (stale.c); read out; if it is a
 * compatible profile (kp_profile_compatible: same k, same checksums) merge
 * and write it back atomically (temp file in the same directory, fsync,
 * rename), else if it does not exist write ours; else (malformed,
 * unreadable, incompatible) leave it untouched and accumulate into
 * "<out minus .json>.<pid>.json" beside it, saying why on stderr.  The lock
 * is held across read-merge-write, so concurrent runs lose nothing.  The
 * fallback file is this process's alone (its pid is in the name, and a
 * forked child forgets it, rt.c), so it is written without a lock file of
 * its own.
 *
 * Failures are not printed here: kp_accumulate fills err with "PATH:
 * reason" and the caller prints the one "profile NOT written" line.
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

/* The lock file's descriptor, locked; or -1 with err set.  Creating it
 * fails only where the temporary file of the write would fail too (the
 * same directory), so that is a write failure, not a reason to write
 * unlocked. */
static int lock_open(const char *out, char *err, size_t errlen)
{
	size_t n = strlen(out);
	char *lp = malloc(n + 6);
	if (!lp) {
		snprintf(err, errlen, "%s: out of memory", out);
		return -1;
	}
	memcpy(lp, out, n);
	memcpy(lp + n, ".lock", 6);
	int fd = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		snprintf(err, errlen, "%s: cannot create the lock file %s: %s", out, lp, strerror(errno));
	free(lp);
	if (fd >= 0)
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
			;
	return fd;
}

/* Merges p into out (or writes it there when out does not exist).  0 when
 * written; KP_EUNUSABLE when out exists but must be left as it is (err
 * says why); another error code when the write failed. */
#define KP_EUNUSABLE (-100)
static int merge_into_file(const char *out, struct kp_profile *p, char *err, size_t errlen)
{
	struct kp_profile old;
	int rc = kp_profile_read_hint(out, &old, p, err, errlen);
	if (rc == 0) {
		char why[768];
		rc = kp_profile_compatible(&old, p, why, sizeof why);
		if (rc == KP_ENOMEM) {
			snprintf(err, errlen, "%s: %s", out, why);
		} else if (rc != 0) {
			snprintf(err, errlen, "%s: %s", out, why);
			rc = KP_EUNUSABLE;
		} else if ((rc = kp_profile_merge_into(&old, p, err, errlen)) == 0) {
			rc = kp_profile_write_atomic(out, &old, err, errlen);
		}
	} else if (rc == KP_ENOENT) {
		rc = kp_profile_write_atomic(out, p, err, errlen);
	} else if (rc != KP_ENOMEM) {
		rc = KP_EUNUSABLE;
	}
	kp_profile_free(&old);
	return rc;
}

int kp_accumulate(const char *out, struct kp_profile *p, char **redirect, char *err, size_t errlen)
{
	int rc = kp_out_check(out, err, errlen);
	if (rc != 0)
		return rc;
	int fd = -1;
	if (redirect) {
		if ((fd = lock_open(out, err, errlen)) < 0)
			return KP_EIO;
		kp_stale_sweep(out);
	}
	rc = merge_into_file(out, p, err, errlen);
	if (fd >= 0)
		close(fd);
	if (rc != KP_EUNUSABLE)
		return rc;
	char *alt = redirect ? beside(out) : NULL;
	if (!alt) {
		if (!redirect) /* the fallback itself is unusable: say what it is */
			return KP_EIO;
		snprintf(err + strlen(err), errlen - strlen(err), "; no memory for another name");
		return KP_ENOMEM;
	}
	fprintf(stderr, "kpath: %s; left that file as it is, writing the profile to %s\n", err, alt);
	rc = kp_accumulate(alt, p, NULL, err, errlen);
	if (rc == 0)
		*redirect = alt;
	else
		free(alt);
	return rc;
}
