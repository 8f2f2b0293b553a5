/*
 * wpp.h: reading whole program paths (KPATH_MODE=wpp files,
 * docs/wpp-format.md) and analysing them: expansion, statistics and the
 * hot subpaths of Larus, "Whole Program Paths" (PLDI 1999; the "WPP
 * paper"), section 4.2.  The kpath commands "wpp" and "trace" live here
 * too (wpp_cmd.c, trace_dump.c).
 *
 * A grammar's symbols are 2t for terminal t and 2r+1 for rule r; rule 0
 * is the start rule S.  wpp_read accepts a grammar only when every symbol
 * refers to an existing terminal or rule (never S), every terminal to an
 * existing function, the rules form a DAG and S expands to exactly
 * `length` symbols, so the functions below need no further checks.
 */
#ifndef KPATH_WPP_H
#define KPATH_WPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h" /* struct kp_dag */

struct wpp_func {
	char *name, *file, *checksum;
	char *source_hash; /* 16 hex digits, or NULL when the descriptor has none */
	unsigned line;
	uint64_t num_paths;
	struct kp_dag dag; /* owned arrays */
};

struct wpp_term {
	uint32_t func;
	uint64_t id;
};

struct wpp_grammar {
	uint64_t thread, length, dropped;
	uint32_t nterms;
	struct wpp_term *terms;
	uint32_t nrules;
	uint64_t *start; /* rule r's right side: syms[start[r] .. start[r + 1]) */
	uint32_t *syms;
};

struct wpp_file {
	char *path;
	struct wpp_func *funcs;
	uint32_t nfuncs;
	struct wpp_grammar *g; /* in thread order */
	uint32_t ng;
};

#define WPP_SYM_IS_RULE(s) ((s) & 1u)
#define WPP_SYM_VAL(s) ((s) >> 1)

/* Reads and checks path.  0, or -1 with err = "PATH: reason" (nothing
 * else is kept: *w is empty). */
int wpp_read(const char *path, struct wpp_file *w, char *err, size_t errlen);
void wpp_free(struct wpp_file *w);
/* The checks wpp_read applies to each grammar (nfuncs: functions the
 * terminals may name).  NULL or the reason. */
const char *wpp_grammar_check(const struct wpp_grammar *g, uint32_t nfuncs);

/* Rules in post order from S (every rule after the rules it refers to;
 * S last): malloc'd array of nrules, NULL on ENOMEM. */
uint32_t *wpp_postorder(const struct wpp_grammar *g);
/* Each rule's frequency: the number of DAG paths from S to it (the WPP
 * paper, section 3.3: how often it occurs in the derivation), saturated at
 * UINT64_MAX.  malloc'd, NULL on ENOMEM. */
uint64_t *wpp_frequencies(const struct wpp_grammar *g);
/* Calls fn(arg, terminal) for the expansion of rule r, in order; stops
 * when fn returns non-zero (and returns that).  -1 on ENOMEM. */
int wpp_expand(const struct wpp_grammar *g, uint32_t r, int (*fn)(void *arg, uint32_t term), void *arg);

/* ---- hot subpaths (wpp_hot.c) ------------------------------------------ */

enum wpp_hot_method {
	WPP_HOT_EXACT,  /* every minimal hot subpath, exact frequency (wpp_hot_exact.c) */
	WPP_HOT_FIGURE7 /* the paper's Figure 7 traversal: a sound subset (wpp_hot.c) */
};

struct wpp_hot_opts {
	unsigned min_len, max_len; /* 1 <= min_len <= max_len */
	uint64_t min_cost;
	const uint64_t *term_cost;   /* a path's cost, per terminal */
	enum wpp_hot_method method;  /* WPP_HOT_EXACT when zero-initialised */
};

struct wpp_hot {
	uint32_t *terms;  /* len terminals */
	unsigned len;
	uint64_t freq;    /* EXACT: occurrences in the stream; FIGURE7: the frequency of the rule where it was found */
	uint64_t cost;    /* freq x sum of term_cost, saturated */
	uint32_t rule;    /* FIGURE7: that rule; EXACT: the most frequent rule where an occurrence crosses symbols */
};

