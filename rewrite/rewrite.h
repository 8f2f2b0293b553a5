/*
 * rewrite.h: turns numbered CFGs and their sites into the instrumented
 * source text: the original with insertions only, a preamble (the runtime
 * ABI header and forward declarations of the descriptors) and, at the end,
 * each function's static descriptor.
 *
 * Every generated identifier starts with the file's prefix (chosen by the
 * caller so that no identifier of the program starts with it) or with
 * "kpath_rt_" (reserved for the runtime ABI).
 */
#ifndef KPATH_REWRITE_H
#define KPATH_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "build.h"
#include "array.h"
#include "cfg.h"
#include "placement.h"

struct rw_edit {
	uint32_t off;
	uint8_t phase;
	uint32_t seq;
	char *text;
};

struct rw_file {
	const char *prefix;       /* e.g. "kp_" */
	const char *src_name;     /* the original file as given: #line and descriptors */
	char src_hash[17];        /* rw_file_hash_source: 16 hex digits of the FNV-1a 64 of
	                             the file's bytes, "" if unknown (descriptors say NULL) */
	bool check;               /* testing aid: also report every edge to a checking runtime */
	char **check_tables;      /* check mode: per function, its edge table (preamble) */
	struct rw_edit *edits;
	uint32_t nedits, cap_edits;
	char **descs;             /* descriptor definitions, one per function */
	char **desc_names;        /* their identifiers */
	uint32_t ndescs, cap_descs;
	char *preamble_extra;     /* more preamble text (malloc'd, may be NULL): e.g. macros naming
	                             instrumented header copies */
	char *tail_extra;         /* more text at the end (malloc'd, may be NULL) */
	bool fallthrough;         /* some edit uses the fall-through marker (Pfallthrough) */
};

/* A 64-bit constant as C text in buf (at least RW_U64_MAX bytes): plain
 * decimal up to 2^31 - 1 (an int everywhere), else KPATH_RT_C(N) (an
 * unsigned long long constant that -std=c89 -pedantic accepts, see
 * runtime/kpath_rt.h).  Returns buf. */
#define RW_U64_MAX 48
char *rw_u64(char *buf, uint64_t v);

/* rewrite/bl_text.c: a Ball-Larus register reg's code for one edge as C
 * text appended to b: the ID an end reports ("reg + c", "reg - c", "reg"
 * or "c"), and the update ("reg = c", "reg += c", "reg -= c"; after ", "
 * when b is not empty). */
struct sb;
struct bl_code;
void rw_put_bl_end(struct sb *b, const char *reg, const struct bl_code *c);
void rw_put_bl_upd(struct sb *b, const char *reg, const struct bl_code *c);
/* The Ball-Larus descriptor of function name (struct kpath_rt_func p##fn_##name
 * and its tables) as output.c writes it, with num_paths as the ID space the
 * form's counters use (ppp: its interval; overlap: the Ball-Larus count). */
struct cfg;
struct bl_dag;
struct rw_file;
void rw_put_bl_descriptor(struct sb *b, const struct rw_file *f, const char *p, const char *name, unsigned line,
                          const struct cfg *g, const struct bl_dag *d, uint64_t num_paths);

void rw_file_init(struct rw_file *f, const char *prefix, const char *src_name, bool check);
void rw_file_free(struct rw_file *f);
/* The source hash of the exact bytes a file was parsed from (libclang's
 * buffer, before any macro expansion kpath does): 16 hex digits of their
 * FNV-1a 64 and a NUL.  Stored in f->src_hash, every descriptor of f
 * carries it (kpath_rt.h, source_hash): readers compare it with the file on
 * disk (report/rep_src.c computes the same). */
void rw_source_hash(const char *text, size_t len, char out[17]);

/*
 * The placement stage's input (cfgbuild/placement.h), read off the plan's
 * sites: blocks with a start site (split), setjmp restart blocks, and edges
 * whose code reads badly (a condition wrapper, an added else, inside an
 * expression).  in points into the arrays; rw_place_input_free frees them.
 */
