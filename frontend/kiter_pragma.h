/* kiter_pragma.h: #pragma kpath kiter(K) on loop statements (frontend/kiter_pragma.c). */
#ifndef KPATH_KITER_PRAGMA_H
#define KPATH_KITER_PRAGMA_H

#include <stdbool.h>

#include "build.h"
#include "rewrite.h"

struct kp_kiter_pragmas {
	struct rw_kiter_pragma *v;
	unsigned n, cap;
};

/* Reads the pragmas of an indexed file (src_index) into *out.  A malformed
 * one, or one not followed by a loop statement, prints FILE:LINE: error:
 * and the reason on stderr; the result is then false (the others are still
 * read, so that every error is reported). */
bool kp_kiter_pragmas_read(const struct src_file *src, struct kp_kiter_pragmas *out);
void kp_kiter_pragmas_free(struct kp_kiter_pragmas *p);

#endif
