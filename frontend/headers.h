/*
 * headers.h: `kpath instrument --include-dir DIR`: functions defined in
 * headers under DIR are instrumented too.
 *
 * Every header under DIR that the translation unit includes is copied to
 * OUT_ROOT/<its path relative to DIR> (OUT_ROOT/<k>/<path> with several
 * directories, k = 0, 1... their order on the command line; instrumented where it defines
 * functions), and every `#include` of such a header, in the main file or in
 * a copy, is redirected to the copy by insertions only:
 *     #include "util.h"   ->   #include kp_inc_1a2b3c4d (slash-star)"util.h"(star-slash)
 * with `#define kp_inc_1a2b3c4d "/abs/OUT_ROOT/util.h"` in the main file's
 * preamble, so lines stay where they were and nothing else has to change in
 * the build.  A copy starts with `#line 1 "<the original's name>"`, so
 * __FILE__, messages and the profile's lines are the original's.  The
 * descriptors of header functions are static in the main file's output,
 * named "<header> (via <main file>)": a header included by two files gives
 * two separate, never conflicting, profile entries.
 */
#ifndef KPATH_HEADERS_H
#define KPATH_HEADERS_H

#include <clang-c/Index.h>
#include <stdbool.h>

#include "build.h"
#include "rewrite.h"

struct hdr {
	CXFile file;
	char *real;        /* realpath of the original */
	char *spelling;    /* clang's name for it (#line, __FILE__) */
	char *desc_name;   /* "<spelling> (via <main>)": the descriptors' file */
	char *out_path;    /* absolute path of the copy */
	char *macro;       /* the include macro naming the copy */
	struct src_file src;
	struct rw_file rw;
};

struct hdr_set {
	struct hdr *v;
	unsigned n, cap;
};

/* Finds the headers under dirs (nd of them) that tu includes and plans
 * their copies under out_root.  false with err set on a bad directory. */
bool hdr_collect(CXTranslationUnit tu, const char *main_path, const char *const *dirs, int nd,
                 const char *out_root, struct hdr_set *hs, char *err, size_t errsz);
/* The header holding file f, or NULL. */
struct hdr *hdr_find(struct hdr_set *hs, CXFile f);
/* Starts the rewriting of every header (rw_file_init with prefix) and adds
 * the include redirections to main_rw and to the headers' rw_files; the
 * macros naming the copies go to main_rw's preamble. */
void hdr_plan_edits(struct hdr_set *hs, CXTranslationUnit tu, CXFile main_file, const char *main_text,
                    size_t main_len, struct rw_file *main_rw, const char *prefix, bool check);
/* Moves the headers' descriptors into main_rw and writes every copy
 * (temporary file + rename).  false with err set when one cannot be
 * written. */
bool hdr_write(struct hdr_set *hs, struct rw_file *main_rw, char *err, size_t errsz);
void hdr_set_free(struct hdr_set *hs);

#endif
