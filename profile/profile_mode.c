/*
 * profile_mode.c: a function's mode and its payload, and the whole-program
 * sections, in the two schemas (docs/profile-schema.md, "From /1 to /2").
 *
 * In memory a function's mode data stays in its /1 form: a flat jansson
 * object {"mode": M, "M_field": ...} (struct kp_func: kiter, ppp, overlap),
 * which the mode's own reader checks (kp_ppp_read, kp_overlap_read,
 * kp_kiter_read) and the runtime builds.  On disk, /2 nests it:
 *
 *   /1  "mode": "ppp", "ppp_interesting": 3, "ppp_paths": [...]
 *   /2  "mode": "ppp", "ppp": { "interesting": 3, "paths": [...] }
 *
 * and says "mode": "kipf" for the default mode, which has no payload (its
 * data is the common fields; the key "kipf" is the forest).  The two forms
 * map one to one (prefix "M_" <-> member of "M"), so a /1 file and its /2
 * rewrite read into the same kp_profile; the /2 reader converts the
 * payload to the flat form and names a field "M.field" in its messages
 * where the /1 reader says "M_field".
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile_int.h"

/* The modes with a payload, in the order a function is searched for one. */
static const char *const payload_modes[] = { "kiter", "ppp", "overlap" };
#define NPAYLOAD (sizeof payload_modes / sizeof *payload_modes)

const char *kp_func_mode(const struct kp_func *f)
{
	assert(!!f->kiter + !!f->ppp + !!f->overlap <= 1); /* callers refuse mixing modes */
	return f->kiter ? "kiter" : f->ppp ? "ppp" : f->overlap ? "overlap" : "kipf";
}

