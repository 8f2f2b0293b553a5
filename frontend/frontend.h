/* frontend.h: the kpath subcommands the driver dispatches to. */
#ifndef KPATH_FRONTEND_H
#define KPATH_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>

/* kpath instrument: argv[0] is "instrument". Returns the exit status. */
int kp_instrument_main(int argc, char **argv);
/* kpath cfg: prints CFGs and Ball-Larus numberings (golden tests). */
int kp_cfg_main(int argc, char **argv);
/* kpath config: prints build settings for instrumented programs. */
int kp_config_main(int argc, char **argv);

/* kpath paths: lists a function's static Ball-Larus paths (paths.c). */
int kp_paths_main(int argc, char **argv);

/* kpath config --libs as a string in buf (config.c); 0, or -1 when the
 * runtime is not found. */
int kp_config_libs(char *buf, size_t cap);
/* OUT_DIR/Makefile for kpath instrument -p (compdb_make.c): compiles the
 * entries of mirror (OUT_DIR/compile_commands.json) and links PROG with
 * libs.  0, or -1 with err set (nothing written). */
struct json_t;
int kp_compdb_makefile(const char *odir, struct json_t *mirror, const char *libs, char *err, size_t errlen);

/* Writes data to path through a temporary file in the same directory and a
 * rename, so that readers never see a partial file.  0, or -1 with
 * "PATH: reason" in err. */
#include <stddef.h>
int kp_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errlen);

#endif
