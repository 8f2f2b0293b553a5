/*
 * profile.h: the kpath profile, in memory and on disk (schema
 * "kpath-profile/2"; "kpath-profile/1" files are still read).  The profile
 * component (profile/) is the ONE module that reads, validates, writes and merges profiles: the runtime uses it to
 * accumulate at exit, report/ uses it to read.  The kpath tool links it as
 * the static library kpath_profile (-ljansson); programs get it inside
 * libkpath_rt.a with every symbol but kpath_* made local
 * (runtime/CMakeLists.txt).  The runtime also uses profile_int.h (k-IPF
 * building, the allocation hook); readers need only this header.
 *
 * On disk (JSON, written in canonical order so that equal profiles are
 * byte-identical; compact, one function per line, profile_write.c; shown
 * here spaced out):
 *
 *   { "schema": "kpath-profile/2", "k": 4, "runs": 1, "dropped": 0,
 *     "program": { "totals": { "runs": 1, "threads": 1 } },
 *     "functions": [
 *       { "name": "f", "file": "corpus/loop.c", "line": 12,
 *         "checksum": "0123456789abcdef", "num_paths": 8,
 *         "invalid_paths": 0, "emitted": 14, "mode": "kipf",
 *         "paths": [ { "id": 6, "lines": [12, 13, 15, 18] } ],
 *         "kipf":  [ { "id": 6, "count": 1,
 *                      "children": [ { "id": 2, "count": 1,
 *                                      "children": [] } ] } ] } ] }
 *
 *  - functions are sorted by (file, line, name, checksum); "kipf" roots and
 *    every "children" list by id; "paths" by id.
 *  - "kipf" is the k-Iteration Path Forest of the k-BLPP paper (Definition
 *    "k-Iteration Path Forest"): the node reached by labels <a1..an> counts
 *    the occurrences of the n-gram <a1..an> (n <= k) of BL path IDs in the
 *    function's activations.  Depth never exceeds k; counts are > 0 and
 *    never increase going down (paper, Properties 1 and 2).
 *  - "paths" decodes every id that occurs in "kipf" into the first source
 *    line of each block the Ball-Larus path traverses.
 *  - "emitted" counts the valid path IDs emitted (the sum of the level-1
 *    counts, unless events were dropped); "invalid_paths" the IDs that were
 *    >= num_paths and not recorded; top-level "dropped" the events the
 *    runtime lost for lack of memory (0 in a healthy run).
 *  - "mode" is the function's profiling mode: "kipf" (the default), or
 *    "kiter", "ppp", "overlap", whose data is then one object under the
 *    key of the mode's name (profile_mode.c); "program" holds the
 *    whole-program sections (today "totals").  A /1 file has no "mode" in
 *    the default mode, the mode's fields flat in the function with the
 *    mode's name as prefix ("ppp_paths"), and no "program"
 *    (docs/profile-schema.md, "From /1 to /2").
 *  - IDs are JSON integers; an ID above INT64_MAX (possible only in a
 *    function with more than 2^63 paths) is written as a decimal string, and
 *    the reader accepts both.
 *
 * In memory, a function's k-IPF is a dense node array with integer links:
 * nodes[0] is the paper's dummy root phi (make_k_ipf), its children are the
 * trees of the forest; KP_NONE (0) ends a child or sibling list, since node 0
 * is never anyone's child.
 *
 * Errors: functions returning int return 0 on success and a negative
 * KP_E* code on failure, with a one-line message in err (when err != NULL)
 * of the form "PATH: reason".  They never exit or abort.
 */
#ifndef KPATH_PROFILE_H
#define KPATH_PROFILE_H

#include <stddef.h>
#include <stdint.h>


#define KP_SCHEMA "kpath-profile/2"    /* what every writer writes */
#define KP_SCHEMA_V1 "kpath-profile/1" /* still read */
#define KP_NONE 0u
#define KP_KMAX 64