struct rw_place_input {
	bool *split, *restart, *awkward;
	struct bl_place_in in;
};
void rw_place_input(const struct fn_plan *plan, struct rw_place_input *pi);
void rw_place_input_free(struct rw_place_input *pi);

/*
 * Writes the path-register arithmetic of one function as placed by the
 * placement stage (cfgbuild/placement.h: increments on chords only, an emit
 * and reset on each back or cut edge, the routine-entry event and the exit
 * emits) and adds its descriptor.  place must come from bl_place with
 * rw_place_input(plan); it cannot fail.
 */
void rw_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                 const struct bl_placement *place);

/* Repeat counting (repeat.c): the back edges of innermost straight loops
 * count their path in a local register; the edges leaving such a loop
 * hand the count to the runtime. */
extern bool rw_repeat_loops;  /* default true; kpath instrument --no-repeat */
struct rw_exit {
	uint32_t loop;            /* 1-based loop number */
	struct rw_exit *next;
};
struct rw_repeats {
	uint32_t nloops;
	uint64_t *k;              /* per loop (0-based): the ID counted */
	uint32_t *back;           /* per loop (0-based): its back edge */
	bool *deferred;           /* per loop (0-based): the first item waits for the exit too (place.c) */
	uint32_t *loop_of_back;   /* per CFG edge: its loop number if it is a counting back edge, else 0 */
	uint32_t *loop_of_block;  /* per block: the counting loop it is in, else 0 */
	struct rw_exit **exits;   /* per CFG edge: the loops it leaves (flush first) */
};
/* Finds the loops of plan (numbered as d; dag_edge: per CFG edge its DAG
 * edge or CFG_NONE, as in struct bl_placement) that count; none when
 * rw_repeat_loops is false. */
void rw_find_repeats(const struct fn_plan *plan, const struct bl_dag *d, const uint32_t *dag_edge,
                     struct rw_repeats *r);
void rw_repeats_free(struct rw_repeats *r, uint32_t nedges);

/* The whole output: preamble, original text with edits, descriptors.
 * out_name is used for the #line directive of the generated tail.
 * Returns a malloc'ed NUL-terminated buffer. */
char *rw_render(const struct rw_file *f, const char *text, size_t len, const char *out_name);

/* An insertion of text (no newline) at offset off, after the others there. */
void rw_insert(struct rw_file *f, uint32_t off, const char *text);
/* Moves the descriptors (and check tables) of src into dst: functions of a
 * header are placed with the header's edits but described in the main
 * file. */
void rw_adopt_descriptors(struct rw_file *dst, struct rw_file *src);
/* Room for one more descriptor in f (descs, desc_names, check_tables). */
void rw_reserve_descriptor(struct rw_file *f);
/* A header copy: "#line 1 LINE_NAME" (written as is: a string literal or
 * a macro naming one), then the text with f's edits (the descriptors live
 * in the main file's output).  preamble (may be NULL) comes first. */
char *rw_render_header(const struct rw_file *f, const char *text, size_t len, const char *line_name,
                       const char *preamble);

/*
 * A numbering mode's own code in place of the Ball-Larus register
 * (rewrite/kiter_form.c writes one): per CFG edge and per block start site
 * the C expression to run there (NULL: nothing), the declarations after the
 * body's "{" and the function's descriptor.  rw_function_form writes them
 * at the sites as rw_function would (same site texts, returns, tail calls,
 * fall-through markers, declaration blocks).
 */
/* "KPATH_RT_UNUSED " before the declarations a form inserts at a
 * function's top when its body holds an #if branch the parse skipped (the
 * compiler may build that branch, without the code that uses them:
 * cfgbuild/build.h, skips_text; rewrite/place.c does the same). */
#define RW_UNUSED(plan) ((plan)->skips_text ? "KPATH_RT_UNUSED " : "")

struct rw_form {
	char **edge_code;  /* per CFG edge */
	char **start_code; /* per block */
	char *entry;       /* declarations, with a leading space */
	char *desc, *desc_name;
};
void rw_function_form(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                      const struct bl_placement *place, const struct rw_form *form);
/* A mode's function written: its registration REG appended to the file's
 * tail, then rw_function_form; REG, form->entry and form->desc are freed. */
