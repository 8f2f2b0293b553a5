/*
 * kp_internal.h: the runtime's internal interfaces, shared by its files and
 * by tests/runtime (which drive the forests directly).  Instrumented code
 * sees only kpath_rt.h; report/ sees only profile.h (profile/).
 *
 * Data flow (DESIGN.md, Runtime):
 *   kpath_rt_enter/emit/leave, kpath_rt_count (abi.c)
 *     -> per-thread, per-function state kp_tfunc (thread.c)
 *        -> a consumer: k-SF (ksf.c, k >= 2) or counters (counts.c, k = 1,
 *           and acyclic functions at any k)
 *        -> and, with KPATH_TRACE, the trace writer (trace.c)
 *   thread exit / kpath_dump / process exit (dump.c)
 *     -> consumer's to_ipf: k-SF -> k-IPF (make_k_ipf), summed into the
 *        global per-function k-IPF (profile/ipf.c)
 *     -> snapshot into a kp_profile (snapshot.c), accumulate into KPATH_OUT
 *        under flock (accumulate.c; reading, merging and writing the
 *        profile is profile/, profile_int.h).
 */
#ifndef KPATH_KP_INTERNAL_H
#define KPATH_KP_INTERNAL_H

#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kpath_rt.h"
#include "profile_int.h"

/* ---- k-slab forest (ksf.c) ------------------------------------------- */

/* Nodes (struct kpath_rt_node, kpath_rt.h) live in geometric segments
 * that never move (segment s holds 2^(s+KP_SEG0) nodes), so that cursors
 * and caches can point at them and the exit handler can walk the forest of
 * a thread still running without reading freed memory.  Node index 0 is
 * null.
 *
 * A node's children are in its child table, node->kids (struct kp_kids,
 * null while it has none): open addressing on kp_kids_hash(label), linear
 * probing, at most three quarters full, so that the library finds a child
 * in O(1) whatever the node's degree (the k-BLPP paper's "find child" of
 * process_bl_path_id, lines 13 and 21, which it bounds by the degree).
 * The start node's table is the paper's R (roots by label).  The
 * trampolines (abi.c) look a child up there too before they save
 * registers for the library: the inline step finds a child only in the
 * node's four cache slots, and a node with more children, or with
 * children whose labels share a slot pair, would otherwise send every
 * item the slots miss through the whole library half (tokenizer's
 * next_token at k = 4: 590,000 items of 9 million, about 420
 * instructions each).  Tables come from a per-forest arena (kp_ksf.tab)
 * and are never freed before the forest: a full one is replaced by a copy
 * twice its size, published with one pointer store, and the old one stays
 * readable for a reader that had loaded it (a signal handler's step, the
 * exit handler). */
#define KP_SEG0 8
#define KP_NSEG 25
struct kp_kids {
	uint32_t mask;  /* entries - 1 (a power of two minus 1) */
	/* children << 1 | fast: fast = the trampolines may count through
	 * the table (its forest fills caches: not nocache) */
	uint32_t nf;
	struct kpath_rt_node *e[]; /* mask + 1 entries: a child or null */
};
/* The arena's chunks: a list, newest first. */
struct kp_tchunk {
	struct kp_tchunk *next;
	size_t cap, used; /* bytes of data[] */
	uint64_t data[];
};
/* The hash of a label in a child table (the trampolines' fast path,
 * abi.c, computes the same): Fibonacci hashing, whose high half spreads
 * consecutive Ball-Larus IDs and IDs that differ in high bits alike. */
static inline uint32_t kp_kids_hash(uint64_t r)
{
	return (uint32_t)((r * 0x9e3779b97f4a7c15ull) >> 32);
}
/* The child of p labelled r in its table, or NULL. */
static inline struct kpath_rt_node *kp_kids_find(const struct kpath_rt_node *p, uint64_t r)
{
	const struct kp_kids *t = (const struct kp_kids *)p->kids;
	if (!t)
		return NULL;
	for (uint32_t i = kp_kids_hash(r) & t->mask;; i = (i + 1) & t->mask) {
		struct kpath_rt_node *x = t->e[i];
		if (!x || x->id == r)
			return x;
	}
}
/* Every child of p, in table order: for (i = 0; (x = kp_kids_next(p, &i));) */
static inline struct kpath_rt_node *kp_kids_next(const struct kpath_rt_node *p, uint32_t *i)
{
	const struct kp_kids *t = (const struct kp_kids *)p->kids;
	for (; t && *i <= t->mask; ++*i)
		if (t->e[*i])
			return t->e[(*i)++];
	return NULL;
}
/* The emit trampoline's child-table fast path (abi.c) as a C function,
 * for tests: the state after item id from state x (counted on x's child,
 * which x's cache slots then hold), or NULL where the trampoline calls
 * the library (x has no usable table, or no child labelled id).  Only
 * where the inline half exists (KPATH_RT_INLINE). */
struct kpath_rt_node *kp_tr_kids_probe(struct kpath_rt_node *x, uint64_t id);
/* The number of children of p. */
static inline uint32_t kp_kids_count(const struct kpath_rt_node *p)
{
	return p->kids ? ((const struct kp_kids *)p->kids)->nf >> 1 : 0;
}
struct kp_ksf {
	unsigned k;                   /* >= 2, or 1 in the k-SF (consumer.c) */
	/* The deepest level, whose nodes' next is their up: 2k-3 in the
	 * k-SF (the bottom of the lower slab; 0 at k = 1, where next is
	 * start), k-1 in the window forest (window.c: the full k-item
	 * windows). */
	unsigned bottom;
	uint32_t n;                   /* next free node index (>= 1) */
	int nocache;                  /* leave child caches empty: no inline steps */
	/* The cursor's node right after a marker: not in the forest; its
	 * child cache and its child table hold roots (R of the paper). */
	struct kpath_rt_node start;
	struct kpath_rt_node *seg[KP_NSEG];
	struct kp_tchunk *tab;        /* the child tables' arena */
};

