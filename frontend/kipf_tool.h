/*
 * kipf_tool.h: "kpath kipf": rebuilds a profile offline from a KPATH_TRACE
 * file, replaying every activation through the same k-SF code as the
 * runtime (so it writes the same profile the online run would have, for
 * any k).
 *
 *   kpath kipf --k K [-o OUT.json] TRACE
 *
 * argv[0] is "kipf".  Writes the profile (runs = 1) to OUT, atomically, or
 * to stdout.  Returns 0 on success, 1 on error (message on stderr, prefix
 * "kpath kipf: "), 2 on a usage error.
 */
#ifndef KPATH_KIPF_TOOL_H
#define KPATH_KIPF_TOOL_H

#include <stdbool.h>

int kp_kipf_main(int argc, char **argv);

struct kp_profile;
/* The replay itself: the k-IPF of trace into *p (kp_profile_init'ed here;
 * kp_profile_free it in every case).  0, or 1 with a message on stderr
 * prefixed "WHO: TRACE: ".  strict: a truncated trace is an error (else a
 * warning, and the complete part is used). */
int kp_kipf_replay(const char *trace, unsigned k, bool strict, const char *who, struct kp_profile *p);

#endif
