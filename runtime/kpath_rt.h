/*
 * kpath_rt.h: the runtime ABI that instrumented code uses, and nothing else.
 *
 * This header is also the preamble of every instrumented file: the rewriter
 * embeds its text verbatim, so it must stay plain C99 (no includes, no
 * _Thread_local; GNU extensions only behind #if) and every name in it starts
 * with "kpath_rt_" (reserved for kpath: the instrumenter refuses programs
 * that declare such names), except kpath_dump, which programs may declare
 * (void kpath_dump(void);) and call to write the profile early.
 *
 * Contract between the instrumenter and the runtime:
 *  - Each instrumented function has one static struct kpath_rt_func (its
 *    descriptor): constant tables written by the instrumenter, plus the
 *    runtime-owned fields "slot" and "next", which the instrumenter
 *    initialises to 0.
 *  - Each activation keeps a struct kpath_rt_cursor in a local variable and
 *    calls, in order: kpath_rt_enter once at function entry (the routine-entry
 *    marker * of the k-BLPP paper), kpath_rt_emit at every back edge (and cut
 *    edge) with the Ball-Larus path ID just completed, and kpath_rt_leave at
 *    every exit with the last path ID.  A longjmp out of the function may skip
 *    kpath_rt_leave; the runtime tolerates that.
 *  - A function whose CFG has no back edge, no cut edge and no setjmp (an
 *    acyclic function) completes exactly one path per activation, at its
 *    exit, so its k-IPF at any k is its Ball-Larus path counts.  It keeps
 *    no cursor and makes no enter call: each exit calls
 *    kpath_rt_count(&desc, id, num_paths) instead of kpath_rt_leave, with
 *    num_paths the descriptor's, as a constant (a longjmp out of the
 *    function from a callee skips the call, like kpath_rt_leave).  The
 *    runtime records such a function with counters whatever k is.
 *  - Path IDs are in [0, num_paths); any other value is counted as an invalid
 *    path and never recorded.
 *
 * kpath_rt_emit, kpath_rt_leave and kpath_rt_count are static inline
 * functions (below) that handle the common case in the instrumented code
 * itself and call the library (kpath_rt_emit_slow / kpath_rt_leave_slow /
 * kpath_rt_count_slow, through the register-keeping trampolines
 * kpath_rt_*_tr_v5) otherwise.  kpath_rt_count is asm that gcc's inliner
 * counts as about two instructions, so that an instrumented helper is
 * inlined where the original is (a new entry point, the trampoline
 * kpath_rt_count_tr_v5, and no new layout: such code fails to link
 * against an older runtime, and the ABI stays 5).  Defining
 * KPATH_RT_NO_INLINE before this header (kpath instrument --check does)
 * makes them plain calls into the library instead, as on compilers or
 * targets where the inline path is not available.
 */
#ifndef KPATH_RT_H
#define KPATH_RT_H

/* clang's warnings that no warning set short of -Weverything enables
 * (-Wpadded on the descriptor, -Wconditional-uninitialized in an inline
 * step, -Wunused-function on the inline steps a file does not use) stay
 * inside the header: it is every instrumented file's preamble, and the
 * program's own code keeps its diagnostics (popped at the end).  gcc
 * gives no unused warning for a static inline function; of its warnings
 * only -Wpadded (on the descriptor) would fall in the header. */
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Weverything"
#elif defined(__GNUC__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 6)) /* push: gcc 4.6 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpadded"
#endif

#define KPATH_RT_ABI 5

/* The entry points whose cursor layout changed carry the ABI in their
 * link names, so that code instrumented for another ABI fails to link
 * instead of handing the library a cursor of the wrong size. */
#define kpath_rt_enter kpath_rt_enter_v5
#define kpath_rt_emit kpath_rt_emit_v5
#define kpath_rt_leave kpath_rt_leave_v5
#define kpath_rt_enter_slow kpath_rt_enter_slow_v5
#define kpath_rt_emit_slow kpath_rt_emit_slow_v5
#define kpath_rt_leave_slow kpath_rt_leave_slow_v5

/* Path IDs and counts are 64-bit.  C90 has no long long: with GCC and
 * Clang, __extension__ keeps -std=c89 -pedantic and -Wlong-long quiet about
 * the type and about the constants the instrumenter writes as
 * KPATH_RT_C(N) (every one above 2^31 - 1; smaller ones are plain ints). */
#if defined(__GNUC__) || defined(__clang__)
__extension__ typedef unsigned long long kpath_rt_u64;
#define KPATH_RT_C(n) (__extension__ n##ULL)
#else
typedef unsigned long long kpath_rt_u64;
#define KPATH_RT_C(n) n##ULL
#endif

/* One edge of the Ball-Larus DAG of a function.  Block 0 is the virtual
 * ENTRY, block 1 the virtual EXIT; real blocks are 2..num_blocks-1.  The
 * DAG holds the CFG's forward edges plus, for every back edge or cut edge
 * v->w, the dummy edges ENTRY->w and v->EXIT (one per distinct w and v). */
struct kpath_rt_edge {
	unsigned src, dst;
	kpath_rt_u64 val; /* Ball-Larus val(e) */
};

/* Static descriptor of one instrumented function. */
struct kpath_rt_func {
	unsigned abi;               /* KPATH_RT_ABI */
	const char *name;           /* function name */
	const char *file;           /* source file as given to kpath instrument */
	unsigned line;              /* line of the function definition */
	const char *checksum;       /* 16 hex digits: hash of the CFG and numbering */
	kpath_rt_u64 num_paths;     /* numPaths(ENTRY); valid IDs are [0, num_paths) */
	unsigned num_blocks;        /* including ENTRY (0) and EXIT (1) */
	const unsigned *block_line; /* first source line of each block, 0 if none */
	unsigned num_edges;
	/* DAG edges grouped by src in increasing src order; within a group,
	 * increasing val.  Decoding an ID: start at ENTRY with rest = ID; at each
	 * block take the out-edge with the largest val <= rest, subtract its val,
	 * until EXIT.  The path's lines are the block_line of the blocks visited,
	 * zeros skipped. */
	const struct kpath_rt_edge *edges;
	/* Runtime-owned, initialised to 0 by the instrumenter. */
	int slot;                   /* registration index + 1; 0 until registered */
	struct kpath_rt_func *next; /* unused (the runtime keeps its own registry) */
	/* Last source line of each block (>= block_line; the block's code spans
	 * [block_line, block_last_line]), or NULL if unknown. */
	const unsigned *block_last_line;
	/* 16 hex digits: FNV-1a 64 of the bytes of the source file the
	 * function was instrumented from (the header's own bytes for a header
	 * instrumented through --include-dir), or NULL if unknown.  Readers
	 * compare it with the file on disk before showing counts beside its
	 * lines.  (Added last, with ABI 3.) */
	const char *source_hash;
};

