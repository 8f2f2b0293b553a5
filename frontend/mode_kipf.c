/*
 * mode_kipf.c: the default mode (modes.h): Ball-Larus path IDs streamed
 * into the runtime's k-IPF (rewrite/place.c's rw_function).
 */
#include <stdio.h>

#include "modes.h"

static bool kipf_args(const struct kp_mode_args *a, bool selected, void **state)
{
	(void)a;
	(void)selected;
	*state = NULL;
	return true;
}

static const char *kipf_function(void *state, const struct kp_mode_fn *f, char *err, size_t errlen)
{
	(void)state;
	(void)err;
	(void)errlen;
	rw_function(f->rw, f->plan, f->dag, f->place);
	return NULL;
}

static void kipf_summary(void *state, const char *in, const struct kp_counts *c)
{
	(void)state;
	fprintf(stderr, "kpath: %s: %u functions instrumented, %u skipped, %u cut\n", in, c->instrumented, c->skipped,
	        c->cut);
}

const struct kp_mode_ops kp_mode_kipf = {
	.name = "kipf",
	.args = kipf_args,
	.cuts = true,
	.function = kipf_function,
	.summary = kipf_summary,
};