/* A node without children: the cursor's p of an activation that is not
 * recorded (its items are ignored). */
extern struct kpath_rt_node kp_rt_idle;
/* Another node without children: the cursor's p where the library does
 * every item of a recorded activation (k = 1: trace mode, a hash table). */
extern struct kpath_rt_node kp_rt_lib;

/* The library's view of an activation's cursor (the instrumented code
 * keeps the packed form, struct kpath_rt_state, kpath_rt.h).  lim and cnt:
 * k = 1, IDs below lim count inline in cnt[], else lim is 0; p: the k >= 2
 * step's node (kpath_rt.h), else kp_rt_lib, or kp_rt_idle for an activation
 * not recorded (state null); state: this thread's state of the function;
 * act: the trace's activation number (trace mode), else 0. */
struct kp_cursor {
	uint64_t lim;
	kpath_rt_u64 *cnt;
	struct kpath_rt_node *p;
	void *state;
	uint64_t act;
};

/* A traced activation's record: its cursor's x points to it (the state's
 * one word has no room for the activation number).  It starts with a
 * node without children, so that the inline step always misses on it;
 * hdr.id is KP_TREC_ID, which no node of a forest carries (IDs are below
 * num_paths).  Taken at enter, given back at leave; the record of an
 * activation left by a longjmp stays taken until the thread ends. */
struct kp_trec {
	struct kpath_rt_node hdr;
	struct kpath_rt_node *p; /* the cursor's p */
	uint64_t act;            /* the trace's activation number */
	struct kp_trec *next;    /* free list */
	/* The trampolines' trace step (abi.c, KP_TR_TRACE), set at enter
	 * from the state's trcnt and trforest: th the thread that entered the
	 * activation; cnt the function's k = 1 counter array in th and ncnt
	 * its length (num_paths), where every item the library would take is
	 * that array's increment and the trace's record (trace_fast), else
	 * NULL and 0. */
	struct kp_thread *th;
	kpath_rt_u64 *cnt;
	uint64_t ncnt;
	/* k >= 2 (abi.c, trace_forest): not 0 where the item is the trace's
	 * record and the forest's step on a child that p's table holds */
	uint64_t forest;
};
#define KP_TREC_ID UINT64_MAX

/* The cached child of p labelled r, or NULL (the lookup of
 * kpath_rt_child, kpath_rt.h, which exists only where the inline path
 * does). */
static inline struct kpath_rt_node *kp_cache_get(const struct kpath_rt_node *p, uint64_t r)
{
	struct kpath_rt_node *y = p->slot[r % KPATH_RT_WAYS];
	if (y && y->id == r)
		return y;
	y = p->slot[(r % KPATH_RT_WAYS) ^ 1];
	return y && y->id == r ? y : NULL;
}
/* Caches child x of p in the pair of slots of its label: a free slot, else
 * x goes to its own slot and the child there moves to the other one (the
 * two most recently cached stay).  Every slot always holds null or a
 * child of p, one pointer store at a time (kpath_rt_step may run in a
 * signal handler meanwhile). */
static inline void kp_cache_put(struct kpath_rt_node *p, struct kpath_rt_node *x)
{
	unsigned i = (unsigned)(x->id % KPATH_RT_WAYS), j = i ^ 1;
	if (p->slot[i] == x || p->slot[j] == x)
		return;
	if (!p->slot[i]) {
		p->slot[i] = x;
	} else if (!p->slot[j]) {
		p->slot[j] = x;
	} else {
		p->slot[j] = p->slot[i];
		p->slot[i] = x;
	}
}

int kp_ksf_init(struct kp_ksf *s, unsigned k);
void kp_ksf_free(struct kp_ksf *s);
/* The node with index i (1 <= i < s->n). */
static inline struct kpath_rt_node *kp_ksf_node(const struct kp_ksf *s, uint32_t i)
{
	uint32_t j = i + (1u << KP_SEG0);
	unsigned top = 31u - (unsigned)__builtin_clz(j);
	return &s->seg[top - KP_SEG0][j - (1u << top)];
}
/* Routine-entry marker "*" for the cursor c (n = 0, tau = beta = null):
 * sets c->p. */
void kp_ksf_marker(struct kp_ksf *s, struct kp_cursor *c);
/* process_bl_path_id(r) of the k-BLPP paper (Algorithm "Stream processing
 * algorithm for k-SF construction") on the stream whose (n, tau, beta) are
 * in c, filling the child caches it looks through.  kpath_rt_step, when it
 * succeeds, has the same effect.  0, or KP_ENOMEM: r is dropped and c
 * restarts as after a marker. */
int kp_ksf_process(struct kp_ksf *s, struct kp_cursor *c, uint64_t r);
/* find(R, r): the root labelled r, or NULL. */
static inline struct kpath_rt_node *kp_ksf_root(const struct kp_ksf *s, uint64_t r)
{
	return kp_kids_find(&s->start, r);
}
/* The index of node v of s (the inverse of kp_ksf_node). */
uint32_t kp_ksf_index(const struct kp_ksf *s, const struct kpath_rt_node *v);
/* The root labelled r, created if absent; NULL if out of memory. */
struct kpath_rt_node *kp_ksf_root_node(struct kp_ksf *s, uint64_t r);
/* The child of p labelled r (through p's child cache, else p's table),
 * or NULL; p's cache slot for r then holds it (unless nocache). */