/* Child-cache slots per k-SF node (a power of two). */
#define KPATH_RT_WAYS 4

/* A node of a thread's forest (the window forest or the k-SF of the
 * k-BLPP paper), as the inline path sees it.  slot[] caches some of the
 * node's children: every slot is null or a child of the node, so a child
 * found there whose id equals the wanted ID is the child with that label.
 * The child labelled id is looked for in slot[id % KPATH_RT_WAYS] and then
 * in the other slot of that pair (kpath_rt_child): two-way sets, so that
 * two children whose IDs collide both stay cached.  id and next never
 * change once the node is linked into the forest.  lim is 0 in every
 * node of a forest; only the node before a k = 1 counter array has
 * another (struct kpath_rt_state).  kids, up and level belong to the
 * runtime (kids: the table of all the node's children, null in every
 * node that is not a forest's, runtime/kp_internal.h); instrumented code
 * reads next, id, count, lim and slot, whose offsets ABI 5 fixes. */
struct kpath_rt_node {
	struct kpath_rt_node *next;   /* the cursor's node after an item that ends here */
	kpath_rt_u64 id;              /* label: a path ID */
	kpath_rt_u64 count;           /* c(node) */
	void *kids;                   /* runtime-owned */
	unsigned up, level;           /* runtime-owned */
	kpath_rt_u64 lim;             /* k = 1: IDs below it count in the array that follows */
	struct kpath_rt_node *slot[KPATH_RT_WAYS];
};

/* The part of an activation's stream state that changes: one pointer x,
 * so that it takes one register, in the instrumented function and when
 * the library halves take and return it, and no copy of it needs a place
 * in the instrumented function's frame (ABI 4 had a second word, lim, and
 * a recursive function kept both across its calls: 16 bytes more per
 * frame, tests/e2e/frame_cost.sh).  x is a node.  Its lim is not 0 only
 * at k = 1, where the IDs below lim count inline in the counter array that
 * follows x (KPATH_RT_CNT), a node without children; otherwise x is the
 * node whose children the next item looks up (k >= 2), or a node without
 * children where the library does every item (trace mode: the
 * activation's record, a hash table, an activation not recorded).  For
 * k >= 2, x stands for the (n, tau, beta) of the k-BLPP paper's
 * process_bl_path_id (runtime/ksf.c explains how). */
struct kpath_rt_state {
	void *x;
};
/* x as a node; its lim; its counters (k = 1: they follow x, a node
 * without children, so that an ID above lim misses in the k >= 2 step) */
#define KPATH_RT_P(s) ((struct kpath_rt_node *)(s).x)
#define KPATH_RT_W(s) (KPATH_RT_P(s)->lim)
#define KPATH_RT_CNT(s) ((kpath_rt_u64 *)(void *)(KPATH_RT_P(s) + 1))
#define KPATH_RT_LIM 0x4000000u /* the largest lim the runtime sets (KP_COUNTS_SPARSE_MAX) */

/* Per-activation stream cursor, a local of the instrumented function so
 * that recursion and threads never mix sequences: the state, and the
 * function's descriptor, which kpath_rt_enter stores and nothing changes
 * afterwards, so that the compiler knows it is a constant (it costs no
 * register and no stack slot) and passes it to the library halves.
 * pinned is 1 after kpath_rt_pin (a function that calls setjmp: the
 * library halves are then plain calls, below), else 0, a constant too.
 * kpath_rt_enter initialises every field; instrumented code only passes
 * its address. */
struct kpath_rt_cursor {
	struct kpath_rt_state s;
	struct kpath_rt_func *f;
	int pinned;
};

/* Library half of kpath_rt_enter: registers f on first use; returns
 * this thread's template state x for f (or an inactive one).  The halves are
 * cold: the compiler moves their calls, and what they need, out of the
 * hot path. */
#if defined(__GNUC__) || defined(__clang__)
#define KPATH_RT_COLD __attribute__((cold))
#else
#define KPATH_RT_COLD
#endif
/* On the declarations kpath inserts at the top of a function whose body
 * holds an #if branch libclang's parse skipped: a compiler with other
 * predefined macros (gcc against libclang's __clang__) may build that
 * branch, where the inserted code is absent, and warn that they are
 * unused (-Wunused-variable; with -Werror the file would not compile). */
#if defined(__GNUC__) || defined(__clang__)
#define KPATH_RT_UNUSED __attribute__((unused))
#else
#define KPATH_RT_UNUSED
#endif
/* On the file-scope pointers kpath inserts (KPATH_RT_TLS): a function may
 * not use its own (the -Wunused-variable of a static), and clang's
 * -Wused-but-marked-unused would warn at every use of an "unused" one;
 * "used" keeps both quiet (the pointer's address goes to the library
 * anyway: nothing about it is left for the compiler to assume). */
#if defined(__clang__)
#define KPATH_RT_KEEP __attribute__((used))
#else
#define KPATH_RT_KEEP KPATH_RT_UNUSED
#endif
void *kpath_rt_enter_slow(struct kpath_rt_func *f) KPATH_RT_COLD;
/* The same for kpath_rt_enter_t, which also stores the template into *t
 * (this thread's pointer of the instrumented file) when there is one. */
void *kpath_rt_enter_t_slow(struct kpath_rt_func *f, void **t) KPATH_RT_COLD;
/* Library halves of kpath_rt_emit / kpath_rt_leave: the whole step, on
 * the state x of an activation of f; emit returns the new state. */
void *kpath_rt_emit_slow(struct kpath_rt_func *f, void *x, kpath_rt_u64 id) KPATH_RT_COLD;
void kpath_rt_leave_slow(struct kpath_rt_func *f, void *x, kpath_rt_u64 id) KPATH_RT_COLD;
/* Registers f eagerly (called from a constructor where the compiler has
 * them, so that functions never called still appear in the profile). */
void kpath_rt_register(struct kpath_rt_func *f);
/* Writes (accumulates) the profile now; also runs at exit. */
void kpath_dump(void);
/* The process is about to replace its image or to end without its exit
 * handlers (an exec function, _exit, _Exit, quick_exit, daemon's parent):
 * the instrumenter wraps each such call it finds, "(kpath_rt_dump_now(),
 * _exit(3))".  Writes what the calling thread recorded, as kpath_dump,
 * and the trace; nothing in a vfork child (it shares the parent's memory)
 * nor where the thread may be in a signal handler (runtime/dump.c). */
