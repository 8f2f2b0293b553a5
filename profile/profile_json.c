/*
 * profile_json.c: kpath-profile/2 on disk (schema in profile.h), with
 * jansson; kpath-profile/1 is read too (profile_mode.c holds what
 * differs).  Writers emit canonical order (kp_profile_sort), so equal
 * profiles are byte-identical.  The reader accepts unknown fields (later
 * versions may add some) and names the offending field on error.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "profile_int.h"

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- reading ---------------------------------------------------------- */

struct rd {
	const char *path;
	char *err;
	size_t errlen;
	char where[256]; /* JSON path of the current field */
	int force;       /* kp_profile_read_opts: read past broken invariants */
	int forced;      /* ... and one was: err holds the first */
	int forked;      /* the profile says "forked": true (struct kp_profile) */
	unsigned version; /* the schema: 1 (kpath-profile/1) or 2 */
	int sliced;       /* read_sliced: read_profile stops before "functions" */
	/* read_sliced: the bytes of the "kipf" elements, and of the "paths"
	 * and "cfg" values (NULL when absent), read by profile_slice.c */
	const char *kipf_s, *kipf_e, *paths_s, *paths_e, *cfg_s, *cfg_e;
};

static int bad(struct rd *r, const char *field, const char *what)
{
	const char *sep = *r->where && field ? "." : "";
	if (!*r->where && !field)
		seterr(r->err, r->errlen, "%s: not a kpath profile: %s", r->path, what);
	else
		seterr(r->err, r->errlen, "%s: not a kpath profile: %s%s%s: %s", r->path, r->where, sep,
		       field ? field : "", what);
	return KP_ESCHEMA;
}

/* A broken invariant (profile_check.c) at FIELD: an error, or with force
 * the first one is kept in err and reading goes on. */
static int violated(struct rd *r, const char *field, const char *rule)
{
	if (!r->force)
		return bad(r, field, rule);
	if (!r->forced)
		bad(r, field, rule);
	r->forced = 1;
	return 0;
}

static int get_u64(struct rd *r, json_t *o, const char *key, int required, uint64_t *out)
{
	json_t *v = json_object_get(o, key);
	if (!v) {
		*out = 0;
		return required ? bad(r, key, "missing") : 0;
	}
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return 0;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		errno = 0;
		unsigned long long x = strtoull(s, &end, 10);
		if (*s >= '0' && *s <= '9' && !*end && !errno) {
			*out = x;
			return 0;
		}
	}
	return bad(r, key, "expected a non-negative integer");
}

static int get_str(struct rd *r, json_t *o, const char *key, const char **out)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_string(v))
		return bad(r, key, v ? "expected a string" : "missing");
	*out = json_string_value(v);
	return 0;
}