struct kpath_rt_node *kp_ksf_find(struct kp_ksf *s, struct kpath_rt_node *p, uint64_t r);
/* The child of p labelled r (kp_ksf_find), created if absent at level
 * p->level + 1 with the given up (whose index goes to the new node's up;
 * at level bottom, next = up, else next is the node itself); p's cache
 * slot for r then holds it.  NULL if out of memory. */
struct kpath_rt_node *kp_ksf_child(struct kp_ksf *s, struct kpath_rt_node *p, uint64_t r,
				   struct kpath_rt_node *up);
/* make_k_ipf of the k-BLPP paper: adds the k-IPF of s into dst. */
int kp_ksf_to_ipf(const struct kp_ksf *s, struct kp_ipf *dst);
/* The same for a window forest (window.c), in one lookup per node. */
int kp_win_to_ipf(const struct kp_ksf *s, struct kp_ipf *dst);
/* Sets every counter to 0, keeping the nodes (so cursors stay valid). */
void kp_ksf_zero(struct kp_ksf *s);
/* Bytes of s's child tables, the replaced ones included (KPATH_STATS). */
uint64_t kp_ksf_table_bytes(const struct kp_ksf *s);

/* ---- window forest (window.c) ------------------------------------------ */

/* The same node store as the k-SF, built by sliding a k-item window over
 * the stream instead of cutting it into slabs; kp_ksf_to_ipf, kp_ksf_zero,
 * kp_ksf_sum, kp_ksf_free and kp_ksf_marker apply unchanged. */
int kp_win_init(struct kp_ksf *s, unsigned k);
/* One item r of the stream whose position is c->p (as kp_ksf_process). */
int kp_win_process(struct kp_ksf *s, struct kp_cursor *c, uint64_t r);
/* Sum of all counters (= items processed since the last zero). */
uint64_t kp_ksf_sum(const struct kp_ksf *s);

/* ---- k = 1: Ball-Larus counters (counts.c) ---------------------------- */

/* A function's counters are an array indexed by ID: allocated whole up to
 * KP_COUNTS_ARRAY_MAX counters, a sparse mapping (kp_sparse_alloc: pages
 * committed where written, so the paths never run cost address space only)
 * up to KP_COUNTS_SPARSE_MAX; above, an open-addressing hash table (and
 * every item goes through the library).  512 MB of address space at most
 * per function and thread (a mapping that cannot be had falls back to the
 * hash table); a VM loop of 14,391 paths spent 21% of its program's
 * instructions in the hash table (issue 14), and SQLite's bytecode engine,
 * sqlite3VdbeExec, has 58,382,670 paths: with the hash table above 2^20,
 * k = 1 cost 4.00x native instructions on the real-code suite's workload,
 * k = 4 1.70x. */
#define KP_COUNTS_ARRAY_MAX 4096u
#define KP_COUNTS_SPARSE_MAX (1u << 26)
struct kp_counts {
	kpath_rt_u64 *arr; /* narr counters (all num_paths, or a ppp prefix) */
	uint64_t narr;
	size_t map_bytes;  /* arr's mapping with its header (kp_sparse_alloc), 0: calloc */
	uint64_t *keys;  /* else open addressing: id + 1 (0 = empty) */
	uint64_t *vals;
	uint32_t cap, used;
	void **retired;
	uint32_t nretired;
};
/* prefix: with num_paths above KP_COUNTS_SPARSE_MAX, the IDs below prefix
 * still get an array (a ppp function's counter array, ppp.c), the rest the
 * hash table. */
int kp_counts_init(struct kp_counts *t, uint64_t num_paths, uint64_t prefix);
void kp_counts_free(struct kp_counts *t);
int kp_counts_add(struct kp_counts *t, uint64_t id);
int kp_counts_to_ipf(const struct kp_counts *t, struct kp_ipf *dst);
void kp_counts_zero(struct kp_counts *t);
/* Sum of all counters. */
uint64_t kp_counts_sum(const struct kp_counts *t);

/* ---- consumers (consumer.c) ------------------------------------------- */

struct kp_tfunc;
/* A stream consumer: what the runtime does with each valid path ID.  Later
 * modes (whole-program grammar) add an instance here. */
struct kp_consumer {
	const char *name;
	int (*init)(struct kp_tfunc *tf, unsigned k);
	/* The marker: initialises every field of c for kpath_rt_step and
	 * item (state = tf, lim = num_paths where the inline path applies). */
	void (*enter)(struct kp_tfunc *tf, struct kp_cursor *c);
	/* 0, or KP_ENOMEM when the item was dropped */
	int (*item)(struct kp_tfunc *tf, struct kp_cursor *c, uint64_t id);
	int (*to_ipf)(const struct kp_tfunc *tf, struct kp_ipf *dst);
	void (*zero)(struct kp_tfunc *tf);
	/* Items recorded since the last zero (inline steps included). */
	uint64_t (*sum)(const struct kp_tfunc *tf);
	void (*fini)(struct kp_tfunc *tf);
};
extern const struct kp_consumer kp_consumer_ksf;
extern const struct kp_consumer kp_consumer_counts;
extern const struct kp_consumer kp_consumer_window;
/* The k >= 2 consumer: window (default) or ksf. */
extern const struct kp_consumer *kp_forest;
/* Sets kp_forest from a KPATH_FOREST value ("window", "ksf"; NULL or
 * empty: window).  0, or -1 for an unknown name (kp_forest unchanged). */
