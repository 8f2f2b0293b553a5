/*
 * builds.h: kpath in real builds.
 *   ccargs.c     the compiler command-line model shared by both (what a gcc/clang
 *                driver command compiles, links, and which flags change parsing)
 *   cc_wrapper.c kpath-cc, the compiler wrapper (its own executable)
 *   cc_depfile.c its files: whole-file reads and writes, dependency files
 *   compdb.c     kpath instrument -p BUILD_DIR (compile_commands.json)
 */
#ifndef KPATH_BUILDS_H
#define KPATH_BUILDS_H

#include <stdbool.h>

/* A growable NULL-terminated argument vector (strings owned). */
struct kp_vec {
	char **v;
	int n, cap;
};
void kp_vec_push(struct kp_vec *a, const char *s);
void kp_vec_pushn(struct kp_vec *a, const char *s, size_t len);
void kp_vec_free(struct kp_vec *a);

/* Splits a command line like a POSIX shell does for words (quotes,
 * backslashes; no expansions).  Appends to out; false on an unterminated
 * quote. */
bool kp_shell_split(const char *s, struct kp_vec *out);

/* Expands @FILE response files (gcc's quoting rules, nested up to 10 deep)
 * of argv[0..argc) into out.  false (with out partly filled) when a response
 * file cannot be read; gcc then keeps "@FILE" as it is, and so does this. */
bool kp_expand_response_files(int argc, char **argv, struct kp_vec *out);

enum kp_mode {
	KP_MODE_LINK,       /* compile and/or link (no -c, -S, -E) */
	KP_MODE_COMPILE,    /* -c */
	KP_MODE_ASM,        /* -S */
	KP_MODE_PREPROCESS, /* -E, or -M/-MM without -MD/-MMD */
	KP_MODE_OTHER       /* -fsyntax-only, --version, -###, no inputs... */
};

/* What a compiler driver command (arguments without the compiler itself)
 * does, as far as kpath cares. */
struct kp_ccline {
	enum kp_mode mode;
	int *c_inputs;   /* indices in argv of the C sources it compiles */
	int n_c;
	int n_inputs;    /* all input operands (sources, objects, libraries) */
	int output;      /* index of -o's value (or of "-oFILE"), -1 if none */
	bool output_joined;
	struct kp_vec parse_flags; /* flags that change how the sources parse */
	bool shared, relocatable, nostdlib, has_debug;
	bool dep;        /* -MD or -MMD */
	int mf;          /* index of -MF's value, -1 if none */
	char *wp_depfile; /* FILE of -Wp,-MD,FILE / -Wp,-MMD,FILE */
};

/* Parses argv[0..argc) (the compiler's arguments, not the compiler). */
void kp_ccline_parse(int argc, char **argv, struct kp_ccline *cl);
void kp_ccline_free(struct kp_ccline *cl);
/* True for the name of a C source (".c"). */
bool kp_is_c_name(const char *path);
/* mkdir -p: creates dir and its missing parents (errors are left to the
 * caller's next open). */
void kp_mkdirs(const char *dir);
/* The last component of a path. */
const char *kp_base_name(const char *p);

/* kpath instrument -p BUILD_DIR [-o OUT_DIR]: argv[0] is "instrument".
 * Each entry goes through instrument (kp_instrument_main: passed in, so
 * that compdb.c and instrument_cmd.c do not call each other). */
typedef int kp_main_fn(int argc, char **argv);
int kp_compdb_main(int argc, char **argv, kp_main_fn *instrument);

/* kpath-cc's fallback (cc_fallback.c). */
enum kp_cc_failure { KP_CC_INSTRUMENT, KP_CC_COMPILE };
/* KPATH_CC_STRICT: "1" on; unset, empty or "0" off. */
bool kp_cc_strict(void);
/* One line on stderr: src goes without path profiling (strict: is not
 * compiled) because step failed; log holds that step's messages, whose
 * first error is quoted; kept names the kept instrumented file or is NULL. */
void kp_cc_fallback_note(const char *src, enum kp_cc_failure step, const char *log, const char *kept, bool strict);

/* kpath-cc's files (cc_depfile.c).  The whole file at path, NUL-terminated
 * (its length in *len unless len is NULL), or NULL when unreadable. */
char *kp_cc_slurp(const char *path, size_t *len);
bool kp_cc_write_file(const char *path, const char *data, size_t n);
/* p without the suffix of its base name ("obj/a.o" -> "obj/a"). */
char *kp_cc_strip_suffix(const char *p);
/* The directory part of source src with its last '/', as its command
 * spells it ("" for "b.c", "./" for "./b.c", "src//" for "src//b.c"): what
 * the compiler puts before the name of a "..." include it finds beside
 * the source. */
char *kp_cc_dir_prefix(const char *src);
/* TMPDIR/q<i>: the symbolic link to source i's directory that its "..."
 * includes are found through (cc_wrapper.c, quote_link). */
void kp_cc_quote_link_path(char *buf, size_t n, const char *tmpdir, int i);
/* Points the dependency files a command with the instrumented copies
 * (tmp_paths[i] in place of source i where done[i]) wrote at the original
 * sources, the headers found through their quote links, and the originals
 * of the instrumented header copies (include_dirs: KPATH_INCLUDE_DIR). */
void kp_cc_fix_depfiles(const struct kp_vec *args, const struct kp_ccline *cl, char **tmp_paths, const bool *done,
                        const char *tmpdir, const struct kp_vec *include_dirs);

/* kpath-cc's mode (cc_mode.c): KPATH_INSTRUMENT_MODE and its settings
 * (KPATH_KITER; KPATH_INTERESTING, KPATH_INTERESTING_TOP) appended to flags
 * as kpath instrument options; false, with the reason on stderr, when
 * malformed. */
bool kp_cc_mode_env(struct kp_vec *flags);
/* kpath instrument's exit status when --interesting's profile cannot be
 * read (missing, truncated, not a profile): under kpath-cc an error, never
 * a fallback to an unprofiled compile. */
#define KP_EXIT_INTERESTING 3

#endif
