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

#include "profile_int.h"

const char *kp_skip_ws(const char *s, const char *e)
{
	while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
		s++;
	return s;
}

const char *kp_value_end(const char *s, const char *e)
{
	int depth = 0;
	for (; s < e; s++) {
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
			if (--depth < 0)
				return NULL;
			if (!depth)
				return s + 1;
		} else if (!depth && (*s == ',' || *s == ':' || *s == ' ' || *s == '\n' || *s == '\t' || *s == '\r')) {
			return s;
		}
	}
	return depth ? NULL : s;
}

int kp_slice_uint(const char **s, const char *e, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t v = 0;
	/* JSON: 0 or a digit 1-9 then digits; no sign, fraction or exponent
	 * (jansson reads those as reals, which no integer field accepts) */
	if (p == e || *p < '0' || *p > '9' || (*p == '0' && p + 1 < e && p[1] >= '0' && p[1] <= '9'))
		return -1;
	for (; p < e && *p >= '0' && *p <= '9'; p++) {
		if (v > (max - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (p < e && (*p == '.' || *p == 'e' || *p == 'E'))
		return -1;
	*s = p;
	*out = v;
	return 0;
}

int kp_slice_u64(const char **s, const char *e, uint64_t *out)
{
	const char *p = *s;
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
	return kp_slice_uint(s, e, (uint64_t)INT64_MAX, out);
}

int kp_slice_key(const char **s, const char *e, char *key, size_t cap)
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
	p = kp_skip_ws(q + 1, e);
	if (p == e || *p != ':')
		return -1;
	*s = kp_skip_ws(p + 1, e);
	return 0;
}

int kp_slice_next(const char **s, const char *e, char close)
{
	const char *p = kp_skip_ws(*s, e);
	if (p < e && *p == ',') {
		p = kp_skip_ws(p + 1, e);
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

int kp_slice_open(const char **s, const char *e, char open, char close)
{
	const char *p = kp_skip_ws(*s, e);
	if (p == e || *p != open)
		return -1;
	p = kp_skip_ws(p + 1, e);
	if (p < e && *p == close) {
		*s = p + 1;
		return 0;
	}
	*s = p;
	return 1;
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
	int more = kp_slice_open(s, e, '[', ']');
	while (more > 0) {
		uint64_t x;
		if (kp_slice_uint(s, e, UINT32_MAX, &x))
			return KP_SLICE_UNCLEAN;
		if (u32s_push(lines, (uint32_t)x))
			return KP_ENOMEM;
		more = kp_slice_next(s, e, ']');
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
	int more = kp_slice_open(s, e, '[', ']');
	while (more > 0) {
		uint64_t first, last;
		if (j == q->nlines || kp_slice_open(s, e, '[', ']') != 1 || kp_slice_uint(s, e, UINT32_MAX, &first) ||
		    kp_slice_next(s, e, ']') != 1 || kp_slice_uint(s, e, UINT32_MAX, &last) ||
		    kp_slice_next(s, e, ']') != 0 || first != q->lines[j] || last < first)
			return KP_SLICE_UNCLEAN;
		q->last_lines[j++] = (uint32_t)last;
		more = kp_slice_next(s, e, ']');
	}
	return more < 0 || j != q->nlines ? KP_SLICE_UNCLEAN : 0;
}

/* One element of "paths" at *s: {"id": ID, "lines": [...], "spans": [...]}
 * ("spans" optional, after "lines"), into *q. */
static int slice_path(const char **s, const char *e, uint64_t num_paths, struct u32s *lines, struct kp_path *q)
{
	enum { ID = 1, LINES = 2, SPANS = 4 };
	unsigned have = 0;
	int rc, more = kp_slice_open(s, e, '{', '}');
	while (more > 0) {
		char key[8];
		if (kp_slice_key(s, e, key, sizeof key))
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
		more = kp_slice_next(s, e, '}');
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

int kp_slice_paths(const char *s, const char *e, struct kp_func *f)
{
	struct u32s lines = { 0 };
	size_t cap = f->npaths;
	int rc = 0, more = kp_slice_open(&s, e, '[', ']');
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
		more = kp_slice_next(&s, e, ']');
		if (more < 0)
			rc = KP_SLICE_UNCLEAN;
	}
	free(lines.v);
	if (rc == 0 && kp_skip_ws(s, e) != e)
		rc = KP_SLICE_UNCLEAN;
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