enum {
	KP_OK = 0,
	KP_ENOENT = -1, /* the file does not exist */
	KP_EIO = -2,    /* open/read/write/fsync/rename failed */
	KP_EJSON = -3,  /* not JSON, or truncated */
	KP_ESCHEMA = -4,/* JSON, but not a kpath-profile/1 or /2 (or a bad field) */
	KP_ENOMEM = -5,
	KP_EINCOMPAT = -6 /* kp_profile_compatible: cannot accumulate */
};

/* One node of a k-IPF (or of a k-SF in the runtime): label, counter c(),
 * first child and next sibling as indices into the same array. */
struct kp_node {
	uint64_t id;    /* label: a Ball-Larus path ID */
	uint64_t count; /* c(node) */
	uint32_t first_child, next_sibling; /* KP_NONE if none */
};

/* A k-IPF: nodes[0] is the dummy root.  idx is a private lookup table
 * (parent, id) -> child, built on demand by the kp_ipf_* functions of the
 * runtime; readers ignore it. */
struct kp_ipf {
	struct kp_node *nodes;
	uint32_t n, cap;
	uint32_t *idx;
	uint32_t idx_cap, idx_used;
	/* Stamp of the last compaction (ipf.c): the forest was compact for
	 * depth compact_k when it had compact_n nodes.  It stays so while no
	 * node is added (n then grows) and counts only grow: kp_ipf_compact
	 * trusts it instead of walking the forest again.  0 when unknown. */
	uint32_t compact_n, compact_k;
	/* nodes are another forest's (kp_ipf_borrow): read, never changed
	 * nor freed through this one */
	int borrowed;
};

/* One decoded path: the first line of each block it traverses. */
struct kp_path {
	uint64_t id;
	uint32_t nlines;
	uint32_t *lines;
	/* NULL when unknown (a profile without "spans"), else nlines entries:
	 * the i-th block visited spans the lines [lines[i], last_lines[i]]. */
	uint32_t *last_lines;
	uint32_t json_index; /* its index in the file's "paths" (for messages) */
};

/* The function's static graph, copied from its descriptor (kpath_rt.h):
 * every block's source span and the Ball-Larus DAG with its vals.  Written
 * as the optional "cfg" of a function (docs/profile-schema.md); nblocks 0
 * when unknown (profiles written before it existed).  Coverage
 * (report/coverage.c) needs it: it holds the blocks no path ran. */
struct kp_cfg_edge {
	uint32_t src, dst;
	uint64_t val;
};
struct kp_cfg {
	uint32_t nblocks, nedges;
	uint32_t *line, *last_line; /* nblocks each; 0, 0 for a block without a line */
	struct kp_cfg_edge *edges;  /* grouped by increasing src, increasing val in a group */
	/* NULL, or the bytes the writer writes for this graph (json_len of
	 * them, not NUL-terminated): made once to compare with a file's
	 * (kp_profile_read_hint), then written as they are. */
	char *json;
	size_t json_len;
	/* line, last_line and edges are another owner's, who keeps them until
	 * the profile is freed (kp_cfg_borrow): never written, never freed,
	 * and shared, not copied, by kp_cfg_copy. */
	int borrowed;
};

