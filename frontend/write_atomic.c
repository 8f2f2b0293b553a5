/* write_atomic.c: kp_write_atomic (frontend.h), the writer every output of
 * frontend/ goes through: kp_atomic_write of the profile component
 * (profile/atomic.c), which also writes profiles and WPP files. */
#include <stdio.h>
#include <string.h>
#include <errno.h>

#include "frontend.h"
#include "profile.h"

struct text {
	const char *data;
	size_t len;
};

static int fill_text(void *f, void *ctx, char *why, size_t whylen)
{
	const struct text *t = ctx;

	if (fwrite(t->data, 1, t->len, f) != t->len) {
		snprintf(why, whylen, "write error: %s", strerror(errno));
		return KP_EIO;
	}
	return 0;
}

int kp_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen)
{
	struct text t = { data, len };

	return kp_atomic_write(path, fill_text, &t, err, errlen) ? -1 : 0;
}