void kpath_rt_dump_now(void);

/* The inline path needs a counter increment that is one instruction, so
 * that a signal handler running instrumented code between two instructions
 * of an interrupted inline step never loses a count (the library half marks
 * the thread busy instead, see runtime/abi.c).  The counter is an input
 * operand only: to the compiler the asm stores nothing, so a loop that
 * counts is still a loop without stores, out of which gcc hoists a pure
 * call such as strlen (with "+m", a store the call might read, it did
 * not: KPATH_RT_CLOB_ITEM).  Nothing in an instrumented file reads a
 * counter (the runtime reads them in calls, after which the compiler
 * loads anything again), so no stale copy can be used. */
#if !defined(KPATH_RT_NO_INLINE) && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && \
	(defined(__clang__) ? __clang_major__ >= 9 : __GNUC__ >= 5) /* asm goto */
#define KPATH_RT_INLINE 1 /* tests/runtime/test_ksf.c */
#define KPATH_RT_INC(x) __asm__ __volatile__("addq $1, %0" : : "m"(x))
#define KPATH_RT_ADD(x, n) __asm__ __volatile__("addq %1, %0" : : "m"(x), "r"(n))
/* inline even at -O0; never instrumented (-finstrument-functions would
 * call the program's hooks, themselves maybe instrumented, from every
 * emit) */
#if defined(__clang__) /* no "unused": clang -Wused-but-marked-unused would warn at each use (the
                         * pragma above keeps its -Wunused-function quiet instead) */
#define KPATH_RT_INLINE_FN static __inline__ __attribute__((always_inline, no_instrument_function))
#else
#define KPATH_RT_INLINE_FN static __inline__ __attribute__((always_inline, no_instrument_function, unused))
#endif

/* One item r when the inline path can do it, else 0 (the library does
 * it).  k = 1: a counter per ID.  k >= 2: the item's node (beta, or tau in
 * an activation's first chunk) is the child of p labelled r: one cache
 * lookup, one compare (only valid IDs label nodes), one counter, and the
 * node tells where the next item looks.  Trace mode and inactive cursors
 * have lim 0 and a p without children, so they always go to the library.
 * (A child the slots miss is looked up by the emit and leave trampolines
 * in the table of all of p's children before they save any register:
 * runtime/abi.c, KP_TR_KIDS.) */
KPATH_RT_INLINE_FN struct kpath_rt_node *kpath_rt_child(const struct kpath_rt_node *p, kpath_rt_u64 r)
{
	struct kpath_rt_node *y = p->slot[r % KPATH_RT_WAYS];
	if (y && y->id == r)
		return y;
	y = p->slot[(r % KPATH_RT_WAYS) ^ 1];
	return y && y->id == r ? y : 0;
}

KPATH_RT_INLINE_FN int kpath_rt_step(struct kpath_rt_state *s, kpath_rt_u64 r)
{
	struct kpath_rt_node *y;
	if (r < KPATH_RT_W(*s)) { /* k = 1 */
		KPATH_RT_INC(KPATH_RT_CNT(*s)[r]);
		return 1;
	}
	y = kpath_rt_child(KPATH_RT_P(*s), r);
	if (!y)
		return 0;
	KPATH_RT_INC(y->count);
	s->x = y->next;
	return 1;
}

/* This thread's template states x, indexed by slot - 1 (the state right
 * after the routine-entry marker of each function it ran; null: none),
 * and the flag that is set while it is inside the library.  Runtime-owned:
 * the array is filled before it is published (and old arrays are retired,
 * never freed, while the thread lives), and it stays empty in trace mode,
 * where every entry must reach the library. */
extern __thread void *const *kpath_rt_markers;
extern __thread unsigned kpath_rt_nmarkers;
extern __thread volatile int kpath_rt_busy;

/* The inline halves call the library through trampolines
 * (kpath_rt_*_tr_v5, runtime/abi.c) that preserve every general register
 * but rax, and xmm0-15, so that a library call in a loop does not make the
 * compiler keep the loop's values in callee-saved registers or spill them
 * to the frame around it: the state goes in rax and comes back there, the
 * descriptor in rdi, the ID in rsi.  The x87 registers are
 * clobbered, and so are the vector registers where the code may use their
 * upper halves (AVX: the library's C library calls may clear them) or
 * more of them (AVX-512); the compiler saves what it needs around the
 * call.  The call steps over the red zone, and the trampoline aligns the
 * stack itself.  A function compiled for AVX in a file compiled without it
 * (__attribute__((target("avx2")))) does not see these clobbers: the
 * trampolines keep the whole vector state themselves (XSAVE) whenever the
 * upper halves are in use (runtime/abi.c, kp_tr_xmask). */
#if defined(__AVX512F__)
#define KPATH_RT_CLOBV , "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
	"xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", \
	"xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31", "k0", "k1", \
	"k2", "k3", "k4", "k5", "k6", "k7"
#elif defined(__AVX__)
#define KPATH_RT_CLOBV , "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
	"xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
#else
#define KPATH_RT_CLOBV
#endif
#define KPATH_RT_CLOB "memory", "cc", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)" KPATH_RT_CLOBV
/* The same without "memory", for the library halves of an item (emit,
 * leave, emit_n's): they write the runtime's memory only, which the
 * program never reads, and run none of the program's code: the runtime's
 * memory comes from the C library's own allocator (__libc_malloc and the
 * rest: runtime/CMakeLists.txt binds the runtime's malloc, calloc,
 * realloc, free and strdup to them), never from a malloc the program
 * defines or preloads, and an item's half calls nothing else that may
 * (registration, thread set-up and the write at exit, which do, happen
 * in the enter, count and tally halves and in kpath_dump, which keep the
 * memory clobber).  So a loop whose back edge emits is still a loop
 * without stores to the compiler: gcc hoists a pure call out of it (the
 * strlen of "for (i = 0; i < strlen(s); i++)": with the clobber, the
 * loop became quadratic, 62x native instructions on 20,000 bytes;
 * e2e.licm), and a value the program's own malloc changes cannot go
 * stale across the call, since the call never runs it. */
#define KPATH_RT_CLOB_ITEM "cc", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)" KPATH_RT_CLOBV
/* The call goes through the GOT, never a PLT: where the trampoline is in
 * a shared library (an instrumented library, or a program served by one:
 * runtime/dso.c), a lazily bound PLT entry's first call runs the dynamic
 * linker's resolver, which keeps the argument registers but not r10 and
 * r11, and the compiler keeps values there across this call (a loop bound
 * in r10 became garbage: tests/rtuse, case exit_dtors).  The GOT entry is
 * bound when the module loads; where the trampoline is in the same
 * executable, the linker turns the call into a direct one. */