int kp_forest_select(const char *name);
/* counts for k = 1, else kp_forest. */
const struct kp_consumer *kp_consumer_for(unsigned k);

struct kp_thread;
/* One function's state in one thread (or in the offline replay).  The
 * number of valid IDs emitted is not counted on the hot path: it is
 * cons->sum + dropped (kp_tfunc_emitted). */
struct kp_tfunc {
	/* First, for the trampolines' acyclic trace step (abi.c,
	 * KP_TR_TRACE_COUNT): the k = 1 counter array of all num_paths IDs
	 * where an activation's count is exactly the trace's two records and
	 * that array's increment (trace_fast), else NULL. */
	kpath_rt_u64 *trcnt;
	/* likewise not 0 where the state is a forest whose items the
	 * emit and leave trampolines may step (trace_forest) */
	uint64_t trforest;
	const struct kpath_rt_func *f;
	struct kp_thread *th;   /* NULL offline */
	const struct kp_consumer *cons;
	/* the cursor right after a marker (cons->enter), and its packed
	 * form (kp_tfunc_pack), of which the thread's markers array keeps a
	 * copy for the inline kpath_rt_enter */
	struct kp_cursor marker;
	struct kpath_rt_state pub;
	/* the thread's pointer of the instrumented file that holds the
	 * counter array (kpath_rt_tally), or NULL: set by kp_thread_tally,
	 * cleared by kp_thread_untally before the array goes */
	kpath_rt_u64 **tally;
	/* likewise the pointer that holds the template pub.x
	 * (kpath_rt_enter_t), or NULL */
	void **tpl;
	uint64_t invalid, dropped;
	union {
		struct kp_ksf ksf;
		struct kp_counts counts;
	} u;
};
/* NULL on allocation failure. */
struct kp_tfunc *kp_tfunc_new(const struct kpath_rt_func *f, unsigned k);
/* From now on every item of tf goes through the library (trace mode):
 * cursors entered later never take the inline step. */
void kp_tfunc_library_only(struct kp_tfunc *tf);
void kp_tfunc_free(struct kp_tfunc *tf);
/* One emitted ID: counts it as invalid (id >= num_paths: not recorded,
 * the activation's sequence continues as if it had not been emitted) or
 * hands it to the consumer (counting it as dropped if that fails). */
static inline void kp_tfunc_item(struct kp_tfunc *tf, struct kp_cursor *c, uint64_t id)
{
	if (id >= tf->f->num_paths) {
		tf->invalid++;
		return;
	}
	if (tf->cons->item(tf, c, id) != 0)
		tf->dropped++;
}
/* The packed state of cursor c (kpath_rt.h), outside trace mode: x is
 * the node without children before cnt (counts.c), whose lim is c's
 * (capped: IDs above the cap go to the library, which counts them the
 * same way), where lim is not 0, else p (lim 0). */
static inline struct kpath_rt_state kp_cursor_pack(const struct kp_cursor *c)
{
	struct kpath_rt_state s;
	if (c->lim)
		s.x = (struct kpath_rt_node *)(void *)c->cnt - 1; /* counts.c */
	else
		s.x = c->p;
	assert(KPATH_RT_W(s) == (c->lim < KPATH_RT_LIM ? c->lim : KPATH_RT_LIM));
	return s;
}
/* The cursor of an activation of f whose packed state is s, in this
 * thread (tf: this thread's state of f); a traced activation's (x a
 * kp_trec) holds p and act in its record. */
static inline struct kp_cursor kp_cursor_unpack(struct kpath_rt_state s, struct kp_tfunc *tf)
{
	struct kp_cursor c;
	const struct kp_trec *r = (const struct kp_trec *)s.x;
	c.lim = KPATH_RT_W(s);
	c.cnt = c.lim ? KPATH_RT_CNT(s) : NULL;
	c.p = c.lim ? &kp_rt_lib : KPATH_RT_P(s);
	c.state = tf;
	c.act = 0;
	if (!c.lim && r->hdr.id == KP_TREC_ID) {
		c.p = r->p;
		c.act = r->act;
	}
	return c;
}
/* Sets tf->pub from tf->marker (after every change of the marker, which
 * happens before the thread's markers array copies pub.x:
 * kp_thread_func_slow, kp_thread_publish). */
static inline void kp_tfunc_pack(struct kp_tfunc *tf)
{
	tf->pub = kp_cursor_pack(&tf->marker);
}
/* Nodes of tf's forest (window or k-SF; 0 for counters), and the bytes
 * of its child tables in *tables. */
uint64_t kp_tfunc_nodes(const struct kp_tfunc *tf, uint64_t *tables);
/* Valid IDs emitted since the last zero. */
static inline uint64_t kp_tfunc_emitted(const struct kp_tfunc *tf)
{
	return tf->cons->sum(tf) + tf->dropped;
}

/* ---- global state (rt.c, thread.c) ------------------------------------ */

struct kp_gfunc {
	struct kpath_rt_func *f;
	struct kp_ipf ipf;  /* the k-IPF merged from finished thread data */
	uint64_t emitted, invalid, dropped;
	int written;        /* appeared in a profile this process wrote */
	int copied;         /* f is a heap copy: its module was unloaded (dso.c) */
	int lost;           /* f could not be copied: f is NULL, not written */
};

#define KP_TBUF 65536u
struct kp_tbuf {
	uint64_t act_base;  /* activation counter when the block started */
	uint32_t len;
	unsigned char buf[KP_TBUF];
};

