/*
 * ppp_interesting.h: `kpath instrument --mode ppp`'s interesting sets
 * (frontend/ppp_interesting.c, docs/ppp.md).
 */
#ifndef KPATH_PPP_INTERESTING_H
#define KPATH_PPP_INTERESTING_H

#include <stdbool.h>
#include <stdio.h>

#include "build.h"
#include "cfg.h"
#include "placement.h"

struct rw_file;
struct kp_interesting;
struct kp_ppp_counts {
	unsigned ppp, plain;         /* functions in ppp mode, in plain Ball-Larus mode */
	unsigned long long interesting;
};

/* Reads PROFILE (top: --interesting-top P, < 0 for every path); NULL after
 * an error on stderr naming the file (missing, truncated, not a profile). */
struct kp_interesting *kp_interesting_load(const char *path, double top);
void kp_interesting_free(struct kp_interesting *s);
/* Instruments one function: ppp with its interesting set, or plain
 * Ball-Larus mode with a warning on msg naming the function and why (no
 * entry, another checksum, a kiter profile, no PPP placement). */
void kp_interesting_function(struct kp_interesting *s, struct rw_file *rw, const struct fn_plan *plan,
                             const struct bl_dag *dag, const struct bl_placement *place, const char *src_path,
                             FILE *msg, bool quiet);
const struct kp_ppp_counts *kp_interesting_counts(const struct kp_interesting *s);
/* Forgets the counts (a second walk of the same file). */
void kp_interesting_reset(struct kp_interesting *s);
/* After the walk: a warning when no function matched (another program). */
void kp_interesting_finish(const struct kp_interesting *s, const char *in);

#endif