static int read_forest(struct rd *r, json_t *a, struct kp_ipf *t, uint32_t parent, unsigned depth, unsigned k,
		       uint64_t num_paths)
{
	if (!json_is_array(a))
		return bad(r, NULL, "expected an array");
	if (json_array_size(a) && depth > k)
		return bad(r, NULL, "forest deeper than k");
	size_t len = strlen(r->where);
	size_t i;
	json_t *o;
	json_array_foreach(a, i, o)
	{
		snprintf(r->where + len, sizeof r->where - len, "[%zu]", i);
		uint64_t id, count;
		uint32_t v;
		int rc;
		if (!json_is_object(o))
			return bad(r, NULL, "expected an object");
		if ((rc = get_u64(r, o, "id", 1, &id)) || (rc = get_u64(r, o, "count", 1, &count)))
			return rc;
		if (kp_ipf_find(t, parent, id) != KP_NONE)
			return bad(r, "id", "duplicate id among siblings");
		const char *rule = kp_rule_node(id, count, t->nodes[parent].count, parent == 0, num_paths, r->forked);
		if (rule && (rc = violated(r, count == 0 || id < num_paths ? "count" : "id", rule)))
			return rc;
		if (kp_ipf_child(t, parent, id, &v) != 0) {
			seterr(r->err, r->errlen, "%s: out of memory", r->path);
			return KP_ENOMEM;
		}
		t->nodes[v].count = count;
		json_t *kids = json_object_get(o, "children");
		if (kids) {
			size_t l2 = strlen(r->where);
			snprintf(r->where + l2, sizeof r->where - l2, ".children");
			if ((rc = read_forest(r, kids, t, v, depth + 1, k, num_paths)))
				return rc;
		}
		r->where[len] = 0;
	}
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	const struct kp_path *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The optional "spans" of path object o (absent in older profiles: q keeps
 * last_lines NULL): one [first, last] pair per entry of q->lines, with
 * first == lines[i] and last >= first. */
static int read_spans(struct rd *r, json_t *o, struct kp_path *q)
{
	json_t *spans = json_object_get(o, "spans"), *x;
	size_t j;
	if (!spans)
		return 0;
	if (!json_is_array(spans) || json_array_size(spans) != q->nlines)
		return bad(r, "spans", "expected an array of [first, last] pairs, one per entry of lines");
	q->last_lines = malloc((q->nlines ? q->nlines : 1) * sizeof *q->last_lines);
	if (!q->last_lines)
		return KP_ENOMEM;
	json_array_foreach(spans, j, x)
	{
		json_t *a = json_array_get(x, 0), *b = json_array_get(x, 1);
		if (!json_is_array(x) || json_array_size(x) != 2 || !json_is_integer(a) || !json_is_integer(b) ||
		    json_integer_value(a) != (json_int_t)q->lines[j] || json_integer_value(b) < json_integer_value(a) ||
		    json_integer_value(b) > UINT32_MAX) {
			free(q->last_lines);
			q->last_lines = NULL;
			return bad(r, "spans", "expected [first, last] pairs with first == lines[i] <= last");
		}
		q->last_lines[j] = (uint32_t)json_integer_value(b);
	}
	return 0;
}

static int read_paths(struct rd *r, json_t *a, struct kp_func *f)
{
	if (!a)
		return 0;
	if (!json_is_array(a))
		return bad(r, "paths", "expected an array");
	size_t len = strlen(r->where), i;
	json_t *o;
	json_array_foreach(a, i, o)
	{
		snprintf(r->where + len, sizeof r->where - len, ".paths[%zu]", i);
		struct kp_path q = { .json_index = (uint32_t)i };
		int rc;
		if (!json_is_object(o))
			return bad(r, NULL, "expected an object");
		if ((rc = get_u64(r, o, "id", 1, &q.id)))
			return rc;
		json_t *lines = json_object_get(o, "lines");
		if (!json_is_array(lines))
			return bad(r, "lines", "expected an array of integers");
		size_t n = json_array_size(lines), j;
		json_t *x;
		q.lines = malloc((n ? n : 1) * sizeof *q.lines);
		if (!q.lines)
			return KP_ENOMEM;
		json_array_foreach(lines, j, x)
		{
			if (!json_is_integer(x) || json_integer_value(x) < 0 || json_integer_value(x) > UINT32_MAX) {
				free(q.lines);
				return bad(r, "lines", "expected an array of line numbers");
			}
			q.lines[j] = (uint32_t)json_integer_value(x);
		}
		q.nlines = (uint32_t)n;
		const char *rule = NULL;
		if ((rc = read_spans(r, o, &q)) || ((rule = kp_rule_path(&q, f->num_paths)) &&
						    (rc = violated(r, q.id >= f->num_paths ? "id" : "lines", rule)))) {
			free(q.lines);
			free(q.last_lines);
			return rc;
		}
		struct kp_path *pa = realloc(f->paths, (f->npaths + 1) * sizeof *pa);
		if (!pa) {
			free(q.lines);
			free(q.last_lines);
			return KP_ENOMEM;
		}
		f->paths = pa;
		f->paths[f->npaths++] = q;
		r->where[len] = 0;
	}
	if (f->npaths > 1)
		qsort(f->paths, f->npaths, sizeof *f->paths, cmp_path);
	for (uint32_t j = 1; j < f->npaths; j++)
		if (f->paths[j].id == f->paths[j - 1].id)
			return bad(r, "paths", "duplicate path id");
	return 0;
}

/* The optional "cfg" (profile_cfg.c): its types, then its rules, which
 * are never forced (coverage indexes blocks and edges by them). */
static int read_cfg(struct rd *r, json_t *o, struct kp_func *f)
{
	char where[128] = "", field[64];
	uint32_t at;
	int rc = kp_cfg_from_json(o, &f->cfg, where, sizeof where);
	if (rc == KP_ENOMEM) {
		seterr(r->err, r->errlen, "%s: out of memory", r->path);
		return rc;
	}
	if (rc) {
		/* where is ".blocks[2]: expected ..." */
		const char *colon = strstr(where, ": ");
		snprintf(field, sizeof field, "cfg%.*s", colon ? (int)(colon - where) : 0, where);
		return bad(r, field, colon ? colon + 2 : where);
	}
	const char *rule = kp_rule_cfg(&f->cfg, f->num_paths, &field[0], &at);
	if (rule) {
		const char *part = field[0] == 'b' ? "blocks" : "edges";
		if (field[0] == 'b' && f->cfg.nblocks < 2)
			snprintf(field, sizeof field, "cfg.blocks");
		else
			snprintf(field, sizeof field, "cfg.%s[%u]", part, (unsigned)at);
		return bad(r, field, rule);
	}
	return 0;
}

static int read_counts(struct rd *r, json_t *o, json_t *src, struct kp_profile *p, struct kp_func *f);
static int slice_forest(struct rd *r, const char *s, const char *e, struct kp_ipf *t, uint32_t parent,
			unsigned depth, unsigned k, uint64_t num_paths);

/* A rule broken in a mode's field, named as the file names it (the mode
 * readers say "out of memory" when jansson fails). */
static int bad_mode(struct rd *r, char *field, const char *why)
{
	if (!strcmp(why, "out of memory"))
		return KP_ENOMEM;
	if (r->version == 2)
		kp_payload_field(field, 64);
	return bad(r, field, why);
}

/* The mode of function object o and its fields, into f; *src (a new
 * reference, NULL in the default mode) the fields in their flat /1 form.
 * /1: "mode" absent is the default mode; /2: "mode" names it, and the
 * payload is the object under that name (profile_mode.c). */
static int read_mode(struct rd *r, json_t *o, struct kp_func *f, json_t **src)
{
	char field[64];
	const char *mode, *why;
	json_t *m = json_object_get(o, "mode");
	if (r->version == 1) {
		if (!m)
			return 0;
		mode = json_is_string(m) ? json_string_value(m) : "";
		if (strcmp(mode, "ppp") && strcmp(mode, "overlap") && strcmp(mode, "kiter"))
			return bad(r, "mode", "expected \"kiter\", \"ppp\" or \"overlap\" (absent: the default mode, kipf)");
		*src = json_incref(o);
	} else if ((why = kp_payload_read(o, &mode, src, field, sizeof field))) {
		return strcmp(why, "out of memory") ? bad(r, field, why) : KP_ENOMEM;
	}
	if (!*src)
		return 0; /* kipf */
	if (!strcmp(mode, "ppp")) /* docs/profile-schema.md, "ppp" */
		why = kp_ppp_read(*src, f->num_paths, &f->ppp, field, sizeof field);
	else if (!strcmp(mode, "overlap")) /* "overlap" */
		why = kp_overlap_read(*src, f->num_paths, &f->overlap, field, sizeof field);
	else /* "kiter" */
		why = kp_kiter_read(*src, &f->kiter, field, sizeof field);
	return why ? bad_mode(r, field, why) : 0;
}

static int read_func(struct rd *r, json_t *o, struct kp_profile *p)
{
	const char *name, *file, *checksum;
	uint64_t line, num_paths, invalid, emitted;
	int rc;
	if (!json_is_object(o))
		return bad(r, NULL, "expected an object");
	if ((rc = get_str(r, o, "name", &name)) || (rc = get_str(r, o, "file", &file)) ||
	    (rc = get_str(r, o, "checksum", &checksum)) || (rc = get_u64(r, o, "line", 1, &line)) ||
	    (rc = get_u64(r, o, "num_paths", 1, &num_paths)) ||
	    (rc = get_u64(r, o, "invalid_paths", 1, &invalid)) || (rc = get_u64(r, o, "emitted", 0, &emitted)))
		return rc;
	if (line > UINT32_MAX)
		return bad(r, "line", "out of range");
	if (!*name)
		return bad(r, "name", "expected a function name, not \"\"");
	if (kp_rule_hex16(checksum))
		return bad(r, "checksum", "expected 16 lowercase hex digits");
	json_t *sh = json_object_get(o, "source_hash");
	if (sh && (!json_is_string(sh) || kp_rule_hex16(json_string_value(sh))))
		return bad(r, "source_hash", "expected 16 lowercase hex digits");
	struct kp_func *f = kp_profile_add_func(p, name, file, (unsigned)line, checksum, num_paths);
	if (!f)
		return KP_ENOMEM;
	f->invalid_paths = invalid;
	f->emitted = emitted;
	if (sh)
		memcpy(f->source_hash, json_string_value(sh), sizeof f->source_hash);
	json_t *src = NULL; /* the mode's fields, flat (profile_mode.c) */
	if ((rc = read_mode(r, o, f, &src)) == 0)
		rc = read_counts(r, o, src, p, f);
	json_decref(src);
	return rc;
}

/* The rest of function object o (the mode's fields were read into f, src
 * holds them flat): paths, kipf, the ppp counts, cfg. */
static int read_counts(struct rd *r, json_t *o, json_t *src, struct kp_profile *p, struct kp_func *f)
{
	int rc;
	if (r->sliced)
		rc = r->paths_s ? kp_slice_paths(r->paths_s, r->paths_e, f) : 0;
	else
		rc = read_paths(r, json_object_get(o, "paths"), f);
	if (rc)
		return rc;
	json_t *kipf = json_object_get(o, "kipf");
	if (!kipf && !r->sliced)
		return bad(r, "kipf", "missing");
	size_t len = strlen(r->where);
	snprintf(r->where + len, sizeof r->where - len, ".kipf");
	if (r->sliced) /* read_sliced: the forest's bytes, not a tree */
		rc = slice_forest(r, r->kipf_s, r->kipf_e, &f->ipf, 0, 1, p->k, f->num_paths);
	else
		rc = read_forest(r, kipf, &f->ipf, 0, 1, p->k, f->num_paths);
	r->where[len] = 0;
	if (rc == 0 && f->ppp) {
		char field[64];
		const char *why = kp_ppp_check_counts(src, f, field, sizeof field);
		if (why)
			return bad_mode(r, field, why);
	}
	if (rc == 0 && r->sliced && r->cfg_s)
		rc = kp_cfg_from_slice(r->cfg_s, r->cfg_e, f);
	else if (rc == 0 && !r->sliced && json_object_get(o, "cfg"))
		rc = read_cfg(r, json_object_get(o, "cfg"), f);
	return rc;
}

/* Functions by name, file, checksum, then position (pointers into one
 * array: their order is the profile's). */
static int cmp_func_ptr(const void *a, const void *b)
{
	const struct kp_func *x = *(const struct kp_func *const *)a, *y = *(const struct kp_func *const *)b;
	int c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->file, y->file);
	if (!c)
		c = strcmp(x->checksum, y->checksum);
	if (!c)
		c = x < y ? -1 : x > y;
	return c;
}

