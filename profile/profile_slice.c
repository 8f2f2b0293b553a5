/*
 * profile_slice.c: reading the hot arrays of a profile straight from its
 * bytes, for the function-at-a-time reader of profile_json.c (read_sliced).
 *
 * A function's "paths", "kipf" and "cfg" are nearly all of a profile
 * (issue 14, item 6: parsing them into jansson trees cost the runtime more
 * at exit than the profiled workload).  These readers take only the form
 * the writer produces (profile_write.c), with any whitespace between
 * tokens: the keys the schema names, unescaped and not repeated; numbers
 * as plain JSON integers.  Every rule the tree reader checks is checked
 * here too.  They never report an error themselves: anything else (another
 * key, a string for a number, a broken rule, a syntax error) returns
 * KP_SLICE_UNCLEAN and the caller reads the file again the whole-file way,
 * which names the first violation with its JSON path.  Hence the contract:
 * a slice reader accepts a subset of what the tree reader accepts, and on
 * that subset builds the same data.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile_int.h"

/* The readers below are called once per number of the file: small and
 * inline, so that a number costs a few instructions a digit. */
static inline const char *ws(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	return s;
}

const char *kp_skip_ws(const char *s, const char *e)
{
	return ws(s, e);
}

/* The bytes kp_value_end stops at: inside a value, a quote or a bracket
 * (INNER); at the top, also what ends a scalar (TOP). */
enum { INNER = 1, TOP = 2 };
static const unsigned char stops[256] = {
	['"'] = INNER | TOP, ['{'] = INNER | TOP, ['['] = INNER | TOP, ['}'] = INNER | TOP, [']'] = INNER | TOP,
	[','] = TOP,         [':'] = TOP,         [' '] = TOP,         ['\n'] = TOP,      ['\t'] = TOP,
	['\r'] = TOP,
};

const char *kp_value_end(const char *s, const char *e)
{
	int depth = 0;
	for (; s < e; s++) {
		if (depth) /* most bytes of a profile are inside arrays of numbers */
			while (s < e && !(stops[(unsigned char)*s] & INNER))
				s++;
		if (s == e)
			break;
		if (*s == '"') {
			for (s++; s < e && *s != '"'; s++)
				if (*s == '\\')
					s++;
			if (s >= e)
				return NULL;
			if (!depth)
				return s + 1;
		} else if (*s == '{' || *s == '[') {
			depth++;
		} else if (*s == '}' || *s == ']') {
			if (!depth)
				return s; /* a scalar, last in its object or array */
			if (--depth == 0)
				return s + 1;
		} else if (!depth && (stops[(unsigned char)*s] & TOP)) {
			return s;
		}
	}
	return depth ? NULL : s;
}

static inline int is_digit(char c)
{
	return (unsigned)(c - '0') <= 9;
}

/* A plain JSON integer in 0..max at *s (advanced past it): 0, or -1.
 * JSON: 0, or a digit 1-9 then digits; no sign, fraction or exponent
 * (jansson reads those as reals, which no integer field accepts).  Nine
 * digits cannot overflow; beyond, each digit is checked against max. */
