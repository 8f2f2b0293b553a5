/*
 * build.h: from a libclang function definition to its CFG and the source
 * sites where code for each CFG edge can be inserted.
 *
 * A site is a byte offset in the original file plus an ordering key.  Code
 * placed at a site runs exactly when control passes that point, so an edge's
 * site is a point that control passes if and only if the edge is taken
 * (DESIGN.md, "Edges at the source level").  Several sites may share an
 * offset; they are emitted in (phase, seq) order: phase 0 holds text that
 * closes a construct ending at the offset (created after its children, so
 * inner constructs close first), phase 1 text that opens a construct
 * starting there (created before its children, so outer constructs open
 * first).  A construct ending at an offset always precedes in the text one
 * starting there, which makes this order the textual one.  Phase 2 is text
 * that must follow all of those, right before the original token there
 * (stmt.c, body_open: "(void)0" in a braced null statement).
 *
 * Structural text (braces around single-statement bodies) is recorded as
 * SITE_TEXT so that the output is the original with insertions only.
 */
#ifndef KPATH_BUILD_H
#define KPATH_BUILD_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdint.h>

#include "cfg.h"

enum site_kind {
	SITE_TEXT,       /* fixed text: braces */
	SITE_STMT,       /* statement context: "code;" */
	SITE_ELSE,       /* after an if without else: " else { code; }" when there is code */
	SITE_EXPR,       /* comma-expression context after a for increment: ", code" or "code" when empty */
	SITE_COND_OPEN,  /* before a loop condition: "(" when the matching close has code */
	SITE_COND_CLOSE, /* after it: ") && (T, 1)", ") || (F, 0)" or ") ? (T, 1) : (F, 0)" */
	SITE_RET_OPEN,   /* before the returned value: "kp_ret = (" */
	SITE_RET_CLOSE,  /* before its ";": "), leave, kp_ret" */
	SITE_ENTRY,      /* after the body's "{": declarations and the routine-entry event */
	SITE_FALLTHROUGH, /* before a case label reached by an intended fall-through: marks it
	                     ("kp_fallthrough;") when other sites put code at this offset,
	                     or up to quiet_end */
};

struct site {
	enum site_kind kind;
	uint32_t off;
	uint8_t phase;
	uint32_t seq;
	const char *text;   /* SITE_TEXT only (static string) */
	bool empty_expr;    /* SITE_EXPR: the for increment is empty */
	bool wrap;          /* COND_OPEN/CLOSE around an operand: add a pair of parentheses */
	bool lead_space;    /* RET_OPEN glued to "return": start with a space */
	bool tail_call;     /* RET_OPEN: the value is a call, nothing else ("return f(x);") */
	bool record_value;  /* RET_OPEN: the value is a structure or union and calls nothing
	                       ("return result;"): it may follow the leave too (rewrite/place.c) */
	bool resume;        /* STMT before a longjmp: the path ends, but the activation may go on
	                       (at a setjmp of its own), so emit rather than leave */
	uint32_t partner;   /* COND_OPEN/RET_OPEN: index of the CLOSE site */
	uint32_t edge_true, edge_false; /* COND_CLOSE: the edges it carries, CFG_NONE if none */
	uint32_t quiet_end; /* FALLTHROUGH: code at a site after off up to this offset (the label's
	                       jump, the switch's "}": cfgbuild/fallthrough.c, gcc_quiet_end) needs the
	                       marker too; 0 if none */
};

struct fn_plan {
	char *name;
	unsigned line, col;        /* of the definition's name */
	bool exported;             /* external linkage and not inline: its TU defines the external symbol */
	struct cfg *g;
	struct site *sites;
	uint32_t nsites, cap_sites;
	uint32_t *block_start;     /* per block: site running on every entry, CFG_NONE if none */
	bool *restart;             /* per block: holds a setjmp call; its out-edges set the path
	                              register absolutely, as it may be stale after a longjmp */
	uint32_t cap_block_start;
	bool expr_branches;        /* input: &&, || and ?: are branches (set by the caller) */
	uint32_t entry_edge;       /* the CFG edge ENTRY -> first block */
	char *ret_decl;            /* declaration "T kp_ret" pattern with %s for the name, NULL if void */
	bool has_value_return;     /* a return with a value exists: kp_ret is needed */
	bool ret_init_only;        /* the return type has const members: kp_ret can only be
	                              initialised, so each return declares its own in a GNU
	                              statement expression */
	bool has_setjmp;           /* a setjmp block exists: kp_ret is volatile (-Wclobbered) */
	bool skips_text;           /* the body holds an #if branch the parse skipped: a compiler
	                              with other predefined macros may build it, without the
	                              inserted code, so the inserted declarations are marked
	                              KPATH_RT_UNUSED (tests/realcode/repro/gcc_only_branch.c) */
	/* Source lines (in no particular order) of the calls that might not come
	 * back normally or might run this thread's other activations: every
	 * call but those to the C library functions known to do neither
	 * (expr.c: plain_callee).  rewrite/place.c keeps repeat counting out
	 * of loops that hold one. */
	unsigned *call_lines;
	uint32_t ncall_lines, cap_call_lines;
	/* Call sites of --mode overlap's interprocedural paths (Tallam, Zhang &
	 * Gupta, section 3; docs/overlap-mode.md, "Calls"): blocks holding
	 * exactly one call to a function defined in the translation unit and
	 * no call through a pointer, where that call is spelled "name(" in the
	 * file, its arguments call nothing, and its full expression has no
	 * &&, || or ?: (so it runs exactly once per run of the block, and is
	 * the only handoff in flight).  off / end: the name token's offsets.
	 * across: the callee is declared, not defined, in the translation unit
	 * (external linkage, outside system headers: calls.c), so it may be
	 * defined and instrumented in another file. */
	struct call_site {
		uint32_t block, off, end;
		unsigned line;
		char *callee;
		bool across;
	} *call_sites;
	uint32_t ncall_sites;
	/* Compound statements whose first item is a declaration, as offset
	 * pairs (just after the "{", the "}"): code inserted at such a block's
	 * start would put a statement before a declaration (C90 6.6.2 forbids
	 * it), so rewrite/place.c opens a block of its own after that code and
	 * closes it before the "}". */
	uint32_t *decl_blocks;
	uint32_t ndecl_blocks, cap_decl_blocks; /* pairs; cap counts elements */
	/* Loop statements (C11 6.8.5), outer before inner: the line of the
	 * keyword (for, while, do) and the block the loop's back edge enters
	 * (the condition's block of a for or while, the body's first of a do).
	 * #pragma kpath kiter(K) (frontend/kiter_pragma.c) names loops by it. */
	struct loop_stmt {
		unsigned kw_line;
		uint32_t head;
	} *loop_stmts;
	uint32_t nloop_stmts, cap_loop_stmts;
	char reason[256];          /* why the function cannot be instrumented */
	unsigned reason_line;      /* the line the reason is about, 0 if none in the file */
	bool macro;                /* the reason is control flow spelled by a macro expansion */
};

