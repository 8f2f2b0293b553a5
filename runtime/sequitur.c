/*
 * sequitur.c: online SEQUITUR and SEQUITUR(1) (Larus, "Whole Program
 * Paths", PLDI 1999, sections 3.1-3.2; the "WPP paper" below).  The
 * interface and the storage are described in sequitur.h.
 *
 * Invariants between two appends (kp_sq_check tests them all):
 *   - every digram of every right side has an entry in the digram table,
 *     pointing at one of its occurrences; overlapping occurrences ("aaa")
 *     share one entry; the table holds nothing else.  The one exception is
 *     the deferred digram of SEQUITUR(1), the last one of S, which is not
 *     in the table while it waits for its look-ahead symbol;
 *   - no digram occurs twice without overlap (but the deferred one);
 *   - rule[r].uses is the number of references to r, and is >= 2.
 *
 * While one symbol is processed, the invariants are restored by a cascade
 * of matches (Figure 3's "if digram occurs twice") and expansions (its
 * "rule R is only referenced once").  Any step of it can delete nodes that
 * an earlier step meant to look at later, so nodes and rules freed during a
 * cascade go to limbo lists, not to the free lists, and are marked
 * KP_SQ_FREE: a later step asks "is this node still alive" and skips the
 * work otherwise.  Limbo returns to the free lists when the symbol is done.
 *
 * Memory: every allocation happens before the step that needs it changes
 * anything; when one fails, that step is skipped, the grammar still
 * expands to the stream (only a digram may stay duplicated: `degraded`),
 * and every later symbol is dropped and counted.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "sequitur.h"

#define NONE KP_SQ_NONE

static uint32_t tag(const struct kp_sq *g, uint32_t n)
{
	return KP_SQ_TAG(g->node[n].sym);
}

static int is_guard(const struct kp_sq *g, uint32_t n)
{
	return tag(g, n) == KP_SQ_GUARD;
}

static int alive(const struct kp_sq *g, uint32_t n)
{
	return n != NONE && tag(g, n) != KP_SQ_FREE;
}

static uint32_t next_of(const struct kp_sq *g, uint32_t n)
{
	return g->node[n].next;
}

static uint32_t prev_of(const struct kp_sq *g, uint32_t n)
{
	return g->node[n].prev;
}

static uint32_t first_of(const struct kp_sq *g, uint32_t r)
{
	return g->node[g->rule[r].guard].next;
}

static uint32_t last_of(const struct kp_sq *g, uint32_t r)
{
	return g->node[g->rule[r].guard].prev;
}

/* ---- growable arrays ------------------------------------------------- */

static int grow(void **p, uint32_t *cap, size_t elem, uint32_t need)
{
	if (need <= *cap)
		return 0;
	uint64_t c = *cap ? *cap : 64;
	while (c < need)
		c *= 2;
	if (c > KP_SQ_MAXVAL)
		c = KP_SQ_MAXVAL;
	if (c < need)
		return KP_ENOMEM;
	void *q = kp_realloc(*p, (size_t)c * elem);
	if (!q)
		return KP_ENOMEM;
	*p = q;
	*cap = (uint32_t)c;
	return 0;
}

/* A fresh node holding sym, unlinked (prev = next = NONE); NONE when out
 * of memory. */
static uint32_t node_new(struct kp_sq *g, uint32_t sym)
{
	uint32_t n = g->freenode;
	if (n != NONE) {
		g->freenode = g->node[n].next;
	} else {
		if (grow((void **)&g->node, &g->capnode, sizeof *g->node, g->nnode + 1) != 0)
			return NONE;
		n = g->nnode++;
	}
	g->node[n] = (struct kp_sq_node){ .prev = NONE, .next = NONE, .sym = sym };
	return n;
}

static void node_release(struct kp_sq *g, uint32_t n)
{
	g->node[n].sym = KP_SQ_SYM(KP_SQ_FREE, 0);
	g->node[n].prev = NONE;
	g->node[n].next = g->limbo_node;
	g->limbo_node = n;
}

