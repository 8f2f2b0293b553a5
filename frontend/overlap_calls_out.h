/* overlap_calls_out.h: the call sites in `kpath overlap estimate`
 * (overlap_calls_out.c; overlap_cmd.c calls it per function). */
#ifndef KPATH_OVERLAP_CALLS_OUT_H
#define KPATH_OVERLAP_CALLS_OUT_H

#include <stdbool.h>

#include <jansson.h>

#include "overlap_prof.h"
#include "overlap_trace.h"

struct ov_call_totals {
	uint64_t flow[2], definite[2], potential[2]; /* Type I, Type II (check: the sites checked, the trace's flow) */
	uint64_t unfinished; /* estimate: site types left in mid-path (not summed); check: such sites */
	/* check: site types and pairs checked, their failures, sites not checked */
	uint64_t checked, pairs, exact_pairs, unsound, not_exact, mismatch, ambiguous;
};
/* Every call site of of's function: text on stdout, or one object per
 * site appended to jcalls; sums into t.  E: the exact counts of a trace
 * of the same run (check), or NULL (estimate).  NULL or the reason. */
const char *ov_calls_func(const struct kp_profile *p, const struct ov_func *of, const struct ov_calls_exact *E,
                          bool json, json_t *jcalls, struct ov_call_totals *t);
/* The program's lines (text) or its calls_type1 / calls_type2 and
 * calls_check (into out). */
void ov_calls_totals(const struct ov_call_totals *t, bool check, bool json, json_t *out);

#endif
