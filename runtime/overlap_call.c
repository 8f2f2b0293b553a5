/*
 * overlap_call.c: the runtime half of --mode overlap's calls (Tallam,
 * Zhang & Gupta, CGO 2004, section 3.3; rewrite/overlap_call.c writes the
 * instrumented side; docs/overlap-mode.md, "Calls").
 *
 * The paper's caller passes r (its path so far) to the callee and the
 * callee tells the caller who it is (func).  Here a call site's handoff
 * (kpath_rt_ol_call, inserted around the callee's name, right before the
 * call) counts C on the site's Type I companion (ID 0) and leaves, in this
 * thread, the callee it expects (a direct call: its descriptor), the
 * caller's prefix p, and the address of the caller's slot for the callee's
 * last path.  The first instrumented function to start after it takes it
 * (kpath_rt_ol_take): the expected callee gets it, any other one drops it,
 * so a stale handoff never reaches a later activation (the site's
 * arguments call nothing: calls.c).  The callee extends p into its own
 * first path (the I-OL path, counted with kpath_rt_ol_in as
 * 1 + ro * n + p, n the caller's num_paths) and, when it returns, writes
 * its last Ball-Larus path + 1 into the caller's slot, from which the
 * caller extends it past the call (the II-OL path).  The slot is a local
 * of the caller's activation, live while the callee runs, so recursion
 * and threads never share one.
 *
 * Profile side: kpath_rt_overlap_calls_register2 records a function's
 * sites; kp_overlap_calls_fields adds them, with their companions' counts
 * decoded, to the function's "overlap" fields (docs/profile-schema.md,
 * "overlap_calls"); a site across files says so ("across") and, when the
 * program defines its callee in this mode, in which file ("callee_file").
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kp_internal.h"

struct kpath_rt_olin {
	struct kpath_rt_func *site;    /* the site's Type I companion */
	kpath_rt_u64 p, n, nids;       /* the caller's prefix, its num_paths, the companion's IDs */
	kpath_rt_u64 *ret;             /* the caller's slot; NULL: no handoff taken */
};

/* What a callee with external linkage exports for callers in other files
 * (rewrite/overlap_call.c): its descriptor, its entry graph's paths T and
 * its num_paths N. */
struct kpath_rt_olkey {
	const struct kpath_rt_func *fn;
	kpath_rt_u64 t, n;
};

struct kpath_rt_olsite {
	unsigned block, line;
	const char *callee;
	struct kpath_rt_func *in, *out; /* companions: C and I-OL paths; II-OL paths */
	kpath_rt_u64 n, t;              /* Type I radix (the caller's num_paths); Type II radix (its OL graph's paths) */
	const struct kpath_rt_olkey *key; /* across: the callee's key, null when the program has none */
	int across;                       /* the callee is defined in another file */
};

void kpath_rt_ol_call(const struct kpath_rt_func *callee, struct kpath_rt_func *site, kpath_rt_u64 p, kpath_rt_u64 n,
                      kpath_rt_u64 nids, kpath_rt_u64 *ret);
void kpath_rt_ol_callx(const struct kpath_rt_olkey *key, struct kpath_rt_func *site, struct kpath_rt_func *out,
                       kpath_rt_u64 p, kpath_rt_u64 n, kpath_rt_u64 t, kpath_rt_u64 *ret);
struct kpath_rt_olin kpath_rt_ol_take(const struct kpath_rt_func *self, int now, kpath_rt_u64 ro);
void kpath_rt_ol_in(const struct kpath_rt_olin *in, kpath_rt_u64 ro);
void kpath_rt_overlap_calls_register2(const struct kpath_rt_func *f, unsigned nsites, const struct kpath_rt_olsite *s);
extern __thread const struct kpath_rt_func *kpath_rt_ol_callee;
extern const struct kpath_rt_olin kpath_rt_ol_zero;

/* The callee the pending handoff names (NULL: none), read inline at
 * every entry (rewrite/overlap_call.c, oc_entry) so that an entry without
 * a handoff costs a load, and the rest of the handoff. */
