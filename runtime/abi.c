/*
 * abi.c: the library entry points of kpath_rt.h.  The hot path takes no
 * lock and allocates only when a forest grows.
 *
 * Division of work (DESIGN.md, Runtime): kpath_rt_step, inline in the
 * instrumented code, does an item when every node it needs is in a child
 * cache; the emit and leave trampolines do one whose node is in the child
 * table of the cursor's node (KP_TR_KIDS, before they save registers),
 * and in trace mode, where the caches stay empty and the tables are not
 * fast (kp_tfunc_library_only), the trampolines append the trace's
 * records and count, at k = 1 or on a child a forest node's table holds
 * (KP_TR_TRACE, KP_TR_TRACE_ENTER, KP_TR_TRACE_COUNT, with kp_busy set);
 * everything else comes here: new nodes, invalid IDs, trace mode's other
 * items (WPP, a new node, a full buffer) and inactive cursors (lim 0, p
 * kp_rt_idle: the inline step never succeeds), the k = 1 hash table.  Likewise the inline
 * kpath_rt_count of an acyclic function increments a counter of the
 * thread's array (kpath_rt_counters) and leaves the rest to
 * kpath_rt_count_slow: the first activation in a thread, invalid IDs,
 * trace mode (no arrays published), the hash table.
 *
 * Signal handlers (kp_busy).  A handler may run instrumented code between
 * any two instructions of the thread it interrupts.
 *  - Inside the library (enter and the slow halves), kp_busy is set: an
 *    activation entered then is not recorded (its cursor stays inactive:
 *    state null, lim 0, so its items are ignored) and is counted as
 *    dropped, so it never sees a forest halfway through an update.  An
 *    acyclic activation that ends inside kpath_rt_count_slow is dropped
 *    the same way (the inline kpath_rt_count finds its bound 0 meanwhile,
 *    see bound_restore); one that ends in another library half is counted
 *    when the inline count can do it (they share no data), else dropped.
 *  - The inline step does not set kp_busy.  It reads only fields that a
 *    concurrent update cannot leave half-written (a node's id never
 *    changes; a cache slot is one pointer, always some child of its node
 *    or null; the cursor belongs to the interrupted activation)
 *    and writes one counter with a single instruction.  So a handler that
 *    interrupts it may record its own activation normally: the interrupted
 *    step then finishes on nodes that are still correct.
 *  - The trampolines' child-table step (KP_TR_KIDS) does not set it
 *    either: it reads a table (one pointer in the node; entries null or
 *    children, each one store; a replaced table stays readable), counts
 *    with one instruction and stores the child into one or two cache
 *    slots of its node, each a pointer store of a child of that node.  A
 *    handler interrupting it may re-cache the same slots: every slot
 *    still holds null or a child (at worst one child twice, a lost cache
 *    entry, never a wrong one).  It never runs inside the library: an
 *    activation entered there is inactive (kp_rt_idle, no table).
 *  - The trampolines' trace steps set kp_busy (through th->busy) around
 *    what they append and count, as the library half does: a handler that
 *    interrupts them is dropped the same way.
 * Invariant: only the library half ever links or creates nodes, and only
 * with kp_busy set; outside it, the inline step only increments a counter
 * and the trampolines' table step increments one and re-caches a child.
 */
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

/* Set while this thread is inside the library half of enter/emit/leave.
 * Only this thread writes it; the inline enter reads it (kpath_rt.h).  An
 * int, like sig_atomic_t here, since kpath_rt.h includes nothing. */
_Thread_local volatile int kpath_rt_busy;
#define kp_busy kpath_rt_busy

/* The inline count's bound (kpath_rt_ncounters) is 0 while
 * kpath_rt_count_slow runs, the one library half that writes an acyclic
 * function's counters (a count the inline half would otherwise lose to
 * the library's own increment, from a handler that interrupts it): that
 * stands for a test of kp_busy in the inline count (kpath_rt.h).  It is 0
 * from before the library touches anything until after it is done, so a
 * handler running between two of these stores sees a library that has not
 * started or one that has finished.  The other halves leave the bound
 * alone: they write no acyclic function's data, so an inline count from a
 * handler that interrupts them is safe.  publish() does not set the bound
 * while kp_busy is set; the halves that may publish (enter, count) set it
 * from kp_ncounters when they are done. */
