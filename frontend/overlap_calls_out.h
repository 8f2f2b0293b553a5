/* overlap_calls_out.h: the call sites in `kpath overlap estimate`
 * (overlap_calls_out.c; overlap_cmd.c calls it per function). */
#ifndef KPATH_OVERLAP_CALLS_OUT_H
#define KPATH_OVERLAP_CALLS_OUT_H

#include <stdbool.h>

#include <jansson.h>

#include "overlap_prof.h"

struct ov_call_totals {
	uint64_t flow[2], definite[2], potential[2]; /* Type I, Type II */
	unsigned unfinished;                         /* site types left in mid-path (not summed) */
};
/* Every call site of of's function: text on stdout, or one object per
 * site appended to jcalls; sums into t.  NULL or the reason. */
const char *ov_calls_func(const struct kp_profile *p, const struct ov_func *of, bool json, json_t *jcalls,
                          struct ov_call_totals *t);
/* The program's lines (text) or its calls_type1 / calls_type2 (into out). */
void ov_calls_totals(const struct ov_call_totals *t, bool json, json_t *out);

#endif
