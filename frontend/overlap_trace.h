/* overlap_trace.h: the exact Type I and Type II counts of every call site
 * of a --mode overlap profile from a KPATH_TRACE of the same run
 * (overlap_trace.c), for `kpath overlap check` (docs/overlap-mode.md). */
#ifndef KPATH_OVERLAP_TRACE_H
#define KPATH_OVERLAP_TRACE_H

#include <stdint.h>

#include "overlap_prof.h"

#define OV_PAIR_SEP UINT32_MAX /* between the halves of a pair's block sequence */

/* One call site (an element of the caller's overlap_calls). */
struct ov_xsite {
	const struct kp_func *caller, *callee; /* callee: its overlap entry (same file) or NULL */
	uint32_t block;
	uint64_t calls;            /* the calls the trace matched to the site */
	uint64_t ambiguous;        /* paths through it whose callees did not match its sites one to one */
	struct ol_seqtab pairs[2]; /* Type I, II: first half, OV_PAIR_SEP, second half (blocks, as ov_decode) */
	uint64_t *n[2];            /* each pair's exact count */
	uint32_t cap[2];
};

struct ov_xfunc; /* overlap_trace.c */

struct ov_calls_exact {
	struct ov_xfunc *f; /* per --mode overlap function of the profile */
	size_t nf;
};

/* Reads trace against profile p.  0, or -1 with err = "TRACE: reason"
 * (not a trace, truncated, a trace of another program or numbering, a
 * path that does not decode).  ov_calls_exact_release in every case. */
int ov_calls_exact_read(struct ov_calls_exact *E, const struct kp_profile *p, const char *trace, char *err,
                        size_t errlen);
/* The site of caller at block, or NULL. */
const struct ov_xsite *ov_calls_exact_find(const struct ov_calls_exact *E, const struct kp_func *caller,
                                           uint32_t block);
void ov_calls_exact_release(struct ov_calls_exact *E);

#endif