static void bound_restore(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	kpath_rt_ncounters = kp_ncounters;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

void kpath_rt_register(struct kpath_rt_func *f)
{
	kp_rt_register(f);
}

/* An inactive cursor: the inline step never runs (lim 0, p without
 * children) and the library half ignores its items (p kp_rt_idle). */
static void *inactive(void)
{
	return &kp_rt_idle;
}

/* Trace activation records (kp_internal.h), in chunks of KP_TREC_CHUNK
 * per thread. */
#define KP_TREC_CHUNK 64
struct trec_chunk {
	struct trec_chunk *next;
	struct kp_trec r[KP_TREC_CHUNK];
};

static struct kp_trec *trec_new(struct kp_thread *th)
{
	struct kp_trec *r = th->trec_free;
	if (!r) {
		struct trec_chunk *k = kp_calloc(1, sizeof *k);
		if (!k)
			return NULL;
		k->next = th->trec_chunks;
		th->trec_chunks = k;
		for (int i = KP_TREC_CHUNK - 1; i >= 0; i--) {
			k->r[i].hdr.id = KP_TREC_ID;
			k->r[i].next = th->trec_free;
			th->trec_free = &k->r[i];
		}
		r = th->trec_free;
	}
	th->trec_free = r->next;
	return r;
}

void kp_trec_free_all(struct kp_thread *th)
{
	struct trec_chunk *k = th->trec_chunks, *n;
	for (; k; k = n) {
		n = k->next;
		free(k);
	}
	th->trec_chunks = NULL;
	th->trec_free = NULL;
}

/* The routine-entry marker "*" of the k-BLPP paper. */
static void *enter(struct kpath_rt_func *f, void **t);
static struct kp_tfunc *count(struct kpath_rt_func *f, kpath_rt_u64 id);

/* The library half of both entries, with kp_busy set; t, when not null,
 * is kpath_rt_enter_t's pointer of the instrumented file, which gets this
 * thread's template of f and serves the inline enter from then on. */
static void *enter_busy(struct kpath_rt_func *f, void **t)
{
	void *s;
	if (kp_busy) {
		kp_rt_drop(1);
		return inactive();
	}
	kp_busy = 1;
	s = enter(f, t);
	bound_restore();
	kp_busy = 0;
	return s;
}

void *kpath_rt_enter_slow(struct kpath_rt_func *f)
{
	return enter_busy(f, NULL);
}

void *kpath_rt_enter_t_slow(struct kpath_rt_func *f, void **t)
{
	return enter_busy(f, t);
}

/* Whether the trampolines' trace step (KP_TR_TRACE) may do the items of
 * tf's traced activations: what item() would do for an ID below the
 * counter array's length is then exactly the trace's record and the
 * array's increment (k = 1's counts consumer with its array, the trace
 * the only stream). */
static int trace_fast(const struct kp_tfunc *tf)
{
	return tf->cons == &kp_consumer_counts && tf->u.counts.arr && tf->th->tbuf && !tf->th->wpp;
}

/* Likewise at k >= 2: the item is the trace's record and, where the
 * child y of the cursor's node labelled id is in the node's table, y's
 * counter and y->next as the new node (what kp_ksf_process and
 * kp_win_process do then: a child exists only with every node its
 * creation needed; the tables are not fast in trace mode, the forest not
 * caching, which concerns the inline step only). */
static int trace_forest(const struct kp_tfunc *tf)
{
	return (tf->cons == &kp_consumer_ksf || tf->cons == &kp_consumer_window) && tf->th->tbuf && !tf->th->wpp;
}

/* This thread's state of f, registering f and creating the state (with a
 * consumer for k) on first use; its slot in *slot.  NULL when the
 * activation is not recorded: f refused (slot < 0: ignored), or out of
 * memory (counted as dropped). */
static struct kp_tfunc *state(struct kpath_rt_func *f, unsigned k, int *slotp)
{
	int slot = __atomic_load_n(&f->slot, __ATOMIC_ACQUIRE);
	struct kp_thread *th = kp_thread_current;
	struct kp_tfunc *tf;
	*slotp = slot;
	if (slot > 0 && th && (uint32_t)slot <= th->nfuncs && (tf = th->funcs[slot - 1]))
		return tf; /* common case: a function this thread ran before */
	if (slot == 0)
		*slotp = slot = kp_rt_register(f);
	if (slot < 0)
		return NULL;
	th = kp_thread_self();
	if (slot == 0 || !th) {
		kp_rt_drop(1);
		return NULL;
	}
	tf = (uint32_t)slot <= th->nfuncs ? th->funcs[slot - 1] : NULL;
	if (!tf) {
		if (!(tf = kp_thread_func_slow(th, f, slot, k))) {
			kp_rt_drop(1);
			return NULL;
		}
		if (trace_fast(tf) && tf->u.counts.narr == f->num_paths)
			tf->trcnt = tf->u.counts.arr;
		tf->trforest = (uint64_t)trace_forest(tf);
	}
	return tf;
}

/* t, when not null: kpath_rt_enter_t's pointer, which gets the template
 * (kp_thread_template). */
static void *enter(struct kpath_rt_func *f, void **t)
{
	int slot;
	struct kp_tfunc *tf = state(f, kp_rt.k, &slot);
	if (!tf)
		return inactive();
	if (tf->th->tbuf) { /* tf is library-only (kp_thread_func_slow) */
		struct kp_cursor c = tf->marker;
		struct kp_trec *r = trec_new(tf->th);
		if (!r) {
			kp_rt_drop(1);
			return inactive();
		}
		kp_streams_enter(tf->th, (uint32_t)slot - 1, &c);
		r->p = c.p;
		r->act = c.act;
		r->th = tf->th; /* as KP_TR_TRACE_ENTER sets them, from state() */
		r->cnt = tf->trcnt;
		r->ncnt = tf->trcnt ? f->num_paths : 0;
		r->forest = tf->trforest;
		return r; /* lim 0: hdr is a node without children */
	}
	if (kp_thread_lib_only(tf->th)) {
		struct kp_cursor c = tf->marker;
		kp_streams_enter(tf->th, (uint32_t)slot - 1, &c);
	}
	if (t)
		kp_thread_template(tf, t);
	return tf->pub.x;
}

/* This thread's state of f, for an item of a recorded activation of f:
 * the cursor does not hold it (kpath_rt.h), but the activation's enter,
 * in this thread, created it, and it lives as long as the thread (a fork
 * keeps it).  NULL only if the activation moved to another thread
 * (swapcontext): its item is then dropped. */
static struct kp_tfunc *active(const struct kpath_rt_func *f)
{
	struct kp_thread *th = kp_thread_current;
	uint32_t i = (uint32_t)__atomic_load_n(&f->slot, __ATOMIC_RELAXED) - 1u;
	if (!th || i >= th->nfuncs || !th->funcs[i]) {
		kp_rt_drop(1);
		return NULL;
	}
	return th->funcs[i];
}

/* kpath_rt_count, the activation of an acyclic function: one item, so the
 * k-IPF is the Ball-Larus counts at any k, and the counts consumer records
 * it (k = 1: a 1-IPF "yields exactly the same counters as a canonical
 * Ball-Larus path profiler", k-BLPP paper).  The trace gets what a cursor
 * activation writes: ENTER, then LEAVE with the ID (here both when the
 * function returns). */
static struct kp_tfunc *count(struct kpath_rt_func *f, kpath_rt_u64 id)
{
	int slot;
	struct kp_tfunc *tf = state(f, 1, &slot);
	if (!tf)
		return NULL;
	struct kp_cursor c = tf->marker;
	if (kp_thread_lib_only(tf->th)) {
		kp_streams_enter(tf->th, (uint32_t)slot - 1, &c);
		kp_streams_item(tf->th, KP_TR_LEAVE, (uint32_t)slot - 1, &c, id);
	}
	kp_tfunc_item(tf, &c, id);
	return tf;
}

void kpath_rt_count_slow(struct kpath_rt_func *f, kpath_rt_u64 id)
{
	if (kp_busy) {
		kp_rt_drop(1);
		return;
	}
	kp_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	kpath_rt_ncounters = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	count(f, id);
	bound_restore();
	kp_busy = 0;
}

/* kpath_rt_tally's library half (kpath_rt.h): the activation as
 * kpath_rt_count_slow counts it, then this thread's counter array of f
 * into *a, this thread's pointer of the instrumented file, which the
 * inline count uses from then on.  The array is stored only after the
 * library's own increment, so a handler that interrupts this half and
 * finds *a null comes here and is dropped (kp_busy); one that finds it
 * set increments the array with one instruction, as the interrupted
 * thread would.  kpath_rt_ncounters needs no zeroing: the inline tally
 * does not read it.  Not stored for a function whose state holds no
 * array (hash table, trace or WPP: counters_of). */
void kpath_rt_tally_slow(struct kpath_rt_func *f, kpath_rt_u64 id, kpath_rt_u64 **a)
{
	if (kp_busy) {
		kp_rt_drop(1);
		return;
	}
	kp_busy = 1;
	struct kp_tfunc *tf = count(f, id); /* the current thread's (state) */
	if (tf)
		kp_thread_tally(tf, a);
	kp_busy = 0;
}

/* One item of the activation whose cursor is c: the trace, the WPP, the
 * consumer. */
static void item(struct kp_tfunc *tf, struct kp_cursor *c, int kind, kpath_rt_u64 id)
{
	kp_busy = 1;
	tf->th->lib_items++;
	if (kp_thread_lib_only(tf->th))
		kp_streams_item(tf->th, kind, (uint32_t)tf->f->slot - 1, c, id);
	kp_tfunc_item(tf, c, id);
	kp_busy = 0;
}

void *kpath_rt_emit_slow(struct kpath_rt_func *f, void *x, kpath_rt_u64 id)
{
	struct kpath_rt_state s;
	struct kp_cursor c;
	s.x = x;
	if (s.x == (void *)&kp_rt_idle)
		return x; /* not recorded */
	c = kp_cursor_unpack(s, active(f));
	if (!c.state)
		return inactive();
	item(c.state, &c, KP_TR_EMIT, id);
	if (!KPATH_RT_W(s) && KPATH_RT_P(s)->id == KP_TREC_ID) {
		((struct kp_trec *)s.x)->p = c.p; /* a traced activation */
		return x;
	}
	return kp_cursor_pack(&c).x;
}

void kpath_rt_leave_slow(struct kpath_rt_func *f, void *x, kpath_rt_u64 id)
{
	struct kpath_rt_state s;
	struct kp_cursor c;
	s.x = x;
	if (s.x == (void *)&kp_rt_idle)
		return; /* not recorded */
	c = kp_cursor_unpack(s, active(f));
	if (c.state)
		item(c.state, &c, KP_TR_LEAVE, id); /* the activation is over */
	if (!KPATH_RT_W(s) && KPATH_RT_P(s)->id == KP_TREC_ID) {
		struct kp_trec *r = s.x;
		struct kp_thread *th = kp_thread_current;
		if (th) { /* back to this thread's free list */
			r->next = th->trec_free;
			th->trec_free = r;
		}
	}
}

/* The vector state the trampolines keep where the CPU has AVX: the XSAVE
 * components of XCR0 among SSE (xmm and MXCSR), AVX (the upper halves of
 * ymm) and AVX-512 (opmasks, the upper halves of zmm0-15, zmm16-31), and
 * the size of XSAVE's area for them (CPUID leaf 0xD, rounded up to 64
 * bytes).  The inline halves name xmm0-15 as clobbered only where their
 * file is compiled with AVX (kpath_rt.h, KPATH_RT_CLOBV): a function with
 * __attribute__((target("avx2"))) in a file compiled without it keeps ymm
 * values across the call, whose upper halves the library's C library
 * calls (AVX2 memcpy and the like end in vzeroupper) cleared, and the
 * program computed another result (tests/e2e, vector_target.sh).  Zero
 * (no AVX, or before this module's constructors): the xmm registers are
 * saved with movaps, which is all there is to keep. */
__attribute__((used)) static unsigned kp_tr_xmask;
__attribute__((used)) static unsigned long kp_tr_xsize;
/* XGETBV with ECX = 1 gives the components not in their initial state:
 * where the upper halves are all zero (the common case: code that uses
 * them ends with vzeroupper), the xmm registers are all there is to keep,
 * and XSAVE (some 200 cycles) is left out (trace mode, whose every item
 * goes through a trampoline, was 4 times slower with it). */
__attribute__((used)) static unsigned kp_tr_xinuse;

__attribute__((constructor(101))) static void kp_tr_xinit(void)
{
	unsigned a, b, c, d, lo, hi;
	__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 27)) || !(c & (1u << 28))) /* OSXSAVE, AVX */
		return;
	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	(void)hi;
	if (!(lo & 4)) /* the OS does not keep the AVX state */
		return;
	__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(0));
	kp_tr_xsize = ((unsigned long)b + 63) & ~63ul;
	__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(1));
	kp_tr_xinuse = (a >> 2) & 1; /* XGETBV_ECX_1 */
	kp_tr_xmask = lo & 0xe6u;
}