#define KPATH_RT_CALL(name) "lea -128(%%rsp), %%rsp\n\tcall *" name "@GOTPCREL(%%rip)\n\tlea 128(%%rsp), %%rsp"
/* "asm inline" (gcc >= 9, clang >= 11): the inliner counts the asm as one
 * instruction, whatever its length (kpath_rt_count). */
#if defined(__clang__) ? __clang_major__ >= 11 : __GNUC__ >= 9
#define KPATH_RT_ASM_INLINE __inline__
#else
#define KPATH_RT_ASM_INLINE
#endif

/* The k >= 2 half of kpath_rt_emit's and kpath_rt_leave's step as one
 * asm (KPATH_RT_STEP1), library call included, behind the k = 1 test and
 * count written in C (where the compiler folds a constant ID into the
 * address, and places and joins the two blocks as it does any branch: in
 * one asm with the rest, one of the two paths ended with a jump, 5% more
 * instructions in a tight loop at k = 4).  Written in C, the lookup and
 * the call were about 35 statements per emit or leave that gcc compiled
 * at every site (corpus/project: its instrumented files took 2.6 s of
 * gcc -O2 against 1.2 s for the originals; 2.3 s with the asm; issue
 * 11, "Build cost"), and its inliner (which counts an "asm
 * inline" as one instruction) saw a function with a loop as several
 * times its native size.  The same instructions as kpath_rt_step, the
 * same loads in the same order, every counter increment one instruction
 * (signal handlers, above).  Not an asm goto with an output (gcc >= 11,
 * clang >= 11), which would let the compiler place the library call:
 * gcc 12 sent the jump of one whose operand needed a reload to the
 * function's start.  The library half is called from inside the asm: it
 * saves rax, rdi and rsi (which may hold the program's values, the state
 * or the ID) below the red zone, passes the state, the descriptor and the
 * ID there, and takes the new state back; every other register is the
 * trampoline's to keep.  The asm's clobbers are then the call's, on every
 * path through it: the flags and the x87 stack (empty at a call, by the ABI; only long
 * double code keeps values there), not memory (KPATH_RT_CLOB_ITEM);
 * and so this form is used only where
 * the compiler names no vector register as clobbered (KPATH_RT_CLOBV
 * empty: without AVX), else the C form below.  The child of x labelled
 * id in slot[id % 4] or the other slot of the pair ("2:") is y:
 * y->count += 1 and MOVE ("4:", last, so that a hit falls through to the
 * end, "3:"); else the library half ("5:", CALL).  i and y are scratch
 * registers; w = id % 4 comes from C, where the compiler folds it (an ID
 * whose values it knows to be below 4 is its own w: 5% fewer
 * instructions in corpus/bench feistel at k = 4), and so may id, an
 * immediate where it is a constant.  Node layout (ABI 5, runtime/abi.c
 * checks it): next 0, id 8, count 16, slot 48. */
#if !defined(__AVX__)
#define KPATH_RT_STEP1 1
#endif
#define KPATH_RT_STEP_ASM(call, move) \
	"movq 48(%[x],%[w],8),%[y];" \
	"testq %[y],%[y];je 2f;cmpq %[id],8(%[y]);je 4f\n" \
	"2:movl %k[w],%k[i];xorl $1,%k[i];movq 48(%[x],%[i],8),%[y];" \
	"testq %[y],%[y];je 5f;cmpq %[id],8(%[y]);je 4f\n" \
	"5:" call "jmp 3f\n" \
	"4:addq $1,16(%[y]);" move "\n3:"
/* the library half: state in rax, descriptor in rdi, ID in rsi (pushed
 * and popped, so that any register may hold x and id), below the red
 * zone; then rsi, rdi and rax back (BACK; emit's new state goes to x
 * through rax's slot, and x may be any of the three).  (Short: an asm's
 * text is one string, and C90 allows 509 characters: -pedantic
 * -Woverlength-strings, tests/flags.) */
#define KPATH_RT_STEP_CALL(name, back) \
	"leaq -128(%%rsp),%%rsp;pushq %%rax;pushq %%rdi;pushq %%rsi;pushq %[x];pushq %[id];" \
	"leaq %[f],%%rdi;popq %%rsi;popq %%rax;call *" name "@GOTPCREL(%%rip);" back "leaq 128(%%rsp),%%rsp;"
#define KPATH_RT_EMIT_BACK "xchgq %%rax,16(%%rsp);popq %%rsi;popq %%rdi;popq %[x];"
#define KPATH_RT_LEAVE_BACK "popq %%rsi;popq %%rdi;popq %%rax;"
#define KPATH_RT_STEP_OPS(desc) [f] "m"(*(desc))
#define KPATH_RT_STEP_CLOB "cc", "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)"

/* Routine-entry marker: the common case (f registered, this thread ran it
 * before, not inside the library: a signal handler's activation that
 * interrupts the library must be dropped there) loads the template. */
KPATH_RT_INLINE_FN void kpath_rt_enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c)
{
	/* relaxed: another thread may be registering f; a slot this thread
	 * has a template for was published before the template */
	unsigned s = (unsigned)__atomic_load_n(&f->slot, __ATOMIC_RELAXED) - 1u;
	void *x;
	c->f = f;
	c->pinned = 0;
	if (__builtin_expect(s < kpath_rt_nmarkers && !kpath_rt_busy && (x = kpath_rt_markers[s]) != 0, 1)) {
		c->s.x = x;
		return;
	}
	__asm__ __volatile__(KPATH_RT_CALL("kpath_rt_enter_tr_v5") : "=a"(x) : "D"(f) : KPATH_RT_CLOB);
	c->s.x = x;
}

/* The default mode's routine-entry marker (kpath_rt_begin_t): the template
 * comes from a thread-local pointer of the instrumented file beside the
 * descriptor, "KPATH_RT_TLS void *kp_tpl_NAME;" (KPATH_RT_TLS is defined
 * with kpath_rt_tally, below), which holds this thread's template state
 * for the function or null: one thread-local load and a test where
 * kpath_rt_enter reads the slot, the bound and the templates array (three
 * loads more), then the busy test (a handler's activation inside the
 * library is dropped there, as with kpath_rt_enter).  The library half
 * kpath_rt_enter_t_slow enters as kpath_rt_enter_slow does and stores the
 * template into the pointer when the thread has one for the function
 * (not in trace or WPP mode); the pointer lives and is cleared like
 * kpath_rt_tally's (runtime/thread.c, kp_thread_untally). */
