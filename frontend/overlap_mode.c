/*
 * overlap_mode.c: the command line of `kpath instrument --mode overlap
 * --degree N` (docs/overlap-mode.md).  The code itself is
 * rewrite/overlap_form.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap_mode.h"

bool kp_overlap_args(const char *mode, const char *degree, bool check, unsigned *overlap)
{
	bool is = mode && !strcmp(mode, "overlap");
	*overlap = 0;
	if (!is) {
		if (degree) {
			fprintf(stderr, "kpath instrument: --degree %s needs --mode overlap\n", degree);
			return false;
		}
		return true;
	}
	if (!degree) {
		fprintf(stderr, "kpath instrument: --mode overlap needs --degree N (an integer in 0..%u)\n",
		        RW_OVERLAP_MAX_DEGREE);
		return false;
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(degree, &end, 10);
	if (!*degree || *end || errno || degree[0] == '-' || degree[0] == '+' || v > RW_OVERLAP_MAX_DEGREE) {
		fprintf(stderr, "kpath instrument: --degree '%s': expected an integer in 0..%u\n", degree,
		        RW_OVERLAP_MAX_DEGREE);
		return false;
	}
	if (check) {
		fprintf(stderr, "kpath instrument: --check is for the kipf mode only (its checking runtime replays "
		        "Ball-Larus IDs)\n");
		return false;
	}
	*overlap = (unsigned)v + 1;
	return true;
}

const char *kp_overlap_function(struct rw_file *rw, const struct fn_plan *plan, const struct bl_dag *dag,
                                const struct bl_placement *place, unsigned theta, char *err, size_t errlen)
{
	struct rw_overlap_result res;
	return rw_overlap_function(rw, plan, dag, place, theta, &res, err, errlen);
}
