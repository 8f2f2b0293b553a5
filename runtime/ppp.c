/*
 * ppp.c: the runtime half of `kpath instrument --mode ppp`
 * (rewrite/ppp_form.c, docs/ppp.md, "The instrumentation").
 *
 * A ppp function's code keeps two registers (the PPP paper's section 5:
 * the PPP register and the Ball-Larus one) and, at each path end, counts
 * one ID with kpath_rt_count in an ID space of two parts:
 *
 *   [0, nslots)            an interesting path: its PPP ID (the slot), after
 *                          the check of the stored Ball-Larus ID (section 2.3)
 *   [nslots, nslots + N)   any other path (residual): nslots + its
 *                          Ball-Larus ID
 *
 * so the descriptor's num_paths is nslots + N and its DAG is the Ball-Larus
 * one.  The counters are the default mode's (counts.c, per thread, merged
 * at exit), with one difference that this file decides: the first nslots
 * IDs of a ppp function are always an array (the counter array sized to
 * the PPP interval, section 2.3), the rest an array too when the whole
 * space is small, else the hash table (the residual side table).
 *
 * The instrumented file registers, from a constructor, each function's
 * slot table (per PPP ID the Ball-Larus ID of the interesting path, or
 * KP_PPP_HOLE).  The profile writer (snapshot.c) maps every counted ID back
 * to a Ball-Larus ID, so the profile's paths and k-IPF are exactly a k = 1
 * profile's, and adds the mode's fields (docs/profile-schema.md, "ppp").
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kp_internal.h"

#define KP_PPP_HOLE (~(kpath_rt_u64)0)

struct kpath_rt_ppp {
	kpath_rt_u64 num_bl;          /* N: the function's Ball-Larus paths */
	kpath_rt_u64 interval;        /* the PPP interval (Lemma 5) */
	kpath_rt_u64 nslots;          /* min(interval, limit): the counter array */
	unsigned ninteresting;        /* |I| */
	const kpath_rt_u64 *slot_bl;  /* [nslots] */
};
void kpath_rt_ppp_register(struct kpath_rt_func *f, const struct kpath_rt_ppp *p);

struct reg {
	const struct kpath_rt_func *f;
	struct kpath_rt_ppp p;        /* slot_bl: a heap copy (the module may be unloaded) */
};

static struct kp_registry regs = KP_REGISTRY_INIT;

void kpath_rt_ppp_register(struct kpath_rt_func *f, const struct kpath_rt_ppp *p)
{
	kpath_rt_u64 *slots = p->nslots ? kp_malloc((size_t)p->nslots * sizeof *slots) : NULL;
	struct reg r = {f, *p};
	r.p.slot_bl = slots;
	if (slots)
		memcpy(slots, p->slot_bl, (size_t)p->nslots * sizeof *slots);
	if ((p->nslots && !slots) || kp_registry_add(&regs, &r, sizeof r) != 0) {
		/* Without its slot table the function's IDs cannot be mapped
		 * back: it is left out of the registry and its counts dropped
		 * (kp_ppp_snapshot refuses an unregistered ppp descriptor). */
		free(slots);
		kp_rt_drop(1);
		return;
	}
	kpath_rt_register(f);
}

static const struct kpath_rt_ppp *find(const struct kpath_rt_func *f)
{
	const struct reg *r = kp_registry_find(&regs, f);
	return r ? &r->p : NULL;
}

uint64_t kp_ppp_prefix(const struct kpath_rt_func *f)
{
	if (f->num_paths <= KP_COUNTS_SPARSE_MAX)
		return 0; /* one array for everything */
	const struct kpath_rt_ppp *p = find(f);
	return p ? p->nslots : 0;
}

void kp_ppp_moved(const struct kpath_rt_func *from, const struct kpath_rt_func *to)
{
	kp_registry_moved(&regs, from, to);
}

/* The mode's static fields: "mode", "ppp_interesting", "ppp_interval",
 * "ppp_slots" and "ppp_paths" [{id, ppp_id}] (counts are added when the
 * profile is written, profile/profile_json.c). */
static json_t *fields(const struct kpath_rt_ppp *p)
{
	json_t *paths = json_array();
	for (kpath_rt_u64 s = 0; paths && s < p->nslots; s++) {
		if (p->slot_bl[s] == KP_PPP_HOLE)
			continue;
		json_t *o = json_pack("{s:I, s:I}", "id", (json_int_t)p->slot_bl[s], "ppp_id", (json_int_t)s);
		if (!o || json_array_append_new(paths, o)) {
			json_decref(paths);
			return NULL;
		}
	}
	if (!paths)
		return NULL;
	return json_pack("{s:s, s:I, s:I, s:I, s:o}", "mode", "ppp", "ppp_interesting", (json_int_t)p->ninteresting,
	                 "ppp_interval", (json_int_t)p->interval, "ppp_slots", (json_int_t)p->nslots, "ppp_paths",
	                 paths);
}

/* The Ball-Larus ID of a counted ID, or UINT64_MAX (a hole: never counted). */
static uint64_t bl_of(const struct kpath_rt_ppp *p, uint64_t id)
{
	uint64_t bl = id < p->nslots ? p->slot_bl[id] : id - p->nslots;
	return bl < p->num_bl ? bl : UINT64_MAX;
}

/* The subtree of t below v, relabelled by bl_of, added under w of out.  A
 * ppp function's items are IDs of both sides, one stream, so at k >= 2 its
 * k-IPF is that of the Ball-Larus IDs: bl_of is one to one on the IDs that
 * occur (an interesting path with a slot always gets it, the others are
 * NS + bl). */
static int relabel(const struct kpath_rt_ppp *p, const struct kp_ipf *t, uint32_t v, struct kp_ipf *out, uint32_t w,
                   uint64_t *invalid)
{
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		uint64_t bl = bl_of(p, t->nodes[c].id);
		uint32_t x;
		if (!t->nodes[c].count)
			continue;
		if (bl == UINT64_MAX) {
			if (v == 0)
				*invalid = kp_add_sat(*invalid, t->nodes[c].count);
			continue;
		}
		if (kp_ipf_child(out, w, bl, &x) != 0)
			return KP_ENOMEM;
		out->nodes[x].count += t->nodes[c].count;
		if (relabel(p, t, c, out, x, invalid) != 0)
			return KP_ENOMEM;
	}
	return 0;
}

int kp_ppp_snapshot(const struct kpath_rt_func *f, const struct kp_ipf *t, struct kp_ipf *out, uint64_t *num_paths,
                    uint64_t *invalid, void **json)
{
	const struct kpath_rt_ppp *p = find(f);
	if (!p)
		return 0;
	assert(f->num_paths == p->nslots + p->num_bl);
	if (kp_ipf_init(out) != 0)
		return KP_ENOMEM;
	if (t->n && relabel(p, t, 0, out, 0, invalid) != 0) {
		kp_ipf_free(out);
		return KP_ENOMEM;
	}
	*num_paths = p->num_bl;
	*json = fields(p);
	if (!*json) {
		kp_ipf_free(out);
		return KP_ENOMEM;
	}
	return 1;
}