struct kp_thread {
	/* First, at the offsets the trampolines' trace steps read (abi.c,
	 * KP_TR_TRACE, KP_TR_TRACE_COUNT): tp to funcs */
	uint64_t tp;             /* the thread pointer (%fs:0 on x86-64) */
	struct kp_tbuf *tbuf;    /* NULL unless tracing */
	uint64_t act;            /* activations entered (trace) */
	struct kp_trec *trec_free; /* free trace activation records (abi.c) */
	volatile int *busy;      /* the thread's kpath_rt_busy */
	struct kp_tfunc **funcs; /* indexed by slot - 1 */
	uint32_t nfuncs;
	/* funcs[i]->pub.x, or NULL (no state yet, or tracing): the inline
	 * enter's templates (kpath_rt_markers), grown with funcs */
	void **markers;
	/* funcs[i]->marker.cnt, or NULL (no state yet, no counter array, or
	 * tracing): the inline count's arrays (kpath_rt_counters), grown with
	 * funcs */
	kpath_rt_u64 **counters;
	void **retired;          /* old funcs, markers, counters arrays, see kp_ksf */
	uint32_t nretired;
	struct kp_thread *next;  /* kp_rt.threads */
	uint64_t tid;            /* trace thread number */
	uint64_t lib_items;      /* items the inline step left to the library (KPATH_STATS) */
	struct kp_wppt *wpp;     /* this thread's grammar (KPATH_MODE=wpp), or NULL */
	void *trec_chunks;         /* every chunk of them, freed with the thread */
};

/* Frees th's trace activation records (abi.c). */
void kp_trec_free_all(struct kp_thread *th);
/* The table that leads the trampolines' acyclic trace step from the
 * thread pointer to the thread's state (abi.c): th added by its own
 * thread when it starts tracing, forgotten before th is freed, all of it
 * in a forked child. */
void kp_tr_thread_add(struct kp_thread *th);
void kp_tr_thread_forget(const struct kp_thread *th);
void kp_tr_threads_clear(void);

/* Every item of th goes through the library (trace or WPP mode): no inline
 * steps, no published markers or counters. */
static inline int kp_thread_lib_only(const struct kp_thread *th)
{
	return th->tbuf || th->wpp;
}

struct kp_rt {
	pthread_mutex_t mu;      /* registry, threads, global k-IPFs, output */
	unsigned k;
	const struct kp_consumer *cons;
	struct kp_gfunc *funcs;  /* indexed by slot - 1 */
	uint32_t nfuncs, cap;
	uint32_t ncopied;        /* functions whose module was unloaded (dso.c) */
	struct kp_thread *threads;
	uint64_t next_tid;
	uint64_t dropped;        /* events lost outside any function state */
	pthread_key_t key;
	int key_ok;
	int atexit_ok;           /* kp_atexit is registered */
	int release_pending;     /* dso.c: freed by the module's last destructor */
	int exited;              /* the exit handler ran */
	int exit_write_failed;   /* and its write failed: no later write (dump.c) */
	int run_counted;         /* a profile of this process was written */
	int run_claim;           /* 0: not asked yet; 1: this copy counts the process's
	                            run; 2: another copy does (kp_dso_claim_run) */
	int forked;              /* this process was forked from an instrumented one */
	long pid;                /* this process's (getpid at start and after fork): a
	                            vfork child differs (kpath_rt_dump_now) */
	uint64_t threads_new;    /* threads that ran instrumented code and no write
	                            counted yet (profile totals: dump.c) */
	int stats;               /* KPATH_STATS: print forest sizes at exit */
	uint64_t forest_nodes;   /* nodes of the forests of the threads that ended */
	uint64_t forest_table_bytes; /* and their child tables' bytes */
	uint64_t forest_threads; /* threads that had a forest */
	uint64_t lib_items, items; /* of the threads that ended: items through the library, all items */
	char *out;               /* KPATH_OUT, absolute, with its patterns (out_path.c) */
	char *redirect;          /* where this process writes once OUT proved unusable */
	/* trace (trace.c) */
	pthread_mutex_t tmu;
	FILE *trace;
	int trace_on;
	/* whole program paths (wpp.c), under mu */
	int wpp_on;
	char *wpp_path;
	struct kp_wppt *wpp_done; /* grammars of the threads that ended */
};
extern struct kp_rt kp_rt;

/* Initialises kp_rt once (environment, atexit, key, trace). */
void kp_rt_init(void);
/* The library's own locks, kp_rt.mu and kp_rt.tmu, held with neither
 * thread cancellation nor asynchronous signals: nothing may take the
 * thread out of the library while it holds one.
 *  - The library runs cancellation points under them (the profile's open,
 *    write, fsync and rename under mu; the trace's fwrite under tmu, also
 *    from inside a program's step when a thread's trace buffer is full).
 *    A deferred cancel request acted on there unwound the thread out of
 *    the library with the lock held, and the thread's own exit, then the
 *    exit handler, waited for it forever (a traced program whose thread
 *    was cancelled hung: tests/rtuse, case cancel); and the program was
 *    cancelled at a point the original does not have.
 *  - A signal handler that leaves with siglongjmp (a timeout) left the
 *    same way from a trace write that a slow reader of the trace kept
 *    blocked, and the next write waited for ever (tests/rtuse, case
 *    trace_longjmp).  The signals are blocked, so a handler runs when the
 *    lock is released; the synchronous ones (SIGSEGV, SIGBUS, SIGFPE,
 *    SIGILL, SIGTRAP, SIGSYS) are not, since blocking them would not
 *    defer them.
 * These paths are rare (registration, a thread's start and end, a 64 KiB
 * trace chunk, a write of the profile): two system calls more each.
 * kp_lock returns the state kp_unlock puts back (nested locks restore in
 * turn); a cancel request or a signal that came meanwhile is acted on then,
 * as without kpath a little later. */
