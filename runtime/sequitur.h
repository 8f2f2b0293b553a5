/*
 * sequitur.h: online SEQUITUR grammars of path streams (runtime-private;
 * also linked into the kpath tool's tests through kpath_rt).
 *
 * A grammar is built one symbol at a time, as in Larus, "Whole Program
 * Paths" (PLDI 1999), section 3.1 (Figure 3), which keeps Nevill-Manning
 * and Witten's two invariants after every symbol:
 *   digram uniqueness: no pair of adjacent symbols occurs twice in the
 *     right sides of the rules (overlapping occurrences, as in "aaa", are
 *     one occurrence);
 *   rule utility: every rule but the start rule S is referenced at least
 *     twice.
 * With lookahead on, it is SEQUITUR(1) of section 3.2: a duplicate digram
 * xy at the end of S is not made a new rule when y and the next input
 * symbol l form the right side of an existing rule; the rule is applied to
 * yl instead when l arrives.  Hence kp_sq_append buffers one symbol and
 * kp_sq_finish must be called after the last one.
 *
 * A terminal is a (function slot, Ball-Larus path ID) pair; the grammar
 * numbers distinct pairs 0, 1, ... in order of first appearance (the
 * paper's PPCompress, section 3.3) and its rules work on those numbers.
 *
 * Storage: symbols are nodes of one array, linked by index into one
 * circular list per rule, whose head is the rule's guard node.  Digrams are
 * found in constant expected time in an open-addressing table of (digram,
 * node index) entries (the footnote of section 3.1: a hash table keeps the
 * algorithm linear).  Memory is proportional to the grammar, not to the
 * stream.
 */
#ifndef KPATH_SEQUITUR_H
#define KPATH_SEQUITUR_H

#include <stddef.h>
#include <stdint.h>

#define KP_SQ_NONE UINT32_MAX

/* A symbol: tag in the low 2 bits, value (terminal or rule index) above. */
enum {
	KP_SQ_TERM = 0,  /* value: terminal number */
	KP_SQ_RULE = 1,  /* value: rule index (a nonterminal) */
	KP_SQ_GUARD = 2, /* value: rule index (the rule's list head) */
	KP_SQ_FREE = 3   /* not in use */
};
#define KP_SQ_TAG(s) ((s) & 3u)
#define KP_SQ_VAL(s) ((s) >> 2)
#define KP_SQ_SYM(tag, v) ((uint32_t)(v) << 2 | (tag))
/* Values must stay below this (2^30 terminals or rules). */
#define KP_SQ_MAXVAL (UINT32_MAX >> 2)

struct kp_sq_node {
	uint32_t prev, next, sym;
};

struct kp_sq_rule {
	uint32_t guard;  /* KP_SQ_NONE: the slot is free */
	uint32_t uses;   /* references in right sides (0 for S) */
	uint32_t serial; /* creation order: S is 0, then 1, 2, ... (names) */
};

struct kp_sq_term {
	uint32_t func;
	uint64_t id;
};

/* A digram table entry: the digram's two symbols, and its occurrence. */
struct kp_sq_dig {
	uint64_t key;  /* first symbol << 32 | second symbol */
	uint32_t node; /* NONE: empty slot */
};

struct kp_sq {
	int lookahead;               /* 1: SEQUITUR(1); 0: plain SEQUITUR */
	struct kp_sq_node *node;
	uint32_t nnode, capnode, freenode, limbo_node;
	struct kp_sq_rule *rule;     /* rule 0 is S */
	uint32_t nrule, caprule, freerule, limbo_rule, live_rules, serials;
	struct kp_sq_dig *dig;       /* digram table, open addressing */
	uint32_t capdig, ndig;       /* capdig a power of two */
	struct kp_sq_term *term;     /* terminal number -> (func, id) */
	uint32_t nterm, capterm;
	uint32_t *tix;               /* (func, id) -> terminal: index+1, 0 empty */
	uint32_t captix;
	uint64_t length;             /* symbols appended (the stream's length) */
	uint64_t dropped;            /* symbols lost for lack of memory */
	uint32_t buffered;           /* the look-ahead symbol not yet in S, or NONE */
	uint32_t la;                 /* look-ahead while one symbol is processed, or NONE */
	uint32_t deferred;           /* S's last digram awaiting its look-ahead, or NONE */
	int degraded;                /* a digram could not be made unique (no memory) */
	int finished;
};

/* Empty grammar (S ->).  0 or KP_ENOMEM. */
int kp_sq_init(struct kp_sq *g, int lookahead);
void kp_sq_free(struct kp_sq *g);
/* Appends terminal (func, id).  0, or KP_ENOMEM: the symbol was dropped
 * (counted in g->dropped) and so is every later one: the grammar stays a
 * lossless record of the stream up to the drop. */
int kp_sq_append(struct kp_sq *g, uint32_t func, uint64_t id);
/* Processes the buffered look-ahead symbol (no look-ahead for it).  After
 * this, the grammar is complete; kp_sq_append must not be called again. */
void kp_sq_finish(struct kp_sq *g);

/* Walking the grammar: rule indices below g->nrule whose guard is not
 * NONE are live; a rule's right side runs from node[guard].next to the
 * guard. */
static inline int kp_sq_live(const struct kp_sq *g, uint32_t r)
{
	return g->rule[r].guard != KP_SQ_NONE;
}
/* Symbols on right sides (grammar size without the rule heads). */
uint64_t kp_sq_size(const struct kp_sq *g);

/* The validator: NULL when the grammar holds both invariants, its lists
 * and use counts are consistent, it is acyclic and the digram table holds
 * exactly its digrams; else a description of the first violation (in buf).
 * Before kp_sq_finish, S's deferred last digram is allowed to repeat. */
const char *kp_sq_check(const struct kp_sq *g, char *buf, size_t size);

/* Expands rule r into out (terminal numbers), up to max symbols; returns
 * the expanded length (which may exceed max: then out holds a prefix).
 * Iterative, so deep grammars do not overflow the stack. */
uint64_t kp_sq_expand(const struct kp_sq *g, uint32_t r, uint32_t *out, uint64_t max);

#endif
