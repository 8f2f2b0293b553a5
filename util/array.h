/*
 * array.h: the one growable array of the tool side (the runtime, which must
 * never exit a user's program, grows its arrays with kp_realloc and checks).
 *
 * An array is three lvalues the caller keeps: a pointer ARR, a count N and a
 * capacity CAP, of any integer types wide enough for 2^31 - 1 (uint32_t,
 * unsigned, size_t).  The macros evaluate their arguments more than once:
 * pass plain lvalues, without side effects.
 *
 *   KP_RESERVE(arr, cap, need)  room for NEED elements: CAP doubles (from
 *                               16) until it holds NEED, ARR is reallocated.
 *   KP_PUSH(arr, n, cap)        room for one more, then the address of
 *                               ARR[N], and N is incremented:
 *                                   *KP_PUSH(v, nv, capv) = x;
 *
 * Invariant: N <= CAP, and ARR holds CAP elements (none before the first
 * reserve).  Growing past 2^31 - 1 elements, or past SIZE_MAX bytes, is out
 * of memory: "kpath: out of memory" and exit 1, as xrealloc.
 */
#ifndef KPATH_ARRAY_H
#define KPATH_ARRAY_H

#include <stddef.h>

/* The capacity after growing CAP to hold NEED (> CAP) elements. */
size_t kp_array_cap(size_t cap, size_t need);
/* ARR reallocated to kp_array_cap(cap, need) elements of ELEM bytes. */
void *kp_array_grow(void *arr, size_t cap, size_t need, size_t elem);

#define KP_RESERVE(arr, cap, need) \
	((size_t)(need) <= (size_t)(cap) ? (void)0 \
	 : (void)((arr) = kp_array_grow((arr), (size_t)(cap), (size_t)(need), sizeof *(arr)), \
	          (cap) = kp_array_cap((size_t)(cap), (size_t)(need))))

#define KP_PUSH(arr, n, cap) (KP_RESERVE(arr, cap, (size_t)(n) + 1), &(arr)[(n)++])

#endif
