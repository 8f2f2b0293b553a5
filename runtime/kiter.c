/*
 * kiter.c: the runtime half of `kpath instrument --mode kiter`
 * (rewrite/kiter_form.c, docs/kiter-mode.md).
 *
 * A kiter function is an ordinary descriptor (kpath_rt.h) whose num_paths is
 * its number of static k-iteration paths and whose DAG decodes those IDs
 * (Algorithm 2); its code counts each completed path with kpath_rt_count, so
 * the counters (an array up to KP_COUNTS_ARRAY_MAX paths, a hash table
 * above, per thread, merged at exit) and the profile writer are the default
 * mode's.  What only this mode has, the K of each loop, the instrumented
 * file registers here from a constructor: a list of (descriptor, loops)
 * pairs, searched when the profile is written, so that the profile says
 * "mode": "kiter" and each loop's K.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kp_internal.h"

struct kpath_rt_kiter {
	unsigned k;                  /* --kiter */
	unsigned nloops;
	const unsigned *loop_line;   /* per loop: its head's first line */
	const unsigned *loop_k;      /* per loop: the K used (1: acyclic) */
	const char *const *loop_why; /* per loop: "" or why K is lower than asked */
};
void kpath_rt_kiter_register(struct kpath_rt_func *f, const struct kpath_rt_kiter *k);

struct reg {
	const struct kpath_rt_func *f;
	const struct kpath_rt_kiter *k;
};

static struct kp_registry regs = KP_REGISTRY_INIT;

void kpath_rt_kiter_register(struct kpath_rt_func *f, const struct kpath_rt_kiter *k)
{
	struct reg r = {f, k};
	if (kp_registry_add(&regs, &r, sizeof r) != 0)
		kp_rt_drop(1); /* the profile then lacks the loops' K, nothing else */
	kpath_rt_register(f);
}

/* The profile fields of f's mode (docs/profile-schema.md, "kiter"), a new
 * jansson object; NULL for a default-mode function or on OOM. */
void *kp_kiter_fields(const struct kpath_rt_func *f)
{
	const struct reg *r = kp_registry_find(&regs, f);
	if (!r)
		return NULL;
	const struct kpath_rt_kiter *k = r->k;
	json_t *loops = json_array();
	for (unsigned i = 0; loops && i < k->nloops; i++) {
		json_t *l = json_pack("{s:i, s:i}", "line", (json_int_t)k->loop_line[i], "k", (json_int_t)k->loop_k[i]);
		if (l && k->loop_why[i][0])
			json_object_set_new(l, "lowered", json_string(k->loop_why[i]));
		if (!l || json_array_append_new(loops, l)) {
			json_decref(loops);
			return NULL;
		}
	}
	return loops ? json_pack("{s:s, s:i, s:o}", "mode", "kiter", "kiter_k", (json_int_t)k->k, "kiter_loops", loops)
	             : NULL;
}