/* name + file + checksum is unique: checked on a sorted copy, so that a
 * profile of n functions costs O(n log n), not n^2 lookups.  Names the
 * later function of the first duplicate pair. */
static int check_unique(struct rd *r, const struct kp_profile *p)
{
	const struct kp_func **v = malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *v);
	size_t i, dup = SIZE_MAX;
	if (!v)
		return KP_ENOMEM;
	for (i = 0; i < p->nfuncs; i++)
		v[i] = &p->funcs[i];
	qsort(v, p->nfuncs, sizeof *v, cmp_func_ptr);
	for (i = 1; i < p->nfuncs; i++)
		if (!strcmp(v[i - 1]->name, v[i]->name) && !strcmp(v[i - 1]->file, v[i]->file) &&
		    !strcmp(v[i - 1]->checksum, v[i]->checksum) && (size_t)(v[i] - p->funcs) < dup)
			dup = (size_t)(v[i] - p->funcs);
	free(v);
	if (dup == SIZE_MAX)
		return 0;
	snprintf(r->where, sizeof r->where, "functions[%zu]", dup);
	return bad(r, "name", "function listed twice");
}

static int read_profile(struct rd *r, json_t *root, struct kp_profile *p)
{
	const char *schema;
	uint64_t k, runs, dropped;
	int rc;
	if (!json_is_object(root))
		return bad(r, NULL, "expected a JSON object");
	if ((rc = get_str(r, root, "schema", &schema)))
		return rc;
	if (strcmp(schema, KP_SCHEMA) && strcmp(schema, KP_SCHEMA_V1)) {
		seterr(r->err, r->errlen, "%s: schema is \"%s\", expected \"%s\" or \"%s\"", r->path, schema, KP_SCHEMA,
		       KP_SCHEMA_V1);
		return KP_ESCHEMA;
	}
	p->version = r->version = strcmp(schema, KP_SCHEMA) ? 1 : 2;
	if ((rc = get_u64(r, root, "k", 1, &k)) || (rc = get_u64(r, root, "runs", 1, &runs)) ||
	    (rc = get_u64(r, root, "dropped", 0, &dropped)))
		return rc;
	if (k < 1 || k > KP_KMAX)
		return bad(r, "k", "expected an integer in 1..64");
	p->k = (unsigned)k;
	p->runs = runs;
	p->dropped = dropped;
	json_t *forked = json_object_get(root, "forked");
	if (forked && !json_is_boolean(forked))
		return bad(r, "forked", "expected true or false");
	p->forked = r->forked = forked && json_is_true(forked);
	json_t *prog = json_object_get(root, "program"); /* /1 has none: ignored there, as any unknown field */
	if (prog && r->version == 2) {
		char field[64];
		const char *why = kp_program_read(prog, p, field, sizeof field);
		if (why)
			return bad(r, field, why);
	}
	if (r->sliced)
		return 0; /* the functions come one by one (read_sliced) */
	json_t *fs = json_object_get(root, "functions");
	if (!json_is_array(fs))
		return bad(r, "functions", fs ? "expected an array" : "missing");
	size_t i;
	json_t *o;
	json_array_foreach(fs, i, o)
	{
		snprintf(r->where, sizeof r->where, "functions[%zu]", i);
		if ((rc = read_func(r, o, p)))
			return rc;
	}
	return check_unique(r, p);
}

