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

/* The hook between instrument.c's parse/build/number pipeline and paths.c:
 * kp_paths_parse runs the pipeline of `kpath cfg` on in (only the function
 * named only) and hands each numbered function to kp_paths_function instead
 * of dumping it.  Returns the pipeline's exit status (1 if the file does not
 * parse). */
struct kp_paths_req;
struct fn_plan;
struct bl_dag;
int kp_paths_parse(const char *in, const char **flags, int nflags, const char *only, struct kp_paths_req *req);
void kp_paths_function(struct kp_paths_req *req, const struct fn_plan *plan, const struct bl_dag *dag);

/* kpath config --libs as a string in buf (config.c); 0, or -1 when the
 * runtime is not found. */
int kp_config_libs(char *buf, size_t cap);
/* OUT_DIR/Makefile for kpath instrument -p (compdb_make.c): compiles the
 * entries of mirror (OUT_DIR/compile_commands.json) and links PROG with
 * libs.  0, or -1 with err set (nothing written). */
struct json_t;
int kp_compdb_makefile(const char *odir, struct json_t *mirror, const char *libs, char *err, size_t errlen);

/* Writes data to path through a temporary file in the same directory and a
 * rename, so that readers never see a partial file.  0, or -1 with errno. */
#include <stddef.h>
int kp_write_atomic(const char *path, const char *data, size_t len);

/* --mode and --kiter of kpath instrument (instrument.c): *k = 0 for the
 * default mode (kipf), K for --mode kiter; false with the reason on stderr
 * when malformed.  kpath instrument -p checks them the same way. */
bool kp_kiter_args(const char *mode, const char *kiter, bool check, unsigned *k);
/* --mode ppp --interesting PROFILE [--interesting-top P] (docs/ppp.md):
 * PROFILE with ppp and only then, P a number in 0..100 into *topv; false
 * with the reason on stderr.  kpath instrument -p checks them the same way. */
bool kp_ppp_args(const char *mode, const char *interesting, const char *top, bool check, double *topv);

#endif