/* The trampolines the inline halves call (kpath_rt.h): every general
 * register but rax, and the vector registers (xmm0-15, or with AVX the
 * whole state above: XSAVE/XRSTOR), are preserved; in: the state in rax, the
 * descriptor in rdi, the ID in rsi; out (enter, emit): the state in rax
 * (count: no state in, nothing out).  The caller stepped over its red
 * zone; the stack is aligned
 * here.  Each starts with endbr64 (a no-op without CET), since it is
 * reached through the PLT's indirect jump. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define KP_TR_SAVE \
	"\t.cfi_startproc\n\tendbr64\n" \
	"\tpushq %rbp\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbp, -16\n" \
	"\tmovq %rsp, %rbp\n\t.cfi_def_cfa_register %rbp\n" KP_TR_REST
#define KP_TR_REST \
	"\tpushq %rcx\n\tpushq %rdx\n\tpushq %rsi\n\tpushq %rdi\n\tpushq %r8\n\tpushq %r9\n\tpushq %r10\n\tpushq %r11\n" \
	"\tsubq $8, %rsp\n\tmovl kp_tr_xmask(%rip), %r11d\n" \
	"\ttestl %r11d, %r11d\n\tje 6f\n" \
	"\tcmpl $0, kp_tr_xinuse(%rip)\n\tje 6f\n" \
	"\tmovq %rax, %r10\n\tmovq %rdx, %r9\n\tmovl $1, %ecx\n\txgetbv\n" /* XINUSE */ \
	"\ttestl $0xe4, %eax\n\tjne 5f\n" \
	"\txorl %r11d, %r11d\n" /* no upper or AVX-512 state in use: xmm is all */ \
	"5:\tmovq %r10, %rax\n\tmovq %r9, %rdx\n" \
	"6:\tmovq %r11, (%rsp)\n" /* -72(%rbp): for KP_TR_RESTORE */ \
	"\ttestl %r11d, %r11d\n\tje 7f\n" \
	"\tmovq %rax, %r10\n\tmovq %rdx, %rcx\n" \
	"\tandq $-64, %rsp\n\tsubq kp_tr_xsize(%rip), %rsp\n" \
	"\txorl %eax, %eax\n" /* the XSAVE header, zero for XRSTOR */ \
	"\tmovq %rax, 512(%rsp)\n\tmovq %rax, 520(%rsp)\n\tmovq %rax, 528(%rsp)\n\tmovq %rax, 536(%rsp)\n" \
	"\tmovq %rax, 544(%rsp)\n\tmovq %rax, 552(%rsp)\n\tmovq %rax, 560(%rsp)\n\tmovq %rax, 568(%rsp)\n" \
	"\tmovl %r11d, %eax\n\txorl %edx, %edx\n\txsave (%rsp)\n" \
	"\tmovq %r10, %rax\n\tmovq %rcx, %rdx\n\tjmp 8f\n" \
	"7:\tandq $-16, %rsp\n\tsubq $256, %rsp\n" \
	"\tmovaps %xmm0, 0(%rsp)\n\tmovaps %xmm1, 16(%rsp)\n\tmovaps %xmm2, 32(%rsp)\n\tmovaps %xmm3, 48(%rsp)\n\tmovaps %xmm4, 64(%rsp)\n\tmovaps %xmm5, 80(%rsp)\n\tmovaps %xmm6, 96(%rsp)\n\tmovaps %xmm7, 112(%rsp)\n\tmovaps %xmm8, 128(%rsp)\n\tmovaps %xmm9, 144(%rsp)\n\tmovaps %xmm10, 160(%rsp)\n\tmovaps %xmm11, 176(%rsp)\n\tmovaps %xmm12, 192(%rsp)\n\tmovaps %xmm13, 208(%rsp)\n\tmovaps %xmm14, 224(%rsp)\n\tmovaps %xmm15, 240(%rsp)\n" \
	"8:\n"