KPATH_RT_INLINE_FN void kpath_rt_enter_t(struct kpath_rt_func *f, void **t, struct kpath_rt_cursor *c)
{
	void *x;
	c->f = f;
	c->pinned = 0;
#if defined(KPATH_RT_STEP1)
	/* the tests as one asm goto for gcc's inliner, as the step's (the
	 * pointer is then loaded twice: it changes only from null to a
	 * template while the thread runs instrumented code) */
	__asm__ KPATH_RT_ASM_INLINE goto("cmpq $0, %[t]\n\t"
	                                 "je %l[slow]\n\t"
	                                 "cmpl $0, %[busy]\n\t"
	                                 "jne %l[slow]"
	                                 :
	                                 : [t] "m"(*t), [busy] "m"(kpath_rt_busy)
	                                 : "cc"
	                                 : slow);
	c->s.x = *t;
	return;
slow:
#else
	x = *t;
	if (__builtin_expect(x != 0 && !kpath_rt_busy, 1)) {
		c->s.x = x;
		return;
	}
#endif
	__asm__ __volatile__(KPATH_RT_CALL("kpath_rt_enter_t_tr_v5") : "=a"(x) : "D"(f), "S"(t) : KPATH_RT_CLOB);
	c->s.x = x;
}

/* kpath_rt_enter in a function that calls setjmp (kpath_rt_begin_sj):
 * the library half is a plain call, like emit's and leave's after
 * kpath_rt_pin, since around a trampoline gcc keeps more of the
 * function's variables in registers across its setjmp (and -Wclobbered
 * says so). */
KPATH_RT_INLINE_FN void kpath_rt_enter_sj(struct kpath_rt_func *f, struct kpath_rt_cursor *c)
{
	unsigned s = (unsigned)__atomic_load_n(&f->slot, __ATOMIC_RELAXED) - 1u;
	void *x;
	c->f = f;
	c->pinned = 1;
	if (s < kpath_rt_nmarkers && !kpath_rt_busy && (x = kpath_rt_markers[s]) != 0) {
		c->s.x = x;
		return;
	}
	c->s.x = kpath_rt_enter_slow(f);
}

/* The library halves get the state, never its address, so that the
 * instrumented function's cursor does not escape and the compiler keeps it
 * in registers (the k >= 2 step's p is a loop-carried value; in memory,
 * every item would wait for a store and a reload), and no copy of it takes
 * stack space.  Where that is wrong, after a setjmp, kpath_rt_pin makes it
 * escape. */
KPATH_RT_INLINE_FN void kpath_rt_emit(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	void *x;
#if defined(KPATH_RT_STEP1)
	if (!c->pinned) {
		void *y;
		kpath_rt_u64 i;
		x = c->s.x;
		if (id < KPATH_RT_W(c->s)) { /* k = 1 */
			KPATH_RT_INC(KPATH_RT_CNT(c->s)[id]);
			return;
		}
		__asm__ KPATH_RT_ASM_INLINE __volatile__(
			KPATH_RT_STEP_ASM(KPATH_RT_STEP_CALL("kpath_rt_emit_tr_v5", KPATH_RT_EMIT_BACK), "movq (%[y]),%[x]")
			: [x] "+r"(x), [i] "=&r"(i), [y] "=&r"(y)
			: [id] "re"(id), [w] "r"(id % KPATH_RT_WAYS), KPATH_RT_STEP_OPS(c->f)
			: KPATH_RT_STEP_CLOB);
		c->s.x = x;
		return;
	}
#endif
	if (__builtin_expect(!kpath_rt_step(&c->s, id), 0)) {
		if (c->pinned) {
			c->s.x = kpath_rt_emit_slow(c->f, c->s.x, id);
			return;
		}
		x = c->s.x;
		__asm__ __volatile__(KPATH_RT_CALL("kpath_rt_emit_tr_v5") : "+a"(x) : "D"(c->f), "S"(id) : KPATH_RT_CLOB_ITEM);
		c->s.x = x;
	}
}

/* The function returns: id is its last path.  The activation ends. */
KPATH_RT_INLINE_FN void kpath_rt_leave(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	void *x;
#if defined(KPATH_RT_STEP1)
	if (!c->pinned) {
		void *y;
		kpath_rt_u64 i;
		x = c->s.x;
		if (id < KPATH_RT_W(c->s)) { /* k = 1 */
			KPATH_RT_INC(KPATH_RT_CNT(c->s)[id]);
			return;
		}
		__asm__ KPATH_RT_ASM_INLINE __volatile__(
			KPATH_RT_STEP_ASM(KPATH_RT_STEP_CALL("kpath_rt_leave_tr_v5", KPATH_RT_LEAVE_BACK), "")
			: [i] "=&r"(i), [y] "=&r"(y)
			: [x] "r"(x), [id] "re"(id), [w] "r"(id % KPATH_RT_WAYS), KPATH_RT_STEP_OPS(c->f)
			: KPATH_RT_STEP_CLOB);
		return;
	}
#endif
	if (__builtin_expect(!kpath_rt_step(&c->s, id), 0)) {
		if (c->pinned) {
			kpath_rt_leave_slow(c->f, c->s.x, id);
			return;
		}
		x = c->s.x;
		__asm__ __volatile__(KPATH_RT_CALL("kpath_rt_leave_tr_v5") : "+a"(x) : "D"(c->f), "S"(id) : KPATH_RT_CLOB_ITEM);
	}
}

/* n items id in a row (repeat counting, below).  Once the cursor is at a
 * node whose child labelled id leads back to the same node (the last k-1
 * items, or all of them, are id), every further id counts on that child:
 * the rest of the run is one addition.  Until then items go one by one,
 * each on the child the loop just looked up (one lookup per item, and one
 * copy of the step's code per site: an inline kpath_rt_emit here would
 * look the child up again and add the k = 1 test and the two-way lookup
 * once more to every flush site: 6% of gcc's work on the instrumented
 * corpus/macro_heavy.c, docs/realcode.md "Build cost").  Where the child
 * is not cached the library does the item, as kpath_rt_emit would (a k = 1
 * state has no children, so if the library ever returned one with another
 * lim, its items would still go to the library, never be lost). */