struct kp_held {
	int cs;
	sigset_t mask;
};

static inline struct kp_held kp_lock(pthread_mutex_t *m)
{
	struct kp_held h;
	sigset_t all;
	sigfillset(&all);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	sigdelset(&all, SIGTRAP);
	sigdelset(&all, SIGSYS);
	pthread_sigmask(SIG_BLOCK, &all, &h.mask);
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &h.cs);
	pthread_mutex_lock(m);
	return h;
}

/* The cancel state and signal mask kp_lock found, back (kp_unlock; the
 * fork child, whose locks are new ones). */
static inline void kp_held_restore(struct kp_held h)
{
	pthread_setcancelstate(h.cs, &h.cs);
	pthread_sigmask(SIG_SETMASK, &h.mask, NULL);
}

static inline void kp_unlock(pthread_mutex_t *m, struct kp_held h)
{
	pthread_mutex_unlock(m);
	kp_held_restore(h);
}

/* trace.c: whether kp_rt.trace is still the file the runtime opened (the
 * program may have closed its descriptor and opened another file under
 * its number); if not, the trace stops.  Under kp_rt.tmu. */
int kp_trace_ok_locked(void);

/* Registers f (idempotent); returns its slot, or -1 if it is unusable. */
int kp_rt_register(struct kpath_rt_func *f);
/* Counts one dropped event (any thread). */
void kp_rt_drop(uint64_t n);
/* This thread's state, or NULL before its first activation. */
extern _Thread_local struct kp_thread *kp_thread_current;
/* The inline enter's view of the current thread (kpath_rt.h). */
extern _Thread_local void *const *kpath_rt_markers;
extern _Thread_local unsigned kpath_rt_nmarkers;
/* The inline count's view (kpath_rt.h). */
extern _Thread_local kpath_rt_u64 *const *kpath_rt_counters;
extern _Thread_local unsigned kpath_rt_ncounters;
/* Set while this thread is inside the library half (abi.c). */
extern _Thread_local volatile int kpath_rt_busy;
/* The size of the published kpath_rt_counters; kpath_rt_ncounters equals
 * it except inside the library, where it is 0 (abi.c, busy_enter). */
extern _Thread_local unsigned kp_ncounters;
/* Rebuilds th's templates and counter arrays (none while tracing) and,
 * when th is the current thread, publishes them. */
void kp_thread_publish(struct kp_thread *th);
/* This thread's state, created on first use; NULL on allocation failure. */
struct kp_thread *kp_thread_self(void);
/* The tfunc for slot, created with a consumer for k (kp_rt.k; 1 for an
 * acyclic function, kpath_rt_count).  NULL on allocation failure. */
struct kp_tfunc *kp_thread_func_slow(struct kp_thread *th, struct kpath_rt_func *f, int slot, unsigned k);
/* kpath_rt_tally: stores tf's counter array into a, the current thread's
 * pointer of the instrumented file, and keeps a in tf->tally, where
 * there is an array for the inline count (not for a hash table, trace or
 * WPP).  tf belongs to the current thread. */
void kp_thread_tally(struct kp_tfunc *tf, kpath_rt_u64 **a);
/* kpath_rt_enter_t: stores tf's template into t, the current thread's
 * pointer of the instrumented file, and keeps t in tf, where the inline
 * enter may use the template (kpath_rt_markers would list it: not in
 * trace or WPP mode).  tf belongs to the current thread. */
void kp_thread_template(struct kp_tfunc *tf, void **t);
/* Sets the tally and template pointers of th's functions back to null and
 * forgets them, before th's arrays and forests are freed.  Caller holds kp_rt.mu, and runs in
 * th's thread or while every module whose pointer th has is loaded (the
 * unloading of a function's module forgets its pointer without writing
 * it: dso.c). */
void kp_thread_untally(struct kp_thread *th);
/* Moves th's data into the global k-IPFs (caller holds kp_rt.mu) and zeroes
 * it (the nodes stay, so live cursors stay valid). */
void kp_thread_flush(struct kp_thread *th);
/* Adds th's forest sizes to kp_rt.forest_nodes/forest_threads (caller
 * holds kp_rt.mu). */
void kp_thread_count_nodes(struct kp_thread *th);
/* Frees every thread's state (caller holds kp_rt.mu; only when no
 * instrumented code of this runtime can run again: dso.c). */
void kp_thread_free_all(void);
/* Frees everything the runtime holds, after its last write (dso.c). */
void kp_rt_release(void);
/* Thread-exit destructor (also usable directly). */
void kp_thread_exit(void *th);

/* ---- --mode kiter (kiter.c) ------------------------------------------ */

/* The kiter fields of a function (profile.h, struct kp_func), from what the
 * instrumented file registered for descriptor f. */
void *kp_kiter_fields(const struct kpath_rt_func *f);

/* ---- --mode ppp (ppp.c) ----------------------------------------------- */

/* The IDs of f that get a counter array whatever num_paths is: the PPP
 * slots of a registered ppp function (0 otherwise). */
uint64_t kp_ppp_prefix(const struct kpath_rt_func *f);
/* dso.c: descriptor from was replaced by its copy to. */
void kp_ppp_moved(const struct kpath_rt_func *from, const struct kpath_rt_func *to);
/* For a ppp function: its level-1 counts t mapped to Ball-Larus IDs into
 * out (initialised here), *num_paths = N, holes added to *invalid, *json
 * the mode's fields; returns 1.  0 for any other function (nothing set),
 * KP_ENOMEM. */
