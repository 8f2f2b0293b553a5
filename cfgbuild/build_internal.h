/*
 * build_internal.h: what the files of build_function share (
 * tokens.c, fallthrough.c, blocks.c, expr.c, stmt.c,
 * noreturn.c, rettype.c, build.c):
 * the builder's state and the functions called across them.  Not a public
 * interface: other components include build.h only.
 */
#ifndef KPATH_BUILD_INTERNAL_H
#define KPATH_BUILD_INTERNAL_H

#include "build.h"
#include "ast.h"
#include "xalloc.h"

#include <setjmp.h>

struct loop_ctx {
	uint32_t brk, cont; /* break and continue targets, CFG_NONE if not applicable */
};

struct label {
	char *name;
	uint32_t block;
	bool defined;
	bool addr_taken;    /* &&name occurs: a possible computed-goto target */
	unsigned line;
};

struct switch_ctx {
	uint32_t head;     /* block evaluating the controlling expression */
	uint32_t ncase;    /* case labels seen, for order keys */
	bool has_default;
};

/* Facts about a node that the walk asks for more than once; -1 while not
 * yet known. */
struct memo {
	int8_t unevaluated; /* unevaluated() */
	int8_t op;          /* branch_op(), with expr_branches */
	int8_t branch;      /* scan_branch() */
	int8_t twice;       /* a call to twice[i] (scan_node), or none (-2) */
	int8_t plain;       /* a call to a plain_callee (set with twice) */
};

struct builder {
	const struct src_file *src;
	struct fn_plan *plan;
	struct src_tok *toks; /* the function's tokens (load_tokens) */
	uint32_t ntoks;
	char *tok_text;       /* their spellings when they are not the file's (load_tokens) */
	struct ast ast;       /* the function's cursors; the walk names them by node id (ast.h) */
	struct memo *memo;    /* per node: what the walk found out about it */
	/* For a quick "no" (index_tokens): the offsets of the "&&" and "||"
	 * tokens, of the "?" tokens, and whether a keyword of an unevaluated
	 * operand occurs at all. */
	uint32_t *andor, nandor, *quest, nquest;
	bool has_unevaluated_kw;
	uint32_t local_label;   /* the first "__label__" token, CFG_NONE if none */
	bool goto_star;         /* some "goto" is followed by "*" */
	uint32_t cur;
	struct loop_ctx loop;
	struct switch_ctx *sw;
	struct label *labels;
	uint32_t nlabels, cap_labels;
	bool has_indirect_goto; /* the function has a computed goto (goto *p) */
	uint32_t dispatch;  /* the block every computed goto jumps to, CFG_NONE until needed */
	uint32_t seq;
	bool expr_branches; /* &&, || and ?: are CFG branches */
	bool allow_twice;   /* check_expr accepts a setjmp call (placed as a restart) */
	bool saw_twice;     /* check_expr met one */
	/* The first and last tokens of the latest attributed null statement
	 * ("__attribute__((fallthrough));", or a macro spelling it), CFG_NONE
	 * before the first: fall_off keeps it right before its label. */
	uint32_t attr_first, attr_last, attr_node;
	/* Every call check_expr met (scan_node), for plan->call_sites
	 * (calls.c); root: the expression check_expr was called on. */
	struct call_note *calls;
	uint32_t ncalls, cap_calls, check_root;
	jmp_buf fail;
};

/* The children of node c, in clang_visitChildren's order. */
struct kids {
	const uint32_t *v;
	unsigned n;
};