/* A new empty rule (its guard points at itself); NONE when out of memory. */
static uint32_t rule_new(struct kp_sq *g)
{
	uint32_t r = g->freerule;
	if (r == NONE && grow((void **)&g->rule, &g->caprule, sizeof *g->rule, g->nrule + 1) != 0)
		return NONE;
	uint32_t gd = node_new(g, 0);
	if (gd == NONE)
		return NONE;
	if (r != NONE)
		g->freerule = g->rule[r].uses;
	else
		r = g->nrule++;
	g->node[gd] = (struct kp_sq_node){ .prev = gd, .next = gd, .sym = KP_SQ_SYM(KP_SQ_GUARD, r) };
	g->rule[r] = (struct kp_sq_rule){ .guard = gd, .uses = 0, .serial = g->serials++ };
	g->live_rules++;
	return r;
}

/* Free rule slots chain through .uses (their guard is NONE). */
static void rule_release(struct kp_sq *g, uint32_t r)
{
	node_release(g, g->rule[r].guard);
	g->rule[r].guard = NONE;
	g->rule[r].uses = g->limbo_rule;
	g->limbo_rule = r;
	g->live_rules--;
}

static void limbo_flush(struct kp_sq *g)
{
	while (g->limbo_node != NONE) {
		uint32_t n = g->limbo_node;
		g->limbo_node = g->node[n].next;
		g->node[n].next = g->freenode;
		g->freenode = n;
	}
	while (g->limbo_rule != NONE) {
		uint32_t r = g->limbo_rule;
		g->limbo_rule = g->rule[r].uses;
		g->rule[r].uses = g->freerule;
		g->freerule = r;
	}
}

/* ---- the digram table ------------------------------------------------- */

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t dig_key(uint32_t s1, uint32_t s2)
{
	return (uint64_t)s1 << 32 | s2;
}

static uint32_t dig_home(const struct kp_sq *g, uint64_t key)
{
	return (uint32_t)mix(key) & (g->capdig - 1);
}

/* The table slot of digram key, or of the empty slot where it would go.
 * Entries carry their key, so a probe reads no node (one cache miss per
 * look-up instead of three: this look-up is most of the mode's time). */
static uint32_t dig_slot(const struct kp_sq *g, uint64_t key)
{
	uint32_t i = dig_home(g, key);
	while (g->dig[i].node != NONE && g->dig[i].key != key)
		i = (i + 1) & (g->capdig - 1);
	return i;
}

static uint32_t dig_find(const struct kp_sq *g, uint32_t s1, uint32_t s2)
{
	return g->dig[dig_slot(g, dig_key(s1, s2))].node;
}

static void dig_clear(struct kp_sq_dig *d, uint32_t cap)
{
	for (uint32_t i = 0; i < cap; i++)
		d[i] = (struct kp_sq_dig){ .key = 0, .node = NONE };
}

static int dig_rehash(struct kp_sq *g, uint32_t cap)
{
	struct kp_sq_dig *old = g->dig, *d = kp_malloc((size_t)cap * sizeof *d);
	uint32_t oldcap = g->capdig;
	if (!d)
		return KP_ENOMEM;
	dig_clear(d, cap);
	g->dig = d;
	g->capdig = cap;
	for (uint32_t i = 0; i < oldcap; i++)
		if (old[i].node != NONE)
			g->dig[dig_slot(g, old[i].key)] = old[i];
	free(old);
	return 0;
}

/* Makes n the table's occurrence of digram (n, n.next). */
static void dig_put(struct kp_sq *g, uint32_t n)
{
	uint64_t key = dig_key(g->node[n].sym, g->node[g->node[n].next].sym);
	uint32_t i = dig_slot(g, key);
	if (g->dig[i].node == NONE) {
		/* load <= 1/2; if the table cannot grow, it fills up to all but
		 * one slot, and then the digram goes unrecorded (degraded) */
		if (2 * (uint64_t)(g->ndig + 1) > g->capdig && g->capdig < (1u << 31) &&
		    dig_rehash(g, g->capdig * 2) == 0)
			i = dig_slot(g, key);
		if (g->ndig + 2 > g->capdig) {
			g->degraded = 1;
			return;
		}
		g->ndig++;
	}
	g->dig[i] = (struct kp_sq_dig){ .key = key, .node = n };
}

