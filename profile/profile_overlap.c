/*
 * profile_overlap.c: the fields of a `--mode overlap` function on disk
 * (docs/profile-schema.md, "Functions of --mode overlap"): read and
 * checked, compared, merged.  They are kept as one jansson object in
 * struct kp_func (overlap) and written back as they are.
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile_int.h"

static int kp_overlap_calls_same(const json_t *a, const json_t *b);
static int kp_overlap_calls_merge(json_t *d, const json_t *s);

static int is_uint(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

/* Checks the shape of every field; NULL or the rule broken (field named). */
static const char *check(const json_t *o, uint64_t num_paths, const char **field)
{
	json_t *v, *x;
	size_t i;
	*field = "overlap_degree";
	v = json_object_get(o, "overlap_degree");
	if (!is_uint(v) || json_integer_value(v) > 64)
		return "expected an integer in 0..64";
	*field = "overlap_graph";
	v = json_object_get(o, "overlap_graph");
	if (!json_is_array(v))
		return "expected an array of [src, dst]";
	json_array_foreach(v, i, x)
		if (json_array_size(x) != 2 || !is_uint(json_array_get(x, 0)) || !is_uint(json_array_get(x, 1)))
			return "expected an array of [src, dst] (block ids)";
	*field = "overlap_dag_kinds";
	v = json_object_get(o, "overlap_dag_kinds");
	if (!json_is_string(v) || strspn(json_string_value(v), "cex") != strlen(json_string_value(v)))
		return "expected a string of c, e and x (one per edge of cfg.edges)";
	*field = "overlap_loops";
	json_t *loops = json_object_get(o, "overlap_loops");
	if (!json_is_array(loops))
		return "expected an array of {head, line, ids}";
	json_array_foreach(loops, i, x)
		if (!is_uint(json_object_get(x, "head")) || !is_uint(json_object_get(x, "line")) ||
		    !is_uint(json_object_get(x, "ids")))
			return "expected an array of {head, line, ids}";
	*field = "overlap_counts";
	v = json_object_get(o, "overlap_counts");
	if (!json_is_array(v))
		return "expected an array of [head, first, ro, count]";
	json_array_foreach(v, i, x) {
		size_t l;
		json_t *lp;
		if (json_array_size(x) != 4 || !is_uint(json_array_get(x, 0)) || !is_uint(json_array_get(x, 1)) ||
		    !is_uint(json_array_get(x, 2)) || !is_uint(json_array_get(x, 3)) ||
		    json_integer_value(json_array_get(x, 3)) < 1)
			return "expected an array of [head, first, ro, count] with count >= 1";
		if ((uint64_t)json_integer_value(json_array_get(x, 1)) >= num_paths)
			return "a first half's Ball-Larus ID is not below num_paths";
		json_int_t head = json_integer_value(json_array_get(x, 0)), ro = json_integer_value(json_array_get(x, 2));
		int found = 0;
		json_array_foreach(loops, l, lp)
			if (json_integer_value(json_object_get(lp, "head")) == head) {
				found = 1;
				if (ro >= json_integer_value(json_object_get(lp, "ids")))
					return "an OL path ID (ro) is not below its loop's ids";
			}
		if (!found)
			return "a count names a head that is not in overlap_loops";
	}
	return NULL;
}

/* overlap_calls (optional, docs/profile-schema.md): the call sites and
 * their counts (runtime/overlap_call.c). */
