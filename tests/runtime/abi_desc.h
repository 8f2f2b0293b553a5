/*
 * abi_desc.h: hand-written descriptors and the exact streams abi_prog.c
 * emits, shared with test_abi.c, which recomputes the expected k-IPFs by
 * brute force.
 *
 * All functions share one DAG (the k-BLPP paper's Figure example shape):
 *   blocks 0 ENTRY, 1 EXIT, 2 A (line L), 3 B (L+1, loop header),
 *   4 C (L+2), 5 D (L+3), 6 E (L+4, latch: back edge E->B), 7 F (L+5)
 *   DAG edges, val: ENTRY->A 0, ENTRY->B 4 (dummy), A->B 0, B->C 0, B->D 2,
 *   C->E 0, D->E 0, E->F 0, E->EXIT 1 (dummy), F->EXIT 0;  num_paths = 8.
 * So path 6 = ENTRY B D E F EXIT -> lines L+1, L+3, L+4, L+5.
 */
#ifndef KPATH_ABI_DESC_H
#define KPATH_ABI_DESC_H

#include "kpath_rt.h"

static const struct kpath_rt_edge abi_edges[] = {
	{ 0, 2, 0 }, { 0, 3, 4 }, { 2, 3, 0 }, { 3, 4, 0 }, { 3, 5, 2 },
	{ 4, 6, 0 }, { 5, 6, 0 }, { 6, 7, 0 }, { 6, 1, 1 }, { 7, 1, 0 },
};

#define ABI_LINES(L) { 0, 0, L, L + 1, L + 2, L + 3, L + 4, L + 5 }
static const unsigned loop_lines[] = ABI_LINES(10);
static const unsigned rec_lines[] = ABI_LINES(30);
static const unsigned work_lines[] = ABI_LINES(50);
static const unsigned never_lines[] = ABI_LINES(70);
static const unsigned leaf_lines[] = ABI_LINES(90);

#define ABI_FUNC(NAME, LINE, LINES, SUM)                                                          \
	{ KPATH_RT_ABI, NAME, "tests/runtime/abi_prog.c", LINE, SUM, 8, 8, LINES, 10, abi_edges, 0, 0, NULL, NULL }

/* loop(): the paper's stream, called LOOP_CALLS times from main. */
static const kpath_rt_u64 S_LOOP[] = { 6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3 };
#define LOOP_CALLS 3
/* rec(d): emit 1, recurse, emit 5, emit 99 (invalid), leave 7; rec(REC_D)
 * from main, so REC_D + 1 activations, each with stream 1 5 7. */
static const kpath_rt_u64 S_REC[] = { 1, 5, 7 };
#define REC_D 3
/* work(t): in each of NTHREADS threads, WORK_CALLS calls; stream
 * S_WORK[t % 2]. */
static const kpath_rt_u64 S_WORK[2][7] = { { 1, 2, 1, 2, 1, 2, 4 }, { 3, 3, 3, 0, 3, 3, 6 } };
#define NTHREADS 4
#define WORK_CALLS 50
/* leaf(): activations of an "acyclic" function (kpath_rt_count, one path
 * each): LEAF_REPS times each ID of S_LEAF and the invalid 99 from main,
 * and in thread t WORK_CALLS times S_LEAF[t % 4]; so each one-item stream
 * LEAF_REPS + WORK_CALLS times, LEAF_REPS invalid. */
static const kpath_rt_u64 S_LEAF[4][1] = { { 2 }, { 5 }, { 7 }, { 0 } };
#define LEAF_REPS 5

#endif