/* Deletes slot i (linear probing: shifts back the entries after it). */
static void dig_delete(struct kp_sq *g, uint32_t i)
{
	uint32_t mask = g->capdig - 1, j = i;
	g->dig[i].node = NONE;
	g->ndig--;
	for (;;) {
		j = (j + 1) & mask;
		if (g->dig[j].node == NONE)
			return;
		uint32_t h = dig_home(g, g->dig[j].key);
		/* the entry may move to i when its home is not in (i, j] cyclically */
		if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
			g->dig[i] = g->dig[j];
			g->dig[j].node = NONE;
			i = j;
		}
	}
}

/* Digram (n, n.next) is about to disappear: drop its entry if the entry is
 * n.  In a run "xxx" only one of the two overlapping digrams has the entry
 * (check() does not record the other); when the recorded one goes, a
 * surviving overlapping one takes its place: (n.prev, n) when keep_left,
 * (n.next, n.next.next) when keep_right (the caller says which of the two
 * survive the change it is making). */
static void dig_forget(struct kp_sq *g, uint32_t n, int keep_left, int keep_right)
{
	uint32_t nx = next_of(g, n);
	if (is_guard(g, n) || is_guard(g, nx))
		return;
	uint32_t s = g->node[n].sym, s2 = g->node[nx].sym;
	uint32_t i = dig_slot(g, dig_key(s, s2));
	if (g->dig[i].node != n)
		return;
	dig_delete(g, i);
	if (s != s2)
		return;
	uint32_t p = prev_of(g, n), nn = next_of(g, nx);
	if (keep_left && !is_guard(g, p) && g->node[p].sym == s)
		dig_put(g, p);
	else if (keep_right && !is_guard(g, nn) && g->node[nn].sym == s)
		dig_put(g, nx);
}

/* ---- list surgery ----------------------------------------------------- */

/* a.next = b, b.prev = a; a's old digram leaves the table (keep_left,
 * keep_right: as dig_forget). */
static void join_keep(struct kp_sq *g, uint32_t a, uint32_t b, int keep_left, int keep_right)
{
	if (g->node[a].next != NONE)
		dig_forget(g, a, keep_left, keep_right);
	g->node[a].next = b;
	g->node[b].prev = a;
}

static void join(struct kp_sq *g, uint32_t a, uint32_t b)
{
	join_keep(g, a, b, 1, 1);
}

/* Links the unlinked node x after a. */
static void insert_after(struct kp_sq *g, uint32_t a, uint32_t x)
{
	join(g, x, next_of(g, a));
	join(g, a, x);
}

/* Unlinks n (its two digrams leave the table) and releases it; a
 * nonterminal loses one use.  The new digram (n.prev, n.next) is left for
 * the caller to check. */
static void node_delete(struct kp_sq *g, uint32_t n)
{
	dig_forget(g, n, 0, 1);
	join_keep(g, prev_of(g, n), next_of(g, n), 1, 0);
	if (tag(g, n) == KP_SQ_RULE)
		g->rule[KP_SQ_VAL(g->node[n].sym)].uses--;
	node_release(g, n);
}

/* ---- the two invariants (WPP paper, Figure 3) ------------------------- */

static int check(struct kp_sq *g, uint32_t n);

/* Is the digram at m the whole right side of a rule? */
static int is_whole_rule(const struct kp_sq *g, uint32_t m)
{
	return is_guard(g, prev_of(g, m)) && is_guard(g, next_of(g, next_of(g, m)));
}

/* Replaces the digram (n, n.next) by nonterminal r (whose node x is
 * allocated), then checks the two new digrams. */
