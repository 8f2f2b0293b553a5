/*
 * overlap.c: the runtime half of `kpath instrument --mode overlap`
 * (rewrite/overlap_form.c, docs/overlap-mode.md), and the mode's profile
 * fields (docs/profile-schema.md, "Functions of --mode overlap").
 *
 * An overlap function is a default-mode function (its Ball-Larus paths go
 * to the k-IPF) with a second descriptor, the companion, on which its code
 * counts every OL path with kpath_rt_count: the counters are the default
 * mode's (per thread, merged at exit).  The instrumented file registers
 * the pair and the static tables from a constructor.  When the profile is
 * written, the function's entry gets the mode's fields, the companion's
 * counts decoded as (loop head, first half's Ball-Larus ID, ro), and the
 * companion itself is left out of the profile (kp_overlap_companion).
 *
 * Profile side: the fields live in struct kp_func as one jansson object
 * ("overlap"), checked when read (kp_overlap_read), summed when merged
 * (kp_overlap_merge: the counts; the rest must be equal, kp_overlap_same).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kp_internal.h"

struct kpath_rt_overlap {
	unsigned degree, nedges;
	const unsigned *edges;        /* 2 * nedges: the graph the OL paths were numbered on */
	const char *dag_kinds;        /* per DAG edge of the descriptor: c (CFG), e / x (dummy from ENTRY / to EXIT) */
	unsigned nloops;
	const unsigned *head;         /* per loop: its head block */
	const kpath_rt_u64 *base, *total; /* per loop: IDs [base, base + num_paths * total) */
};
void kpath_rt_overlap_register(struct kpath_rt_func *f, struct kpath_rt_func *ol, const struct kpath_rt_overlap *o);

struct reg {
	const struct kpath_rt_func *f, *ol;
	const struct kpath_rt_overlap *o;
};

static struct kp_registry regs = KP_REGISTRY_INIT;

#define COMPANION "kpath_rt_overlap:"

void kpath_rt_overlap_register(struct kpath_rt_func *f, struct kpath_rt_func *ol, const struct kpath_rt_overlap *o)
{
	struct reg r = {f, ol, o};
	if (kp_registry_add(&regs, &r, sizeof r) != 0)
		kp_rt_drop(1); /* the profile then lacks the OL counts, nothing else */
	kpath_rt_register(f);
}

int kp_overlap_companion(const struct kpath_rt_func *f)
{
	return !strncmp(f->name, COMPANION, sizeof COMPANION - 1);
}

static int cmp_count(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	for (size_t i = 0; i < 3; i++) {
		json_int_t u = json_integer_value(json_array_get(x, i)), v = json_integer_value(json_array_get(y, i));
		if (u != v)
			return (uint64_t)u < (uint64_t)v ? -1 : 1;
	}
	return 0;
}

/* counts: [[head, first, ro, count], ...] sorted, as written. */
static json_t *sorted(json_t *counts)
{
	size_t n = json_array_size(counts);
	json_t **v = kp_malloc((n ? n : 1) * sizeof *v), *out = json_array();
	if (!v || !out) {
		free(v);
		json_decref(out);
		json_decref(counts);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(counts, i);
	qsort(v, n, sizeof *v, cmp_count);
	for (size_t i = 0; i < n; i++)
		if (json_array_append(out, v[i])) {
			json_decref(out);
			out = NULL;
			break;
		}
	free(v);
	json_decref(counts);
	return out;
}

/* The companion's counts, decoded: its ID is base + first * total + ro. */
static json_t *counts_of(const struct reg *r)
{
	json_t *out = json_array();
	int slot = __atomic_load_n(&r->ol->slot, __ATOMIC_ACQUIRE);
	if (!out || slot <= 0 || (uint32_t)slot > kp_rt.nfuncs)
		return out;
	const struct kp_ipf *t = &kp_rt.funcs[slot - 1].ipf;
	if (!t->n)
		return out;
	for (uint32_t c = t->nodes[0].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		uint64_t id = t->nodes[c].id;
		unsigned l = r->o->nloops;
		while (l > 0 && r->o->base[l - 1] > id)
			l--;
		if (!l || !t->nodes[c].count || !r->o->total[l - 1])
			continue;
		uint64_t rel = id - r->o->base[l - 1], T = r->o->total[l - 1];
		json_t *e = json_pack("[I, I, I, I]", (json_int_t)r->o->head[l - 1], (json_int_t)(rel / T),
		                      (json_int_t)(rel % T), (json_int_t)t->nodes[c].count);
		if (!e || json_array_append_new(out, e)) {
			json_decref(out);
			return NULL;
		}
	}
	return sorted(out);
}

void *kp_overlap_fields(const struct kpath_rt_func *f)
{
	const struct reg *r = kp_registry_find(&regs, f);
	if (!r)
		return NULL;
	json_t *edges = json_array(), *loops = json_array(), *counts = counts_of(r);
	for (unsigned e = 0; edges && e < r->o->nedges; e++)
		if (json_array_append_new(edges, json_pack("[i, i]", (json_int_t)r->o->edges[2 * e],
		                                           (json_int_t)r->o->edges[2 * e + 1]))) {
			json_decref(edges);
			edges = NULL;
		}
	for (unsigned l = 0; loops && l < r->o->nloops; l++) {
		unsigned h = r->o->head[l];
		if (json_array_append_new(loops, json_pack("{s:i, s:i, s:I}", "head", (json_int_t)h, "line",
		                                           (json_int_t)(h < f->num_blocks ? f->block_line[h] : 0), "ids",
		                                           (json_int_t)r->o->total[l]))) {
			json_decref(loops);
			loops = NULL;
		}
	}
	if (!edges || !loops || !counts) {
		json_decref(edges);
		json_decref(loops);
		json_decref(counts);
		return NULL;
	}
	json_t *o = json_pack("{s:s, s:i, s:o, s:s, s:o, s:o}", "mode", "overlap", "overlap_degree",
	                      (json_int_t)r->o->degree, "overlap_graph", edges, "overlap_dag_kinds", r->o->dag_kinds,
	                      "overlap_loops", loops, "overlap_counts", counts);
	if (o && kp_overlap_calls_fields(f, o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}