#define KP_TR_RESTORE \
	"\tmovq -72(%rbp), %r11\n\ttestl %r11d, %r11d\n\tje 7f\n" \
	"\tmovq %rax, %r10\n\tmovl %r11d, %eax\n\txorl %edx, %edx\n\txrstor (%rsp)\n\tmovq %r10, %rax\n\tjmp 8f\n" \
	"7:\tmovaps 0(%rsp), %xmm0\n\tmovaps 16(%rsp), %xmm1\n\tmovaps 32(%rsp), %xmm2\n\tmovaps 48(%rsp), %xmm3\n\tmovaps 64(%rsp), %xmm4\n\tmovaps 80(%rsp), %xmm5\n\tmovaps 96(%rsp), %xmm6\n\tmovaps 112(%rsp), %xmm7\n\tmovaps 128(%rsp), %xmm8\n\tmovaps 144(%rsp), %xmm9\n\tmovaps 160(%rsp), %xmm10\n\tmovaps 176(%rsp), %xmm11\n\tmovaps 192(%rsp), %xmm12\n\tmovaps 208(%rsp), %xmm13\n\tmovaps 224(%rsp), %xmm14\n\tmovaps 240(%rsp), %xmm15\n" \
	"8:\tleaq -64(%rbp), %rsp\n" \
	"\tpopq %r11\n\tpopq %r10\n\tpopq %r9\n\tpopq %r8\n\tpopq %rdi\n\tpopq %rsi\n\tpopq %rdx\n\tpopq %rcx\n" \
	"\tpopq %rbp\n\t.cfi_def_cfa %rsp, 8\n\tret\n\t.cfi_endproc\n"
#define KP_TR(name, body) \
	"\t.pushsection .text\n\t.globl " name "\n\t.type " name ", @function\n" name ":\n" KP_TR_SAVE body \
	KP_TR_RESTORE "\t.size " name ", .-" name "\n\t.popsection\n"
/* The child table's fast path of emit and leave (kp_internal.h, struct
 * kp_kids), before any register is saved: x (rax) a node whose table may
 * be used (kids not null, its fast bit set; kids is null in every node that is
 * not a forest's: kp_rt_idle, kp_rt_lib, a trace record, the node before
 * a k = 1 counter array), its child y labelled id (rsi) found by
 * kp_kids_hash and linear probing; then, as the library would do:
 * y->count += 1 (one instruction, the inline step's signal-handler rule
 * above), y cached in x's slot pair (kp_cache_put: a free slot of the
 * pair, else y in slot[id % 4] and its old child in the other slot; each
 * slot one pointer store of a child of x), and for emit the new state
 * y->next in rax.  Everything it reads is fixed once published (a
 * table's entries are null or children; a node's id and next), and a
 * table replaced meanwhile stays readable (kp_ksf.tab).  rcx, rdx and r8
 * go to the red zone: the caller stepped over its own, and this path
 * calls nothing.  Anything else (no table, an empty entry: a new child or
 * an invalid ID) restores them and takes the library half below. */
#define KP_TR_HEAD(name) \
	"\t.pushsection .text\n\t.globl " name "\n\t.type " name ", @function\n" name ":\n" \
	"\t.cfi_startproc\n\tendbr64\n"
#define KP_TR_KIDS(next) \
	"\tcmpq $0, 24(%rax)\n\tje 10f\n" /* no table (a node's kids, once set, stays set) */ \
	"\tmovq %rcx, -8(%rsp)\n\tmovq %rdx, -16(%rsp)\n\tmovq %r8, -24(%rsp)\n" \
	"\tmovq 24(%rax), %rdx\n"      /* t = x->kids */ \
	"\ttestb $1, 4(%rdx)\n\tje 9f\n" /* fast: t->nf & 1 */ \
	"\tmovabsq $0x9e3779b97f4a7c15, %rcx\n\timulq %rsi, %rcx\n\tshrq $32, %rcx\n" /* kp_kids_hash */ \
	"1:\tandl (%rdx), %ecx\n"       /* & t->mask */ \
	"\tmovq 8(%rdx,%rcx,8), %r8\n" /* y = t->e[i] */ \
	"\ttestq %r8, %r8\n\tje 9f\n" \
	"\tcmpq %rsi, 8(%r8)\n\tje 2f\n" /* y->id == id */ \
	"\taddl $1, %ecx\n\tjmp 1b\n" \
	"2:\taddq $1, 16(%r8)\n"        /* y->count += 1 */ \
	"\tmovl %esi, %ecx\n\tandl $3, %ecx\n" /* i = id % 4 */ \
	"\tmovq 48(%rax,%rcx,8), %rdx\n\ttestq %rdx, %rdx\n\tje 3f\n" \
	"\txorl $1, %ecx\n\tcmpq $0, 48(%rax,%rcx,8)\n\tje 3f\n" \
	"\tmovq %rdx, 48(%rax,%rcx,8)\n\txorl $1, %ecx\n" \
	"3:\tmovq %r8, 48(%rax,%rcx,8)\n" next \
	"\tmovq -8(%rsp), %rcx\n\tmovq -16(%rsp), %rdx\n\tmovq -24(%rsp), %r8\n\tret\n" \
	"9:\tmovq -8(%rsp), %rcx\n\tmovq -16(%rsp), %rdx\n\tmovq -24(%rsp), %r8\n" \
	"10:\n"
