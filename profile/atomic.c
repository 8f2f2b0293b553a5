/*
 * atomic.c: kp_atomic_write (profile.h), the one way kpath replaces a file:
 * profiles (runtime and tool), WPP files (runtime), instrumented sources
 * and build files (frontend/), exports (report/).  The content goes to a
 * temporary file beside PATH (kp_tmp_name: "PATH.tmp.HOST.PID.N", so the
 * rename stays in one file system and runtime/stale.c can remove those of
 * dead processes), is flushed and fsync'd, and is renamed over PATH: a
 * reader sees the old file or the whole new one, never a part, and a
 * failure leaves no temporary file behind.  An existing PATH that is a
 * device, a FIFO or a socket (by itself or through a symbolic link) is
 * never replaced: "-o /dev/null" run as root would have left a regular
 * file in place of the machine's /dev/null.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_int.h"

int kp_atomic_write(const char *path, kp_fill_fn *fill, void *ctx, char *err, size_t errlen)
{
	static unsigned seq;
	char why[256] = "", *tmp = kp_tmp_name(path, __atomic_fetch_add(&seq, 1, __ATOMIC_RELAXED));
	int rc;
	struct stat st;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if (errlen)
			snprintf(err, errlen, "%s: not a regular file (a device, FIFO or socket): not replaced", path);
		free(tmp);
		return KP_EIO;
	}
	if (!tmp) {
		if (errlen)
			snprintf(err, errlen, "%s: out of memory", path);
		return KP_ENOMEM;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (errlen)
			snprintf(err, errlen, "%s: cannot create %s: %s", path, tmp, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return KP_EIO;
	}
	rc = fill(f, ctx, why, sizeof why);
	if (rc == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0)) {
		snprintf(why, sizeof why, "%s", strerror(errno));
		rc = KP_EIO;
	}
	if (fclose(f) != 0 && rc == 0) {
		snprintf(why, sizeof why, "%s", strerror(errno));
		rc = KP_EIO;
	}
	if (rc == 0 && rename(tmp, path) != 0) {
		snprintf(why, sizeof why, "rename from %s: %s", tmp, strerror(errno));
		rc = KP_EIO;
	}
	if (rc != 0) {
		if (errlen)
			snprintf(err, errlen, "%s: %s", path, why[0] ? why : "write error");
		unlink(tmp);
	}
	free(tmp);
	return rc;
}
