/*
 * coverage.h: line, branch, function and Ball-Larus path coverage derived
 * from path profiles (docs/coverage.md has the definitions and where they
 * differ from gcov's).
 *
 *   kpath coverage PROFILE... [--json] [--source-dir DIR]
 *                  [--fail-under-line P] [--fail-under-branch P]
 *                  [--fail-under-path P] [--fail-under-function P]
 *
 * Exit status: 0 all gates pass (or none given), 1 an input cannot be read
 * (nothing is printed on stdout), 2 command-line error, 3 coverage below a
 * --fail-under threshold (the summary is printed all the same).
 *
 * The model (cov_build) reads only the report's model (rep.h), which the
 * validated profile reader filled: no second JSON reader.
 */
#ifndef KPATH_COVERAGE_H
#define KPATH_COVERAGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { COV_EXIT_BELOW = 3 };

struct cov_counts {
	uint64_t covered, total; /* total saturates at UINT64_MAX (paths) */
};

/* A counted source line: the executions of the most-run block whose span
 * holds it (0: not covered). */
struct cov_line {
	uint32_t line;
	uint64_t count;
};

/* One branch: an out-edge of a block with two or more successors. */
struct cov_branch {
	uint32_t line;  /* the branching block's last line (its condition) */
	uint32_t block; /* lcov's block number: the block's id in its function */
	uint32_t index; /* the edge's rank among the block's out-edges (val order) */
	uint64_t count; /* times taken */
	uint32_t fn;    /* index of its function in the file's fns */
};

struct cov_fn {
	const char *name; /* owned by the profiles' model */
	uint32_t line;
	uint64_t entries;          /* activations seen (paths from the entry) */
	uint64_t flow;             /* completed paths */
	uint64_t paths_run;        /* distinct path IDs executed */
	uint64_t num_paths;        /* static Ball-Larus paths */
	int has_cfg;               /* lines and branches known */
};

struct cov_file {
	const char *file; /* owned by the profiles' model */
	const char *source_hash; /* a recorded source_hash of the file, "" if none */
	struct cov_line *lines;       /* sorted by line, unique */
	size_t nlines;
	struct cov_branch *branches;  /* by line, then function, block, index */
	size_t nbranches;
	struct cov_fn *fns;           /* by name, then checksum */
	size_t nfns;
	struct cov_counts line, branch, func, path;
};

struct cov_report {
	struct cov_file *files; /* sorted by name */
	size_t nfiles;
	struct cov_counts line, branch, func, path;
	size_t nocfg;           /* functions whose profile has no "cfg" */
	size_t twice;           /* functions present under two checksums */
};

struct rep_report;
/* Builds the coverage of the union of reps[0..n) (functions matched by
 * name, file and checksum count once; a function under two checksums counts
 * once per checksum).  The report keeps pointers into reps, which must
 * outlive it.  Returns 0, or -1 with a reason (JSON path of the offending
 * function) in why. */
int cov_build(struct cov_report *c, const struct rep_report *const *reps, const char *const *names, size_t n,
              char *why, size_t whylen);
void cov_free(struct cov_report *c);
/* Drops from f the lines for which keep(line, ctx) is 0, and recounts. */
void cov_filter_lines(struct cov_file *f, int (*keep)(uint32_t line, void *ctx), void *ctx);
/* Sums the files into the totals of c (after filtering). */
void cov_total(struct cov_report *c);
/* 100 * covered / total; -1 when total is 0 (nothing to cover). */
double cov_percent(struct cov_counts k);
/* "covered SEP total" into buf; a total the sums saturated (UINT64_MAX:
 * the Ball-Larus paths of functions with cut edges add up past 2^64) reads
 * ">= 2^64", not as a count (binutils' dwarf.c and readelf.c). */
void cov_frac(char *buf, size_t n, struct cov_counts k, const char *sep);

/* coverage_src.c: drops from every file of c whose source is readable
 * under source_dir (NULL: the current directory) with its recorded hash the
 * lines that hold no code, and recounts; warns on err (unless NULL), as
 * "kpath CMD: warning: ...", about the others.  Returns how many files
 * kept their blank and comment lines (source not read). */
size_t cov_filter_sources(struct cov_report *c, const char *source_dir, const char *cmd, FILE *err);

/* coverage_export.c: c as an lcov tracefile, or as Cobertura XML
 * (coverage-04.dtd) whose <source> is source_root.  0, or -1 on a write
 * error. */
int cov_write_lcov(FILE *out, const struct cov_report *c);
int cov_write_cobertura(FILE *out, const struct cov_report *c, const char *source_root);

/* coverage_cmd.c: argv[0] is "coverage" (or "export": kpath export
 * --format lcov|cobertura [-o OUT] PROFILE..., the export alone, on stdout
 * without -o). */
int kp_coverage_main(int argc, char **argv);
int kp_coverage_run(int argc, char **argv, FILE *out, FILE *err);
int kp_export_main(int argc, char **argv);

#endif