#if defined(KPATH_RT_STEP1)
/* With KPATH_RT_STEP1, the k >= 2 half as one asm: the same lookups,
 * counts and library calls as the loop below, in the same order (x %0,
 * n %1, i and y scratch %2 %3, id %4, w %5, the descriptor %6; "6:" an
 * item, "4:" a hit, "8:" the child that leads back, "5:" the library
 * half).  Its lookup and its call are copies of KPATH_RT_STEP_ASM's and
 * of KPATH_RT_STEP_CALL with KPATH_RT_EMIT_BACK, written with positional
 * operands because the named ones would take the text past C90's 509
 * characters: a change to either (node offsets, the trampoline's
 * registers) is made here too; tests/e2e/step_registers runs both with
 * every register busy.  In C the loop cost gcc about 7 M of
 * cc1's instructions per flush site; as an asm, with no branch the
 * compiler sees, about 3 M (55 sites in five files of corpus/project:
 * -4% of gcc's work on them; docs/realcode.md, "Build cost"); no
 * memory clobber, as KPATH_RT_STEP_ASM's (clang's -Woverlength-strings, which gcc
 * does not apply to asm, checks the text's length: tests/flags). */
#define KPATH_RT_EMIT_N_ASM \
	"testq %1,%1;je 3f\n6:movq 48(%0,%5,8),%3;testq %3,%3;je 2f;cmpq %4,8(%3);je 4f\n" \
	"2:movl %k5,%k2;xorl $1,%k2;movq 48(%0,%2,8),%3;testq %3,%3;je 5f;cmpq %4,8(%3);je 4f\n" \
	"5:leaq -128(%%rsp),%%rsp;pushq %%rax;pushq %%rdi;pushq %%rsi;pushq %0;pushq %4;leaq %6,%%rdi;" \
	"popq %%rsi;popq %%rax;call *kpath_rt_emit_tr_v5@GOTPCREL(%%rip);xchgq %%rax,16(%%rsp);" \
	"popq %%rsi;popq %%rdi;popq %0;leaq 128(%%rsp),%%rsp;jmp 7f\n" \
	"4:cmpq %0,(%3);je 8f;addq $1,16(%3);movq (%3),%0\n7:subq $1,%1;jne 6b;jmp 3f\n8:addq %1,16(%3)\n3:"
#endif
KPATH_RT_INLINE_FN void kpath_rt_emit_n(struct kpath_rt_cursor *c, kpath_rt_u64 id, kpath_rt_u64 n)
{
	struct kpath_rt_node *p, *y;
	void *x;
	if (id < KPATH_RT_W(c->s)) {
		KPATH_RT_ADD(KPATH_RT_CNT(c->s)[id], n);
		return;
	}
#if defined(KPATH_RT_STEP1)
	if (!c->pinned) {
		kpath_rt_u64 i;
		x = c->s.x;
		__asm__ KPATH_RT_ASM_INLINE __volatile__(KPATH_RT_EMIT_N_ASM
		                                         : "+r"(x), "+r"(n), "=&r"(i), "=&r"(y)
		                                         : "re"(id), "r"(id % KPATH_RT_WAYS), "m"(*c->f)
		                                         : KPATH_RT_STEP_CLOB);
		c->s.x = x;
		return;
	}
#endif
	for (; n; n--) {
		p = KPATH_RT_P(c->s);
		y = kpath_rt_child(p, id);
		if (__builtin_expect(!y, 0)) {
			x = c->s.x;
			if (c->pinned)
				x = kpath_rt_emit_slow(c->f, x, id);
			else
				__asm__ __volatile__(KPATH_RT_CALL("kpath_rt_emit_tr_v5") : "+a"(x) : "D"(c->f), "S"(id) : KPATH_RT_CLOB_ITEM);
			c->s.x = x;
		} else if (y->next == p) {
			KPATH_RT_ADD(y->count, n);
			return;
		} else {
			KPATH_RT_INC(y->count);
			c->s.x = y->next;
		}
	}
}

/* In a function that calls setjmp: the cursor must live in memory, so
 * that after a longjmp it holds what the last step wrote rather than what
 * a register held at the setjmp (C11 7.13.2.1p3).  The empty asm takes
 * its address as if it stored it somewhere.  The library halves are then
 * plain calls: around the trampolines, which keep the registers, gcc
 * keeps more of the function's variables in registers across its setjmp
 * (and -Wclobbered says so).  (A macro: an unused static function would
 * draw -Wunused-function.) */
#define kpath_rt_pin(c) \
	do { \
		(c)->pinned = 1; \
		__asm__ __volatile__("" : : "r"(c) : "memory"); \
	} while (0)
/* This thread's counter arrays of the functions it ran, indexed by slot -
 * 1 (each num_paths counters, or null: none yet, a hash table, tracing).
 * Runtime-owned, published like kpath_rt_markers: filled before published,
 * old arrays retired (never freed) while the thread lives, empty in trace
 * mode; a counter array itself never moves while the thread lives.  The
 * bound kpath_rt_ncounters is also 0 while the thread is inside
 * kpath_rt_count_slow, the library half that writes such counters, so the
 * inline count needs no busy test of its own (runtime/abi.c). */
extern __thread kpath_rt_u64 *const *kpath_rt_counters;
extern __thread unsigned kpath_rt_ncounters;
/* Library half of kpath_rt_count: one whole activation of the acyclic
 * function f (registration, state, invalid IDs, trace). */
void kpath_rt_count_slow(struct kpath_rt_func *f, kpath_rt_u64 id) __attribute__((cold));

/* The library half through a trampoline, like emit's and leave's: f in
 * rdi, id in rsi (runtime/abi.c). */
#define KPATH_RT_COUNT_SLOW(f, id) \
	__asm__ KPATH_RT_ASM_INLINE __volatile__(KPATH_RT_CALL("kpath_rt_count_tr_v5") : : "D"(f), "S"(id) : "rax", KPATH_RT_CLOB)

/* A whole activation of an acyclic function: id is its only path.  The
 * common case (a valid ID, f registered, this thread has its counters, not
 * inside the library) is one increment; num_paths is a constant, so the
 * compiler folds the check when id is one too.  The rest is one asm goto
 * (gcc >= 4.5, clang >= 9) that jumps to the library half when it cannot
 * count:
 *     slot = f->slot - 1       one mov: what a relaxed atomic load is on
 *                              x86-64 (another thread may be registering
 *                              f; a slot this thread has counters for was
 *                              published before them; a stale 0 only
 *                              sends the activation to the library)
 *     if (slot >= kpath_rt_ncounters) goto slow     (0 inside the library)
 *     a = kpath_rt_counters[slot]; if (!a) goto slow
 *     a[id] += 1               one instruction (signal handlers, above)
 * It is asm, and "asm inline" where the compiler has it (gcc >= 9, clang),
 * for gcc's inliner: it counts an asm inline as one instruction and a call
 * as its arguments plus one, so the whole count, slow call included, costs
 * the estimate about two instructions, and a helper that gcc inlines
 * natively (max-inline-insns-auto, early-inlining-insns) is inlined
 * instrumented too (in C, with the library half a call, each count site
 * cost about 16: an iabs went from 4 to 20, a clamp with three returns to
 * 51, and neither was inlined any more; docs/instrumented-code.md).  The
 * thread-local variables are memory operands, so that the compiler picks
 * their access model (initial-exec in an executable, a hoisted
 * __tls_get_addr in a shared library).  The asm writes no memory the
 * program can see (the counters are the library's), so it has no memory
 * clobber and does not stop the compiler from keeping the program's
 * values in registers across it; the library half has one. */