/* ---- reading a function at a time -------------------------------------
 * A whole-file jansson tree costs about ten times the file (issue 14: the
 * runtime reads the old profile at every exit to accumulate into it).  So
 * the file is first read as a buffer and split: the top-level object's
 * members are found by their delimiters (strings, brackets), each parsed
 * on its own, and the elements of "functions" are parsed and read into the
 * profile one at a time, each tree freed before the next: the memory is
 * the file's bytes, the profile, and one function's tree.  Anything but a
 * clean read (bad JSON, a broken rule, a duplicate key, even a forced
 * read's first violation) is read again the whole-file way, which alone
 * says what is wrong: the messages, and which error comes first, stay
 * those of one json_loadf. */

static json_t *load_slice(const char *s, const char *e)
{
	return json_loadb(s, (size_t)(e - s), JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
}

/* A member of an object that split_object leaves as bytes: [s, e) its
 * whole value (an array or object by open), NULL when absent. */
struct member {
	const char *name;
	char open;
	const char *s, *e;
};

/* The object key at s (just past its closing quote in *ke), as a jansson
 * string; NULL if it is not a valid string.  Plain ASCII keys, the ones
 * writers write, are taken as they are. */
static json_t *load_key(const char *s, const char *e, const char **ke)
{
	*ke = s < e && *s == '"' ? kp_value_end(s, e) : NULL;
	if (!*ke)
		return NULL;
	const char *p = s + 1;
	while (p < *ke - 1 && *p >= 0x20 && *p < 0x7f && *p != '\\')
		p++;
	return p == *ke - 1 ? json_stringn(s + 1, (size_t)(p - s - 1)) : load_slice(s, *ke);
}

/* The JSON value [s, e): a string without escapes or control characters
 * (json_stringn checks UTF-8, as the parser does), a plain integer, and
 * the literals directly; the rest by the parser.  NULL when invalid. */
static json_t *load_value(const char *s, const char *e)
{
	if (s >= e)
		return NULL;
	if (*s == '"') {
		const char *p = s + 1;
		while (p < e - 1 && (unsigned char)*p >= 0x20 && *p != '\\')
			p++;
		if (p == e - 1)
			return json_stringn(s + 1, (size_t)(p - s - 1));
	} else if (*s >= '0' && *s <= '9') {
		const char *p = s;
		uint64_t v;
		if (!kp_slice_uint(&p, e, (uint64_t)INT64_MAX, &v) && p == e)
			return json_integer((json_int_t)v);
	} else if (e - s == 4 && !memcmp(s, "true", 4)) {
		return json_true();
	} else if (e - s == 5 && !memcmp(s, "false", 5)) {
		return json_false();
	} else if (e - s == 4 && !memcmp(s, "null", 4)) {
		return json_null();
	}
	return load_slice(s, e);
}

/* The members of the object at s into *obj, but those named in keep[nkeep]
 * (left as bytes, struct member).  Just past the object, or NULL: not the
 * expected shape (the whole-file read says why). */
static const char *split_object(const char *s, const char *e, struct member *keep, size_t nkeep, json_t **obj)
{
	*obj = json_object();
	for (size_t i = 0; i < nkeep; i++)
		keep[i].s = keep[i].e = NULL;
	s = kp_skip_ws(s, e);
	if (!*obj || s == e || *s++ != '{')
		return NULL;
	for (int first = 1;; first = 0) {
		s = kp_skip_ws(s, e);
		if (s < e && *s == '}' && first)
			break;
		const char *ke, *v, *ve;
		json_t *key = load_key(s, e, &ke);
		v = key ? kp_skip_ws(ke, e) : NULL;
		size_t m = 0;
		while (key && m < nkeep && strcmp(json_string_value(key), keep[m].name))
			m++;
		if (!key || v == e || *v != ':' || json_object_get(*obj, json_string_value(key)) ||
		    (m < nkeep && keep[m].s)) {
			json_decref(key);
			return NULL;
		}
		v = kp_skip_ws(v + 1, e);
		ve = v < e ? kp_value_end(v, e) : NULL;
		int rc = !ve;
		if (!rc && m < nkeep) {
			rc = *v != keep[m].open;
			keep[m].s = v;
			keep[m].e = ve;
		} else if (!rc) {
			json_t *x = load_value(v, ve);
			rc = !x || json_object_set_new(*obj, json_string_value(key), x);
		}
		json_decref(key);
		if (rc)
			return NULL;
		s = kp_skip_ws(ve, e);
		if (s < e && *s == ',') {
			s++;
			continue;
		}
		if (s < e && *s == '}')
			break;
		return NULL;
	}
	return s + 1;
}

static int split_top(const char *s, const char *e, json_t **root, const char **fs, const char **fe)
{
	struct member fn = { "functions", '[', NULL, NULL };
	s = split_object(s, e, &fn, 1, root);
	if (!s || kp_skip_ws(s, e) != e || !fn.s)
		return -1;
	*fs = fn.s + 1; /* the elements, between the brackets */
	*fe = fn.e - 1;
	return 0;
}

/* A node (id, count) of slice_forest under parent, into *v: 0, KP_ENOMEM,
 * or 1 when it repeats a sibling or breaks a rule (kp_rule_node). */
static int slice_node(struct rd *r, struct kp_ipf *t, uint32_t parent, uint64_t id, uint64_t count,
		      uint64_t num_paths, uint32_t *v)
{
	if (kp_ipf_find(t, parent, id) != KP_NONE ||
	    kp_rule_node(id, count, t->nodes[parent].count, parent == 0, num_paths, r->forked))
		return 1;
	if (kp_ipf_child(t, parent, id, v) != 0)
		return KP_ENOMEM;
	t->nodes[*v].count = count;
	return 0;
}

/* read_forest for the elements [s, e) of a "kipf" or "children" array,
 * without a jansson tree (a function's forest is most of a profile, and
 * can be one function's whole): nodes {"id", "count", "children"} with
 * those keys before "children", other keys skipped.  0, KP_ENOMEM, or 1:
 * not clean (a rule, an unusual form: the whole-file read says why). */
static int slice_forest(struct rd *r, const char *s, const char *e, struct kp_ipf *t, uint32_t parent,
			unsigned depth, unsigned k, uint64_t num_paths)
{
	s = kp_skip_ws(s, e);
	if (s < e && depth > k)
		return 1;
	while (s < e) {
		uint64_t id = 0, count = 0;
		int have = 0;
		uint32_t v = KP_NONE;
		if (*s++ != '{')
			return 1;
		for (s = kp_skip_ws(s, e); s < e && *s != '}';) {
			const char *ke = *s == '"' ? kp_value_end(s, e) : NULL, *ve;
			char key[12] = "";
			if (!ke || memchr(s, '\\', (size_t)(ke - s)))
				return 1; /* an escaped key could spell "id" */
			if (ke - s - 2 < (ptrdiff_t)sizeof key) {
				memcpy(key, s + 1, (size_t)(ke - s - 2));
				key[ke - s - 2] = 0;
			}
			s = kp_skip_ws(ke, e);
			if (s == e || *s++ != ':')
				return 1;
			s = kp_skip_ws(s, e);
			if (!strcmp(key, "id") || !strcmp(key, "count")) {
				int bit = key[0] == 'i' ? 1 : 2;
				if (have & (bit | 4) || kp_slice_u64(&s, e, bit == 1 ? &id : &count))
					return 1;
				have |= bit;
			} else if (!strcmp(key, "children")) {
				if (have != 3 || s == e || *s != '[' || !(ve = kp_value_end(s, e)))
					return 1;
				int rc = slice_node(r, t, parent, id, count, num_paths, &v);
				if (rc)
					return rc;
				have |= 4;
				rc = slice_forest(r, s + 1, ve - 1, t, v, depth + 1, k, num_paths);
				if (rc)
					return rc;
				s = ve;
			} else { /* another key: skipped, once its value parses */
				json_t *x = (ve = kp_value_end(s, e)) ? load_value(s, ve) : NULL;
				if (!x)
					return 1;
				json_decref(x);
				s = ve;
			}
			s = kp_skip_ws(s, e);
			if (s < e && *s == ',')
				s = kp_skip_ws(s + 1, e);
			else if (s == e || *s != '}')
				return 1;
		}
		if (s == e || (have & 3) != 3)
			return 1;
		if (!(have & 4)) { /* a leaf without "children" */
			int rc = slice_node(r, t, parent, id, count, num_paths, &v);
			if (rc)
				return rc;
		}
		s = kp_skip_ws(s + 1, e);
		if (s < e && *s++ != ',')
			return 1;
		s = kp_skip_ws(s, e);
	}
	return 0;
}

/* The profile in buf[len], a function at a time: 0 when read cleanly,
 * KP_ENOMEM, or 1: read it the whole-file way. */
static int read_sliced(struct rd *r, const char *buf, size_t len, struct kp_profile *p)
{
	const char *e = buf + len, *fs, *fe;
	json_t *root;
	int rc = split_top(buf, e, &root, &fs, &fe) ? 1 : read_profile(r, root, p) ? 1 : 0;
	json_decref(root);
	fs = rc ? NULL : kp_skip_ws(fs, fe);
	for (size_t i = 0; fs && fs < fe && rc == 0; i++) {
		const char *oe = kp_value_end(fs, fe);
		json_t *o = NULL;
		struct member keep[] = { { "kipf", '[', NULL, NULL }, { "paths", '[', NULL, NULL },
		                         { "cfg", '{', NULL, NULL } };
		if (!oe || split_object(fs, oe, keep, 3, &o) != oe || !keep[0].s)
			rc = 1;
		r->kipf_s = keep[0].s ? keep[0].s + 1 : NULL; /* the elements */
		r->kipf_e = keep[0].s ? keep[0].e - 1 : NULL;
		r->paths_s = keep[1].s, r->paths_e = keep[1].e;
		r->cfg_s = keep[2].s, r->cfg_e = keep[2].e;
		snprintf(r->where, sizeof r->where, "functions[%zu]", i);
		rc = rc ? 1 : read_func(r, o, p);
		rc = rc == KP_ENOMEM ? rc : rc ? 1 : 0;
		json_decref(o);
		fs = oe ? kp_skip_ws(oe, fe) : NULL;
		if (rc == 0 && fs < fe && *fs++ != ',')
			rc = 1;
		else if (rc == 0 && fs < fe)
			fs = kp_skip_ws(fs, fe);
	}
	if (rc == 0 && (rc = check_unique(r, p)) != KP_ENOMEM)
		rc = rc || r->forced ? 1 : 0;
	return rc;
}

int kp_profile_read(const char *path, struct kp_profile *p, char *err, size_t errlen)
{
	return kp_profile_read_opts(path, p, 0, err, errlen);
}

unsigned long kp_read_fallbacks;

/* The whole file into *buf (malloc'd, *len bytes): 0, KP_ENOMEM or KP_EIO. */
static int slurp(FILE *f, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		char *nb = realloc(b, cap *= 2);
		if (!nb)
			free(b);
		b = nb;
	}
	*buf = b;
	*len = n;
	return !b ? KP_ENOMEM : ferror(f) ? KP_EIO : 0;
}

