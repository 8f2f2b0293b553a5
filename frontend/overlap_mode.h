/* overlap_mode.h: `kpath overlap estimate|check` (overlap_cmd.c,
 * docs/overlap-mode.md); the instrument mode is mode_overlap.c. */
#ifndef KPATH_OVERLAP_MODE_H
#define KPATH_OVERLAP_MODE_H

/* kpath overlap estimate|check ... */
int kp_overlap_main(int argc, char **argv);

#endif