int kp_ppp_snapshot(const struct kpath_rt_func *f, const struct kp_ipf *t, struct kp_ipf *out, uint64_t *num_paths,
                    uint64_t *invalid, void **json);

/* ---- --mode overlap (overlap.c, profile_overlap.c) ---------------------- */

/* Is f a companion (the OL path counts of an overlap function, never a
 * function of the profile)? */
int kp_overlap_companion(const struct kpath_rt_func *f);
/* The mode's fields for the registered overlap function f, with its
 * companion's counts (a new jansson object); NULL for another function. */
void *kp_overlap_fields(const struct kpath_rt_func *f);
/* Adds "overlap_calls" to f's fields (a jansson object) when f registered
 * call sites (overlap_call.c).  0, or -1 on memory exhaustion. */
int kp_overlap_calls_fields(const struct kpath_rt_func *f, void *fields);

/* ---- output (snapshot.c, accumulate.c, dump.c) ------------------------ */

/* Adds to p a function with descriptor f, k-IPF t (compacted to p->k,
 * copied), counters, and the decoded paths of its IDs.  borrow: f's
 * strings and arrays outlive p (a registered descriptor's live until
 * exit, dso.c copies those of an unloaded library), and t outlives p
 * unchanged (kp_rt.mu is held from the snapshot to kp_profile_free), so p
 * points to them instead of copying them (t when it is compact already:
 * kp_ipf_borrow). */
int kp_snapshot_func(struct kp_profile *p, const struct kpath_rt_func *f, const struct kp_ipf *t,
		     uint64_t emitted, uint64_t invalid, int borrow);
/* Accumulates p into the file out under flock(out.lock); when out exists
 * but is no profile we may add to, writes beside it and sets *redirect
 * (malloc'd).  With redirect NULL (the fallback itself), no lock.  0, or
 * < 0 with err holding "PATH: reason" (nothing printed). */
int kp_accumulate(const char *out, struct kp_profile *p, char **redirect, char *err, size_t errlen);
/* KPATH_OUT's patterns (out_path.c): says on stderr, naming the variable
 * var (KPATH_OUT, KPATH_TRACE), that pattern's first % that is not %p, %h,
 * %m or %% is kept as written; nothing if there is none. */
void kp_out_pattern_warn(const char *var, const char *pattern);
/* pattern with %p, %h, %m, %% expanded (malloc'd); NULL on ENOMEM. */
/* strdup with the runtime's malloc (own_alloc.c): libkpath_rt.a binds the
 * runtime's calls to strdup here. */
char *kp_rt_strdup(const char *s);
char *kp_out_expand(const char *pattern);
/* 0 when path may take a profile; else < 0 with err "PATH: reason". */
int kp_out_check(const char *path, char *err, size_t errlen);
/* The removal of the temporary files of atomic writes (kp_tmp_name,
 * profile_int.h) that dead processes left (stale.c). */
void kp_stale_sweep(const char *out);
/* Shared libraries (dso.c): the slot of an earlier registration of f's
 * function (same name, file, checksum) whose module was unloaded, or 0
 * (caller holds kp_rt.mu); and the hook every module's copy of the
 * runtime calls from its destructor. */
int kp_dso_reuse_slot(const struct kpath_rt_func *f);
/* 1 if no other copy of the runtime in this process counted its run yet
 * (then this one does), 0 otherwise (dso.c). */
int kp_dso_claim_run(void);
/* NULL if this copy is the first in the process (dso.c), else its module's
 * file name, malloc'ed (or NULL on ENOMEM). */
char *kp_dso_follower_name(void);
void kpath_rt_module_fini(const void *marker);
void kpath_rt_module_last(void);
/* Writes the global data now (caller holds kp_rt.mu). */
void kp_dump_locked(void);
/* After the exit handler's write: writes what the calling thread recorded
 * since (dump.c). */
void kp_dump_after_exit(void);

/* ---- a mode's per-function tables (registry.c) -------------------------- */

/* Registered at start-up, found by descriptor when the profile is written.
 * Items are heap copies whose first member is the function's descriptor
 * pointer; they never move. */
struct kp_registry {
	pthread_mutex_t mu;
	void **items;
	size_t n, cap;
};
#define KP_REGISTRY_INIT { PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0 }
/* Registers a copy of ITEM (SIZE bytes): 0, or KP_ENOMEM (nothing added). */
int kp_registry_add(struct kp_registry *r, const void *item, size_t size);
/* The first item registered for f, or NULL. */
void *kp_registry_find(struct kp_registry *r, const struct kpath_rt_func *f);
/* The items of FROM now name TO (dso.c: descriptors copied at unload). */
void kp_registry_moved(struct kp_registry *r, const struct kpath_rt_func *from, const struct kpath_rt_func *to);

/* ---- whole-stream consumers (stream.c) ---------------------------------- */

/* A whole-stream consumer sees every item of every thread, in order, as
 * the library receives it: a thread with one on is library-only (no
 * inline steps; kp_thread_lib_only).  Beside the per-activation consumers
 * (struct kp_consumer: counters, forest), which the k-IPF comes from, the
 * trace (trace.c, KPATH_TRACE) and the whole-program-path grammar (wpp.c,
 * KPATH_MODE=wpp) are the two; a new one is a file defining its struct
 * kp_stream, a line in kp_streams[] (stream.c) and its per-thread field
 * in struct kp_thread.  Every hook may be NULL. */