struct kp_func {
	char *name, *file;
	unsigned line;
	char *checksum;        /* 16 hex digits */
	/* name, file and checksum are another owner's, kept until the profile
	 * is freed (kp_profile_add_func_borrowed): not freed with f */
	int borrowed_strings;
	char source_hash[17];  /* FNV-1a 64 of the source file's bytes, 16 hex
	                          digits; "" when unknown (older profiles) */
	uint64_t num_paths;
	uint64_t invalid_paths;
	uint64_t emitted;
	struct kp_ipf ipf;     /* the k-IPF, see above */
	struct kp_path *paths; /* sorted by id, unique */
	uint32_t npaths;
	/* A function's mode is the one of kiter, ppp, overlap that is not NULL
	 * (at most one is), else kipf (kp_func_mode).  In memory each keeps
	 * the mode's fields in their /1 form, a flat jansson object with the
	 * mode's name as prefix; the /2 writer and reader nest them under the
	 * mode's key (profile_mode.c).
	 * --mode kiter (docs/profile-schema.md, "kiter"): a jansson object of
	 * the fields "mode", "kiter_k", "kiter_loops"; NULL in the default
	 * mode.  Written into the function's object, read back, kept by merging. */
	void *kiter;
	/* --mode ppp (docs/profile-schema.md, "ppp", profile/profile_ppp.c): a
	 * jansson object of the interesting set (mode, ppp_interesting,
	 * ppp_interval, ppp_slots, ppp_paths [{id, ppp_id}]); NULL in the other
	 * modes.  The counts are the k-IPF's. */
	void *ppp;
	/* --mode overlap (docs/profile-schema.md, "overlap",
	 * profile/profile_overlap.c): a jansson object of the fields mode,
	 * overlap_degree, overlap_graph, overlap_dag_kinds, overlap_loops,
	 * overlap_counts; NULL in the other modes. */
	void *overlap;
	struct kp_cfg cfg;     /* the static graph, nblocks 0 if unknown */
};

struct kp_profile {
	unsigned k;        /* 1..KP_KMAX */
	uint64_t runs;
	uint64_t dropped;
	/* Some run was a process forked from an instrumented one while
	 * activations were live: their k-IPF sequences that began before the
	 * fork are counted in the child and their beginnings in the parent, so
	 * in this profile alone a node may count 0 or more than its parent
	 * (docs/profile-schema.md, "forked").  Sticky under merging. */
	int forked;
	/* The whole-program section "totals" (docs/profile-schema.md,
	 * "program"): the runs it covers (those whose writer knew it; at most
	 * runs) and the threads that ran instrumented code in them.  Summed by
	 * merging; {0, 0} is written as no section. */
	struct kp_totals {
		uint64_t runs, threads;
	} totals;
	/* The schema the reader found: 1 or 2 (KP_SCHEMA_V1, KP_SCHEMA); 2 for
	 * a profile made in memory.  Writers always write KP_SCHEMA. */
	unsigned version;
	struct kp_func *funcs;
	size_t nfuncs, cap;
};

/* An empty profile (no functions, runs = 0). */
void kp_profile_init(struct kp_profile *p, unsigned k);
void kp_profile_free(struct kp_profile *p);

/* Reads PATH into *p (which is initialised; free it with kp_profile_free
 * even on failure).  Distinguishes a missing file (KP_ENOENT), an I/O error,
 * invalid or truncated JSON (KP_EJSON, with line:column) and a wrong
 * schema/field (KP_ESCHEMA, naming the field, e.g.
 * "functions[2].kipf[0].count: expected a non-negative integer"). */
int kp_profile_read(const char *path, struct kp_profile *p, char *err, size_t errlen);
/* The same; with force set, a profile that breaks only the invariants of
 * kp_profile_check (and not the JSON types) is read anyway: the return is
 * then KP_FORCED and err holds the first violation. */
#define KP_FORCED 1
int kp_profile_read_opts(const char *path, struct kp_profile *p, int force, char *err, size_t errlen);

/* The invariants docs/profile-schema.md states that JSON types cannot
 * (profile_check.c): counts > 0, a child's count <= its parent's, IDs <
 * num_paths, depth <= k, line numbers >= 1, spans with first <= last,
 * 16-hex-digit checksums.  Returns 0, or KP_ESCHEMA with
 * "functions[I].FIELD (NAME): rule" in err. */
int kp_profile_check(const struct kp_profile *p, char *err, size_t errlen);

/* Replaces path atomically (atomic.c): fill writes the content to f (a
 * FILE *) and returns 0, or non-zero with a reason in why[whylen]; the
 * content goes to a temporary file beside path, fsync'd, renamed over it.
 * Returns 0, KP_ENOMEM, KP_EIO or fill's value, with "PATH: reason" in err
 * (nothing is left behind on failure). */
