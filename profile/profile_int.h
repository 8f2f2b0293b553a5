/*
 * profile_int.h: what the profile component (profile/) offers beyond the
 * readers' interface profile.h: to its own files and to the runtime, which
 * builds k-IPFs, snapshots them into a kp_profile and accumulates it
 * (runtime/kp_internal.h includes this header).  report/ sees only
 * profile.h.
 *
 * The component's files:
 *   alloc.c          the allocation hook (tests inject failures through it)
 *   ipf.c            the k-IPF: building, joining, adding, compacting
 *   profile.c        kp_profile in memory: construction, lookup, canonical
 *                    order, compatibility, merging
 *   join.c           the functions two profiles have in common (merge-join)
 *   profile_json.c   reading JSON, with validation
 *   profile_slice.c  reading a function's arrays straight from the bytes
 *                    (the fast path of profile_json.c's reader)
 *   profile_write.c  writing JSON as a stream (compact, a function a line),
 *                    atomically
 *   profile_check.c  the invariants JSON types cannot state
 *   profile_cfg.c, profile_ppp.c, profile_overlap.c
 *                    a function's "cfg" and the fields of modes ppp, overlap
 *   profile_mode.c   a function's mode and payload in /1 and /2, the kiter
 *                    fields, the whole-program sections
 *   decode.c         Ball-Larus path ID -> source lines
 *   tmp_name.c       the temporary file names of atomic writes
 */
#ifndef KPATH_PROFILE_INT_H
#define KPATH_PROFILE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "kpath_rt.h"
#include "profile.h"

/* The k a new profile has before one is read or snapshotted. */
#define KP_KDEFAULT 4u

/* ---- allocation (alloc.c): one hook, so tests can inject failures ---- */
extern unsigned long kp_alloc_fail_every; /* 0: never fail; N: every N-th */
void *kp_malloc(size_t n);
void *kp_calloc(size_t n, size_t m);
void *kp_realloc(void *p, size_t n);
/* n zero bytes whose pages are committed only where they are written (an
 * anonymous private mapping with MAP_NORESERVE; calloc where there is
 * none): the counter arrays of functions with many paths, whose untouched
 * counters then cost address space only (runtime/counts.c).  One
 * allocation for kp_alloc_fail_every.  Freed by kp_sparse_free(p, n). */
void *kp_sparse_alloc(size_t n);
void kp_sparse_free(void *p, size_t n);
/* The pages of the sparse mapping p (n bytes, from kp_sparse_alloc) that
 * were ever written, so that a scan of its counters need not read (and
 * map) the rest: bit i of touched (n / page rounded up bits, which the
 * caller provides) is set for page i when the kernel has it present or
 * swapped out (/proc/self/pagemap bits 63 and 62; a page never written
 * is neither, as long as nobody read it either: a read maps the shared
 * zero page, which shows present, so the scans read only the pages set
 * here).  Returns the page size, or 0 when that cannot be known (no
 * pagemap, a calloc'd fallback, touched shorter than cap bytes would
 * need): then every page counts as written. */
size_t kp_sparse_touched(const void *p, size_t n, unsigned char *touched, size_t cap);
/* The runtime's growable array (it must never exit a program, so unlike
 * the tool's util/array.h it fails): ARR (capacity *cap elements of ELEM
 * bytes) with room for NEED, doubling from 16; NULL on failure, when ARR
 * and *cap are unchanged.  Use: q = kp_grow(a, &cap, n + 1, sizeof *a);
 * if (!q) ...; a = q; */
void *kp_grow(void *arr, size_t *cap, size_t need, size_t elem);

/* ---- k-IPF builder (ipf.c) ------------------------------------------- */

/* An empty forest: only the dummy root (node 0).  0 or KP_ENOMEM. */
int kp_ipf_init(struct kp_ipf *t);
void kp_ipf_free(struct kp_ipf *t);
/* Frees the lookup index (kp_ipf_child makes it again when needed): a
 * forest nothing joins into any more need not keep it. */
void kp_ipf_drop_index(struct kp_ipf *t);
/* Drops every node but the dummy root (keeps the memory). */
void kp_ipf_clear(struct kp_ipf *t);
/* Child of parent labelled id, or KP_NONE. */
uint32_t kp_ipf_find(struct kp_ipf *t, uint32_t parent, uint64_t id);
/* Child of parent labelled id, created with count 0 if absent: its index
 * in *child.  0 or KP_ENOMEM (then the forest is unchanged). */
int kp_ipf_child(struct kp_ipf *t, uint32_t parent, uint64_t id, uint32_t *child);
/* A new child of parent labelled id with count count, which the caller
 * knows parent has no child labelled id yet: no lookup, and t's index
 * (which it leaves stale) must have been dropped (kp_ipf_drop_index;
 * kp_ipf_child makes it again).  Its index in *child.  0 or KP_ENOMEM
 * (then the forest is unchanged). */
