/* overlap_calls_check.h: a call site's bounds against a trace's exact
 * counts (overlap_calls_check.c), for `kpath overlap check`. */
#ifndef KPATH_OVERLAP_CALLS_CHECK_H
#define KPATH_OVERLAP_CALLS_CHECK_H

#include "overlap_prof.h"
#include "overlap_trace.h"

struct ov_call_check {
	uint64_t *exact;      /* per pair p * nq + q of X */
	uint64_t real;        /* the trace's flow of X's type at the site */
	uint64_t outside;     /* exact flow of pairs with a half X does not have (bounds 0..0) */
	uint64_t pairs;       /* pairs checked: upper > 0 or exact > 0 */
	uint64_t exact_pairs; /* lower = exact = upper */
	uint64_t unsound;     /* lower > exact or exact > upper */
	uint64_t not_exact;   /* sound, lower < upper, at the maximum overlap */
};
/* X (of type 1 or 2) against xs (NULL: the trace saw no call there). */
void ov_call_check(const struct ov_call *X, const struct ov_xsite *xs, struct ov_call_check *c);
void ov_call_check_release(struct ov_call_check *c);

#endif