__thread const struct kpath_rt_func *kpath_rt_ol_callee;
const struct kpath_rt_olin kpath_rt_ol_zero;
static __thread struct kpath_rt_olin h_in;

static inline void hand_off(const struct kpath_rt_func *callee, struct kpath_rt_func *site, kpath_rt_u64 p,
                            kpath_rt_u64 n, kpath_rt_u64 nids, kpath_rt_u64 *ret)
{
	*ret = 0;
	kpath_rt_count(site, 0, nids);
	h_in = (struct kpath_rt_olin){site, p, n, nids, ret};
	__atomic_signal_fence(__ATOMIC_SEQ_CST); /* a handler's entry sees the whole handoff or none */
	kpath_rt_ol_callee = callee;
}

void kpath_rt_ol_call(const struct kpath_rt_func *callee, struct kpath_rt_func *site, kpath_rt_u64 p, kpath_rt_u64 n,
                      kpath_rt_u64 nids, kpath_rt_u64 *ret)
{
	hand_off(callee, site, p, n, nids, ret);
}

/* The handoff of a site whose callee is defined in another file (key:
 * its key, null when no file of the program defines it in this mode at
 * this degree; site, out: its Type I and Type II companions; t: its Type
 * II radix).  The companions' IDs depend
 * on the callee's T and N, which only the key knows: they are sized here,
 * before their first count registers them (0: not yet; all threads store
 * the same sizes, the Type II one first, so a thread that sees the Type I
 * size sees both).  Without a key the site counts C alone and the handoff
 * names no callee, so no entry takes it. */
void kpath_rt_ol_callx(const struct kpath_rt_olkey *key, struct kpath_rt_func *site, struct kpath_rt_func *out,
                       kpath_rt_u64 p, kpath_rt_u64 n, kpath_rt_u64 t, kpath_rt_u64 *ret)
{
	kpath_rt_u64 nids = __atomic_load_n(&site->num_paths, __ATOMIC_ACQUIRE);
	if (!nids) {
		__atomic_store_n(&out->num_paths, key ? key->n * t : 0, __ATOMIC_RELEASE);
		nids = key ? 1 + key->t * n : 1;
		__atomic_store_n(&site->num_paths, nids, __ATOMIC_RELEASE);
	}
	hand_off(key ? key->fn : NULL, site, p, n, nids, ret);
}

/* At the entry of every function that may be a callee: the handoff if it
 * is this function's (in.ret set), else none; either way it is gone.  now:
 * the entry block is already the (theta+1)-th predicate, count the I-OL
 * path with ro at once. */
struct kpath_rt_olin kpath_rt_ol_take(const struct kpath_rt_func *self, int now, kpath_rt_u64 ro)
{
	struct kpath_rt_olin in = {0};
	if (kpath_rt_ol_callee && kpath_rt_ol_callee == self) {
		in = h_in;
		if (now)
			kpath_rt_ol_in(&in, ro);
	}
	kpath_rt_ol_callee = NULL;
	return in;
}

/* ro < the callee's OL graph paths, which the instrumenter checked to fit
 * with n in the companion's IDs (rewrite/overlap_call.c); an ID beyond
 * nids is counted as invalid, like any. */
void kpath_rt_ol_in(const struct kpath_rt_olin *in, kpath_rt_u64 ro)
{
	kpath_rt_count(in->site, 1 + ro * in->n + in->p, in->nids);
}

struct creg {
	const struct kpath_rt_func *f;
	unsigned n;
	const struct kpath_rt_olsite *s;
};

static struct kp_registry regs = KP_REGISTRY_INIT;

void kpath_rt_overlap_calls_register2(const struct kpath_rt_func *f, unsigned nsites, const struct kpath_rt_olsite *s)
{
	struct creg r = {f, nsites, s};
	if (kp_registry_add(&regs, &r, sizeof r) != 0)
		kp_rt_drop(1); /* the profile then lacks the call counts, nothing else */
}