int kp_ipf_append(struct kp_ipf *t, uint32_t parent, uint64_t id, uint64_t count, uint32_t *child);
/* An empty dst made to share src's nodes when src is compact for k (its
 * stamp, struct kp_ipf) with a bare root: 1, and then src must outlive dst
 * unchanged, and dst is only read (asserted); else 0, nothing done (copy
 * it: kp_ipf_add_compact).  The runtime's exit snapshot takes a function's
 * global k-IPF so, under the lock every change to it holds. */
int kp_ipf_borrow(struct kp_ipf *dst, const struct kp_ipf *src, unsigned k);
/* Room for n nodes in t at once (without memory, t grows as before). */
void kp_ipf_reserve(struct kp_ipf *t, uint32_t n);
/* kp_ipf_append, linked after the sibling prev (the last so far) instead
 * of first (KP_NONE: the first child): appending children in increasing
 * id order, each before its own children, makes the compact form that
 * kp_ipf_compact would make (ipf.c), which the caller may then stamp. */
int kp_ipf_append_after(struct kp_ipf *t, uint32_t parent, uint32_t prev, uint64_t id, uint64_t count,
			uint32_t *child);
/* join_subtree(rho, gamma, d) of the k-BLPP paper (Algorithm "Subroutine
 * for joining trees during k-SF conversion"), with rho a node of another
 * k-IPF src: adds the subtree of depth < d below rho under gamma, summing
 * counters. */
int kp_ipf_join(struct kp_ipf *dst, uint32_t gamma, const struct kp_ipf *src, uint32_t rho, unsigned d);
/* dst += src, truncating src to depth k. */
int kp_ipf_add(struct kp_ipf *dst, const struct kp_ipf *src, unsigned k);
/* Rebuilds t in preorder with children sorted by id, without the nodes
 * deeper than k and without the subtrees whose counts are all zero (which
 * the delta of a kpath_dump can leave).  0 or KP_ENOMEM (t unchanged). */
int kp_ipf_compact(struct kp_ipf *t, unsigned k);
/* kp_ipf_add then kp_ipf_compact, in one copy when dst is empty.  0 or
 * KP_ENOMEM (dst then holds part of src: free it). */
int kp_ipf_add_compact(struct kp_ipf *dst, const struct kp_ipf *src, unsigned k);
/* Depth of the forest (0 if empty). */
unsigned kp_ipf_depth(const struct kp_ipf *t);

/* ---- profile invariants (profile_check.c) ----------------------------- */

/* NULL when the rule holds, else its text.  kp_rule_node: a k-IPF node
 * (is_root: no parent count to compare with). */
const char *kp_rule_node(uint64_t id, uint64_t count, uint64_t parent_count, int is_root, uint64_t num_paths,
			 int forked);
const char *kp_rule_path(const struct kp_path *q, uint64_t num_paths);
const char *kp_rule_hex16(const char *s);
/* profile_cfg.c: a function's "cfg" from JSON (profile_write.c writes
 * it): 0, or KP_ESCHEMA / KP_ENOMEM with the JSON path below "cfg" and the
 * reason in where (".edges[3]: expected ..."); only the types are checked
 * here, the rules by kp_rule_cfg. */
struct json_t;
int kp_cfg_from_json(struct json_t *o, struct kp_cfg *c, char *where, size_t wlen);
/* a + b, saturated at UINT64_MAX (merging never wraps a count: a wrapped
 * sum could fall below a child's, or to 0). */