static const char *check_calls(const json_t *v, uint64_t num_paths)
{
	size_t i, j;
	json_t *x, *c;
	static const char *const ints[] = {"block", "line", "calls", "radix", "ids"};
	if (!json_is_array(v))
		return "expected an array of call sites";
	json_array_foreach(v, i, x) {
		for (size_t k = 0; k < sizeof ints / sizeof *ints; k++)
			if (!is_uint(json_object_get(x, ints[k])))
				return "expected {block, line, callee, calls, radix, ids, in, out} with integers >= 0";
		if (!json_is_string(json_object_get(x, "callee")))
			return "expected a string callee";
		const json_t *across = json_object_get(x, "across"), *cf = json_object_get(x, "callee_file");
		if (across && !json_is_true(across))
			return "across: expected true (or no across: a callee in the same file)";
		if (cf && (!json_is_string(cf) || !across))
			return "callee_file: expected a string, on a site across files";
		uint64_t radix = (uint64_t)json_integer_value(json_object_get(x, "radix")),
		         ids = (uint64_t)json_integer_value(json_object_get(x, "ids"));
		if (radix != num_paths)
			return "radix is not the function's num_paths";
		for (int t = 0; t < 2; t++) {
			json_t *a = json_object_get(x, t ? "out" : "in");
			if (!json_is_array(a))
				return "expected in and out arrays of [first, ro, count]";
			json_array_foreach(a, j, c) {
				if (json_array_size(c) != 3 || !is_uint(json_array_get(c, 0)) || !is_uint(json_array_get(c, 1)) ||
				    !is_uint(json_array_get(c, 2)) || json_integer_value(json_array_get(c, 2)) < 1)
					return "expected [first, ro, count] with count >= 1";
				if (!t && (uint64_t)json_integer_value(json_array_get(c, 0)) >= num_paths)
					return "in: a caller's prefix is not below num_paths";
				if (t && (uint64_t)json_integer_value(json_array_get(c, 1)) >= ids)
					return "out: an OL path ID (ro) is not below the site's ids";
			}
		}
	}
	return NULL;
}

const char *kp_overlap_read(const json_t *o, uint64_t num_paths, void **out, char *field, size_t fieldlen)
{
	const char *f = "";
	const char *why = check(o, num_paths, &f);
	json_t *calls = json_object_get(o, "overlap_calls");
	if (!why && calls && (why = check_calls(calls, num_paths)))
		f = "overlap_calls";
	snprintf(field, fieldlen, "%s", f);
	if (why)
		return why;
	*out = json_pack("{s:s, s:O, s:O, s:O, s:O, s:O}", "mode", "overlap", "overlap_degree",
	                 json_object_get(o, "overlap_degree"), "overlap_graph", json_object_get(o, "overlap_graph"),
	                 "overlap_dag_kinds", json_object_get(o, "overlap_dag_kinds"), "overlap_loops",
	                 json_object_get(o, "overlap_loops"), "overlap_counts", json_object_get(o, "overlap_counts"));
	if (*out && calls && json_object_set(*out, "overlap_calls", calls))
		return "out of memory";
	return *out ? NULL : "out of memory";
}

void kp_overlap_free(void *x)
{
	json_decref((json_t *)x);
}

void *kp_overlap_copy(const void *x)
{
	return x ? json_deep_copy((const json_t *)x) : NULL;
}

unsigned kp_overlap_degree(const void *x)
{
	return (unsigned)json_integer_value(json_object_get((const json_t *)x, "overlap_degree"));
}