/* The trace step of emit (kind "0") and leave (kind "1", free "the
 * record back"), before any register is saved: x (rax) a traced
 * activation's record r (struct kp_trec: hdr.id KP_TREC_ID, no child
 * table, so KP_TR_KIDS missed) with id (rsi) below its ncnt (k = 1: the
 * items are counts and the trace's records, trace_fast) or with forest
 * set (k >= 2, trace_forest: the child of r->p labelled id found in
 * r->p's table as KP_TR_KIDS finds it, else the library), r->th this
 * thread (its tp is %fs:0, the x86-64 ABI's thread
 * pointer: an activation that moved to another thread takes the library),
 * tracing (tbuf not null: a forked child has none) and kp_busy clear.
 * Then, with kp_busy set (through th->busy) as the library half would
 * have it, so that a signal handler's activations meanwhile are dropped
 * exactly as they are there: the record varint(back << 2 | kind)
 * varint(id), back = th->act - r->act, appended to the thread's buffer
 * (trace_item's), r->cnt[id] += 1 (the counts consumer's) or y->count
 * += 1 and, for emit, r->p = y->next (the forest's), and for leave r
 * pushed on th's free list (leave_slow's).  Nothing is called; like
 * KP_TR_KIDS, it saves what it uses below rsp.  Where the library would
 * do more (WPP, a hash table, an ID above the array, a new node, a full
 * buffer) it restores them and takes the library half.  Written without
 * kp_busy (a cmpxchg of the buffer's length), a handler's records were
 * overwritten by the bytes of the record it interrupted
 * (check.signal_handler, traced at k = 1).  Offsets: the asserts
 * below. */
#define KP_TR_VARINT(n) /* rcx at r10, r10 past it */ \
	n "1:\tcmpq $127, %rcx\n\tjbe " n "2f\n" \
	"\tmovb %cl, (%r10)\n\torb $-128, (%r10)\n\taddq $1, %r10\n\tshrq $7, %rcx\n\tjmp " n "1b\n" \
	n "2:\tmovb %cl, (%r10)\n\taddq $1, %r10\n"
#define KP_TR_TRACE(kind, next, free) \
	"\tcmpq $-1, 8(%rax)\n\tjne 29f\n" /* x->id == KP_TREC_ID */ \
	"\tcmpq %rsi, 120(%rax)\n\tja 30f\n" /* id < r->ncnt: k = 1 */ \
	"\tcmpq $0, 128(%rax)\n\tje 29f\n" /* r->forest: k >= 2 */ \
	"30:\tmovq %rcx, -8(%rsp)\n\tmovq %rdx, -16(%rsp)\n\tmovq %r8, -24(%rsp)\n" \
	"\tmovq %r9, -32(%rsp)\n\tmovq %r10, -40(%rsp)\n" \
	"\tmovq %rax, %r9\n" /* r */ \
	"\tmovq 104(%r9), %rdx\n" /* th = r->th */ \
	"\tmovq %fs:0, %rcx\n\tcmpq %rcx, (%rdx)\n\tjne 28f\n" /* th->tp */ \
	"\tmovq 8(%rdx), %r8\n\ttestq %r8, %r8\n\tje 28f\n" /* t = th->tbuf */ \
	"\tmovq 32(%rdx), %rcx\n\tcmpl $0, (%rcx)\n\tjne 28f\n" /* kp_busy */ \
	"\tcmpq $0, 112(%r9)\n\tjne 53f\n" \
	"\tmovq 80(%r9), %r10\n\tmovq 24(%r10), %r10\n\ttestq %r10, %r10\n\tje 28f\n" /* r->p->kids */ \
	"\tmovabsq $0x9e3779b97f4a7c15, %rcx\n\timulq %rsi, %rcx\n\tshrq $32, %rcx\n" /* kp_kids_hash */ \
	"51:\tandl (%r10), %ecx\n\tmovq 8(%r10,%rcx,8), %rax\n" /* y = e[i & mask] */ \
	"\ttestq %rax, %rax\n\tje 28f\n\tcmpq %rsi, 8(%rax)\n\tje 52f\n" \
	"\taddl $1, %ecx\n\tjmp 51b\n" \
	"52:\tmovq 32(%rdx), %rcx\n" \
	"53:\tmovl $1, (%rcx)\n" /* kp_busy */ \
	"\tmovl 8(%r8), %r10d\n\tcmpl $65512, %r10d\n\tja 27f\n" /* len + 24 <= KP_TBUF */ \
	"\tleaq 12(%r8,%r10), %r10\n" /* t->buf + len */ \
	"\tmovq 16(%rdx), %rcx\n\tsubq 88(%r9), %rcx\n" /* back = th->act - r->act */ \
	"\tleaq " kind "(,%rcx,4), %rcx\n" KP_TR_VARINT("3") \
	"\tmovq %rsi, %rcx\n" KP_TR_VARINT("4") \
	"\tsubq %r8, %r10\n\tsubl $12, %r10d\n\tmovl %r10d, 8(%r8)\n" /* the new len */ \
	"\tmovq 112(%r9), %rcx\n\ttestq %rcx, %rcx\n\tje 54f\n" \
	"\taddq $1, (%rcx,%rsi,8)\n\tjmp 55f\n" /* r->cnt[id] += 1 */ \
	"54:\taddq $1, 16(%rax)\n" next /* y->count += 1 */ \
	"55:\n" free \
	"\tmovq 32(%rdx), %rcx\n\tmovl $0, (%rcx)\n" \
	"\tmovq %r9, %rax\n" \
	"\tmovq -8(%rsp), %rcx\n\tmovq -16(%rsp), %rdx\n\tmovq -24(%rsp), %r8\n" \
	"\tmovq -32(%rsp), %r9\n\tmovq -40(%rsp), %r10\n\tret\n" \
	"27:\tmovq 32(%rdx), %rcx\n\tmovl $0, (%rcx)\n" \
	"28:\tmovq %r9, %rax\n" \
	"\tmovq -8(%rsp), %rcx\n\tmovq -16(%rsp), %rdx\n\tmovq -24(%rsp), %r8\n" \
	"\tmovq -32(%rsp), %r9\n\tmovq -40(%rsp), %r10\n" \
	"29:\n"