static void substitute(struct kp_sq *g, uint32_t n, uint32_t r, uint32_t x)
{
	uint32_t q = prev_of(g, n);
	node_delete(g, next_of(g, n));
	node_delete(g, n);
	g->node[x].sym = KP_SQ_SYM(KP_SQ_RULE, r);
	g->rule[r].uses++;
	insert_after(g, q, x);
	check(g, q);
	if (alive(g, x))
		check(g, x);
}

/* Rule utility for the nonterminal at node s, referenced once: its right
 * side replaces s and the rule is deleted (Figure 3, "replace single use
 * of R by RHS of R"); the two new digrams are checked. */
static void expand(struct kp_sq *g, uint32_t s)
{
	uint32_t r = KP_SQ_VAL(g->node[s].sym);
	assert(tag(g, s) == KP_SQ_RULE && g->rule[r].uses == 1);
	uint32_t left = prev_of(g, s), right = next_of(g, s);
	uint32_t f = first_of(g, r), l = last_of(g, r);
	dig_forget(g, s, 0, 1);
	join_keep(g, left, f, 1, 0);
	join(g, l, right);
	node_release(g, s);
	rule_release(g, r);
	if (!is_guard(g, left))
		check(g, left);
	if (alive(g, l))
		check(g, l);
}

/* After rule r took over a digram, one of its two symbols may be a rule
 * now referenced only by r (the occurrences it replaced held the others). */
static void enforce_utility(struct kp_sq *g, uint32_t r)
{
	if (!kp_sq_live(g, r))
		return;
	uint32_t f = first_of(g, r);
	if (tag(g, f) == KP_SQ_RULE && g->rule[KP_SQ_VAL(g->node[f].sym)].uses == 1)
		expand(g, f);
	if (!kp_sq_live(g, r))
		return;
	uint32_t l = last_of(g, r);
	if (tag(g, l) == KP_SQ_RULE && g->rule[KP_SQ_VAL(g->node[l].sym)].uses == 1)
		expand(g, l);
}

/* SEQUITUR(1) (WPP paper, section 3.2): the duplicate at n is the last
 * digram xy of S, and y with the look-ahead l is the right side of a rule:
 * wait for l instead of making xy a rule. */
static int defer(const struct kp_sq *g, uint32_t n)
{
	if (!g->lookahead || g->la == NONE || next_of(g, next_of(g, n)) != g->rule[0].guard)
		return 0;
	uint32_t m = dig_find(g, g->node[next_of(g, n)].sym, g->la);
	return m != NONE && is_whole_rule(g, m);
}

/* Digram uniqueness for the digram at n, which occurs again at m (in the
 * table, not overlapping n). */
static void match(struct kp_sq *g, uint32_t n, uint32_t m)
{
	uint32_t r;
	if (is_whole_rule(g, m)) {
		/* "replace other occurrence with existing rule" */
		r = KP_SQ_VAL(g->node[prev_of(g, m)].sym);
		uint32_t x = node_new(g, 0);
		if (x == NONE) {
			g->degraded = 1;
			return;
		}
		substitute(g, n, r, x);
	} else if (defer(g, n)) {
		g->deferred = n;
		return;
	} else {
		/* "create new rule; replace both occurrences": everything is
		 * allocated before anything changes */
		uint32_t s1 = g->node[n].sym, s2 = g->node[next_of(g, n)].sym;
		uint32_t a = node_new(g, s1), b = node_new(g, s2);
		uint32_t x1 = node_new(g, 0), x2 = node_new(g, 0);
		r = (a == NONE || b == NONE || x1 == NONE || x2 == NONE) ? NONE : rule_new(g);
		if (r == NONE) {
			uint32_t got[] = { a, b, x1, x2 };
			for (unsigned i = 0; i < 4; i++)
				if (got[i] != NONE)
					node_release(g, got[i]);
			g->degraded = 1;
			return;
		}
		uint32_t gd = g->rule[r].guard;
		insert_after(g, gd, a);
		insert_after(g, a, b);
		if (KP_SQ_TAG(s1) == KP_SQ_RULE)
			g->rule[KP_SQ_VAL(s1)].uses++;
		if (KP_SQ_TAG(s2) == KP_SQ_RULE)
			g->rule[KP_SQ_VAL(s2)].uses++;
		/* r's right side becomes the table's occurrence first, so that
		 * deleting m and n leaves it there */
		dig_put(g, a);
		substitute(g, m, r, x1);
		substitute(g, n, r, x2);
	}
	enforce_utility(g, r);
}

