/*
 * rep.h: internals of `kpath report`, shared by its files and nothing else.
 *
 * The pipeline (report.c) is: parse the command line (rep_args.c), read the
 * profile through profile/profile.h and flatten each function's k-IPF into
 * sequences (rep_load.c, rep_model.c), rank them (rep_rank.c), render them
 * as text (rep_text.c) or JSON (rep_json.c).
 *
 * The model is the report's own: renderers never see profile.h, so a change
 * in the runtime's in-memory representation touches rep_load.c only.
 *
 * Invariants of a built, ranked report (checked by rep_check in debug
 * builds):
 *  - every rep_seq in f->single has depth 1, every one in f->multi depth >= 2;
 *  - f->flow is the sum of the counts in f->single, saturated at UINT64_MAX
 *    (f->flow_saturated is then set);
 *  - f->single is sorted by count desc, then id asc; f->multi by count desc,
 *    then depth desc, then ids lexicographically asc;
 *  - r->funcs is sorted by flow desc, then name, file, line asc; functions
 *    with flow 0 therefore come last;
 *  - f->decode is sorted by id with no duplicates.
 */
#ifndef KPATH_REP_H
#define KPATH_REP_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
	REP_EXIT_OK = 0,
	REP_EXIT_FAIL = 1,  /* unreadable profile, unknown function */
	REP_EXIT_USAGE = 2, /* bad command line */
};

/* rep_args.c */
enum rep_sort {
	REP_SORT_COUNT,  /* count desc, then longer first */
	REP_SORT_LENGTH, /* iterations desc, then count desc */
};

struct rep_opts {
	const char *profile;  /* the one positional argument */
	const char *function; /* --function RE (whole name), or NULL for all */
	const char *file;     /* --file RE (anywhere in the file), or NULL */
	size_t top;           /* --top N, rows per table; 0 = unlimited */
	size_t min_iter;      /* --min-iterations I: multi rows of >= I iterations */
	enum rep_sort sort;   /* --sort count|length (multi-iteration table) */
	int prefixes;         /* --prefixes: also rows that a longer row extends */
	int json;             /* --json */
	int help;             /* --help / -h: print usage, exit 0 */
	int force;            /* --force: read a profile that breaks invariants */
	const char *source_dir; /* --source-dir DIR: the source root (rep_src.h) */
};
#define REP_TOP_DEFAULT 10

/* Shared by the profile commands (report, merge, diff, show, html; their
 * options go through util/opts.h): a decimal N >= 0 with nothing after it;
 * 0 or -1. */
int rep_parse_count(const char *s, size_t *n);

/* Fills o from argv[1..argc).  On error prints a one-line reason and the
 * usage to err and returns REP_EXIT_USAGE; otherwise REP_EXIT_OK. */
int rep_args_parse(int argc, char **argv, struct rep_opts *o, FILE *err);
void rep_usage(FILE *out);

/* rep_model.c */

/* A sequence of depth consecutive Ball-Larus paths (loop iterations) that
 * ran count times: one k-IPF node and the labels on its root path. */
struct rep_seq {
	uint64_t count;
	uint32_t depth;      /* >= 1 */
	int extended;        /* the node has children: a recorded longer
	                        sequence starts with this one (a prefix row) */
	const uint64_t *ids; /* depth IDs in execution order; owned by the func */
};

/* The first source lines of the blocks on one Ball-Larus path. */
struct rep_decode {
	uint64_t id;
	uint32_t *lines;
	uint32_t *last_lines; /* NULL (no spans in the profile) or nlines entries */
	size_t nlines;
	size_t at;            /* index in the profile's "paths" (messages) */
};

/* The last line of the i-th block of d: its span's end, or its first line
 * when the profile has no spans. */
uint32_t rep_decode_last(const struct rep_decode *d, size_t i);
/* Whether a block of d spans line l. */
int rep_decode_has_line(const struct rep_decode *d, unsigned l);