/* A raw token of a file (clang_tokenize), with its offsets in the file. */
struct src_tok {
	uint32_t off, len;
	CXTokenKind kind;
	bool code;       /* in the file, and not a comment: a token build.c looks at */
	const char *sp;  /* spelling, truncated to 39 characters: enough for keywords,
	                    punctuation and the builtins build.c looks for */
};

struct src_file {
	const char *path;  /* as given on the command line */
	const char *text;  /* contents as libclang sees them */
	size_t len;
	CXFile file;
	CXTranslationUnit tu;
	/* src_index: */
	uint32_t *line_start;  /* offsets where lines begin */
	uint32_t nlines;
	struct src_tok *toks;  /* every raw token of the file, comments included, in order */
	uint32_t ntoks;
	char *tok_text;        /* their spellings */
	uint32_t *skipped;     /* ranges the preprocessor skipped: sorted, disjoint
	                          [start, end) offset pairs */
	uint32_t nskipped;
	struct src_memo *noreturn; /* per callee declaration: whether a call to it does not
	                              return (noreturn.c: calls_noreturn), filled as asked */
};

/* A yes/no fact per declaration, keyed by its cursor's data[0] (the
 * declaration itself: each redeclaration has its own); src_index makes
 * src->noreturn one.  src_memo_get gives 1 or 0, or -1 when not yet known. */
int src_memo_get(const struct src_memo *m, const void *key);
void src_memo_put(struct src_memo *m, const void *key, bool val);

/* Indexes src (path, text, len, file and tu set) once per file: its lines,
 * so that a line number costs a binary search, its tokens and its skipped
 * ranges; build_function needs them (cfgbuild/src.c).  Returns false when
 * out of memory. */
bool src_index(struct src_file *src);
void src_free(struct src_file *src);
/* Whether offset off is in a range the preprocessor skipped. */
bool src_skipped(const struct src_file *src, uint32_t off);
/* Whether some text the preprocessor skipped lies in [lo, hi). */
bool src_skipped_in(const struct src_file *src, uint32_t lo, uint32_t hi);
/* The tokens clang_tokenize gives for the offsets [s, e] of the file:
 * src->toks[*first .. *first + *n).  false when they may differ from a
 * run of the file's tokens (s inside a token); then tokenize. */
bool src_tok_run(const struct src_file *src, uint32_t s, uint32_t e, uint32_t *first, uint32_t *n);
/* Whether an identifier of the file starts with prefix. */
bool src_prefix_used(const struct src_file *src, const char *prefix);

/* Builds the plan of one function definition in the main file.  Returns
 * NULL with the reason in plan->reason when the function cannot be
 * instrumented faithfully (the caller then leaves it untouched); on success
 * returns plan.  plan must be zeroed by the caller. */
struct fn_plan *build_function(const struct src_file *src, CXCursor fn, struct fn_plan *plan);
void build_plan_free(struct fn_plan *plan);

/* The compile flags ask for GNU89 inline semantics (-std=c89, gnu89,
 * -fgnu89-inline: frontend/pipeline.c sets it); inline_def.c reads it. */
extern bool build_gnu89_inline;
/* What kind of inline function definition fn is (inline_def.c): those
 * with external linkage are not instrumented. */
enum inline_kind {
	INLINE_NONE,     /* not inline, or static */
	INLINE_ONLY,     /* an inline definition its file never emits */
	INLINE_EXTERNAL, /* inline, external linkage, emitted by its file */
};
enum inline_kind inline_function_kind(CXCursor fn, bool gnu89_inline);
/* Whether fn's own declaration says inline (not only an earlier one). */
bool inline_written_on(CXCursor fn);
/* Attributes under which nothing may be inserted (fn_attrs.c): naked, and
 * the resolver of an ifunc that a declaration of the main file names. */
bool fn_attr_naked(CXCursor fn);
bool fn_ifunc_resolver(CXCursor fn);

#endif