#define KP_TR_TRACE_FREE /* r->next = th->trec_free; th->trec_free = r */ \
	"\tmovq 24(%rdx), %rcx\n\tmovq %rcx, 96(%r9)\n\tmovq %r9, 24(%rdx)\n"
_Static_assert(offsetof(struct kp_trec, act) == 88 && offsetof(struct kp_trec, next) == 96 &&
                   offsetof(struct kp_trec, th) == 104 && offsetof(struct kp_trec, cnt) == 112 &&
                   offsetof(struct kp_trec, ncnt) == 120 && offsetof(struct kp_trec, forest) == 128 &&
                   offsetof(struct kp_trec, p) == 80 && offsetof(struct kpath_rt_node, kids) == 24,
               "KP_TR_TRACE's offsets: kp_trec");
_Static_assert(offsetof(struct kp_thread, tp) == 0 && offsetof(struct kp_thread, tbuf) == 8 &&
                   offsetof(struct kp_thread, act) == 16 && offsetof(struct kp_thread, trec_free) == 24 &&
                   offsetof(struct kp_thread, busy) == 32,
               "KP_TR_TRACE's offsets: kp_thread");
_Static_assert(offsetof(struct kp_tbuf, len) == 8 && offsetof(struct kp_tbuf, buf) == 12 &&
                   KP_TBUF - 24 == 65512 && KP_TR_EMIT == 0 && KP_TR_LEAVE == 1,
               "KP_TR_TRACE's offsets: kp_tbuf, and the record kinds");
/* The trace steps that start from the thread pointer (count, tally,
 * enter), before any register is saved: the thread's state comes from
 * %fs:0 (the x86-64 ABI's thread pointer) through kp_tr_tp / kp_tr_th
 * (kp_tr_thread_add: open addressing, the tp's golden-ratio hash, at most
 * KP_TR_PROBES slots, 1 a slot whose thread is gone).  KP_TR_THREAD goes
 * on (rcx, rdx, r8, r9, r10 saved below rsp) where the thread traces,
 * kp_busy is clear, f (rdi) has its state in the thread, tf =
 * funcs[f->slot - 1]: then rax = slot - 1, rcx = th->busy, rdx = th,
 * r8 = th->tbuf, r9 = tf; KP_TR_THREAD_BUSY then sets kp_busy and reads
 * the buffer's len into r10d (room for 24 bytes, else 27: kp_busy
 * cleared, the library half).  The steps go on where tf has trcnt (trace_fast: k =
 * 1 counts of all IDs, the trace the only stream) or, for enter,
 * trforest (trace_forest).  Anything else (not tracing: kp_tr_on 0)
 * takes the library half, which also registers f and creates its state.
 * The steps then set kp_busy as KP_TR_TRACE does.  Count and tally (id in
 * rsi, tally's pointer in rdx, kept; KP_TR_TRACE_COUNT): where id <
 * f->num_paths, what count() writes, ENTER varint(index << 2 | 2) and
 * LEAVE 1 varint(id) (back 0: the activation just entered), th->act += 1
 * and trcnt[id] += 1.  Enter and enter_t (t in rsi, kept;
 * KP_TR_TRACE_ENTER): where th has a free record, what enter() does: the
 * ENTER record, th->act += 1, and the record r taken from the free list
 * and set (p as the marker's, act, th, cnt, ncnt = num_paths where it
 * counts, forest) returned in rax. */
#define KP_TR_THREAD \
	"\tcmpl $0, kp_tr_on(%rip)\n\tje 29f\n" \
	"\tmovq %rcx, -8(%rsp)\n\tmovq %rdx, -16(%rsp)\n\tmovq %r8, -24(%rsp)\n" \
	"\tmovq %r9, -32(%rsp)\n\tmovq %r10, -40(%rsp)\n" \
	"\tmovq %fs:0, %rcx\n\tmovabsq $0x9e3779b97f4a7c15, %rax\n\timulq %rcx, %rax\n\tshrq $54, %rax\n" \
	"\tleaq kp_tr_tp(%rip), %r8\n\tmovl $16, %r10d\n" /* KP_TR_PROBES */ \
	"21:\tmovq (%r8,%rax,8), %r9\n\tcmpq %rcx, %r9\n\tje 22f\n" \
	"\ttestq %r9, %r9\n\tje 28f\n" \
	"\taddl $1, %eax\n\tandl $1023, %eax\n\tsubl $1, %r10d\n\tjne 21b\n\tjmp 28f\n" \
	"22:\tleaq kp_tr_th(%rip), %r8\n\tmovq (%r8,%rax,8), %rdx\n" /* th */ \
	"\tcmpq %rcx, (%rdx)\n\tjne 28f\n" /* th->tp */ \
	"\tmovq 8(%rdx), %r8\n\ttestq %r8, %r8\n\tje 28f\n" /* t = th->tbuf */ \
	"\tmovq 32(%rdx), %rcx\n\tcmpl $0, (%rcx)\n\tjne 28f\n" /* kp_busy */ \
	"\tmovl 80(%rdi), %eax\n\tsubl $1, %eax\n\tcmpl 48(%rdx), %eax\n\tjae 28f\n" /* i = f->slot - 1 < nfuncs */ \
	"\tmovq 40(%rdx), %r9\n\tmovq (%r9,%rax,8), %r9\n\ttestq %r9, %r9\n\tje 28f\n" /* tf */
/* kp_busy set, then the buffer's length read: read before, it missed the
 * records of a handler that ran in between, which the step then
 * overwrote (rtuse.dump_handler) */
#define KP_TR_THREAD_BUSY \
	"\tmovl $1, (%rcx)\n" /* kp_busy */ \
	"\tmovl 8(%r8), %r10d\n\tcmpl $65512, %r10d\n\tja 27f\n" /* len + 24 <= KP_TBUF */
