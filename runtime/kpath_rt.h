/*
 * kpath_rt.h: the runtime ABI that instrumented code uses, and nothing else.
 *
 * This header is also the preamble of every instrumented file: the rewriter
 * embeds its text verbatim, so it must stay plain C99 (no includes, no
 * _Thread_local, no GNU extensions) and every name in it starts with
 * "kpath_rt_" (reserved for kpath: the instrumenter refuses programs that
 * declare such names), except kpath_dump, which programs may declare
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
 *  - Path IDs are in [0, num_paths); any other value is counted as an invalid
 *    path and never recorded.
 */
#ifndef KPATH_RT_H
#define KPATH_RT_H

#define KPATH_RT_ABI 1

typedef unsigned long long kpath_rt_u64;

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
	struct kpath_rt_func *next; /* registry list */
	/* Last source line of each block (>= block_line; the block's code spans
	 * [block_line, block_last_line]), or NULL if unknown. */
	const unsigned *block_last_line;
};

/* Per-activation stream cursor (n, tau, beta of the k-BLPP paper's
 * process_bl_path_id), kept in a local of the instrumented function so that
 * recursion and threads never mix sequences.  Opaque to instrumented code;
 * kpath_rt_enter initialises every field. */
struct kpath_rt_cursor {
	void *state;          /* this thread's per-function state */
	kpath_rt_u64 n;       /* items since the marker, mod k-1 (chunk position) */
	unsigned tau, beta;   /* k-SF node indices in the thread's arena, 0 = null */
	kpath_rt_u64 act;     /* activation number (trace mode) */
};

/* Routine-entry marker: registers f on first use, initialises c. */
void kpath_rt_enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c);
/* A back edge or cut edge was taken: id is the path just completed. */
void kpath_rt_emit(struct kpath_rt_cursor *c, kpath_rt_u64 id);
/* The function returns: id is its last path.  The activation ends. */
void kpath_rt_leave(struct kpath_rt_cursor *c, kpath_rt_u64 id);
/* Registers f eagerly (called from a constructor where the compiler has
 * them, so that functions never called still appear in the profile). */
void kpath_rt_register(struct kpath_rt_func *f);
/* Writes (accumulates) the profile now; also runs at exit. */
void kpath_dump(void);

#endif
