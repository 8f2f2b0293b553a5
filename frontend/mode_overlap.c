/*
 * mode_overlap.c: --mode overlap --degree N (modes.h; Tallam, Zhang &
 * Gupta's overlapping paths, docs/overlap-mode.md): each function is
 * rewritten by rewrite/overlap_form.c.  The driver treats conditions as
 * atomic in this mode (instrument_cmd.c: edges inside an expression have
 * no site for the OL code).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes.h"

/* --mode overlap and --degree N, N in 0..RW_OVERLAP_MAX_DEGREE, given with
 * the mode and only then; not with --check. */
static bool overlap_args(const struct kp_mode_args *a, bool selected, void **state)
{
	if (!selected) {
		if (a->degree) {
			fprintf(stderr, "kpath instrument: --degree %s needs --mode overlap\n", a->degree);
			return false;
		}
		return true;
	}
	const char *d = a->degree;
	if (!d) {
		fprintf(stderr, "kpath instrument: --mode overlap needs --degree N (an integer in 0..%u)\n",
		        RW_OVERLAP_MAX_DEGREE);
		return false;
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(d, &end, 10);
	if (!*d || *end || errno || d[0] == '-' || d[0] == '+' || v > RW_OVERLAP_MAX_DEGREE) {
		fprintf(stderr, "kpath instrument: --degree '%s': expected an integer in 0..%u\n", d, RW_OVERLAP_MAX_DEGREE);
		return false;
	}
	if (a->check)
		return kp_mode_check_refused();
	unsigned *theta = malloc(sizeof *theta);
	if (!theta)
		return false;
	*theta = (unsigned)v;
	*state = theta;
	return true;
}

static const char *overlap_function(void *state, const struct kp_mode_fn *f, char *err, size_t errlen)
{
	struct rw_overlap_result res;
	return rw_overlap_function(f->rw, f->plan, f->dag, f->place, *(unsigned *)state, &res, err, errlen);
}

static void overlap_summary(void *state, const char *in, const struct kp_counts *c)
{
	fprintf(stderr, "kpath: %s: %u functions instrumented (overlap degree %u), %u skipped, %u cut\n", in,
	        c->instrumented, *(unsigned *)state, c->skipped, c->cut);
}

const struct kp_mode_ops kp_mode_overlap = {
	.name = "overlap",
	.args = overlap_args,
	.cuts = false, /* rw_overlap_function refuses a function with cut edges */
	.function = overlap_function,
	.summary = overlap_summary,
	.free = free,
};