#define KP_TR_THREAD_END \
	"\tmovq 32(%rdx), %rcx\n\tmovl $0, (%rcx)\n" \
	"\tmovq -8(%rsp), %rcx\n\tmovq -16(%rsp), %rdx\n\tmovq -24(%rsp), %r8\n" \
	"\tmovq -32(%rsp), %r9\n\tmovq -40(%rsp), %r10\n\tret\n" \
	"27:\tmovq 32(%rdx), %rcx\n\tmovl $0, (%rcx)\n" \
	"28:\tmovq -8(%rsp), %rcx\n\tmovq -16(%rsp), %rdx\n\tmovq -24(%rsp), %r8\n" \
	"\tmovq -32(%rsp), %r9\n\tmovq -40(%rsp), %r10\n" \
	"29:\n"
#define KP_TR_TRACE_COUNT \
	KP_TR_THREAD \
	"\tcmpq $0, (%r9)\n\tje 28f\n" /* tf->trcnt */ \
	"\tcmpq %rsi, 40(%rdi)\n\tjbe 28f\n" /* id < f->num_paths */ \
	KP_TR_THREAD_BUSY \
	"\tleaq 12(%r8,%r10), %r10\n" /* t->buf + len */ \
	"\tleaq 2(,%rax,4), %rcx\n" KP_TR_VARINT("3") \
	"\tmovb $1, (%r10)\n\taddq $1, %r10\n" \
	"\tmovq %rsi, %rcx\n" KP_TR_VARINT("4") \
	"\tsubq %r8, %r10\n\tsubl $12, %r10d\n\tmovl %r10d, 8(%r8)\n" /* the new len */ \
	"\taddq $1, 16(%rdx)\n" /* th->act */ \
	"\tmovq (%r9), %r9\n\taddq $1, (%r9,%rsi,8)\n" /* trcnt[id] += 1 */ \
	KP_TR_THREAD_END
#define KP_TR_TRACE_ENTER \
	KP_TR_THREAD \
	"\tcmpq $0, (%r9)\n\tjne 23f\n\tcmpq $0, 8(%r9)\n\tje 28f\n" /* tf->trcnt or tf->trforest */ \
	"23:" \
	KP_TR_THREAD_BUSY \
	"\tcmpq $0, 24(%rdx)\n\tje 27f\n" /* a free record */ \
	"\tleaq 12(%r8,%r10), %r10\n" /* t->buf + len */ \
	"\tleaq 2(,%rax,4), %rcx\n" KP_TR_VARINT("3") \
	"\tsubq %r8, %r10\n\tsubl $12, %r10d\n\tmovl %r10d, 8(%r8)\n" /* the new len */ \
	"\tmovq 16(%rdx), %rcx\n\taddq $1, %rcx\n\tmovq %rcx, 16(%rdx)\n" /* ++th->act */ \
	"\tmovq 24(%rdx), %rax\n\tmovq 96(%rax), %r10\n\tmovq %r10, 24(%rdx)\n" /* r, off the free list */ \
	"\tmovq %rcx, 88(%rax)\n" /* r->act */ \
	"\tmovq 56(%r9), %rcx\n\tmovq %rcx, 80(%rax)\n" /* r->p = tf->marker.p */ \
	"\tmovq %rdx, 104(%rax)\n" /* r->th */ \
	"\tmovq (%r9), %rcx\n\tmovq %rcx, 112(%rax)\n" /* r->cnt = tf->trcnt */ \
	"\txorl %r10d, %r10d\n\ttestq %rcx, %rcx\n\tcmovneq 40(%rdi), %r10\n" \
	"\tmovq %r10, 120(%rax)\n" /* r->ncnt = num_paths where it counts, else 0 */ \
	"\tmovq 8(%r9), %rcx\n\tmovq %rcx, 128(%rax)\n" /* r->forest = tf->trforest */ \
	KP_TR_THREAD_END
_Static_assert(offsetof(struct kpath_rt_func, num_paths) == 40 && offsetof(struct kpath_rt_func, slot) == 80 &&
                   offsetof(struct kp_tfunc, trcnt) == 0 && offsetof(struct kp_tfunc, trforest) == 8 &&
                   offsetof(struct kp_tfunc, marker.p) == 56 &&
                   offsetof(struct kp_thread, funcs) == 40 && offsetof(struct kp_thread, nfuncs) == 48 &&
                   offsetof(struct kp_trec, p) == 80 && KP_TR_ENTER == 2,
               "KP_TR_THREAD's offsets");
#define KP_TR_STEP(name, step, body) \
	"\t.pushsection .text\n\t.globl " name "\n\t.type " name ", @function\n" name ":\n" \
	"\t.cfi_startproc\n\tendbr64\n" step \
	"\tpushq %rbp\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbp, -16\n" \
	"\tmovq %rsp, %rbp\n\t.cfi_def_cfa_register %rbp\n" KP_TR_REST body KP_TR_RESTORE \
	"\t.size " name ", .-" name "\n\t.popsection\n"
#define KP_TR_FAST(name, next, trace, body) \
	KP_TR_HEAD(name) KP_TR_KIDS(next) trace \
	"\tpushq %rbp\n\t.cfi_def_cfa_offset 16\n\t.cfi_offset %rbp, -16\n" \
	"\tmovq %rsp, %rbp\n\t.cfi_def_cfa_register %rbp\n" KP_TR_REST body KP_TR_RESTORE \
	"\t.size " name ", .-" name "\n\t.popsection\n"
_Static_assert(offsetof(struct kpath_rt_node, next) == 0 && offsetof(struct kpath_rt_node, id) == 8 &&
                   offsetof(struct kpath_rt_node, count) == 16 && offsetof(struct kpath_rt_node, kids) == 24 &&
                   offsetof(struct kpath_rt_node, slot) == 48 && KPATH_RT_WAYS == 4,
               "KP_TR_KIDS's offsets");
_Static_assert(offsetof(struct kp_kids, mask) == 0 && offsetof(struct kp_kids, nf) == 4 &&
                   offsetof(struct kp_kids, e) == 8,
               "KP_TR_KIDS's offsets");
/* emit and leave: f(rdi), x(rsi) = rax, id(rdx) = rsi.  kp_tr_kids_probe
 * is emit's fast path as a C function, for tests/runtime/test_ksf.c:
 * x (rdi), id (rsi); the new state, or null where the trampoline would
 * call the library. */
