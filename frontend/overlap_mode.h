/* overlap_mode.h: `kpath instrument --mode overlap --degree N` (the
 * frontend's half; rewrite/overlap_form.c writes the code) and `kpath
 * overlap` (overlap_cmd.c).  docs/overlap-mode.md. */
#ifndef KPATH_OVERLAP_MODE_H
#define KPATH_OVERLAP_MODE_H

#include <stdbool.h>
#include <stddef.h>

#include "build.h"
#include "rewrite.h"

/* --mode overlap and --degree: *overlap = N + 1 for --mode overlap
 * --degree N, 0 for any other mode.  False, with the reason on stderr, for
 * --degree without the mode, the mode without --degree, N not an integer
 * in 0..RW_OVERLAP_MAX_DEGREE, or --check. */
bool kp_overlap_args(const char *mode, const char *degree, bool check, unsigned *overlap);

/* Instruments one function (rw_overlap_function); NULL or the reason. */
const char *kp_overlap_function(struct rw_file *rw, const struct fn_plan *plan, const struct bl_dag *dag,
                                const struct bl_placement *place, unsigned theta, char *err, size_t errlen);

/* kpath overlap estimate|check ... */
int kp_overlap_main(int argc, char **argv);

#endif