static inline uint64_t kp_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* profile_ppp.c: the "ppp" fields on disk (counts from f's k-IPF), read
 * (NULL or the reason, with the field), and the counts checked. */
void *kp_ppp_json(const struct kp_func *f);
#ifdef JANSSON_H
const char *kp_ppp_read(const json_t *o, uint64_t num_paths, void **out, char *field, size_t fieldlen);
const char *kp_ppp_check_counts(const json_t *o, const struct kp_func *f, char *field, size_t fieldlen);
#endif

/* profile_overlap.c: the "overlap" fields on disk. */
#ifdef JANSSON_H
/* Reads and checks the fields of o (NULL or the reason, with the field). */
const char *kp_overlap_read(const json_t *o, uint64_t num_paths, void **out, char *field, size_t fieldlen);
#endif

/* profile_mode.c (docs/profile-schema.md, "From /1 to /2"). */
#ifdef JANSSON_H
/* The /2 payload of mode (a new object) from the flat /1 fields: every
 * "mode_X" becomes "X", "mode" is left out.  NULL on allocation failure. */
json_t *kp_payload_nest(const json_t *flat, const char *mode);
/* Function object o of a /2 file: its mode in *mode, and in *flat the flat
 * (/1) form of its payload (a new reference; NULL for kipf).  NULL, or the
 * rule broken with the field ("mode", "ppp", ...) in field. */
const char *kp_payload_read(const json_t *o, const char **mode, json_t **flat, char *field, size_t fieldlen);
/* Rewrites a /1 field name of the mode readers ("ppp_paths[2].count") into
 * its /2 JSON path ("ppp.paths[2].count"), in place. */
void kp_payload_field(char *field, size_t fieldlen);
/* The kiter fields of flat object o: NULL (kept in *out) or the reason. */
const char *kp_kiter_read(const json_t *o, void **out, char *field, size_t fieldlen);
/* The "program" object (profile_write.c writes it from p->totals): NULL
 * or the rule broken, with its JSON path in field.  p->runs is read
 * before. */
const char *kp_program_read(const json_t *prog, struct kp_profile *p, char *field, size_t fieldlen);
#endif

/* ---- sliced reading (profile_slice.c) ----------------------------------
 * The function-at-a-time reader (profile_json.c, read_sliced) reads the
 * hot arrays straight from the file's bytes.  A slice reader returns 0,
 * KP_ENOMEM, or KP_SLICE_UNCLEAN: not the writer's form, or a broken rule;
 * the caller then reads the whole file with jansson, which names the
 * error.  It accepts a subset of what the tree reader accepts and builds
 * the same data from it. */
#define KP_SLICE_UNCLEAN 1
/* Past JSON whitespace at s (e at most). */
const char *kp_skip_ws(const char *s, const char *e);
/* Just past the JSON value at s, found by its delimiters only (strings,
 * brackets; a scalar up to the next delimiter): NULL when it does not end
 * before e.  Not a validation: the value is parsed after. */
const char *kp_value_end(const char *s, const char *e);
/* An ID or count: a JSON integer up to INT64_MAX, or a string of decimal
 * digits as profile_json.c's get_u64 takes it: 0, or -1. */
int kp_slice_u64(const char **s, const char *e, uint64_t *out);
/* An object key without escapes, shorter than cap, and its ':' (*s is then
 * at the value): 0, or -1 (*s unchanged). */
int kp_slice_key(const char **s, const char *e, char *key, size_t cap);
/* open, then 0 at close (empty; *s past it), 1 at a first element (*s at
 * it), -1 without open. */
int kp_slice_open(const char **s, const char *e, char open, char close);
/* After an element: 1 at a ',' (*s then at the next element), 0 at close
 * (*s past it), -1 otherwise (a trailing comma too). */
int kp_slice_next(const char **s, const char *e, char close);
/* The readers of a function's arrays, each from the value at *s (advanced
 * past it): "paths" into f->paths (sorted by id, unique, every rule of
 * read_paths held), "cfg" into f->cfg (kp_rule_cfg held), "kipf" into t
 * (read_forest's rules: depth <= k, unique siblings, kp_rule_node). */
int kp_slice_paths(const char **s, const char *e, struct kp_func *f);
int kp_cfg_from_slice(const char **s, const char *e, struct kp_func *f);
int kp_slice_forest(const char **s, const char *e, struct kp_ipf *t, unsigned k, uint64_t num_paths, int forked);
#ifdef JANSSON_H
/* The key at s (just past its closing quote in *ke) as a jansson string,
 * NULL if it is not a valid one; plain ASCII keys, those writers write,
 * are taken without the parser. */
json_t *kp_slice_json_key(const char *s, const char *e, const char **ke);
/* The JSON value [s, e) (its bytes, from kp_value_end), NULL if invalid:
 * a string without escapes or control characters (json_stringn checks
 * UTF-8, as the parser does), a plain integer and the literals directly,
 * the rest by the parser. */
json_t *kp_slice_json_value(const char *s, const char *e);
#endif

/* kp_profile_read, for the runtime accumulating hint (its new profile)
 * into the file: the cfg of a function that hint holds with the same name,
 * file and checksum is copied from hint, not parsed, when the file's bytes
 * are the ones the writer makes of it (their count: kp_read_cfg_copies).
 * The same result as kp_profile_read; hint keeps the bytes of those cfgs
 * (struct kp_cfg, json). */
int kp_profile_read_hint(const char *path, struct kp_profile *p, struct kp_profile *hint, char *err, size_t errlen);
extern unsigned long kp_read_cfg_copies;
/* 1 for the bytes a JSON string holds as they are: printable ASCII (DEL
 * included) but '"' and '\\' (profile_write.c).  One load per byte in the
 * scans of names and files, which every function of a profile goes
 * through when written and read. */
extern const unsigned char kp_json_plain[256];

/* c->json from c (profile_write.c): 0 or KP_ENOMEM. */
int kp_cfg_json(struct kp_cfg *c);

/* profile_json.c: how many reads were not clean a function at a time and
 * went the whole-file way (tests check that clean files never do). */
extern unsigned long kp_read_fallbacks;
/* Tests: non-zero reads every file the whole-file way only, the oracle
 * the sliced read is compared with (tests/profile/test_slice.c). */
extern int kp_read_whole_file;

/* ---- atomic writes (tmp_name.c) ---------------------------------------- */

/* The temporary file for an atomic write of path: "PATH.tmp.HOST.PID.N"
 * (malloc'd, NULL on ENOMEM); the runtime removes those of dead
 * processes (runtime/stale.c). */
char *kp_tmp_name(const char *path, unsigned n);
/* This host's name ("localhost" if unknown), '/' replaced, in buf[cap]. */
void kp_hostname(char *buf, size_t cap);

#endif