/* Checks the digram (n, n.next): records it if new, or restores digram
 * uniqueness.  1 if the digram repeats (handled, deferred or overlapping),
 * else 0. */
static int check(struct kp_sq *g, uint32_t n)
{
	uint32_t nx = next_of(g, n);
	if (is_guard(g, n) || is_guard(g, nx))
		return 0;
	uint32_t m = dig_find(g, g->node[n].sym, g->node[nx].sym);
	if (m == NONE) {
		dig_put(g, n);
		return 0;
	}
	if (m == n)
		return 0;
	if (next_of(g, m) == n || nx == m)
		return 1; /* overlapping: "aaa" keeps one entry */
	match(g, n, m);
	return 1;
}

/* ---- appending -------------------------------------------------------- */

static int term_of(struct kp_sq *g, uint32_t func, uint64_t id, uint32_t *t)
{
	if (2 * (uint64_t)(g->nterm + 1) > g->captix) {
		uint32_t cap = g->captix ? g->captix * 2 : 64;
		uint32_t *tix = kp_calloc(cap, sizeof *tix);
		if (!tix)
			return KP_ENOMEM;
		for (uint32_t i = 0; i < g->nterm; i++) {
			uint32_t h = (uint32_t)mix(g->term[i].id * 0x9e3779b97f4a7c15ULL ^ g->term[i].func) & (cap - 1);
			while (tix[h])
				h = (h + 1) & (cap - 1);
			tix[h] = i + 1;
		}
		free(g->tix);
		g->tix = tix;
		g->captix = cap;
	}
	uint32_t h = (uint32_t)mix(id * 0x9e3779b97f4a7c15ULL ^ func) & (g->captix - 1);
	for (; g->tix[h]; h = (h + 1) & (g->captix - 1)) {
		const struct kp_sq_term *e = &g->term[g->tix[h] - 1];
		if (e->func == func && e->id == id) {
			*t = g->tix[h] - 1;
			return 0;
		}
	}
	if (g->nterm >= KP_SQ_MAXVAL ||
	    grow((void **)&g->term, &g->capterm, sizeof *g->term, g->nterm + 1) != 0)
		return KP_ENOMEM;
	g->term[g->nterm] = (struct kp_sq_term){ .func = func, .id = id };
	g->tix[h] = ++g->nterm;
	*t = g->nterm - 1;
	return 0;
}

/* Appends terminal t to S with look-ahead la (a symbol, or NONE) and
 * restores the invariants. */
static int push(struct kp_sq *g, uint32_t t, uint32_t la)
{
	uint32_t x = node_new(g, KP_SQ_SYM(KP_SQ_TERM, t));
	if (x == NONE)
		return KP_ENOMEM;
	uint32_t d = g->deferred;
	g->deferred = NONE;
	g->la = la;
	insert_after(g, last_of(g, 0), x);
	check(g, prev_of(g, x));
	/* the deferred digram xy was waiting for this symbol l: yl was a rule,
	 * so y is gone now; if not (only after a failed allocation), treat xy
	 * like any other digram */
	if (alive(g, d) && d != g->deferred && !is_guard(g, next_of(g, d)) &&
	    dig_find(g, g->node[d].sym, g->node[next_of(g, d)].sym) != d)
		check(g, d);
	g->la = NONE;
	limbo_flush(g);
	return 0;
}