struct kp_stream {
	const char *name;
	void (*open)(void);                   /* start-up: on or off, from the environment */
	void (*func)(const struct kpath_rt_func *f, uint32_t index); /* registered; kp_rt.mu held */
	void (*thread_new)(struct kp_thread *th);  /* th->tid set; kp_rt.mu held */
	void (*thread_free)(struct kp_thread *th);
	/* An activation begins in a library-only thread: index = slot - 1, c
	 * its cursor (the trace numbers it: c->act). */
	void (*enter)(struct kp_thread *th, uint32_t index, struct kp_cursor *c);
	/* A path completed: kind KP_TR_EMIT or KP_TR_LEAVE, the ID. */
	void (*item)(struct kp_thread *th, int kind, uint32_t index, const struct kp_cursor *c, uint64_t id);
	void (*flush)(struct kp_thread *th);      /* th's buffered part out (kpath_dump, exit) */
	void (*thread_end)(struct kp_thread *th); /* kp_rt.mu held */
	void (*fork_child)(struct kp_thread *self); /* in the child; self may be NULL */
	void (*write_locked)(void);               /* at exit, kp_rt.mu held */
	void (*sync)(void);                       /* after the exit writers and each later write
	                                             (kp_dump_after_exit), kp_rt.mu not held */
	void (*close)(void);                      /* when the runtime is released (dso.c), kp_rt.mu not held */
};
extern const struct kp_stream kp_stream_trace, kp_stream_wpp;

/* Each hook of every stream, in kp_streams[] order. */
void kp_streams_open(void);
void kp_streams_func(const struct kpath_rt_func *f, uint32_t index);
void kp_streams_thread_new(struct kp_thread *th);
void kp_streams_thread_free(struct kp_thread *th);
void kp_streams_enter(struct kp_thread *th, uint32_t index, struct kp_cursor *c);
void kp_streams_item(struct kp_thread *th, int kind, uint32_t index, const struct kp_cursor *c, uint64_t id);
void kp_streams_flush(struct kp_thread *th);
void kp_streams_thread_end(struct kp_thread *th);
void kp_streams_fork_child(struct kp_thread *self);
void kp_streams_write_locked(void);
void kp_streams_sync(void);
void kp_streams_close(void);

/* ---- trace (trace.c) --------------------------------------------------- */

/* Trace file format: see trace.c and docs/trace-format.md. */
#define KP_TRACE_MAGIC "KPTRACE1"
enum { KP_TR_EMIT = 0, KP_TR_LEAVE = 1, KP_TR_ENTER = 2 };

/* The trace's hooks are kp_stream_trace's (above). */

/* ---- whole program paths (wpp.c, sequitur.c) ---------------------------- */

/* WPP file format: see wpp.c and docs/wpp-format.md. */
#define KP_WPP_MAGIC "KPWPP\0\0\1"
/* The WPP's hooks are kp_stream_wpp's (above): open is KPATH_MODE=wpp
 * (wpp_on, wpp_path from KPATH_WPP, default kpath.wpp); a thread's grammar
 * is th->wpp (NULL on ENOMEM: the thread is not recorded); a thread that
 * ends hands it to kp_rt.wpp_done; write_locked writes every grammar to
 * wpp_path, once. */

/* varints (LEB128, unsigned) for the trace writer and reader */
static inline unsigned kp_varint_put(unsigned char *p, uint64_t v)
{
	unsigned n = 0;
	while (v >= 0x80) {
		p[n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (unsigned char)v;
	return n;
}
/* Reads a varint from [*p, end); 0 or -1 (truncated / too long). */
static inline int kp_varint_get(const unsigned char **p, const unsigned char *end, uint64_t *v)
{
	uint64_t r = 0;
	unsigned shift = 0;
	while (*p < end && shift < 64) {
		unsigned char b = *(*p)++;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			return 0;
		}
		shift += 7;
	}
	return -1;
}
/* A string (its length as a varint, then its bytes) from [*p, end) into a
 * new NUL-terminated *out; 0 or -1 (truncated, or out of memory). */
static inline int kp_varint_get_str(const unsigned char **p, const unsigned char *end, char **out)
{
	uint64_t n;
	if (kp_varint_get(p, end, &n) || n > (uint64_t)(end - *p))
		return -1;
	*out = malloc(n + 1);
	if (!*out)
		return -1;
	memcpy(*out, *p, n);
	(*out)[n] = 0;
	*p += n;
	return 0;
}
/* A varint that must fit in 32 bits; 0 or -1. */
static inline int kp_varint_get_u32(const unsigned char **p, const unsigned char *end, unsigned *out)
{
	uint64_t v;
	if (kp_varint_get(p, end, &v) || v > UINT32_MAX)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* ---- binary writers' buffer (bytes.c) ----------------------------------- */

/* A growable byte buffer; after a failed allocation oom is set and nothing
 * more is taken. */
struct kp_bytes {
	unsigned char *p;
	size_t len, cap;
	int oom;
};
void kp_bytes_need(struct kp_bytes *b, size_t n);
void kp_bytes_put(struct kp_bytes *b, const void *s, size_t n);
void kp_bytes_varint(struct kp_bytes *b, uint64_t v);
/* A string: its length (varint), then its bytes. */
void kp_bytes_str(struct kp_bytes *b, const char *s);
/* The function descriptor record of the trace's 'F' chunks and of WPP files. */
void kp_bytes_func_desc(struct kp_bytes *b, const struct kpath_rt_func *f, uint32_t index);

#endif
