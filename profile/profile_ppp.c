/*
 * profile_ppp.c: a function's "ppp" fields in a profile
 * (docs/profile-schema.md, "ppp"; written by `kpath instrument --mode ppp`
 * programs, runtime/ppp.c).
 *
 * In memory (struct kp_func, ppp) the static part only, a jansson object:
 *   mode "ppp", ppp_interesting |I|, ppp_interval N, ppp_slots (the counter
 *   array: min(N, limit)), ppp_paths [{id, ppp_id}] (the interesting paths
 *   that have a slot, by Ball-Larus ID and PPP ID).
 * The counts are the function's level-1 k-IPF counts (every path, by
 * Ball-Larus ID, exactly as in a k = 1 profile): on disk each ppp_paths
 * entry carries its count and ppp_residual lists every other path that
 * ran, with its count, both derived from the k-IPF when written and
 * checked against it when read.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile_int.h"

void kp_ppp_free(void *x)
{
	json_decref((json_t *)x);
}

void *kp_ppp_copy(const void *x)
{
	return x ? json_deep_copy((const json_t *)x) : NULL;
}

int kp_ppp_same(const void *a, const void *b)
{
	return (!a && !b) || (a && b && json_equal((json_t *)a, (json_t *)b));
}

static uint64_t u64_of(const json_t *o, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(o, key));
}

void kp_ppp_info(const void *x, uint64_t *ninteresting, uint64_t *interval)
{
	*ninteresting = x ? u64_of(x, "ppp_interesting") : 0;
	*interval = x ? u64_of(x, "ppp_interval") : 0;
}

int kp_ppp_lookup(const void *x, uint64_t id, uint64_t *ppp_id)
{
	json_t *paths = x ? json_object_get((const json_t *)x, "ppp_paths") : NULL, *q;
	size_t i;
	json_array_foreach(paths, i, q)
		if (u64_of(q, "id") == id) {
			if (ppp_id)
				*ppp_id = u64_of(q, "ppp_id");
			return 1;
		}
	return 0;
}

static uint64_t root_count(const struct kp_ipf *t, uint64_t id)
{
	for (uint32_t c = t->n ? t->nodes[0].first_child : KP_NONE; c != KP_NONE; c = t->nodes[c].next_sibling)
		if (t->nodes[c].id == id)
			return t->nodes[c].count;
	return 0;
}

void *kp_ppp_json(const struct kp_func *f)
{
	const json_t *x = f->ppp;
	json_t *o = json_deep_copy(x), *paths = json_object_get(o, "ppp_paths"), *res = json_array(), *q;
	size_t i;
	if (!o || !res)
		goto fail;
	uint64_t n = u64_of(x, "ppp_interesting"), interval = u64_of(x, "ppp_interval");
	if (json_object_set_new(o, "ppp_compactness", json_real(n ? (double)interval / (double)n : 0.0)))
		goto fail;
	json_array_foreach(paths, i, q)
		if (json_object_set_new(q, "count", json_integer((json_int_t)root_count(&f->ipf, u64_of(q, "id")))))
			goto fail;
	for (uint32_t c = f->ipf.n ? f->ipf.nodes[0].first_child : KP_NONE; c != KP_NONE; c = f->ipf.nodes[c].next_sibling) {
		uint64_t id = f->ipf.nodes[c].id;
		if (!f->ipf.nodes[c].count || kp_ppp_lookup(x, id, NULL))
			continue;
		json_t *r = json_pack("{s:I, s:I}", "id", (json_int_t)id, "count", (json_int_t)f->ipf.nodes[c].count);
		if (!r || json_array_append_new(res, r))
			goto fail;
	}
	if (json_object_set_new(o, "ppp_residual", res))
		goto fail_o;
	return o;
fail:
	json_decref(res);
fail_o:
	json_decref(o);
	return NULL;
}

static int is_u64(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

/* Reads the fields of o (mode "ppp") into *out.  NULL, or the reason with
 * the field in field. */