int kp_sq_append(struct kp_sq *g, uint32_t func, uint64_t id)
{
	assert(!g->finished);
	uint32_t t;
	if (g->dropped || term_of(g, func, id, &t) != 0) {
		g->dropped++;
		return KP_ENOMEM;
	}
	if (g->buffered != NONE &&
	    push(g, g->buffered, g->lookahead ? KP_SQ_SYM(KP_SQ_TERM, t) : NONE) != 0) {
		/* the buffered symbol is lost, and with it this one */
		g->buffered = NONE;
		g->dropped += 2;
		g->length--;
		return KP_ENOMEM;
	}
	g->buffered = t;
	g->length++;
	return 0;
}

void kp_sq_finish(struct kp_sq *g)
{
	if (g->finished)
		return;
	if (g->buffered != NONE && push(g, g->buffered, NONE) != 0) {
		g->dropped++;
		g->length--;
	}
	g->buffered = NONE;
	g->finished = 1;
}

int kp_sq_init(struct kp_sq *g, int lookahead)
{
	memset(g, 0, sizeof *g);
	g->lookahead = lookahead;
	g->freenode = g->limbo_node = g->freerule = g->limbo_rule = NONE;
	g->buffered = g->la = g->deferred = NONE;
	g->capdig = 64;
	g->dig = kp_malloc(g->capdig * sizeof *g->dig);
	if (!g->dig || rule_new(g) != 0) {
		kp_sq_free(g);
		return KP_ENOMEM;
	}
	dig_clear(g->dig, g->capdig);
	return 0;
}

void kp_sq_free(struct kp_sq *g)
{
	free(g->node);
	free(g->rule);
	free(g->dig);
	free(g->term);
	free(g->tix);
	memset(g, 0, sizeof *g);
}

uint64_t kp_sq_size(const struct kp_sq *g)
{
	uint64_t n = 0;
	for (uint32_t r = 0; r < g->nrule; r++)
		if (kp_sq_live(g, r))
			for (uint32_t s = first_of(g, r); !is_guard(g, s); s = next_of(g, s))
				n++;
	return n;
}

/* ---- expansion and the validator -------------------------------------- */

uint64_t kp_sq_expand(const struct kp_sq *g, uint32_t r, uint32_t *out, uint64_t max)
{
	/* the stack holds the node to continue from, per open rule; rules
	 * nest at most live_rules deep (the grammar is acyclic) */
	uint32_t *stack = malloc(((size_t)g->live_rules + 1) * sizeof *stack);
	uint64_t len = 0;
	if (!stack)
		return 0;
	uint32_t depth = 0;
	stack[depth++] = first_of(g, r);
	while (depth) {
		uint32_t s = stack[depth - 1];
		if (is_guard(g, s)) {
			depth--;
			continue;
		}
		stack[depth - 1] = next_of(g, s);
		uint32_t sym = g->node[s].sym;
		if (KP_SQ_TAG(sym) == KP_SQ_RULE) {
			assert(depth <= g->live_rules);
			stack[depth++] = first_of(g, KP_SQ_VAL(sym));
		} else {
			if (len < max)
				out[len] = KP_SQ_VAL(sym);
			len++;
		}
	}
	free(stack);
	return len;
}

struct occ {
	uint64_t key;
	uint32_t node;
};

