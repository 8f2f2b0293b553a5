/*
 * profile_json.c: kpath-profile/2 on disk (schema in profile.h), with
 * jansson; kpath-profile/1 is read too (profile_mode.c holds what
 * differs).  Writers emit canonical order (kp_profile_sort), so equal
 * profiles are byte-identical.  The reader accepts unknown fields (later
 * versions may add some) and names the offending field on error.  A file
 * in the writers' form is read in one pass without a tree of its arrays
 * (read_sliced, profile_slice.c); any other is read with one jansson tree,
 * which alone says what is wrong.
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
	/* kp_profile_read_hint: the functions of the hint with a cfg, sorted
	 * by name, file, checksum (cmp_func_ptr) */
	struct kp_func **hint;
	size_t nhint;
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

/* The members of function object o up to its mode's payload: checked,
 * and added to p as *fp; *src (a new reference, NULL in the default mode)
 * holds the mode's fields flat. */
static int read_head(struct rd *r, json_t *o, struct kp_profile *p, struct kp_func **fp, json_t **src)
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
	*fp = f;
	return read_mode(r, o, f, src);
}

static int read_func(struct rd *r, json_t *o, struct kp_profile *p)
{
	struct kp_func *f = NULL;
	json_t *src = NULL; /* the mode's fields, flat (profile_mode.c) */
	int rc = read_head(r, o, p, &f, &src);
	if (rc == 0)
		rc = read_counts(r, o, src, p, f);
	json_decref(src);
	return rc;
}

/* The rest of function object o (the mode's fields were read into f, src
 * holds them flat): paths, kipf, the ppp counts, cfg. */