static inline int slice_uint(const char **s, const char *e, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	if (p == e || !is_digit(*p))
		return -1;
	uint64_t v = (uint64_t)(*p++ - '0');
	if (v == 0 && p < e && is_digit(*p))
		return -1; /* a leading zero */
	const char *nine = (size_t)(e - p) > 8 ? p + 8 : e;
	while (v && p < nine && is_digit(*p))
		v = v * 10 + (uint64_t)(*p++ - '0');
	for (; p < e && is_digit(*p); p++) {
		if (v > (max - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (v > max || (p < e && (*p == '.' || *p == 'e' || *p == 'E')))
		return -1;
	*s = p;
	*out = v;
	return 0;
}

/* A number in the writer's form at p, 1 to 9 digits without a leading
 * zero (every line number and block, most IDs, counts and vals): p past
 * it, or NULL, and then the general readers decide.  The caller checks
 * the delimiter after it (a '.' or 'e' there is not one). */
static inline const char *small_uint(const char *p, const char *e, uint64_t *out)
{
	if (p == e || !is_digit(*p))
		return NULL;
	uint64_t v = (uint64_t)(*p++ - '0');
	const char *nine = (size_t)(e - p) > 8 ? p + 8 : e;
	while (v && p < nine && is_digit(*p))
		v = v * 10 + (uint64_t)(*p++ - '0');
	if (p < e && is_digit(*p))
		return NULL; /* a leading zero, or a tenth digit */
	*out = v;
	return p;
}

/* "[a,b,...]" of n small numbers without whitespace at *s (a block, span
 * or edge as the writer writes it): 0, or -1 with *s unchanged. */
static inline int small_tuple(const char **s, const char *e, unsigned n, uint64_t *v)
{
	const char *p = *s;
	for (unsigned i = 0; i < n; i++)
		if (p == e || *p != (i ? ',' : '[') || !(p = small_uint(p + 1, e, &v[i])))
			return -1;
	if (p == e || *p != ']')
		return -1;
	*s = p + 1;
	return 0;
}

int kp_slice_u64(const char **s, const char *e, uint64_t *out)
{
	const char *p = *s;
	const char *q = small_uint(p, e, out); /* most: one to nine digits */
	if (q && (q == e || (*q != '.' && *q != 'e' && *q != 'E'))) {
		*s = q;
		return 0;
	} /* else a leading zero, ten digits or more, a real: the general reader */
	if (p < e && *p == '"') { /* above INT64_MAX: a decimal string (profile.h) */
		char d[24], *end;
		const char *q = memchr(p + 1, '"', (size_t)(e - p - 1));
		if (!q || q - p - 1 >= (ptrdiff_t)sizeof d || p[1] < '0' || p[1] > '9')
			return -1;
		memcpy(d, p + 1, (size_t)(q - p - 1));
		d[q - p - 1] = 0;
		errno = 0;
		unsigned long long x = strtoull(d, &end, 10);
		if (*end || errno)
			return -1;
		*out = x;
		*s = q + 1;
		return 0;
	}
	return slice_uint(s, e, (uint64_t)INT64_MAX, out);
}

/* An object key without escapes, shorter than cap, and its ':' (*s is then
 * at the value): 0, or -1. */
static int slice_key(const char **s, const char *e, char *key, size_t cap)
{
	const char *p = *s, *q;
	if (p == e || *p != '"')
		return -1;
	for (q = p + 1; q < e && *q != '"'; q++)
		if (*q == '\\' || (unsigned char)*q < 0x20)
			return -1; /* an escaped key could spell a known one */
	if (q == e || (size_t)(q - p - 1) >= cap)
		return -1;
	memcpy(key, p + 1, (size_t)(q - p - 1));
	key[q - p - 1] = 0;
	p = ws(q + 1, e);
	if (p == e || *p != ':')
		return -1;
	*s = ws(p + 1, e);
	return 0;
}

/* After an element: 1 at a ',' (*s then at the next element), 0 at close
 * (*s past it), -1 otherwise (a trailing comma too). */
static inline int slice_next(const char **s, const char *e, char close)
{
	const char *p = ws(*s, e);
	if (p < e && *p == ',') {
		p = ws(p + 1, e);
		if (p == e || *p == close)
			return -1; /* a trailing comma */
		*s = p;
		return 1;
	}
	if (p == e || *p != close)
		return -1;
	*s = p + 1;
	return 0;
}

/* open, then 0 at close (empty; *s past it), 1 at a first element (*s at
 * it), -1 without open. */
static inline int slice_open(const char **s, const char *e, char open, char close)
{
	const char *p = ws(*s, e);
	if (p == e || *p != open)
		return -1;
	p = ws(p + 1, e);
	if (p < e && *p == close) {
		*s = p + 1;
		return 0;
	}
	*s = p;
	return 1;
}

/* A number of a tuple: 0, or -1 (slice_uint, slice_cfg_uint). */
typedef int slice_elem_fn(const char **s, const char *e, uint64_t max, uint64_t *out);

/* "[a, b, ...]", n numbers, each read by elem within its max[i]: the
 * writer's compact form first (small_tuple: at most nine digits, below
 * every max), else any JSON spacing.  0, or -1. */
static int slice_tuple(const char **s, const char *e, unsigned n, slice_elem_fn *elem, const uint64_t *max,
                       uint64_t *v)
{
	if (!small_tuple(s, e, n, v))
		return 0;
	if (slice_open(s, e, '[', ']') != 1)
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (elem(s, e, max[i], &v[i]) || slice_next(s, e, ']') != (i + 1 < n))
			return -1;
	return 0;
}

int kp_slice_key(const char **s, const char *e, char *key, size_t cap)
{
	return slice_key(s, e, key, cap);
}

int kp_slice_open(const char **s, const char *e, char open, char close)
{
	return slice_open(s, e, open, close);
}

int kp_slice_next(const char **s, const char *e, char close)
{
	return slice_next(s, e, close);
}

/* A growable array of uint32_t (the lines of the path being read). */
struct u32s {
	uint32_t *v;
	size_t n, cap;
};

static int u32s_push(struct u32s *a, uint32_t x)
{
	if (a->n == a->cap) {
		uint32_t *q = kp_grow(a->v, &a->cap, a->n + 1, sizeof *a->v);
		if (!q)
			return KP_ENOMEM;
		a->v = q;
	}
	a->v[a->n++] = x;
	return 0;
}

/* "lines": [L, ...], each a line number in 0..UINT32_MAX (0 is left to
 * kp_rule_path, as in the tree reader). */
static int slice_lines(const char **s, const char *e, struct u32s *lines)
{
	lines->n = 0;
	int more = slice_open(s, e, '[', ']');
	while (more > 0) {
		uint64_t x;
		const char *p = small_uint(*s, e, &x);
		if (p && p < e && (*p == ',' || *p == ']'))
			*s = p;
		else if (slice_uint(s, e, UINT32_MAX, &x))
			return KP_SLICE_UNCLEAN;
		if (lines->n < lines->cap)
			lines->v[lines->n++] = (uint32_t)x;
		else if (u32s_push(lines, (uint32_t)x))
			return KP_ENOMEM;
		more = slice_next(s, e, ']');
	}
	return more < 0 ? KP_SLICE_UNCLEAN : 0;
}

/* "spans": [[first, last], ...], one pair per entry of q->lines with
 * first == lines[i] <= last <= UINT32_MAX (read_spans of profile_json.c). */
static int slice_spans(const char **s, const char *e, struct kp_path *q)
{
	q->last_lines = malloc((q->nlines ? q->nlines : 1) * sizeof *q->last_lines);
	if (!q->last_lines)
		return KP_ENOMEM;
	uint32_t j = 0;
	int more = slice_open(s, e, '[', ']');
	while (more > 0) {
		uint64_t v[2];
		if (j == q->nlines || slice_tuple(s, e, 2, slice_uint, (const uint64_t[]){UINT32_MAX, UINT32_MAX}, v) ||
		    v[0] != q->lines[j] || v[1] < v[0])
			return KP_SLICE_UNCLEAN;
		q->last_lines[j++] = (uint32_t)v[1];
		more = slice_next(s, e, ']');
	}
	return more < 0 || j != q->nlines ? KP_SLICE_UNCLEAN : 0;
}

/* One element of "paths" at *s: {"id": ID, "lines": [...], "spans": [...]}
 * ("spans" optional, after "lines"), into *q. */
static int slice_path(const char **s, const char *e, uint64_t num_paths, struct u32s *lines, struct kp_path *q)
{
	enum { ID = 1, LINES = 2, SPANS = 4 };
	unsigned have = 0;
	int rc, more = slice_open(s, e, '{', '}');
	while (more > 0) {
		char key[8];
		if (slice_key(s, e, key, sizeof key))
			return KP_SLICE_UNCLEAN;
		if (!strcmp(key, "id") && !(have & ID)) {
			if (kp_slice_u64(s, e, &q->id))
				return KP_SLICE_UNCLEAN;
			have |= ID;
		} else if (!strcmp(key, "lines") && !(have & (LINES | SPANS))) {
			if ((rc = slice_lines(s, e, lines)))
				return rc;
			q->lines = malloc((lines->n ? lines->n : 1) * sizeof *q->lines);
			if (!q->lines)
				return KP_ENOMEM;
			if (lines->n)
				memcpy(q->lines, lines->v, lines->n * sizeof *q->lines);
			q->nlines = (uint32_t)lines->n;
			have |= LINES;
		} else if (!strcmp(key, "spans") && (have & (LINES | SPANS)) == LINES) {
			if ((rc = slice_spans(s, e, q)))
				return rc;
			have |= SPANS;
		} else {
			return KP_SLICE_UNCLEAN; /* unknown, repeated, or spans before lines */
		}
		more = slice_next(s, e, '}');
	}
	if (more < 0 || (have & (ID | LINES)) != (ID | LINES) || kp_rule_path(q, num_paths))
		return KP_SLICE_UNCLEAN;
	return 0;
}

static int cmp_path(const void *a, const void *b)
{
	const struct kp_path *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

int kp_slice_paths(const char **sp, const char *e, struct kp_func *f)
{
	const char *s = *sp;
	struct u32s lines = { 0 };
	size_t cap = f->npaths;
	int rc = 0, more = slice_open(&s, e, '[', ']');
	if (more < 0)
		rc = KP_SLICE_UNCLEAN;
	while (more > 0 && rc == 0) {
		struct kp_path q = { .json_index = f->npaths };
		struct kp_path *pa = f->npaths == UINT32_MAX ? NULL : kp_grow(f->paths, &cap, f->npaths + 1, sizeof *pa);
		if (!pa) {
			rc = KP_ENOMEM;
			break;
		}
		f->paths = pa;
		if ((rc = slice_path(&s, e, f->num_paths, &lines, &q))) {
			free(q.lines);
			free(q.last_lines);
			break;
		}
		f->paths[f->npaths++] = q;
		more = slice_next(&s, e, ']');
		if (more < 0)
			rc = KP_SLICE_UNCLEAN;
	}
	free(lines.v);
	*sp = s;
	/* sorted by id, unique (read_paths); the writer's order is sorted */
	uint32_t j = 1;
	while (rc == 0 && j < f->npaths && f->paths[j - 1].id < f->paths[j].id)
		j++;
	if (rc == 0 && j < f->npaths) {
		qsort(f->paths, f->npaths, sizeof *f->paths, cmp_path);
		for (j = 1; j < f->npaths; j++)
			if (f->paths[j].id == f->paths[j - 1].id)
				return KP_SLICE_UNCLEAN;
	}
	return rc;
}

/* A cfg number as profile_cfg.c's get_uint takes it: a plain integer, or a
 * decimal string (vals above INT64_MAX) below UINT64_MAX; 0 or -1. */
static int slice_cfg_uint(const char **s, const char *e, uint64_t max, uint64_t *out)
{
	if (*s == e || **s != '"') /* jansson's integers end at INT64_MAX */
		return slice_uint(s, e, max < (uint64_t)INT64_MAX ? max : (uint64_t)INT64_MAX, out);
	return kp_slice_u64(s, e, out) || *out == UINT64_MAX || *out > max ? -1 : 0;
}

/* "blocks": [[first, last], ...] into c (kp_cfg_from_json's types). */
static int slice_blocks(const char **s, const char *e, struct kp_cfg *c)
{
	size_t cap = 0, cap2 = 0;
	int more = slice_open(s, e, '[', ']');
	while (more > 0) {
		uint64_t v[2];
		if (slice_tuple(s, e, 2, slice_cfg_uint, (const uint64_t[]){UINT32_MAX, UINT32_MAX}, v) ||
		    c->nblocks == UINT32_MAX)
			return KP_SLICE_UNCLEAN;
		if (c->nblocks == cap) {
			uint32_t *l = kp_grow(c->line, &cap, c->nblocks + 1, sizeof *l), *m;
			if (l)
				c->line = l;
			m = l ? kp_grow(c->last_line, &cap2, c->nblocks + 1, sizeof *m) : NULL;
			if (!m)
				return KP_ENOMEM;
			c->last_line = m;
		}
		c->line[c->nblocks] = (uint32_t)v[0];
		c->last_line[c->nblocks++] = (uint32_t)v[1];
		more = slice_next(s, e, ']');
	}
	return more < 0 ? KP_SLICE_UNCLEAN : 0;
}

/* "edges": [[src, dst, val], ...] into c. */
static int slice_edges(const char **s, const char *e, struct kp_cfg *c)
{
	size_t cap = 0;
	int more = slice_open(s, e, '[', ']');
	while (more > 0) {
		uint64_t v[3];
		if (slice_tuple(s, e, 3, slice_cfg_uint, (const uint64_t[]){UINT32_MAX, UINT32_MAX, UINT64_MAX}, v) ||
		    c->nedges == UINT32_MAX)
			return KP_SLICE_UNCLEAN;
		if (c->nedges == cap) {
			struct kp_cfg_edge *q = kp_grow(c->edges, &cap, c->nedges + 1, sizeof *q);
			if (!q)
				return KP_ENOMEM;
			c->edges = q;
		}
		c->edges[c->nedges++] = (struct kp_cfg_edge){ (uint32_t)v[0], (uint32_t)v[1], v[2] };
		more = slice_next(s, e, ']');
	}
	return more < 0 ? KP_SLICE_UNCLEAN : 0;
}

int kp_cfg_from_slice(const char **sp, const char *e, struct kp_func *f)
{
	const char *s = *sp;
	struct kp_cfg *c = &f->cfg;
	enum { BLOCKS = 1, EDGES = 2 };
	unsigned have = 0;
	int rc = 0, more = slice_open(&s, e, '{', '}');
	while (more > 0 && rc == 0) {
		char key[8];
		if (slice_key(&s, e, key, sizeof key))
			rc = KP_SLICE_UNCLEAN;
		else if (!strcmp(key, "blocks") && !(have & BLOCKS))
			rc = slice_blocks(&s, e, c), have |= BLOCKS;
		else if (!strcmp(key, "edges") && !(have & EDGES))
			rc = slice_edges(&s, e, c), have |= EDGES;
		else
			rc = KP_SLICE_UNCLEAN; /* unknown or repeated */
		if (rc == 0 && (more = slice_next(&s, e, '}')) < 0)
			rc = KP_SLICE_UNCLEAN;
	}
	*sp = s;
	if (rc == 0 && (more < 0 || have != (BLOCKS | EDGES)))
		rc = KP_SLICE_UNCLEAN;
	/* no edges: an allocation all the same, as kp_cfg_from_json makes one */
	if (rc == 0 && !c->edges && !(c->edges = calloc(1, sizeof *c->edges)))
		rc = KP_ENOMEM;
	char field;
	uint32_t at;
	if (rc == 0 && kp_rule_cfg(c, f->num_paths, &field, &at))
		rc = KP_SLICE_UNCLEAN; /* the whole-file read names the rule */
	return rc;
}

/* ---- the k-IPF ("kipf", read_forest of profile_json.c) ---------------- */

/* Whether the bytes at *p are the literal l (then *p is past it). */
static inline int lit_n(const char **p, const char *e, const char *l, size_t n)
{
	if ((size_t)(e - *p) < n || memcmp(*p, l, n))
		return 0;
	*p += n;
	return 1;
}
#define lit(p, e, l) lit_n((p), (e), (l), sizeof(l) - 1)

/* A node (id, count) under parent, into *v: 0, KP_ENOMEM, or unclean when
 * it breaks a rule (kp_rule_node) or does not follow its previous sibling
 * prev (KP_NONE for the first) in increasing id order, the writer's order,
 * which also makes it unique among its siblings.  Linked as kp_ipf_child
 * links (in front of its siblings, the next index), so that the forest is
 * the tree reader's, without the lookup index kp_ipf_child keeps (no
 * lookup is needed: a repeated id would break the order). */
static int slice_node(struct kp_ipf *t, uint32_t parent, uint32_t prev, uint64_t id, uint64_t count,
		      uint64_t num_paths, int forked, uint32_t *v)
{
	if ((prev != KP_NONE && t->nodes[prev].id >= id) ||
	    kp_rule_node(id, count, t->nodes[parent].count, parent == 0, num_paths, forked))
		return KP_SLICE_UNCLEAN;
	if (t->n == t->cap) {
		struct kp_node *nodes = t->cap >= (1u << 30) ? NULL : kp_realloc(t->nodes, 2 * (size_t)t->cap * sizeof *nodes);
		if (!nodes)
			return KP_ENOMEM;
		t->nodes = nodes;
		t->cap *= 2;
	}
	*v = t->n++;
	t->nodes[*v] = (struct kp_node){ .id = id, .count = count, .first_child = KP_NONE,
					 .next_sibling = t->nodes[parent].first_child };
	t->nodes[parent].first_child = *v;
	return 0;
}

/* The array at *s of the nodes under parent, at depth (1: the roots):
 * {"id", "count", "children"}, "children" (optional in a leaf) after the
 * other two.  Recursion depth is bounded by k <= KP_KMAX. */
static int slice_nodes(const char **s, const char *e, struct kp_ipf *t, uint32_t parent, unsigned depth, unsigned k,
		       uint64_t num_paths, int forked)
{
	enum { ID = 1, COUNT = 2, KIDS = 4 };
	uint32_t prev = KP_NONE;
	int rc, more = slice_open(s, e, '[', ']');
	if (more > 0 && depth > k)
		return KP_SLICE_UNCLEAN; /* forest deeper than k */
	while (more > 0) {
		uint64_t id = 0, count = 0;
		uint32_t v = KP_NONE;
		unsigned have = 0;
		const char *p = *s;
		if (lit(&p, e, "{\"id\":") && !kp_slice_u64(&p, e, &id) && lit(&p, e, ",\"count\":") &&
		    !kp_slice_u64(&p, e, &count) && lit(&p, e, ",\"children\":")) {
			/* the writer's form, keys matched as they are written */
			*s = p;
			if ((rc = slice_node(t, parent, prev, id, count, num_paths, forked, &v)) ||
			    (rc = slice_nodes(s, e, t, v, depth + 1, k, num_paths, forked)))
				return rc;
			if (slice_next(s, e, '}') != 0)
				return KP_SLICE_UNCLEAN;
			prev = v;
			more = slice_next(s, e, ']');
			continue;
		}
		int m = slice_open(s, e, '{', '}');
		while (m > 0) {
			char key[12];
			if (slice_key(s, e, key, sizeof key))
				return KP_SLICE_UNCLEAN;
			if (!strcmp(key, "id") && !(have & (ID | KIDS))) {
				if (kp_slice_u64(s, e, &id))
					return KP_SLICE_UNCLEAN;
				have |= ID;
			} else if (!strcmp(key, "count") && !(have & (COUNT | KIDS))) {
				if (kp_slice_u64(s, e, &count))
					return KP_SLICE_UNCLEAN;
				have |= COUNT;
			} else if (!strcmp(key, "children") && have == (ID | COUNT)) {
				if ((rc = slice_node(t, parent, prev, id, count, num_paths, forked, &v)))
					return rc;
				have |= KIDS;
				if ((rc = slice_nodes(s, e, t, v, depth + 1, k, num_paths, forked)))
					return rc;
			} else {
				return KP_SLICE_UNCLEAN; /* unknown, repeated, out of order */
			}
			m = slice_next(s, e, '}');
		}
		if (m < 0 || (have & (ID | COUNT)) != (ID | COUNT))
			return KP_SLICE_UNCLEAN;
		if (!(have & KIDS) && (rc = slice_node(t, parent, prev, id, count, num_paths, forked, &v)))
			return rc; /* a leaf without "children" */
		prev = v;
		more = slice_next(s, e, ']');
	}
	return more < 0 ? KP_SLICE_UNCLEAN : 0;
}

int kp_slice_forest(const char **s, const char *e, struct kp_ipf *t, unsigned k, uint64_t num_paths, int forked)
{
	if (t->n != 1 || t->idx)
		return KP_SLICE_UNCLEAN; /* a forest read into an empty one only */
	return slice_nodes(s, e, t, 0, 1, k, num_paths, forked);
}

/* ---- the other members: small jansson values --------------------------- */

static json_t *load_slice(const char *s, const char *e)
{
	return json_loadb(s, (size_t)(e - s), JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
}

json_t *kp_slice_json_key(const char *s, const char *e, const char **ke)
{
	*ke = s < e && *s == '"' ? kp_value_end(s, e) : NULL;
	if (!*ke)
		return NULL;
	const char *p = s + 1;
	while (p < *ke - 1 && *p >= 0x20 && *p < 0x7f && *p != '\\')
		p++;
	return p == *ke - 1 ? json_stringn(s + 1, (size_t)(p - s - 1)) : load_slice(s, *ke);
}

json_t *kp_slice_json_value(const char *s, const char *e)
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
		if (!slice_uint(&p, e, (uint64_t)INT64_MAX, &v) && p == e)
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