/* A function's static graph (the profile's optional "cfg", validated by the
 * reader): each block's span and the Ball-Larus DAG, edges grouped by src
 * with increasing val.  nblocks 0 when the profile has none. */
struct rep_cfg_edge {
	uint32_t src, dst;
	uint64_t val;
};
struct rep_cfg {
	uint32_t nblocks, nedges;
	uint32_t *line, *last_line;
	struct rep_cfg_edge *edges;
};

struct rep_func {
	char *name, *file;
	char checksum[17];  /* 16 hex digits of the profile's checksum */
	char source_hash[17]; /* the profile's source_hash, "" if unknown */
	unsigned kiter_k;   /* "mode": "kiter" (docs/kiter-mode.md): its K; 0 in the default mode */
	/* "mode": "ppp" (docs/ppp.md): |I|, the interval, and the paths that
	 * ran outside I (residual) with their flow */
	int ppp;
	uint64_t ppp_interesting, ppp_interval, ppp_residual, ppp_residual_flow;
	size_t at;          /* index in the profile's "functions" (messages) */
	unsigned line;
	uint64_t num_paths, invalid_paths;
	uint64_t flow;      /* sum of level-1 counts, saturated */
	int flow_saturated; /* the true sum exceeded UINT64_MAX */
	struct rep_seq *single, *multi;
	size_t nsingle, nmulti, capsingle, capmulti;
	size_t nmulti_all;  /* multi-iteration sequences before rep_select */
	struct rep_decode *decode;
	size_t ndecode, capdecode;
	/* ID storage for the sequences: a list of chunks freed at once. */
	struct rep_chunk *chunks;
	struct rep_cfg cfg; /* the static graph (coverage.c) */
};

struct rep_report {
	const char *schema; /* static: the schema the reader accepted */
	unsigned k;
	uint64_t runs;
	uint64_t dropped; /* events the runtime lost for lack of memory */
	struct rep_func *funcs;
	size_t nfuncs;
};

/* All return 0, or -1 on allocation failure leaving f consistent. */
int rep_func_init(struct rep_func *f, const char *name, const char *file,
                  unsigned line, uint64_t num_paths, uint64_t invalid_paths);
/* Records the k-IPF node whose root path is ids[0..depth), copying ids. */
int rep_func_add_seq(struct rep_func *f, const uint64_t *ids, uint32_t depth,
                     uint64_t count, int extended);
/* Records that path id decodes to lines[0..n) (block first lines) and, if
 * not NULL, last_lines[0..n) (block last lines), copying both. */
int rep_func_add_decode(struct rep_func *f, uint64_t id,
                        const uint32_t *lines, const uint32_t *last_lines, size_t n);
/* The decoding of id, or NULL if the profile has none.  Requires ranking
 * (rep_rank_report), which sorts decode. */
const struct rep_decode *rep_func_lines(const struct rep_func *f, uint64_t id);
void rep_func_free(struct rep_func *f);
void rep_report_free(struct rep_report *r);

/* rep_load.c: the only file that knows profile/profile.h.  Reads path into
 * r (unranked).  On failure writes a reason (no file name, no newline) into
 * why and returns -1, leaving r empty.  With force, a profile that breaks
 * only the invariants (kp_profile_read_opts) is read: returns 1 and the
 * first violation in why. */
int rep_load(const char *path, int force, struct rep_report *r, char *why, size_t whylen);

/* The same from a profile already read (kpath html): 0, or -1 with the
 * reason in why, r then empty. */
struct kp_profile;
int rep_from_profile(const struct kp_profile *p, struct rep_report *r, char *why, size_t whylen);

/* rep_rank.c: sorts everything as the invariants above say. */
void rep_rank_report(struct rep_report *r);
/* Keeps in f->multi the rows the options ask for (>= min_iter iterations;
 * without prefixes, only the maximal ones: extended == 0) and sorts them by
 * o->sort.  Sets f->nmulti_all to the number before filtering. */