__asm__(KP_TR_HEAD("kp_tr_kids_probe") "\tmovq %rdi, %rax\n" KP_TR_KIDS("\tmovq (%r8), %rax\n")
        "\txorl %eax, %eax\n\tret\n\t.cfi_endproc\n\t.size kp_tr_kids_probe, .-kp_tr_kids_probe\n\t.popsection\n"
        KP_TR_FAST("kpath_rt_emit_tr_v5", "\tmovq (%r8), %rax\n",
                   KP_TR_TRACE("0", "\tmovq (%rax), %rcx\n\tmovq %rcx, 80(%r9)\n", ""),
                   "\tmovq %rsi, %rdx\n\tmovq %rax, %rsi\n\tcall kpath_rt_emit_slow_v5@PLT\n")
        KP_TR_FAST("kpath_rt_leave_tr_v5", "", KP_TR_TRACE("1", "", KP_TR_TRACE_FREE),
                   "\tmovq %rsi, %rdx\n\tmovq %rax, %rsi\n\tcall kpath_rt_leave_slow_v5@PLT\n")
        KP_TR_STEP("kpath_rt_enter_tr_v5", KP_TR_TRACE_ENTER, "\tcall kpath_rt_enter_slow_v5@PLT\n")
        /* enter_t: f(rdi), the pointer's address (rsi), as they came */
        KP_TR_STEP("kpath_rt_enter_t_tr_v5", KP_TR_TRACE_ENTER, "\tcall kpath_rt_enter_t_slow@PLT\n")
        /* count: f(rdi), id(rsi), as they came; nothing returned */
        KP_TR_STEP("kpath_rt_count_tr_v5", KP_TR_TRACE_COUNT, "\tcall kpath_rt_count_slow@PLT\n")
        /* tally: f(rdi), id(rsi), the pointer's address (rdx), as they came */
        KP_TR_STEP("kpath_rt_tally_tr_v5", KP_TR_TRACE_COUNT, "\tcall kpath_rt_tally_slow@PLT\n"));

/* KP_TR_THREAD's table: thread pointer -> thread state (tp 0 a free
 * slot, 1 one whose thread is gone; a thread reads only the slot of its
 * own tp, which only it writes) and kp_tr_on, set once a thread traces. */
#define KP_TR_NTHREADS 1024
#define KP_TR_PROBES 16 /* a thread's slot is one of the 16 from its hash on */
_Static_assert(KP_TR_NTHREADS == 1024 && KP_TR_PROBES == 16, "KP_TR_THREAD's constants");
__attribute__((used)) static uint64_t kp_tr_tp[KP_TR_NTHREADS];
__attribute__((used)) static struct kp_thread *kp_tr_th[KP_TR_NTHREADS];
__attribute__((used)) static int kp_tr_on;
static pthread_mutex_t kp_tr_mu = PTHREAD_MUTEX_INITIALIZER;

/* The slot KP_TR_THREAD probes first: the top 10 bits of the product
 * kp_kids_hash takes the top 32 of (its "shrq $54"). */
static unsigned tr_hash(uint64_t tp)
{
	return kp_kids_hash(tp) >> 22;
}

void kp_tr_thread_add(struct kp_thread *th)
{
	if (th->tp <= 1 || !th->tbuf)
		return;
	pthread_mutex_lock(&kp_tr_mu);
	for (unsigned n = 0, i = tr_hash(th->tp); n < KP_TR_PROBES; n++, i = (i + 1) % KP_TR_NTHREADS)
		if (kp_tr_tp[i] <= 1 || kp_tr_tp[i] == th->tp) { /* a tp still listed: its thread is gone */
			kp_tr_th[i] = th;
			__atomic_store_n(&kp_tr_tp[i], th->tp, __ATOMIC_RELEASE);
			kp_tr_on = 1;
			break;
		} /* none free: this thread's counts take the library */
	pthread_mutex_unlock(&kp_tr_mu);
}

void kp_tr_thread_forget(const struct kp_thread *th)
{
	if (!th->tbuf)
		return; /* never added (kp_tr_thread_add): no scan at every thread's end */
	pthread_mutex_lock(&kp_tr_mu);
	for (unsigned i = 0; i < KP_TR_NTHREADS; i++)
		if (kp_tr_th[i] == th && kp_tr_tp[i] > 1) {
			__atomic_store_n(&kp_tr_tp[i], 1, __ATOMIC_RELEASE);
			kp_tr_th[i] = NULL;
		}
	pthread_mutex_unlock(&kp_tr_mu);
}

void kp_tr_threads_clear(void)
{
	memset(kp_tr_tp, 0, sizeof kp_tr_tp);
	memset(kp_tr_th, 0, sizeof kp_tr_th);
	kp_tr_on = 0;
	pthread_mutex_init(&kp_tr_mu, NULL);
}
#else
void kp_tr_thread_add(struct kp_thread *th)
{
	(void)th;
}

void kp_tr_thread_forget(const struct kp_thread *th)
{
	(void)th;
}

void kp_tr_threads_clear(void)
{
}
#endif

/* For code compiled without the inline half (KPATH_RT_NO_INLINE, or a
 * compiler/target without it): the library does every item. */
void kpath_rt_enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c)
{
	c->f = f;
	c->pinned = 0;
	c->s.x = kpath_rt_enter_slow(f);
}

void kpath_rt_enter_t(struct kpath_rt_func *f, void **t, struct kpath_rt_cursor *c)
{
	(void)t; /* not thread-local without the inline half: never set */
	kpath_rt_enter(f, c);
}
void kpath_rt_emit(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	c->s.x = kpath_rt_emit_slow(c->f, c->s.x, id);
}

void kpath_rt_leave(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	kpath_rt_leave_slow(c->f, c->s.x, id);
	c->s.x = inactive(); /* the activation is over */
}

void kpath_rt_emit_n(struct kpath_rt_cursor *c, kpath_rt_u64 id, kpath_rt_u64 n)
{
	for (; n; n--)
		kpath_rt_emit(c, id);
}

void kpath_rt_count(struct kpath_rt_func *f, kpath_rt_u64 id, kpath_rt_u64 num_paths)
{
	(void)num_paths; /* the library checks id against f->num_paths */
	kpath_rt_count_slow(f, id);
}

void kpath_rt_tally(struct kpath_rt_func *f, kpath_rt_u64 **a, kpath_rt_u64 id, kpath_rt_u64 num_paths)
{
	(void)a; /* not thread-local without the inline half: never set */
	(void)num_paths;
	kpath_rt_count_slow(f, id);
}