/* tokens.c */
void fail_at(struct builder *b, uint32_t off, const char *fmt, ...);
void fail_macro(struct builder *b, uint32_t off, const char *why);
uint32_t loc_offset(struct builder *b, CXSourceLocation loc, bool *in_file);
unsigned offset_line(struct builder *b, uint32_t off);
uint32_t tok_at(struct builder *b, uint32_t off);
bool is_open(const char *s);
bool is_close(const char *s);
bool tok_is(struct builder *b, uint32_t i, const char *sp);
enum CXCursorKind kind_of(struct builder *b, uint32_t c);
CXCursor cursor_of(struct builder *b, uint32_t c);
const char *file_of(struct builder *b, uint32_t c, char *buf, size_t n);
uint32_t cursor_start(struct builder *b, uint32_t c);
uint32_t stmt_tok(struct builder *b, uint32_t c, const char *kw);
uint32_t body_tok(struct builder *b, uint32_t c, uint32_t name_off);
uint32_t match_close(struct builder *b, uint32_t i);
uint32_t find_semi(struct builder *b, uint32_t i);
uint32_t tok_end(struct builder *b, uint32_t i);
uint32_t last_tok_before(struct builder *b, uint32_t i, uint32_t e);
const struct ast_node *extent(struct builder *b, uint32_t c);
struct kids children(struct builder *b, uint32_t c);
uint32_t stmt_last_tok(struct builder *b, uint32_t c);
uint32_t macro_cond_last(struct builder *b, uint32_t kw, uint32_t cond);

/* calls.c: the call sites of --mode overlap (build.h, call_sites) */
struct call_note {
	uint32_t node, block, root;
	int kind;         /* 0: to a function defined elsewhere, 1: defined in the TU, 2: through a pointer */
	bool across;      /* kind 0, external linkage, declared outside system headers (calls.c) */
	bool qualifies;   /* kind 1 or across, and the shape build.h asks for */
	char *callee;
};
void calls_note(struct builder *b, uint32_t c);
void calls_finish(struct builder *b);
/* The calls of expression root run in block blk (a loop condition that
 * check_expr saw before its block existed). */
void calls_rebind(struct builder *b, uint32_t root, uint32_t blk);
void calls_free(struct builder *b);
bool expr_has_branch_op(struct builder *b, uint32_t c);

/* image_end.c: wraps a call to an exec function so that the runtime
 * writes the profile first */
void image_end_note(struct builder *b, uint32_t c);

/* fallthrough.c */
uint32_t fall_off(struct builder *b, uint32_t i, bool *intended);
/* Whether falling through into the label at token i falls off the latest
 * attributed null statement (fall_off puts the edge's code before it). */
bool fall_attr_before(struct builder *b, uint32_t i);
void null_stmt(struct builder *b, uint32_t c);
void void_stmt(struct builder *b, uint32_t c);
bool prev_cannot_complete(struct builder *b, uint32_t c);
uint32_t gcc_quiet_end(struct builder *b, uint32_t c, uint32_t sub);

/* blocks.c */
uint32_t add_site(struct builder *b, enum site_kind kind, uint32_t off, int phase);
void add_text(struct builder *b, uint32_t off, int phase, const char *text);
uint32_t new_block(struct builder *b, unsigned line);
uint32_t edge(struct builder *b, uint32_t src, uint32_t dst, uint32_t order, uint32_t site);
uint32_t edge_stmt(struct builder *b, uint32_t src, uint32_t dst, uint32_t order, uint32_t off, int phase);
void set_line(struct builder *b, uint32_t blk, unsigned line);
void extend_to_end(struct builder *b, uint32_t blk, uint32_t nblocks0, uint32_t c);
void touch(struct builder *b, uint32_t off);

/* expr.c */
void check_expr(struct builder *b, uint32_t c);
uint32_t strip_parens(struct builder *b, uint32_t c);
bool constant_value(struct builder *b, uint32_t c, long long *v);
bool void_constant(struct builder *b, uint32_t c);

/* fn_attrs.c */
char *decl_printed(CXCursor c);
bool attr_first_word(CXCursor c, bool (*is_word)(const char *));
bool cannot_complete(struct builder *b, uint32_t c);
void cond_branch(struct builder *b, uint32_t c, uint32_t t, uint32_t f);
bool compound_cond(struct builder *b, uint32_t c);
void value_expr(struct builder *b, uint32_t c);
void decl_children(struct builder *b, uint32_t c);

/* stmt.c */
void compound(struct builder *b, uint32_t c);
struct label *label_get(struct builder *b, const char *name);

/* noreturn.c */
bool calls_noreturn(struct builder *b, uint32_t c);
bool calls_longjmp(struct builder *b, uint32_t c);

/* rettype.c */
void plan_return_type(struct builder *b, uint32_t fn);

/* expr.c: keywords whose operands are not evaluated (the count is checked
 * against the definition). */
extern const char *const unevaluated_kw[13];

#endif