/* The minimal hot subpaths of g by o->method (docs/wpp.md says exactly
 * what each reports).  EXACT: every distinct subpath s, min_len <= |s| <=
 * max_len, with occurrences x cost(s) >= min_cost and no shorter prefix
 * of length >= min_len as hot, in trie order.  FIGURE7: Figure 7 of the
 * WPP paper with the corrections of docs/wpp.md, in the order the
 * traversal reports them.  0 or -1 (ENOMEM). */
int wpp_hot_find(const struct wpp_grammar *g, const struct wpp_hot_opts *o, struct wpp_hot **out, size_t *n);
int wpp_hot_exact(const struct wpp_grammar *g, const struct wpp_hot_opts *o, struct wpp_hot **out, size_t *n);
int wpp_hot_figure7(const struct wpp_grammar *g, const struct wpp_hot_opts *o, struct wpp_hot **out, size_t *n);
void wpp_hot_free(struct wpp_hot *h, size_t n);

/* A path's cost (docs/wpp.md): BLOCKS, its blocks that have a source line
 * (the lines kpath report prints for it; 1 for an ID that does not decode,
 * or a path without lines); UNIT, 1. */
enum wpp_cost_model { WPP_COST_BLOCKS, WPP_COST_UNIT };
uint64_t wpp_path_cost(const struct wpp_func *f, uint64_t id, enum wpp_cost_model m);
/* Each terminal's cost in g (malloc'd, nterms entries), NULL on ENOMEM. */
uint64_t *wpp_term_costs(const struct wpp_file *w, const struct wpp_grammar *g, enum wpp_cost_model m);

/* ---- shared by the readers (wpp_read.c) -------------------------------- */

/* The whole file (malloc'd, *len its size), or NULL with errno set. */
unsigned char *wpp_slurp(const char *path, size_t *len);
/* An 'F' payload (docs/trace-format.md) into f (owned copies) and its
 * index.  0 or -1 (malformed, or ENOMEM). */
int wpp_parse_func(const unsigned char *p, const unsigned char *end, struct wpp_func *f, uint64_t *index);
void wpp_func_free(struct wpp_func *f);

/* ---- traces (trace_read.c) -------------------------------------------- */

enum wpp_trace_kind { WPP_TRACE_ENTER, WPP_TRACE_EMIT, WPP_TRACE_LEAVE };

/* One record of a KPATH_TRACE file (docs/trace-format.md): activation act
 * (numbered per thread from 1) of function func (an index of funcs)
 * entered, or emitted path id (EMIT), or emitted its last path id and
 * returned (LEAVE). */
struct wpp_trace_event {
	uint64_t thread, act;
	uint32_t func;
	enum wpp_trace_kind kind;
	uint64_t id;
};

struct wpp_trace {
	const char *path;  /* set by the caller */
	/* called for every event in file order (one thread's in order), with
	 * funcs holding every function an event names; NULL or a reason that
	 * stops the read */
	const char *(*event)(void *arg, const struct wpp_trace *t, const struct wpp_trace_event *e);
	void *arg;
	struct wpp_func *funcs; /* the function table (owned) */
	uint32_t nfuncs;
	bool truncated;    /* the file ends inside a chunk (a program cut short); */
	size_t truncated_at; /* the events before that chunk were delivered */
};
/* Reads t->path (path, event, arg set; the rest zero).  0 (also when it is
 * truncated: the caller decides), or -1 with err = "PATH: [byte N: ]reason".
 * wpp_trace_free in every case. */
int wpp_trace_read(struct wpp_trace *t, char *err, size_t errlen);
void wpp_trace_free(struct wpp_trace *t);

/* ---- commands ---------------------------------------------------------- */

/* kpath wpp expand|stats|hot ... (argv[0] = "wpp"): 0, 1 error, 2 usage. */
int wpp_main(int argc, char **argv);
/* kpath trace dump TRACE (argv[0] = "trace"). */
int wpp_trace_main(int argc, char **argv);
/* The line both print per path: "NAME FILE:LINE ID\n". */
void wpp_print_path(void *stdio_file, const struct wpp_func *f, uint64_t id);

#endif