typedef int kp_fill_fn(void *f, void *ctx, char *why, size_t whylen);
int kp_atomic_write(const char *path, kp_fill_fn *fill, void *ctx, char *err, size_t errlen);

/* *twins: whether p lists a function twice (name, file and checksum),
 * which only a profile made in memory can; 0 or KP_ENOMEM. */
int kp_profile_has_twins(const struct kp_profile *p, int *twins);
/* Writes p to PATH atomically (kp_atomic_write), a function listed twice
 * added into one.  Sorts p into canonical order first. */
int kp_profile_write_atomic(const char *path, struct kp_profile *p, char *err, size_t errlen);
/* Writes p (canonical order) to an open stream. */
int kp_profile_write_file(void *stdio_file, struct kp_profile *p, char *err, size_t errlen);

/* Adds src into dst: runs, dropped, the totals, and per function (matched by
 * name + file + checksum through kp_profile_join, in O((n + m) log(n + m));
 * unmatched functions are appended in src's order) invalid_paths,
 * emitted, k-IPF counts and decoded paths.  If the two k differ, the result
 * has the smaller k and the deeper forest is truncated to it (paper,
 * Property 2: the k-IPF is the (k+1)-IPF without its level k+1).  On
 * failure (KP_ENOMEM) dst may hold part of src. */
int kp_profile_merge_into(struct kp_profile *dst, const struct kp_profile *src, char *err, size_t errlen);

/* Whether the runtime may accumulate b into the file holding a: same k, and
 * every function present in both (matched by name + file) has the same
 * checksum and mode.  Returns 0, KP_EINCOMPAT with the reason in err, or
 * KP_ENOMEM. */
int kp_profile_compatible(const struct kp_profile *a, const struct kp_profile *b, char *err, size_t errlen);

/* The functions a and b have in common: every pair (a->funcs[m.a],
 * b->funcs[m.b]) with the same name and file, whatever their checksums,
 * sorted by (m.b, m.a).  A merge-join of the two sorted by name and file
 * (join.c), neither profile being sorted itself.  *matches is malloc'd
 * (NULL when *n is 0); returns 0 or KP_ENOMEM. */
struct kp_match {
	size_t a, b;
};
int kp_profile_join(const struct kp_profile *a, const struct kp_profile *b, struct kp_match **matches, size_t *n);

/* Sorts functions, forests and paths into canonical order (done by the
 * writers; call it before comparing two profiles in memory). */
void kp_profile_sort(struct kp_profile *p);

/* "kipf", "kiter", "ppp" or "overlap" (struct kp_func: the mode whose
 * fields are not NULL). */
const char *kp_func_mode(const struct kp_func *f);

/* Looks up a function; NULL if absent.  checksum may be NULL (any). */
struct kp_func *kp_profile_find(struct kp_profile *p, const char *name, const char *file, const char *checksum);
/* The decoded path of id in f, or NULL. */
const struct kp_path *kp_func_path(const struct kp_func *f, uint64_t id);

/* Makes room for n functions in all (one allocation instead of a
 * doubling series; without memory, adding grows p as before). */
void kp_profile_reserve(struct kp_profile *p, size_t n);
/* Appends a new function (copies the strings) and returns it, or NULL. */
struct kp_func *kp_profile_add_func(struct kp_profile *p, const char *name, const char *file, unsigned line,
				    const char *checksum, uint64_t num_paths);
/* The same without copying the strings, which must outlive p (a runtime
 * descriptor's do: the exit writer's profile lives for one write). */
struct kp_func *kp_profile_add_func_borrowed(struct kp_profile *p, const char *name, const char *file,
					     unsigned line, const char *checksum, uint64_t num_paths);

/* Decoding a path ID (kpath_rt.h, struct kpath_rt_func): from ENTRY with
 * rest = id, at each block take the out-edge with the largest val <= rest,
 * subtract it, until EXIT; the result is the block_line of each visited
 * block, zeros skipped.  Edges must be grouped by increasing src, with
 * increasing val within a group.  A descriptor-like table: */