const char *kp_ppp_read(const json_t *o, uint64_t num_paths, void **out, char *field, size_t fieldlen)
{
	json_t *ni = json_object_get(o, "ppp_interesting"), *iv = json_object_get(o, "ppp_interval"),
	       *ns = json_object_get(o, "ppp_slots"), *paths = json_object_get(o, "ppp_paths"), *q;
	size_t i;
	*out = NULL;
	snprintf(field, fieldlen, "ppp_interesting");
	if (!is_u64(ni))
		return "expected a non-negative integer";
	snprintf(field, fieldlen, "ppp_interval");
	if (!is_u64(iv) || (uint64_t)json_integer_value(iv) > num_paths)
		return "expected an integer in 0..num_paths";
	snprintf(field, fieldlen, "ppp_slots");
	if (!is_u64(ns) || json_integer_value(ns) > json_integer_value(iv))
		return "expected an integer in 0..ppp_interval";
	snprintf(field, fieldlen, "ppp_paths");
	if (!json_is_array(paths) || json_array_size(paths) > (size_t)json_integer_value(ni))
		return "expected an array of at most ppp_interesting {id, ppp_id, count}";
	json_t *keep = json_array();
	if (!keep)
		return "out of memory";
	json_array_foreach(paths, i, q) {
		json_t *id = json_object_get(q, "id"), *pid = json_object_get(q, "ppp_id");
		snprintf(field, fieldlen, "ppp_paths[%zu]", i);
		if (!is_u64(id) || (uint64_t)json_integer_value(id) >= num_paths || !is_u64(pid) ||
		    json_integer_value(pid) >= json_integer_value(ns)) {
			json_decref(keep);
			return "expected {id < num_paths, ppp_id < ppp_slots}";
		}
		for (size_t j = 0; j < i; j++) {
			json_t *p = json_array_get(paths, j);
			if (json_equal(json_object_get(p, "id"), id) || json_equal(json_object_get(p, "ppp_id"), pid)) {
				json_decref(keep);
				return "duplicate id or ppp_id";
			}
		}
		if (json_array_append_new(keep, json_pack("{s:O, s:O}", "id", id, "ppp_id", pid))) {
			json_decref(keep);
			return "out of memory";
		}
	}
	*out = json_pack("{s:s, s:O, s:O, s:O, s:o}", "mode", "ppp", "ppp_interesting", ni, "ppp_interval", iv,
	                 "ppp_slots", ns, "ppp_paths", keep);
	return *out ? NULL : "out of memory";
}

/* The counts of o's ppp_paths and ppp_residual against f's k-IPF (read
 * before): NULL, or the reason with the field. */
const char *kp_ppp_check_counts(const json_t *o, const struct kp_func *f, char *field, size_t fieldlen)
{
	json_t *paths = json_object_get(o, "ppp_paths"), *res = json_object_get(o, "ppp_residual"), *q;
	size_t i;
	json_array_foreach(paths, i, q) {
		json_t *c = json_object_get(q, "count");
		snprintf(field, fieldlen, "ppp_paths[%zu].count", i);
		if (!is_u64(c) || (uint64_t)json_integer_value(c) != root_count(&f->ipf, u64_of(q, "id")))
			return "expected the path's count in kipf";
	}
	snprintf(field, fieldlen, "ppp_residual");
	if (!json_is_array(res))
		return "expected an array of {id, count}";
	size_t nres = 0;
	for (uint32_t c = f->ipf.n ? f->ipf.nodes[0].first_child : KP_NONE; c != KP_NONE; c = f->ipf.nodes[c].next_sibling)
		nres += f->ipf.nodes[c].count && !kp_ppp_lookup(f->ppp, f->ipf.nodes[c].id, NULL);
	if (json_array_size(res) != nres)
		return "expected every path of kipf that is not in ppp_paths, once";
	json_array_foreach(res, i, q) {
		json_t *id = json_object_get(q, "id"), *c = json_object_get(q, "count");
		snprintf(field, fieldlen, "ppp_residual[%zu]", i);
		if (!is_u64(id) || !is_u64(c) || kp_ppp_lookup(f->ppp, u64_of(q, "id"), NULL) ||
		    (uint64_t)json_integer_value(c) != root_count(&f->ipf, u64_of(q, "id")) || !json_integer_value(c))
			return "expected {id, count} of a kipf path that is not in ppp_paths";
	}
	return NULL;
}