static int cmp2(const void *x, const void *y)
{
	const json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
	for (size_t i = 0; i < 2; i++) {
		uint64_t u = (uint64_t)json_integer_value(json_array_get(a, i)), v = (uint64_t)json_integer_value(json_array_get(b, i));
		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}

/* a sorted by its first two fields (the profile is deterministic); NULL on
 * memory exhaustion, a released either way. */
static json_t *sorted2(json_t *a)
{
	size_t n = json_array_size(a);
	json_t **v = kp_malloc((n ? n : 1) * sizeof *v), *out = json_array();
	for (size_t i = 0; v && i < n; i++)
		v[i] = json_array_get(a, i);
	if (v)
		qsort(v, n, sizeof *v, cmp2);
	for (size_t i = 0; v && out && i < n; i++)
		if (json_array_append(out, v[i])) {
			json_decref(out);
			out = NULL;
		}
	if (!v) {
		json_decref(out);
		out = NULL;
	}
	free(v);
	json_decref(a);
	return out;
}

/* The counts of companion c as [a, b, count] with ID = off + b * radix + a
 * (type I: off 1, radix n; type II: off 0, a = ID / radix), and ID 0's
 * count in *zero when off is 1.  NULL on memory exhaustion. */
static json_t *decoded(const struct kpath_rt_func *c, uint64_t off, uint64_t radix, int last_major, uint64_t *zero)
{
	json_t *out = json_array();
	int slot = __atomic_load_n(&c->slot, __ATOMIC_ACQUIRE);
	if (!out || slot <= 0 || (uint32_t)slot > kp_rt.nfuncs || !radix)
		return out;
	const struct kp_ipf *t = &kp_rt.funcs[slot - 1].ipf;
	for (uint32_t k = t->n ? t->nodes[0].first_child : KP_NONE; k != KP_NONE; k = t->nodes[k].next_sibling) {
		uint64_t id = t->nodes[k].id, cnt = t->nodes[k].count;
		if (!cnt)
			continue;
		if (id < off) {
			*zero += cnt;
			continue;
		}
		id -= off;
		uint64_t a = last_major ? id / radix : id % radix, b = last_major ? id % radix : id / radix;
		json_t *e = json_pack("[I, I, I]", (json_int_t)a, (json_int_t)b, (json_int_t)cnt);
		if (!e || json_array_append_new(out, e)) {
			json_decref(out);
			return NULL;
		}
	}
	return sorted2(out);
}

int kp_overlap_calls_fields(const struct kpath_rt_func *f, void *fields)
{
	const struct creg *r = kp_registry_find(&regs, f);
	if (!r)
		return 0;
	json_t *sites = json_array();
	for (unsigned i = 0; sites && i < r->n; i++) {
		const struct kpath_rt_olsite *s = &r->s[i];
		uint64_t calls = 0, none = 0;
		json_t *in = decoded(s->in, 1, s->n, 0, &calls), *out = decoded(s->out, 0, s->t, 1, &none);
		json_t *o = in && out ? json_pack("{s:i, s:i, s:s, s:I, s:I, s:I, s:o, s:o}", "block", (json_int_t)s->block,
		                                  "line", (json_int_t)s->line, "callee", s->callee, "calls",
		                                  (json_int_t)calls, "radix", (json_int_t)s->n, "ids", (json_int_t)s->t,
		                                  "in", in, "out", out)
		                      : NULL;
		if (!o) {
			json_decref(in);
			json_decref(out);
		} else if ((s->across && json_object_set_new(o, "across", json_true())) ||
		           (s->key && json_object_set_new(o, "callee_file", json_string(s->key->fn->file)))) {
			json_decref(o); /* the callee's file: the profile entry its counts are in */
			o = NULL;
		}
		if (!o || json_array_append_new(sites, o)) {
			json_decref(sites);
			sites = NULL;
		}
	}
	if (!sites || json_object_set_new((json_t *)fields, "overlap_calls", sites))
		return -1;
	return 0;
}