void rw_form_write(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                   const struct bl_placement *place, struct rw_form *form, char *reg);
/* Frees the per-edge and per-block code of a form (either may be NULL). */
void rw_form_code_free(char **edge_code, char **start_code, const struct cfg *g);

/* --mode kiter (rewrite/kiter_form.c, docs/kiter-paths.md): Roy & Srikant's
 * k-iteration path numbering, the code of Algorithm 3 on every edge. */
#define RW_KITER_MAX_K 16u          /* largest --kiter */
#define RW_KITER_LIMIT 1000000u     /* hard limit of a function's static paths: above it ki_fit lowers K */
/* --kiter-loop FILE:LINE=K: the K of the loop whose head block starts on
 * LINE of FILE (the line the output's comment and the profile give). */
struct rw_kiter_loop {
	const char *file;
	unsigned line, k;
	bool used;                  /* set when some loop head matched */
};
/* #pragma kpath kiter(K) in the file being rewritten (frontend/kiter_pragma.c):
 * the K of the loop statement whose keyword starts line loop_line. */
struct rw_kiter_pragma {
	unsigned line;              /* the pragma's line */
	unsigned loop_line;         /* the loop keyword's line */
	unsigned k;                 /* as written: 0 (acyclic) .. RW_KITER_MAX_K */
	bool used;                  /* set when a loop statement of a function matched */
};
struct rw_kiter_opts {
	unsigned k;                 /* K of every innermost loop not named below */
	struct rw_kiter_loop *loops; /* --kiter-loop: wins over a pragma on the same loop */
	unsigned nloops;
	struct rw_kiter_pragma *pragmas; /* the rewritten file's pragmas */
	unsigned npragmas;
};
struct rw_kiter_result {
	bool lowered;               /* ki_fit lowered some loop's K to fit RW_KITER_LIMIT */
	char note[256];             /* which loops, for the summary */
};
/* Instruments one function in kiter mode.  Returns NULL, or the reason the
 * function cannot be (err holds it when it is formatted). */
const char *rw_kiter_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                              const struct bl_placement *place, const struct rw_kiter_opts *o,
                              struct rw_kiter_result *res, char *err, size_t errlen);

/* --mode ppp (rewrite/ppp_form.c, docs/ppp.md): preferential path
 * profiling of the interesting set ids[0..nids) (Ball-Larus IDs of the
 * function's numbering), the other paths counted by Ball-Larus ID. */
#define RW_PPP_SLOT_LIMIT 16384u    /* largest counter array (section 5's policy) */
/* ppp mode (ppp_form.c): false (the default) lets a function whose ID
 * space fits the counter array classify its Ball-Larus ID by a table;
 * true gives every ppp function the two registers and the slot check
 * (kpath instrument --ppp-registers, a testing aid: tests/pppmode/fig3). */
extern bool rw_ppp_registers;
struct rw_ppp_result {
	uint32_t interesting;       /* |I| */
	uint64_t interval, nslots, num_paths;
	uint32_t demoted;           /* interesting paths above the slot limit (counted as residual) */
};
/* Instruments one function in ppp mode.  Returns NULL, or the reason it
 * cannot be (the caller then instruments it in plain Ball-Larus mode). */
const char *rw_ppp_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                            const struct bl_placement *place, const uint64_t *ids, uint32_t nids,
                            struct rw_ppp_result *res, char *err, size_t errlen);

/* --mode overlap (rewrite/overlap_form.c, docs/overlap-mode.md): Tallam,
 * Zhang & Gupta's OL paths of degree theta past every back edge, beside
 * the default mode's Ball-Larus code. */
#define RW_OVERLAP_MAX_DEGREE 64u   /* largest --degree */
struct rw_overlap_result {
	uint32_t loops;             /* loop heads (0: the default mode's code) */
};
/* Instruments one function in overlap mode.  Returns NULL, or the reason
 * it cannot be (in err). */
const char *rw_overlap_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                                const struct bl_placement *place, unsigned theta, struct rw_overlap_result *res,
                                char *err, size_t errlen);

#endif