struct kpath_rt_edge; /* kpath_rt.h: src, dst, val */
struct kp_dag {
	unsigned num_blocks;
	const unsigned *block_line;
	unsigned num_edges;
	const struct kpath_rt_edge *edges;
	const unsigned *block_last_line; /* NULL if unknown */
};
/* Fills *lines (malloc'd, free it) and *nlines.  Returns 0, KP_ENOMEM, or
 * KP_ESCHEMA if id does not decode to an ENTRY-EXIT path (id out of range,
 * or a malformed table). */
int kp_decode_path(const struct kp_dag *dag, uint64_t id, uint32_t **lines, uint32_t *nlines);
/* The same, and when last_lines is not NULL and dag->block_last_line is
 * known, *last_lines (malloc'd, parallel to *lines: each block's last line,
 * never below its first) - else *last_lines = NULL. */
int kp_decode_spans(const struct kp_dag *dag, uint64_t id, uint32_t **lines, uint32_t **last_lines,
		    uint32_t *nlines);
/* The kiter fields of a function (struct kp_func, kiter): free, copy (NULL
 * stays NULL; NULL on OOM); the runtime makes them (kp_kiter_fields,
 * runtime/kiter.c). */
void kp_kiter_free(void *x);
void *kp_kiter_copy(const void *x);
/* Its kiter_k; 0 for NULL (the default mode). */
unsigned kp_kiter_k(const void *x);
/* The ppp fields (profile_ppp.c): free, copy, equal (both NULL or the same
 * interesting set); |I| and the interval (0, 0 for NULL); whether Ball-Larus
 * ID id is an interesting path with a slot (its PPP ID in *ppp_id). */
void kp_ppp_free(void *x);
/* The overlap fields (profile_overlap.c): free, copy, same degree and
 * graph (both NULL counts as the same), degree, and the sum of s's counts
 * into d (0 or KP_ENOMEM). */
void kp_overlap_free(void *x);
void *kp_overlap_copy(const void *x);
int kp_overlap_same(const void *a, const void *b);
unsigned kp_overlap_degree(const void *x);
int kp_overlap_merge(void *d, const void *s);
void *kp_ppp_copy(const void *x);
int kp_ppp_same(const void *a, const void *b);
void kp_ppp_info(const void *x, uint64_t *ninteresting, uint64_t *interval);
int kp_ppp_lookup(const void *x, uint64_t id, uint64_t *ppp_id);

/* Adds the decoded path of every id occurring in f's k-IPF that f->paths
 * lacks. */
int kp_func_decode_all(struct kp_func *f, const struct kp_dag *dag);

/* profile_cfg.c.  kp_cfg_set: copies a descriptor-like table into f->cfg
 * (replacing nothing: a no-op when f->cfg is known).  kp_cfg_copy: dst->cfg
 * from src->cfg when dst has none.  kp_cfg_free.  Both return 0 or
 * KP_ENOMEM.  kp_rule_cfg: NULL when c is well formed (every block's span
 * is [0, 0] or first <= last with first >= 1, ENTRY and EXIT exist, every
 * edge's ends are blocks, no edge leaves EXIT or enters ENTRY, edges are
 * grouped by increasing src with increasing val, every val is below
 * num_paths), else the rule broken, with *at the index of the offending
 * block (field 'b') or edge ('e'). */
int kp_cfg_set(struct kp_func *f, const struct kp_dag *dag);
/* kp_cfg_set without the copy where the table's arrays can serve as they
 * are (they then must outlive f's profile: a runtime descriptor's do). */
int kp_cfg_borrow(struct kp_func *f, const struct kp_dag *dag);
int kp_cfg_copy(struct kp_func *dst, const struct kp_func *src);
void kp_cfg_free(struct kp_cfg *c);
const char *kp_rule_cfg(const struct kp_cfg *c, uint64_t num_paths, char *field, uint32_t *at);

#endif