json_t *kp_payload_nest(const json_t *flat, const char *mode)
{
	size_t n = strlen(mode);
	const char *key;
	json_t *v, *o = json_object();
	if (!o)
		return NULL;
	json_object_foreach((json_t *)flat, key, v) {
		if (!strcmp(key, "mode"))
			continue;
		assert(!strncmp(key, mode, n) && key[n] == '_'); /* the /1 form: every field prefixed */
		if (json_object_set(o, key + n + 1, v)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* The flat form of payload p of mode m: {"mode": m, "m_KEY": p[KEY]...}. */
static json_t *flatten(const json_t *p, const char *mode)
{
	json_t *o = json_pack("{s:s}", "mode", mode), *v;
	const char *key;
	if (!o)
		return NULL;
	json_object_foreach((json_t *)p, key, v) {
		size_t len = strlen(mode) + 1 + strlen(key) + 1;
		char *name = malloc(len);
		if (!name) {
			json_decref(o);
			return NULL;
		}
		snprintf(name, len, "%s_%s", mode, key);
		int rc = json_object_set(o, name, v);
		free(name);
		if (rc) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

const char *kp_payload_read(const json_t *o, const char **mode, json_t **flat, char *field, size_t fieldlen)
{
	json_t *m = json_object_get(o, "mode");
	*flat = NULL;
	*mode = NULL;
	snprintf(field, fieldlen, "mode");
	if (!m)
		return "missing (every function of a kpath-profile/2 names its mode)";
	const char *s = json_is_string(m) ? json_string_value(m) : "";
	int known = !strcmp(s, "kipf");
	for (size_t i = 0; i < NPAYLOAD; i++)
		known |= !strcmp(s, payload_modes[i]);
	if (!known)
		return "expected \"kipf\", \"kiter\", \"ppp\" or \"overlap\"";
	*mode = s;
	for (size_t i = 0; i < NPAYLOAD; i++) {
		json_t *p = json_object_get(o, payload_modes[i]);
		snprintf(field, fieldlen, "%s", payload_modes[i]);
		if (strcmp(s, payload_modes[i]) != 0) {
			if (p) {
				static _Thread_local char why[96];
				snprintf(why, sizeof why, "the payload of mode %s in a function of mode %s", payload_modes[i], s);
				return why;
			}
			continue;
		}
		if (!p)
			return "missing (the payload of the function's mode)";
		if (!json_is_object(p))
			return "expected an object (the payload of the function's mode)";
		*flat = flatten(p, s);
		if (!*flat)
			return "out of memory";
	}
	return NULL;
}

void kp_payload_field(char *field, size_t fieldlen)
{
	for (size_t i = 0; i < NPAYLOAD; i++) {
		size_t n = strlen(payload_modes[i]);
		if (!strncmp(field, payload_modes[i], n) && field[n] == '_' && n + 1 < fieldlen) {
			field[n] = '.';
			return;
		}
	}
}

/* Kiter's fields (docs/profile-schema.md, "kiter"), flat: checked, and
 * kept as {mode, kiter_k, kiter_loops}. */
const char *kp_kiter_read(const json_t *o, void **out, char *field, size_t fieldlen)
{
	json_t *kk = json_object_get(o, "kiter_k"), *loops = json_object_get(o, "kiter_loops"), *l;
	size_t i;
	*out = NULL;
	snprintf(field, fieldlen, "kiter_k");
	if (!json_is_integer(kk) || json_integer_value(kk) < 1)
		return "expected an integer >= 1";
	snprintf(field, fieldlen, "kiter_loops");
	if (!json_is_array(loops))
		return "expected an array of {line, k}";
	json_array_foreach(loops, i, l)
		if (!json_is_integer(json_object_get(l, "line")) || !json_is_integer(json_object_get(l, "k")) ||
		    json_integer_value(json_object_get(l, "k")) < 1)
			return "expected an array of {line, k} with k >= 1";
	*out = json_pack("{s:s, s:O, s:O}", "mode", "kiter", "kiter_k", kk, "kiter_loops", loops);
	return *out ? NULL : "out of memory";
}

/* ---- whole-program sections ------------------------------------------ */

static int get_total(const json_t *t, const char *key, uint64_t *out)
{
	json_t *v = json_object_get(t, key);
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return -1;
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* "totals": runs <= the profile's runs, threads; nothing else. */
static const char *read_totals(const json_t *t, struct kp_profile *p, char *field, size_t fieldlen)
{
	const char *key;
	json_t *v;
	snprintf(field, fieldlen, "program.totals");
	if (!json_is_object(t))
		return "expected an object {runs, threads}";
	json_object_foreach((json_t *)t, key, v) {
		if (strcmp(key, "runs") && strcmp(key, "threads")) {
			snprintf(field, fieldlen, "program.totals.%s", key);
			return "unknown total (a kpath-profile/2 has runs and threads)";
		}
	}
	snprintf(field, fieldlen, "program.totals.runs");
	if (get_total(t, "runs", &p->totals.runs))
		return "expected a non-negative integer";
	if (p->totals.runs > p->runs)
		return "more than the profile's runs";
	snprintf(field, fieldlen, "program.totals.threads");
	if (get_total(t, "threads", &p->totals.threads))
		return "expected a non-negative integer";
	return NULL;
}

/* The sections are typed by name, and a name this reader does not know is
 * refused (docs/profile-schema.md, "program"): dropping it would make a
 * merge or an accumulation lose data silently. */
const char *kp_program_read(const json_t *prog, struct kp_profile *p, char *field, size_t fieldlen)
{
	const char *key;
	json_t *v;
	snprintf(field, fieldlen, "program");
	if (!json_is_object(prog))
		return "expected an object of sections";
	json_object_foreach((json_t *)prog, key, v) {
		if (!strcmp(key, "totals")) {
			const char *why = read_totals(v, p, field, fieldlen);
			if (why)
				return why;
			continue;
		}
		snprintf(field, fieldlen, "program.%s", key);
		return "unknown section (a kpath-profile/2 has totals)";
	}
	return NULL;
}