static int read_counts(struct rd *r, json_t *o, json_t *src, struct kp_profile *p, struct kp_func *f)
{
	int rc;
	if ((rc = read_paths(r, json_object_get(o, "paths"), f)))
		return rc;
	json_t *kipf = json_object_get(o, "kipf");
	if (!kipf)
		return bad(r, "kipf", "missing");
	size_t len = strlen(r->where);
	snprintf(r->where + len, sizeof r->where - len, ".kipf");
	rc = read_forest(r, kipf, &f->ipf, 0, 1, p->k, f->num_paths);
	r->where[len] = 0;
	if (rc == 0 && f->ppp) {
		char field[64];
		const char *why = kp_ppp_check_counts(src, f, field, sizeof field);
		if (why)
			return bad_mode(r, field, why);
	}
	if (rc == 0 && json_object_get(o, "cfg"))
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
 * the file is read as a buffer and parsed in one pass: the members of the
 * top-level object and of each function go into small jansson objects,
 * read by read_profile and read_head, except a function's "paths",
 * "kipf" and "cfg", nearly all of the bytes, which profile_slice.c reads
 * straight into the profile; each function's object is freed before the
 * next.  The memory is the file's bytes, the profile, and one function's
 * scalars.  The pass takes the order writers write ("functions" last at
 * the top, a function's arrays after its other members); anything but a
 * clean read in that order (another order, bad JSON, a broken rule, a
 * duplicate key, even a forced read's first violation) is read again the
 * whole-file way, which alone says what is wrong: the messages, and which
 * error comes first, stay those of one json_loadf. */

/* The key at s and its ':' as a jansson string (*s then at the value);
 * NULL if there is none. */
static json_t *slice_key(const char **s, const char *e)
{
	const char *ke;
	json_t *key = kp_slice_json_key(*s, e, &ke);
	const char *v = key ? kp_skip_ws(ke, e) : NULL;
	if (!key || v == e || *v != ':') {
		json_decref(key);
		return NULL;
	}
	*s = kp_skip_ws(v + 1, e);
	return key;
}

/* The value at *s (advanced past it) as member name of o, which must not
 * have it yet: 0, or 1. */
static int slice_member(const char **s, const char *e, json_t *o, const char *name)
{
	const char *ve = kp_value_end(*s, e);
	json_t *x = ve && !json_object_get(o, name) ? kp_slice_json_value(*s, ve) : NULL;
	*s = ve;
	return !x || json_object_set_new(o, name, x) ? 1 : 0;
}

/* The members of a function before its arrays, as long as each has the
 * writer's form (a key read_head knows, not repeated; a string of
 * printable ASCII without escapes, or an integer as get_u64 takes it):
 * their values' bytes, read without a jansson object.  The strings come
 * first in keys[]. */
static const char *const head_keys[] = { "name", "file", "checksum", "source_hash", "mode",
					 "line", "num_paths", "invalid_paths", "emitted" };
enum { NHEAD = sizeof head_keys / sizeof *head_keys, NHEAD_STR = 5 };
struct head {
	unsigned have; /* bit i: head_keys[i] was read */
	const char *v[NHEAD], *ve[NHEAD]; /* its value's bytes; a string's between the quotes */
	uint64_t num[NHEAD];
};

/* The index of key in head_keys, or NHEAD, NHEAD + 1, NHEAD + 2 for
 * "paths", "kipf", "cfg", or NHEAD + 3 for another key: one comparison. */
static unsigned func_key(const char *key)
{
	static const char *const arrays[] = { "paths", "kipf", "cfg" };
	unsigned i;
	switch (key[0]) {
	case 'n': i = key[1] == 'a' ? 0 : 6; break;
	case 'f': i = 1; break;
	case 'c': i = key[1] == 'h' ? 2 : NHEAD + 2; break;
	case 's': i = 3; break;
	case 'm': i = 4; break;
	case 'l': i = 5; break;
	case 'i': i = 7; break;
	case 'e': i = 8; break;
	case 'p': i = NHEAD; break;
	case 'k': i = NHEAD + 1; break;
	default: return NHEAD + 3;
	}
	return !strcmp(key, i < NHEAD ? head_keys[i] : arrays[i - NHEAD]) ? i : NHEAD + 3;
}

unsigned long kp_read_cfg_copies;

/* The function of the hint with f's name, file and checksum, or NULL. */
static struct kp_func *hint_of(const struct rd *r, const struct kp_func *f)
{
	size_t lo = 0, hi = r->nhint;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct kp_func *g = r->hint[mid];
		int c = strcmp(g->name, f->name);
		c = c ? c : strcmp(g->file, f->file);
		c = c ? c : strcmp(g->checksum, f->checksum);
		if (c < 0)
			lo = mid + 1;
		else if (c > 0)
			hi = mid;
		else
			return r->hint[mid];
	}
	return NULL;
}

/* f's "cfg" at *s taken from the hint's function g with the same name,
 * file and checksum (equal checksums mean equal graphs, docs/profile-
 * schema.md): when the file's bytes are exactly those the writer makes of
 * g's cfg, they parse to g's cfg, so it is copied (its arrays and those
 * bytes, which the writer then writes as they are) instead of parsed, and
 * checked with f's num_paths as a parsed one would be.  0 (copied; *s past
 * the value), KP_ENOMEM, or -1: read the bytes. */
static int cfg_from_hint(struct rd *r, const char **s, const char *e, struct kp_func *f)
{
	struct kp_func *g = r->nhint ? hint_of(r, f) : NULL;
	char field;
	uint32_t at;
	if (!g || kp_cfg_json(&g->cfg) != 0 || (size_t)(e - *s) < g->cfg.json_len ||
	    memcmp(*s, g->cfg.json, g->cfg.json_len) || kp_rule_cfg(&g->cfg, f->num_paths, &field, &at))
		return -1;
	char *json = g->cfg.json; /* f takes the bytes: g is merged into f */
	size_t json_len = g->cfg.json_len;
	g->cfg.json = NULL;
	if (kp_cfg_copy(f, g) != 0) {
		g->cfg.json = json;
		return KP_ENOMEM;
	}
	f->cfg.json = json;
	f->cfg.json_len = json_len;
	*s += json_len;
	kp_read_cfg_copies++;
	return 0;
}

/* The value at *s of head_keys[i] into h (*s advanced past it): 0, or -1
 * when it is not in the writer's form (*s unchanged). */
static int head_value(struct head *h, unsigned i, const char **s, const char *e)
{
	const char *p = *s;
	if (i < NHEAD_STR) {
		const char *q = p < e && *p == '"' ? p + 1 : e;
		while (q < e && kp_json_plain[(unsigned char)*q] && *q != 0x7f)
			q++;
		if (q == e || *q != '"')
			return -1;
		h->v[i] = p + 1, h->ve[i] = q;
		*s = q + 1;
	} else {
		if (kp_slice_u64(&p, e, &h->num[i]))
			return -1;
		h->v[i] = *s, h->ve[i] = p;
		*s = p;
	}
	h->have |= 1u << i;
	return 0;
}

/* The members h holds, into o (a function leaves the writer's form). */
static int head_to_json(const struct head *h, json_t *o)
{
	for (unsigned i = 0; i < NHEAD; i++) {
		if (!(h->have & (1u << i)))
			continue;
		json_t *x = i < NHEAD_STR ? json_stringn(h->v[i], (size_t)(h->ve[i] - h->v[i]))
		                          : kp_slice_json_value(h->v[i], h->ve[i]);
		if (!x || json_object_set_new(o, head_keys[i], x))
			return 1;
	}
	return 0;
}

/* read_head on h: the same rules, for a function of the default mode. */
static int read_head_plain(struct rd *r, const struct head *h, struct kp_profile *p, struct kp_func **fp)
{
	enum { NAME, FILE_, CHECKSUM, SOURCE_HASH, MODE, LINE, NUM_PATHS, INVALID, EMITTED };
	unsigned need = 1u << NAME | 1u << FILE_ | 1u << CHECKSUM | 1u << LINE | 1u << NUM_PATHS | 1u << INVALID;
	if (r->version == 2)
		need |= 1u << MODE;
	size_t len[NHEAD_STR] = { 0 };
	for (unsigned i = 0; i < NHEAD_STR; i++)
		len[i] = (size_t)(h->ve[i] - h->v[i]);
	if ((h->have & need) != need || !len[NAME] || len[CHECKSUM] != 16 || h->num[LINE] > UINT32_MAX ||
	    ((h->have & 1u << SOURCE_HASH) && len[SOURCE_HASH] != 16) ||
	    (r->version == 2 && (len[MODE] != 4 || memcmp(h->v[MODE], "kipf", 4))))
		return 1; /* read_head says what is wrong */
	char *str = malloc(len[NAME] + len[FILE_] + 2 * 17 + 2), *name = str, *file, *checksum, *sh;
	if (!str)
		return KP_ENOMEM;
	file = name + len[NAME] + 1;
	checksum = file + len[FILE_] + 1;
	sh = checksum + 17;
	memcpy(name, h->v[NAME], len[NAME]), name[len[NAME]] = 0;
	memcpy(file, h->v[FILE_], len[FILE_]), file[len[FILE_]] = 0;
	memcpy(checksum, h->v[CHECKSUM], 16), checksum[16] = 0;
	memcpy(sh, (h->have & 1u << SOURCE_HASH) ? h->v[SOURCE_HASH] : "0000000000000000", 16), sh[16] = 0;
	int rc = kp_rule_hex16(checksum) || kp_rule_hex16(sh) ? 1 : 0;
	struct kp_func *f = rc ? NULL : kp_profile_add_func(p, name, file, (unsigned)h->num[LINE], checksum, h->num[NUM_PATHS]);
	if (!rc && !f)
		rc = KP_ENOMEM;
	if (f) {
		f->invalid_paths = h->num[INVALID];
		f->emitted = (h->have & 1u << EMITTED) ? h->num[EMITTED] : 0;
		if (h->have & 1u << SOURCE_HASH)
			memcpy(f->source_hash, sh, sizeof f->source_hash);
		*fp = f;
	}
	free(str);
	return rc;
}

/* The function object at *s (advanced past it) into p: its members up to
 * the first of its arrays into h (struct head) or, once one is not in the
 * writer's form, into an object read by read_head; then the arrays, read
 * from the bytes (profile_slice.c).  0, KP_ENOMEM, or 1: not clean. */
static int slice_func(struct rd *r, const char **s, const char *e, struct kp_profile *p)
{
	enum { PATHS = 1, KIPF = 2, CFG = 4 };
	struct head h = { 0 };
	json_t *o = NULL, *src = NULL; /* o: the members, once h is left; src: the mode's fields, flat */
	struct kp_func *f = NULL;
	unsigned have = 0;
	int rc = 0, more = kp_slice_open(s, e, '{', '}');
	if (more < 0)
		rc = 1;
	while (more > 0 && rc == 0) {
		char key[16];
		json_t *jkey = NULL;
		const char *name = key;
		if (kp_slice_key(s, e, key, sizeof key)) { /* escaped, or long: not one we know */
			if (!(jkey = slice_key(s, e)))
				rc = 1;
			name = jkey ? json_string_value(jkey) : "";
		}
		unsigned i = func_key(name), bit = i < NHEAD ? 0 : i == NHEAD ? PATHS : i == NHEAD + 1 ? KIPF : i == NHEAD + 2 ? CFG : 0;
		if (rc || (bit & have) || (!bit && f) || (i < NHEAD && (h.have & (1u << i))))
			rc = 1; /* repeated, or a member after the arrays */
		else if (!bit && !o && i < NHEAD && !(i == 4 && r->version == 1) && head_value(&h, i, s, e) == 0)
			; /* in h */
		else if (!bit && !o && (!(o = json_object()) || head_to_json(&h, o)))
			rc = !o ? KP_ENOMEM : 1;
		if (rc == 0 && !bit && o)
			rc = slice_member(s, e, o, name);
		else if (rc == 0 && bit && !f)
			rc = o ? read_head(r, o, p, &f, &src) : read_head_plain(r, &h, p, &f);
		if (rc == 0 && bit == PATHS)
			rc = kp_slice_paths(s, e, f);
		else if (rc == 0 && bit == KIPF)
			rc = kp_slice_forest(s, e, &f->ipf, p->k, f->num_paths, r->forked);
		else if (rc == 0 && bit == CFG && (rc = cfg_from_hint(r, s, e, f)) < 0)
			rc = kp_cfg_from_slice(s, e, f);
		have |= bit;
		json_decref(jkey);
		if (rc == 0 && (more = kp_slice_next(s, e, '}')) < 0)
			rc = 1;
	}
	if (rc == 0 && !(have & KIPF))
		rc = 1; /* "kipf" is required */
	if (rc == 0 && f->ppp) {
		char field[64];
		if (kp_ppp_check_counts(src, f, field, sizeof field))
			rc = 1;
	}
	json_decref(src);
	json_decref(o);
	return rc == KP_ENOMEM ? rc : rc ? 1 : 0;
}

/* r->where = "functions[i]", as snprintf would make it (which cost more
 * than reading a short function). */
static void where_function(struct rd *r, size_t i)
{
	char d[24];
	int n = 0;
	do
		d[n++] = (char)('0' + i % 10);
	while ((i /= 10) != 0);
	memcpy(r->where, "functions[", 10);
	for (int j = 0; j < n; j++)
		r->where[10 + j] = d[n - 1 - j];
	memcpy(r->where + 10 + n, "]", 2);
}

/* The elements of "functions" at *s (advanced past the array). */
static int slice_functions(struct rd *r, const char **s, const char *e, struct kp_profile *p)
{
	int rc = 0, more = kp_slice_open(s, e, '[', ']');
	for (size_t i = 0; more > 0 && rc == 0; i++) {
		where_function(r, i);
		if ((rc = slice_func(r, s, e, p)) == 0 && (more = kp_slice_next(s, e, ']')) < 0)
			rc = 1;
	}
	return more < 0 ? 1 : rc;
}

/* The profile in buf[len], a function at a time: 0 when read cleanly,
 * KP_ENOMEM, or 1: read it the whole-file way. */
static int read_sliced(struct rd *r, const char *buf, size_t len, struct kp_profile *p)
{
	const char *s = buf, *e = buf + len;
	json_t *root = json_object(); /* the members before "functions" */
	int rc = !root ? KP_ENOMEM : 0, more = rc ? 0 : kp_slice_open(&s, e, '{', '}'), functions = 0;
	if (more < 0)
		rc = 1;
	while (more > 0 && rc == 0) {
		json_t *key = slice_key(&s, e);
		if (!key || functions)
			rc = 1; /* a member after "functions" */
		else if (strcmp(json_string_value(key), "functions"))
			rc = slice_member(&s, e, root, json_string_value(key));
		else if ((rc = read_profile(r, root, p) ? 1 : 0) == 0)
			rc = slice_functions(r, &s, e, p);
		functions |= key && !strcmp(json_string_value(key), "functions");
		json_decref(key);
		if (rc == 0 && (more = kp_slice_next(&s, e, '}')) < 0)
			rc = 1;
	}
	json_decref(root);
	if (rc == 0 && (!functions || kp_skip_ws(s, e) != e))
		rc = 1;
	if (rc == 0 && (rc = check_unique(r, p)) != KP_ENOMEM)
		rc = rc || r->forced ? 1 : 0;
	return rc;
}

int kp_profile_read(const char *path, struct kp_profile *p, char *err, size_t errlen)
{
	return kp_profile_read_opts(path, p, 0, err, errlen);
}

unsigned long kp_read_fallbacks;
int kp_read_whole_file;

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

static int read_file(const char *path, struct kp_profile *p, int force, struct kp_profile *hint, char *err,
		     size_t errlen);

int kp_profile_read_opts(const char *path, struct kp_profile *p, int force, char *err, size_t errlen)
{
	return read_file(path, p, force, NULL, err, errlen);
}

int kp_profile_read_hint(const char *path, struct kp_profile *p, struct kp_profile *hint, char *err, size_t errlen)
{
	return read_file(path, p, 0, hint, err, errlen);
}

static int read_file(const char *path, struct kp_profile *p, int force, struct kp_profile *hint, char *err,
		     size_t errlen)
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
	if (hint && hint->nfuncs && !kp_read_whole_file && (r.hint = malloc(hint->nfuncs * sizeof *r.hint))) {
		for (size_t i = 0; i < hint->nfuncs; i++)
			if (hint->funcs[i].cfg.nblocks)
				r.hint[r.nhint++] = &hint->funcs[i];
		qsort(r.hint, r.nhint, sizeof *r.hint, cmp_func_ptr);
	}
	rc = kp_read_whole_file ? 1 : read_sliced(&r, buf, len, p);
	free(r.hint);
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