void rep_select_multi(struct rep_func *f, const struct rep_opts *o);
/* Percentage of flow that count represents; 0 when flow is 0. */
double rep_share(uint64_t count, uint64_t flow);
/* Rows to show of a table of n when the limit is top (0 = unlimited). */
size_t rep_shown(size_t n, size_t top);
#ifndef NDEBUG
/* The invariants above; multi is checked only for the count order (call it
 * before rep_select_multi). */
int rep_check(const struct rep_report *r);
/* rep_stale.c: for each source file of funcs[0..n) whose bytes under root
 * differ from the source_hash the profile recorded, one warning line
 * "kpath CMD: warning: FILE: differs ...: F G H" listing the functions
 * affected.  Files that cannot be read are not mentioned (the caller says
 * so if it needs them).  Returns the number of functions affected. */
struct rep_src_root;
size_t rep_warn_changed(FILE *err, const char *cmd, const struct rep_func *const *funcs, size_t n,
                        const struct rep_src_root *root);

#endif
/* Prints the source lines of ids[0..depth): "12 13 15" for one path,
 * "[12 13] -> [13 15]" for several; "?" undecoded, "-" no lines. */
void rep_print_lines(FILE *out, const struct rep_func *f, const uint64_t *ids,
                     uint32_t depth);

/* report.c: compiles RE for --function (whole = 1: the whole name must
 * match) or --file (whole = 0: a match anywhere); POSIX extended syntax.
 * Returns 0, or -1 after printing "kpath CMD: OPT 'RE': reason" to err. */
int rep_regex_compile(regex_t *re, const char *pattern, int whole,
                      const char *cmd, const char *opt, FILE *err);

/* rep_summary.c: the summary the text report opens with (functions run,
 * coverage.c's line, branch, function and path coverage of the whole of r;
 * sources under source_dir, NULL for the current directory).  0, or -1 on
 * a write error. */
int rep_summary_print(FILE *out, const struct rep_report *r, const char *path, const char *source_dir);
/* The same as a JSON object ("functions_run", "functions_total", and
 * "lines", "branches", "functions", "paths" each {covered, total, percent
 * (null: nothing to cover)}), or NULL when out of memory. */
typedef struct json_t json_t;
json_t *rep_summary_json(const struct rep_report *r, const char *path, const char *source_dir);

/* rep_text.c, rep_json.c.  funcs[0..n) are the functions to show, in
 * ranked order; selected is set when they were chosen with --function (the
 * text form then shows even a function that never ran in full).  Return 0,
 * or -1 on allocation failure or a write error. */
int rep_text_render(FILE *out, const struct rep_report *r, const char *path,
                    const struct rep_func *const *funcs, size_t n,
                    const struct rep_opts *o, int selected);
int rep_json_render(FILE *out, const struct rep_report *r, const char *path,
                    const struct rep_func *const *funcs, size_t n,
                    const struct rep_opts *o);

/* rep_json.c, for every --json writer of report/: a count as a JSON integer,
 * or as a decimal string above INT64_MAX (JSON readers lose precision past
 * 2^53 anyway; kpath's own readers take both); the source lines of path id
 * of f as an array, null when it does not decode.  NULL on ENOMEM. */
struct json_t;
struct json_t *rep_json_u64(uint64_t v);
struct json_t *rep_json_lines(const struct rep_func *f, uint64_t id);

/* rep_stale.c: for each source file of funcs[0..n) whose bytes under root
 * differ from the source_hash the profile recorded, one warning line
 * "kpath CMD: warning: FILE: differs ...: F G H" listing the functions
 * affected.  Files that cannot be read are not mentioned (the caller says
 * so if it needs them).  Returns the number of functions affected. */
struct rep_src_root;
size_t rep_warn_changed(FILE *err, const char *cmd, const struct rep_func *const *funcs, size_t n,
                        const struct rep_src_root *root);

#endif