/* Both absent, or the same degree and graph: counts that may be summed. */
int kp_overlap_same(const void *a, const void *b)
{
	if (!a || !b)
		return !a && !b;
	static const char *const keys[] = {"overlap_degree", "overlap_graph", "overlap_dag_kinds", "overlap_loops"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		if (!json_equal(json_object_get(a, keys[i]), json_object_get(b, keys[i])))
			return 0;
	return kp_overlap_calls_same(json_object_get(a, "overlap_calls"), json_object_get(b, "overlap_calls"));
}

static int cmp_key(const json_t *x, const json_t *y)
{
	for (size_t i = 0; i < 3; i++) {
		uint64_t u = (uint64_t)json_integer_value(json_array_get(x, i)),
		         v = (uint64_t)json_integer_value(json_array_get(y, i));
		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return cmp_key(*(json_t *const *)a, *(json_t *const *)b);
}

/* Adds the counts of s into d (kp_overlap_same(d, s)); saturating sums,
 * the result sorted.  0 or KP_ENOMEM. */
int kp_overlap_merge(void *d, const void *s)
{
	json_t *dc = json_object_get(d, "overlap_counts"), *sc = json_object_get(s, "overlap_counts");
	size_t n = json_array_size(dc) + json_array_size(sc), m = 0, i;
	json_t **v = malloc((n ? n : 1) * sizeof *v), *x, *out = json_array();
	if (!v || !out) {
		free(v);
		json_decref(out);
		return KP_ENOMEM;
	}
	json_array_foreach(dc, i, x)
		v[m++] = x;
	json_array_foreach(sc, i, x)
		v[m++] = x;
	qsort(v, n, sizeof *v, cmp_entry);
	int rc = 0;
	for (i = 0; i < n && rc == 0;) {
		uint64_t c = 0;
		size_t j = i;
		for (; j < n && !cmp_key(v[i], v[j]); j++)
			c = kp_add_sat(c, (uint64_t)json_integer_value(json_array_get(v[j], 3)));
		if (c > (uint64_t)INT64_MAX) /* JSON integers are 63 bits here */
			c = (uint64_t)INT64_MAX;
		json_t *e = json_pack("[O, O, O, I]", json_array_get(v[i], 0), json_array_get(v[i], 1),
		                      json_array_get(v[i], 2), (json_int_t)c);
		if (!e || json_array_append_new(out, e))
			rc = KP_ENOMEM;
		i = j;
	}
	free(v);
	if (rc == 0 && json_object_set_new(d, "overlap_counts", out) == 0)
		return kp_overlap_calls_merge(json_object_get(d, "overlap_calls"), json_object_get(s, "overlap_calls"));
	json_decref(out);
	return KP_ENOMEM;
}

/* ---- overlap_calls (the call sites, runtime/overlap_call.c) ---- */

/* Both absent, or the same sites (block, line, callee, radix, ids,
 * across, callee_file). */
static int kp_overlap_calls_same(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return !a && !b;
	if (json_array_size(a) != json_array_size(b))
		return 0;
	static const char *const keys[] = {"block", "line", "callee", "radix", "ids", "across", "callee_file"};
	for (size_t i = 0; i < json_array_size(a); i++)
		for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
			const json_t *x = json_object_get(json_array_get(a, i), keys[k]),
			             *y = json_object_get(json_array_get(b, i), keys[k]);
			if ((x || y) && !json_equal(x, y)) /* across, callee_file: absent on a same-file site */
				return 0;
		}
	return 1;
}

static int cmp_key2(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	for (size_t i = 0; i < 2; i++) {
		uint64_t u = (uint64_t)json_integer_value(json_array_get(x, i)),
		         v = (uint64_t)json_integer_value(json_array_get(y, i));
		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}

/* d's [first, ro, count] array plus s's, sorted, equal keys summed
 * (saturating at 2^63 - 1).  NULL on memory exhaustion. */
static json_t *sum3(const json_t *d, const json_t *s)
{
	size_t n = json_array_size(d) + json_array_size(s), m = 0, i;
	json_t **v = malloc((n ? n : 1) * sizeof *v), *x, *out = json_array();
	if (!v || !out) {
		free(v);
		json_decref(out);
		return NULL;
	}
	json_array_foreach(d, i, x)
		v[m++] = x;
	json_array_foreach(s, i, x)
		v[m++] = x;
	qsort(v, n, sizeof *v, cmp_key2);
	for (i = 0; i < n && out;) {
		uint64_t c = 0;
		size_t j = i;
		for (; j < n && !cmp_key2(&v[i], &v[j]); j++)
			c = kp_add_sat(c, (uint64_t)json_integer_value(json_array_get(v[j], 2)));
		if (c > (uint64_t)INT64_MAX)
			c = (uint64_t)INT64_MAX;
		json_t *e = json_pack("[O, O, I]", json_array_get(v[i], 0), json_array_get(v[i], 1), (json_int_t)c);
		if (!e || json_array_append_new(out, e)) {
			json_decref(out);
			out = NULL;
		}
		i = j;
	}
	free(v);
	return out;
}

/* Adds s's call counts into d (kp_overlap_calls_same(d, s)): C, and the
 * I-OL and II-OL counts.  0 or KP_ENOMEM. */
static int kp_overlap_calls_merge(json_t *d, const json_t *s)
{
	for (size_t i = 0; d && s && i < json_array_size(d); i++) {
		json_t *x = json_array_get(d, i);
		const json_t *y = json_array_get(s, i);
		uint64_t c = kp_add_sat((uint64_t)json_integer_value(json_object_get(x, "calls")),
		                        (uint64_t)json_integer_value(json_object_get(y, "calls")));
		if (c > (uint64_t)INT64_MAX)
			c = (uint64_t)INT64_MAX;
		json_t *in = sum3(json_object_get(x, "in"), json_object_get(y, "in"));
		json_t *out = sum3(json_object_get(x, "out"), json_object_get(y, "out"));
		if (!in || !out) {
			json_decref(in);
			json_decref(out);
			return KP_ENOMEM;
		}
		if (json_object_set_new(x, "calls", json_integer((json_int_t)c)) | json_object_set_new(x, "in", in) |
		    json_object_set_new(x, "out", out))
			return KP_ENOMEM;
	}
	return 0;
}
