/* write_atomic.c: kp_write_atomic (frontend.h), the writer every output of
 * frontend/ goes through. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"

/* Writes data to path through a temporary file in the same directory and a
 * rename, so that readers never see a partial file. */
int kp_write_atomic(const char *path, const char *data, size_t len)
{
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);
	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		int e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	bool ok = fwrite(data, 1, len, f) == len;
	ok &= fflush(f) == 0;
	int e = errno;
	ok &= fclose(f) == 0;
	if (ok && rename(tmp, path) == 0) {
		free(tmp);
		return 0;
	}
	e = errno ? errno : e;
	remove(tmp);
	free(tmp);
	errno = e;
	return -1;
}