int kp_profile_read_opts(const char *path, struct kp_profile *p, int force, char *err, size_t errlen)
{
	kp_profile_init(p, KP_KDEFAULT);
	FILE *f = fopen(path, "rb");
	if (!f) {
		int e = errno;
		seterr(err, errlen, "%s: %s", path, strerror(e));
		return e == ENOENT ? KP_ENOENT : KP_EIO;
	}
	char *buf;
	size_t len;
	int rc = slurp(f, &buf, &len);
	fclose(f);
	if (rc) {
		free(buf);
		seterr(err, errlen, rc == KP_EIO ? "%s: read error" : "%s: out of memory", path);
		return rc;
	}
	struct rd r = { .path = path, .err = err, .errlen = errlen, .force = force, .sliced = 1 };
	rc = read_sliced(&r, buf, len, p);
	if (rc == 1) { /* not clean: the whole-file read says why (or reads it forced) */
		kp_read_fallbacks++;
		kp_profile_free(p);
		kp_profile_init(p, KP_KDEFAULT);
		json_error_t je;
		json_t *root = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
		if (!root) {
			free(buf);
			seterr(err, errlen, "%s:%d:%d: invalid JSON: %s", path, je.line, je.column, je.text);
			return KP_EJSON;
		}
		r = (struct rd){ .path = path, .err = err, .errlen = errlen, .force = force };
		rc = read_profile(&r, root, p);
		json_decref(root);
	}
	free(buf);
	if (rc == KP_ENOMEM)
		seterr(err, errlen, "%s: out of memory", path);
	return rc == 0 && r.forced ? KP_FORCED : rc;
}

void kp_kiter_free(void *x)
{
	json_decref((json_t *)x);
}

void *kp_kiter_copy(const void *x)
{
	return x ? json_deep_copy((const json_t *)x) : NULL;
}

unsigned kp_kiter_k(const void *x)
{
	return x ? (unsigned)json_integer_value(json_object_get((const json_t *)x, "kiter_k")) : 0;
}
