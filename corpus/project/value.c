/* value.c: strings, arrays and the operations every value supports. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "value.h"

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "stk: out of memory\n");
		exit(2);
	}
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "stk: out of memory\n");
		exit(2);
	}
	return q;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

struct value v_nil(void)
{
	struct value v;
	v.t = V_NIL;
	v.u.i = 0;
	return v;
}

struct value v_int(long long i)
{
	struct value v;
	v.t = V_INT;
	v.u.i = i;
	return v;
}

struct value v_str(struct str *s)
{
	struct value v;
	v.t = V_STR;
	v.u.s = s;
	return v;
}

struct value v_arr(struct arr *a)
{
	struct value v;
	v.t = V_ARR;
	v.u.a = a;
	return v;
}

uint32_t str_hash(const char *s, int len)
{
	uint32_t h = 2166136261u;
	for (int i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

struct str *str_new(const char *chars, int len)
{
	struct str *s = xmalloc(sizeof *s + (size_t)len + 1);
	s->len = len;
	memcpy(s->chars, chars, (size_t)len);
	s->chars[len] = 0;
	s->hash = str_hash(chars, len);
	return s;
}

struct str *str_concat(const struct str *a, const struct str *b)
{
	struct str *s = xmalloc(sizeof *s + (size_t)a->len + (size_t)b->len + 1);
	s->len = a->len + b->len;
	memcpy(s->chars, a->chars, (size_t)a->len);
	memcpy(s->chars + a->len, b->chars, (size_t)b->len);
	s->chars[s->len] = 0;
	s->hash = str_hash(s->chars, s->len);
	return s;
}

struct str *str_from_int(long long i)
{
	char buf[32];
	int n = snprintf(buf, sizeof buf, "%lld", i);
	return str_new(buf, n);
}

struct arr *arr_new(int cap)
{
	struct arr *a = xmalloc(sizeof *a);
	a->n = 0;
	a->cap = cap > 0 ? cap : 4;
	a->items = xmalloc((size_t)a->cap * sizeof *a->items);
	return a;
}

void arr_push(struct arr *a, struct value v)
{
	if (a->n == a->cap) {
		a->cap *= 2;
		a->items = xrealloc(a->items, (size_t)a->cap * sizeof *a->items);
	}
	a->items[a->n++] = v;
}

int arr_pop(struct arr *a, struct value *out)
{
	if (a->n == 0)
		return 0;
	*out = a->items[--a->n];
	return 1;
}

int value_truthy(struct value v)
{
	switch (v.t) {
	case V_NIL:
		return 0;
	case V_INT:
		return v.u.i != 0;
	case V_STR:
		return v.u.s->len > 0;
	case V_ARR:
		return v.u.a->n > 0;
	default:
		return 1;
	}
}

int value_equal(struct value a, struct value b)
{
	if (a.t != b.t)
		return 0;
	switch (a.t) {
	case V_NIL:
		return 1;
	case V_INT:
		return a.u.i == b.u.i;
	case V_STR:
		if (a.u.s->hash != b.u.s->hash || a.u.s->len != b.u.s->len)
			return 0;
		return memcmp(a.u.s->chars, b.u.s->chars, (size_t)a.u.s->len) == 0;
	case V_ARR:
		if (a.u.a == b.u.a)
			return 1;
		if (a.u.a->n != b.u.a->n)
			return 0;
		for (int i = 0; i < a.u.a->n; i++) {
			if (!value_equal(a.u.a->items[i], b.u.a->items[i]))
				return 0;
		}
		return 1;
	case V_FN:
		return a.u.fn == b.u.fn;
	case V_BUILTIN:
		return a.u.bi == b.u.bi;
	}
	return 0;
}

int value_compare(struct value a, struct value b, int *ok)
{
	*ok = 1;
	if (a.t == V_INT && b.t == V_INT) {
		if (a.u.i < b.u.i)
			return -1;
		return a.u.i > b.u.i;
	}
	if (a.t == V_STR && b.t == V_STR) {
		int n = a.u.s->len < b.u.s->len ? a.u.s->len : b.u.s->len;
		int c = memcmp(a.u.s->chars, b.u.s->chars, (size_t)n);
		if (c != 0)
			return c < 0 ? -1 : 1;
		if (a.u.s->len == b.u.s->len)
			return 0;
		return a.u.s->len < b.u.s->len ? -1 : 1;
	}
	*ok = 0;
	return 0;
}

const char *value_type_name(struct value v)
{
	static const char *const names[] = {"nil", "int", "string", "array", "function", "builtin"};
	return names[v.t];
}

static void put(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	while (*len + n + 1 > *cap) {
		*cap = *cap ? *cap * 2 : 64;
		*buf = xrealloc(*buf, *cap);
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
}

void value_print(struct value v, char **buf, size_t *len, size_t *cap)
{
	char tmp[48];
	int n;
	switch (v.t) {
	case V_NIL:
		put(buf, len, cap, "nil", 3);
		break;
	case V_INT:
		n = snprintf(tmp, sizeof tmp, "%lld", v.u.i);
		put(buf, len, cap, tmp, (size_t)n);
		break;
	case V_STR:
		put(buf, len, cap, v.u.s->chars, (size_t)v.u.s->len);
		break;
	case V_ARR:
		put(buf, len, cap, "[", 1);
		for (int i = 0; i < v.u.a->n; i++) {
			if (i > 0)
				put(buf, len, cap, ", ", 2);
			if (v.u.a->items[i].t == V_STR) {
				put(buf, len, cap, "\"", 1);
				value_print(v.u.a->items[i], buf, len, cap);
				put(buf, len, cap, "\"", 1);
			} else {
				value_print(v.u.a->items[i], buf, len, cap);
			}
		}
		put(buf, len, cap, "]", 1);
		break;
	case V_FN:
		n = snprintf(tmp, sizeof tmp, "<fn %d>", v.u.fn);
		put(buf, len, cap, tmp, (size_t)n);
		break;
	case V_BUILTIN:
		n = snprintf(tmp, sizeof tmp, "<builtin %d>", v.u.bi);
		put(buf, len, cap, tmp, (size_t)n);
		break;
	}
}

struct str *value_to_str(struct value v)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	if (v.t == V_STR)
		return v.u.s;
	value_print(v, &buf, &len, &cap);
	struct str *s = str_new(buf, (int)len);
	free(buf);
	return s;
}