KPATH_RT_INLINE_FN void kpath_rt_count(struct kpath_rt_func *f, kpath_rt_u64 id, kpath_rt_u64 num_paths)
{
	if (__builtin_expect(id < num_paths, 1)) {
		__asm__ KPATH_RT_ASM_INLINE goto("movl %0, %%eax\n\t"
		                                 "subl $1, %%eax\n\t"
		                                 "cmpl %1, %%eax\n\t"
		                                 "jae %l4\n\t"
		                                 "movq %2, %%rcx\n\t"
		                                 "movq (%%rcx,%%rax,8), %%rax\n\t"
		                                 "testq %%rax, %%rax\n\t"
		                                 "je %l4\n\t"
		                                 "addq $1, (%%rax,%3,8)"
		                                 :
		                                 : "m"(f->slot), "m"(kpath_rt_ncounters), "m"(kpath_rt_counters), "r"(id)
		                                 : "rax", "rcx", "cc"
		                                 : kpath_rt_slow);
		return;
	}
kpath_rt_slow:
	KPATH_RT_COUNT_SLOW(f, id);
}

/* The default mode's acyclic functions count through a pointer of their
 * own instead (issue 14): a thread-local variable of the instrumented file
 * beside the descriptor, "KPATH_RT_TLS kpath_rt_u64 *kp_cnt_NAME;", that
 * holds this thread's counter array of the function (the one
 * kpath_rt_counters would list) or null.  The count is then one load of a
 * thread-local (in an executable a %fs-relative mov: no slot, no bound,
 * no second array), a test and the one-instruction increment: four
 * instructions where kpath_rt_count has nine.  An asm goto, for gcc's
 * inliner, like kpath_rt_count's (written in C, the load and the test
 * cost the estimate enough that a clamp with three returns was no longer
 * inlined: tests/e2e/inline_helpers.sh).  The library half kpath_rt_tally_slow counts
 * the activation as kpath_rt_count_slow does, and stores the array into
 * the pointer (through its address, this thread's copy) after its own
 * increment; it stays null for a hash table, in trace mode and for the
 * library's own activations.  The runtime keeps the pointer's address
 * with the thread's state of the function and sets the pointer back to
 * null before the array goes (the thread's end, the unloading of the
 * runtime); when the library of the function is unloaded it forgets the
 * address (runtime/thread.c, kp_thread_untally).  A signal handler
 * interrupting the count increments the same array with one instruction
 * too, and the array never moves while the pointer is set, so no count
 * is lost (runtime/abi.c).  The variable's model is the compiler's
 * default: local-exec in an executable, one __tls_get_addr per function
 * in a shared library (as for kpath_rt_counters; initial-exec would make
 * a dlopen of a large instrumented library fail for lack of static TLS
 * space). */
#define KPATH_RT_TLS static __thread KPATH_RT_KEEP
void kpath_rt_tally_slow(struct kpath_rt_func *f, kpath_rt_u64 id, kpath_rt_u64 **a) __attribute__((cold));
#define KPATH_RT_TALLY_SLOW(f, id, a) \
	__asm__ KPATH_RT_ASM_INLINE __volatile__(KPATH_RT_CALL("kpath_rt_tally_tr_v5") \
	                                         : \
	                                         : "D"(f), "S"(id), "d"(a) \
	                                         : "rax", KPATH_RT_CLOB)
KPATH_RT_INLINE_FN void kpath_rt_tally(struct kpath_rt_func *f, kpath_rt_u64 **a, kpath_rt_u64 id,
                                       kpath_rt_u64 num_paths)
{
	if (__builtin_expect(id < num_paths, 1)) {
		__asm__ KPATH_RT_ASM_INLINE goto("movq %0, %%rax\n\t"
		                                 "testq %%rax, %%rax\n\t"
		                                 "je %l2\n\t"
		                                 "addq $1, (%%rax,%1,8)"
		                                 :
		                                 : "m"(*a), "r"(id)
		                                 : "rax", "cc"
		                                 : kpath_rt_slow);
		return;
	}
kpath_rt_slow:
	KPATH_RT_TALLY_SLOW(f, id, a);
}
#else
void kpath_rt_enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c);
void kpath_rt_emit(struct kpath_rt_cursor *c, kpath_rt_u64 id);
void kpath_rt_leave(struct kpath_rt_cursor *c, kpath_rt_u64 id);
/* The cursor's address goes to the library on every call: already pinned. */
#define kpath_rt_pin(c) ((void)(c))
#define kpath_rt_enter_sj kpath_rt_enter
void kpath_rt_enter_t(struct kpath_rt_func *f, void **t, struct kpath_rt_cursor *c);
#define kpath_rt_emit_n kpath_rt_emit_n_v5
void kpath_rt_emit_n(struct kpath_rt_cursor *c, kpath_rt_u64 id, kpath_rt_u64 n);
void kpath_rt_count(struct kpath_rt_func *f, kpath_rt_u64 id, kpath_rt_u64 num_paths);
/* Without the inline half the library counts and the pointer stays null
 * (it need not be thread-local then). */
#define KPATH_RT_TLS static KPATH_RT_KEEP
void kpath_rt_tally(struct kpath_rt_func *f, kpath_rt_u64 **a, kpath_rt_u64 id, kpath_rt_u64 num_paths);
#endif

/* Around each macro invocation kpath writes out (frontend/reparse.c,
 * reparse_shift): compilers do not warn about some constructs when a
 * macro's expansion spells them, and do when the same text is written out
 * (clang: "if ((c))" with c "x == 1", -Wparentheses-equality; "v = v",
 * -Wself-assign; gcc and clang: "(a) == (a)", -Wtautological-compare),
 * which with -Werror would make the file not compile.  clang compiles
 * each expansion with its warnings off (a _Pragma adds no token, so it may
 * stand anywhere in a statement); gcc, whose parser takes a _Pragma inside
 * an expression for a syntax error, compiles each function written out
 * (kpath_rt_xf_*, at file scope) without the warnings its front end leaves
 * out inside macro expansions (gcc 12's c-family: from_macro_expansion_at,
 * c-indentation.cc).  Other compilers see nothing. */
