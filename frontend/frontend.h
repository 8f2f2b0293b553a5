/* frontend.h: the kpath subcommands the driver dispatches to. */
#ifndef KPATH_FRONTEND_H
#define KPATH_FRONTEND_H

/* kpath instrument: argv[0] is "instrument". Returns the exit status. */
int kp_instrument_main(int argc, char **argv);
/* kpath cfg: prints CFGs and Ball-Larus numberings (golden tests). */
int kp_cfg_main(int argc, char **argv);
/* kpath config: prints build settings for instrumented programs. */
int kp_config_main(int argc, char **argv);

/* Writes data to path through a temporary file in the same directory and a
 * rename, so that readers never see a partial file.  0, or -1 with errno. */
#include <stddef.h>
int kp_write_atomic(const char *path, const char *data, size_t len);

#endif
