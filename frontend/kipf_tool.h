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

int kp_kipf_main(int argc, char **argv);

#endif