#if defined(__clang__)
#define kpath_rt_xq_begin _Pragma("clang diagnostic push") _Pragma("clang diagnostic ignored \"-Weverything\"")
#define kpath_rt_xq_end _Pragma("clang diagnostic pop")
#define kpath_rt_xf_begin
#define kpath_rt_xf_end
#elif defined(__GNUC__) && __GNUC__ >= 7
#define kpath_rt_xq_begin
#define kpath_rt_xq_end
#define kpath_rt_xf_begin _Pragma("GCC diagnostic push") \
	_Pragma("GCC diagnostic ignored \"-Wtautological-compare\"") _Pragma("GCC diagnostic ignored \"-Wtype-limits\"") \
	_Pragma("GCC diagnostic ignored \"-Waddress\"") _Pragma("GCC diagnostic ignored \"-Wlogical-op\"") \
	_Pragma("GCC diagnostic ignored \"-Wint-in-bool-context\"") _Pragma("GCC diagnostic ignored \"-Wduplicated-branches\"") \
	_Pragma("GCC diagnostic ignored \"-Wrestrict\"") _Pragma("GCC diagnostic ignored \"-Wmisleading-indentation\"")
#define kpath_rt_xf_end _Pragma("GCC diagnostic pop")
#else
#define kpath_rt_xq_begin
#define kpath_rt_xq_end
#define kpath_rt_xf_begin
#define kpath_rt_xf_end
#endif

/* kpath_rt_enter as an initialiser: instrumented functions declare their
 * cursor as "struct kpath_rt_cursor c = kpath_rt_begin(&desc, c);", so
 * that the routine-entry event is a declaration and the function's own
 * declarations may follow it (C90).  The cursor is in scope, and alive, in
 * its own initialiser (C11 6.2.1p7, 6.2.4p6): kpath_rt_enter fills it, then
 * its value initialises it, a copy onto itself that compilers drop, so the
 * code is that of kpath_rt_enter (a function returning the cursor instead
 * made gcc -O2 keep the cursor in memory, and some loops slower). */
#define kpath_rt_begin(f, c) (kpath_rt_enter((f), &(c)), (c))
/* The same in a function that calls setjmp. */
#define kpath_rt_begin_sj(f, c) (kpath_rt_enter_sj((f), &(c)), (c))
/* The same through the file's thread-local template pointer t (the
 * default mode's functions with a cursor, but for setjmp). */
#define kpath_rt_begin_t(f, t, c) (kpath_rt_enter_t((f), (t), &(c)), (c))

/* Repeat counting (docs/instrumented-code.md): the back edge of an
 * innermost loop whose body is one straight path, with no calls but to
 * C library functions that return, counts its ID in the local n when it
 * is K, the ID of that body path (every iteration but the first); every
 * edge leaving the loop hands the count on.  The runtime sees the same
 * items in the same order.  Macros: arguments are evaluated more than
 * once, so the instrumenter passes only side-effect-free ones. */
#define kpath_rt_repeat(c, id, K, n) \
	((id) == (K) ? (void)++(n) : (kpath_rt_flush((c), (K), (n)), kpath_rt_emit((c), (id))))
#define kpath_rt_flush(c, K, n) ((n) ? (kpath_rt_emit_n((c), (K), (n)), (void)((n) = 0)) : (void)0)
/* The deferred form, where nothing in the loop but its back edge has code:
 * the back edge only counts (++n, every iteration) and the register keeps
 * the value it had when the loop was entered, so the loop body has no
 * branch and no call; an edge leaving the loop after n >= 1 iterations
 * emits the first one's ID first (computed from that value), then K n - 1
 * times, and gives the register r the value the back edge sets (_r). */
#define kpath_rt_exit_loop(c, first, K, n) \
	((n) ? (kpath_rt_emit((c), (first)), (void)--(n), kpath_rt_flush((c), (K), (n))) : (void)0)
#define kpath_rt_exit_loop_r(c, first, K, n, r, v) \
	((n) ? (kpath_rt_emit((c), (first)), (void)((r) = (v)), (void)--(n), kpath_rt_flush((c), (K), (n))) : (void)0)

/* -Wunused-macros warns about the macros a file defines and does not use,
 * and this header is the preamble of every instrumented file, which uses
 * only some of them; #if defined counts as a use (a sum: clang does not
 * count the operands || and && skip). */
#if defined(KPATH_RT_H) + defined(KPATH_RT_ABI) + defined(KPATH_RT_C) + defined(KPATH_RT_INLINE) + \
	defined(kpath_rt_xq_begin) + defined(kpath_rt_xq_end) + defined(kpath_rt_xf_begin) + defined(kpath_rt_xf_end) + \
	defined(kpath_rt_pin) + defined(kpath_rt_repeat) + defined(KPATH_RT_COLD) + defined(KPATH_RT_UNUSED) + defined(KPATH_RT_KEEP) + defined(KPATH_RT_LIM) + defined(KPATH_RT_CLOB) + defined(KPATH_RT_CLOB_ITEM) + defined(KPATH_RT_CLOBV) + defined(KPATH_RT_CALL) + defined(KPATH_RT_ASM_INLINE) + defined(KPATH_RT_COUNT_SLOW) + defined(KPATH_RT_TALLY_SLOW) + defined(KPATH_RT_TLS) + defined(KPATH_RT_CNT) + defined(KPATH_RT_P) + defined(KPATH_RT_W) + defined(kpath_rt_flush) + defined(kpath_rt_exit_loop) + defined(kpath_rt_exit_loop_r) + defined(kpath_rt_begin) + defined(kpath_rt_begin_sj) + defined(kpath_rt_begin_t) + \
	defined(KPATH_RT_STEP1) + defined(KPATH_RT_STEP_ASM) + defined(KPATH_RT_STEP_CALL) + defined(KPATH_RT_EMIT_BACK) + defined(KPATH_RT_LEAVE_BACK) + defined(KPATH_RT_STEP_OPS) + defined(KPATH_RT_STEP_CLOB) + defined(KPATH_RT_EMIT_N_ASM)
#endif

#if defined(__clang__)
#pragma clang diagnostic pop
#elif defined(__GNUC__) && (__GNUC__ > 4 || (__GNUC__ == 4 && __GNUC_MINOR__ >= 6))
#pragma GCC diagnostic pop
#endif

#endif