static int occ_cmp(const void *a, const void *b)
{
	const struct occ *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* Acyclicity: colour 1 while a rule is on the DFS path, 2 when done. */
static int cyclic(const struct kp_sq *g, uint32_t r, unsigned char *colour)
{
	if (colour[r] == 2)
		return 0;
	if (colour[r] == 1)
		return 1;
	colour[r] = 1;
	for (uint32_t s = first_of(g, r); !is_guard(g, s); s = next_of(g, s))
		if (tag(g, s) == KP_SQ_RULE && cyclic(g, KP_SQ_VAL(g->node[s].sym), colour))
			return 1;
	colour[r] = 2;
	return 0;
}

#define FAIL(...) do { snprintf(buf, size, __VA_ARGS__); goto out; } while (0)

const char *kp_sq_check(const struct kp_sq *g, char *buf, size_t size)
{
	const char *res = buf;
	uint64_t *uses = calloc(g->nrule + 1, sizeof *uses);
	unsigned char *colour = calloc(g->nrule + 1, 1);
	uint64_t total = kp_sq_size(g);
	struct occ *occ = malloc((total + 1) * sizeof *occ);
	size_t nocc = 0;
	if (!uses || !colour || !occ)
		FAIL("validator: out of memory");
	for (uint32_t r = 0; r < g->nrule; r++) {
		if (!kp_sq_live(g, r))
			continue;
		uint32_t gd = g->rule[r].guard, len = 0;
		if (g->node[gd].sym != KP_SQ_SYM(KP_SQ_GUARD, r))
			FAIL("rule %u: guard node does not name the rule", r);
		for (uint32_t s = first_of(g, r); s != gd; s = next_of(g, s), len++) {
			if (next_of(g, prev_of(g, s)) != s || prev_of(g, next_of(g, s)) != s)
				FAIL("rule %u: broken links at node %u", r, s);
			if (tag(g, s) == KP_SQ_FREE || tag(g, s) == KP_SQ_GUARD)
				FAIL("rule %u: node %u is free or a foreign guard", r, s);
			if (tag(g, s) == KP_SQ_RULE) {
				uint32_t v = KP_SQ_VAL(g->node[s].sym);
				if (v >= g->nrule || !kp_sq_live(g, v) || v == 0)
					FAIL("rule %u: references dead rule %u", r, v);
				uses[v]++;
			} else if (KP_SQ_VAL(g->node[s].sym) >= g->nterm) {
				FAIL("rule %u: unknown terminal", r);
			}
			if (!is_guard(g, next_of(g, s)))
				occ[nocc++] = (struct occ){ (uint64_t)g->node[s].sym << 32 | g->node[next_of(g, s)].sym, s };
		}
		if (r != 0 && len < 2)
			FAIL("rule %u: right side of %u symbols", r, len);
	}
	for (uint32_t r = 1; r < g->nrule; r++) {
		if (!kp_sq_live(g, r))
			continue;
		if (uses[r] != g->rule[r].uses)
			FAIL("rule %u: %llu references but uses = %u", r, (unsigned long long)uses[r], g->rule[r].uses);
		if (uses[r] < 2)
			FAIL("rule utility: rule %u referenced %llu time(s)", r, (unsigned long long)uses[r]);
	}
	if (cyclic(g, 0, colour))
		FAIL("the grammar is cyclic");
	for (uint32_t r = 1; r < g->nrule; r++)
		if (kp_sq_live(g, r) && colour[r] != 2)
			FAIL("rule %u is unreachable from S", r);
	qsort(occ, nocc, sizeof *occ, occ_cmp);
	size_t keys = 0;
	for (size_t i = 0, j; i < nocc; i = j) {
		uint32_t s1 = (uint32_t)(occ[i].key >> 32), s2 = (uint32_t)occ[i].key;
		uint32_t m = dig_find(g, s1, s2), kept[2], nkept = 0;
		int in_table = 0;
		keys++;
		for (j = i; j < nocc && occ[j].key == occ[i].key; j++) {
			in_table |= occ[j].node == m;
			/* the deferred digram is allowed to repeat until finish */
			if (!g->finished && occ[j].node == g->deferred)
				continue;
			if (nkept == 2)
				FAIL("digram uniqueness: the digram at node %u occurs 3 times", occ[j].node);
			kept[nkept++] = occ[j].node;
		}
		if (!in_table)
			FAIL("digram table: no entry for the digram at node %u", occ[i].node);
		/* a repeat is allowed only when it overlaps ("aaa") */
		if (nkept == 2 && next_of(g, kept[0]) != kept[1] && next_of(g, kept[1]) != kept[0])
			FAIL("digram uniqueness: nodes %u and %u hold the same digram", kept[0], kept[1]);
	}
	if (keys != g->ndig)
		FAIL("digram table: %u entries for %zu digrams", g->ndig, keys);
	res = NULL;
out:
	free(uses);
	free(colour);
	free(occ);
	return res;
}
