/* builtins.c: the library: print, len, push, pop, str, int, chr, ord, abs,
 * min, max, range, join, split, sort, slice, contains. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "vm.h"

enum {
	B_PRINT, B_LEN, B_PUSH, B_POP, B_STR, B_INT, B_CHR, B_ORD, B_ABS, B_MIN, B_MAX, B_RANGE,
	B_JOIN, B_SPLIT, B_SORT, B_SLICE, B_CONTAINS, B_COUNT
};

static const char *const names[B_COUNT] = {
	"print", "len", "push", "pop", "str", "int", "chr", "ord", "abs", "min", "max", "range",
	"join", "split", "sort", "slice", "contains",
};

int builtin_count(void)
{
	return B_COUNT;
}

const char *builtin_name(int i)
{
	return names[i];
}

static int want(struct vm *vm, int i, int argc, int lo, int hi)
{
	if (argc < lo || argc > hi) {
		vm_error(vm, "wrong number of arguments to %s", names[i]);
		return 0;
	}
	return 1;
}

static int want_type(struct vm *vm, int i, struct value v, enum vtype t)
{
	if (v.t != t) {
		vm_error(vm, "bad argument type for %s", names[i]);
		return 0;
	}
	return 1;
}

static void print_values(struct vm *vm, int argc, struct value *args)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	for (int i = 0; i < argc; i++) {
		if (i > 0)
			vm_write(vm, " ", 1);
		len = 0;
		value_print(args[i], &buf, &len, &cap);
		vm_write(vm, buf, len);
	}
	vm_write(vm, "\n", 1);
	free(buf);
}

/* Parses a decimal integer (optional sign); nil when s is not one. */
static struct value parse_int(const struct str *s)
{
	int i = 0, neg = 0;
	long long v = 0;
	if (i < s->len && (s->chars[i] == '-' || s->chars[i] == '+')) {
		neg = s->chars[i] == '-';
		i++;
	}
	if (i == s->len)
		return v_nil();
	for (; i < s->len; i++) {
		char c = s->chars[i];
		if (c < '0' || c > '9')
			return v_nil();
		v = v * 10 + (c - '0');
	}
	return v_int(neg ? -v : v);
}

/* Merge sort of values (ints or strings), stable. */
static int sort_values(struct vm *vm, struct value *a, int n, struct value *tmp)
{
	if (n < 2)
		return 1;
	int mid = n / 2;
	if (!sort_values(vm, a, mid, tmp) || !sort_values(vm, a + mid, n - mid, tmp))
		return 0;
	int i = 0, j = mid, k = 0;
	while (i < mid && j < n) {
		int ok;
		int c = value_compare(a[j], a[i], &ok);
		if (!ok) {
			vm_error(vm, "sort: cannot order %s values", value_type_name(a[i]));
			return 0;
		}
		if (c < 0)
			tmp[k++] = a[j++];
		else
			tmp[k++] = a[i++];
	}
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, (size_t)n * sizeof *a);
	return 1;
}

static struct value join(const struct arr *a, const struct str *sep)
{
	struct str *r = str_new("", 0);
	for (int i = 0; i < a->n; i++) {
		if (i > 0)
			r = str_concat(r, sep);
		r = str_concat(r, value_to_str(a->items[i]));
	}
	return v_str(r);
}

static struct value split(const struct str *s, const struct str *sep)
{
	struct arr *r = arr_new(4);
	int start = 0;
	if (sep->len == 0) {
		for (int i = 0; i < s->len; i++)
			arr_push(r, v_str(str_new(s->chars + i, 1)));
		return v_arr(r);
	}
	for (int i = 0; i + sep->len <= s->len;) {
		if (!memcmp(s->chars + i, sep->chars, (size_t)sep->len)) {
			arr_push(r, v_str(str_new(s->chars + start, i - start)));
			i += sep->len;
			start = i;
		} else {
			i++;
		}
	}
	arr_push(r, v_str(str_new(s->chars + start, s->len - start)));
	return v_arr(r);
}

static int contains(struct value hay, struct value needle)
{
	if (hay.t == V_ARR) {
		for (int i = 0; i < hay.u.a->n; i++) {
			if (value_equal(hay.u.a->items[i], needle))
				return 1;
		}
		return 0;
	}
	if (hay.t == V_STR && needle.t == V_STR) {
		const struct str *h = hay.u.s, *n = needle.u.s;
		for (int i = 0; i + n->len <= h->len; i++) {
			if (!memcmp(h->chars + i, n->chars, (size_t)n->len))
				return 1;
		}
	}
	return 0;
}

int builtin_call(struct vm *vm, int i, int argc, struct value *args, struct value *out)
{
	*out = v_nil();
	switch (i) {
	case B_PRINT:
		print_values(vm, argc, args);
		return 1;
	case B_LEN:
		if (!want(vm, i, argc, 1, 1))
			return 0;
		if (args[0].t == V_STR)
			*out = v_int(args[0].u.s->len);
		else if (args[0].t == V_ARR)
			*out = v_int(args[0].u.a->n);
		else
			return want_type(vm, i, args[0], V_ARR);
		return 1;
	case B_PUSH:
		if (!want(vm, i, argc, 2, 2) || !want_type(vm, i, args[0], V_ARR))
			return 0;
		arr_push(args[0].u.a, args[1]);
		*out = args[0];
		return 1;
	case B_POP:
		if (!want(vm, i, argc, 1, 1) || !want_type(vm, i, args[0], V_ARR))
			return 0;
		if (!arr_pop(args[0].u.a, out)) {
			vm_error(vm, "pop from an empty array%s", NULL);
			return 0;
		}
		return 1;
	case B_STR:
		if (!want(vm, i, argc, 1, 1))
			return 0;
		*out = v_str(value_to_str(args[0]));
		return 1;
	case B_INT:
		if (!want(vm, i, argc, 1, 1))
			return 0;
		if (args[0].t == V_INT)
			*out = args[0];
		else if (args[0].t == V_STR)
			*out = parse_int(args[0].u.s);
		return 1;
	case B_CHR: {
		if (!want(vm, i, argc, 1, 1) || !want_type(vm, i, args[0], V_INT))
			return 0;
		char c = (char)(args[0].u.i & 0x7f);
		*out = v_str(str_new(&c, 1));
		return 1;
	}
	case B_ORD:
		if (!want(vm, i, argc, 1, 1) || !want_type(vm, i, args[0], V_STR))
			return 0;
		*out = v_int(args[0].u.s->len ? (unsigned char)args[0].u.s->chars[0] : -1);
		return 1;
	case B_ABS:
		if (!want(vm, i, argc, 1, 1) || !want_type(vm, i, args[0], V_INT))
			return 0;
		*out = v_int(args[0].u.i < 0 ? -args[0].u.i : args[0].u.i);
		return 1;
	case B_MIN:
	case B_MAX:
		if (!want(vm, i, argc, 1, 255))
			return 0;
		*out = args[0];
		for (int k = 1; k < argc; k++) {
			int ok;
			int c = value_compare(args[k], *out, &ok);
			if (!ok) {
				vm_error(vm, "%s: cannot compare", names[i]);
				return 0;
			}
			if ((i == B_MIN && c < 0) || (i == B_MAX && c > 0))
				*out = args[k];
		}
		return 1;
	case B_RANGE: {
		if (!want(vm, i, argc, 1, 2) || !want_type(vm, i, args[0], V_INT))
			return 0;
		long long lo = 0, hi = args[0].u.i;
		if (argc == 2) {
			if (!want_type(vm, i, args[1], V_INT))
				return 0;
			lo = args[0].u.i;
			hi = args[1].u.i;
		}
		struct arr *a = arr_new(hi > lo ? (int)(hi - lo) : 1);
		for (long long k = lo; k < hi; k++)
			arr_push(a, v_int(k));
		*out = v_arr(a);
		return 1;
	}
	case B_JOIN:
		if (!want(vm, i, argc, 2, 2) || !want_type(vm, i, args[0], V_ARR) || !want_type(vm, i, args[1], V_STR))
			return 0;
		*out = join(args[0].u.a, args[1].u.s);
		return 1;
	case B_SPLIT:
		if (!want(vm, i, argc, 2, 2) || !want_type(vm, i, args[0], V_STR) || !want_type(vm, i, args[1], V_STR))
			return 0;
		*out = split(args[0].u.s, args[1].u.s);
		return 1;
	case B_SORT: {
		if (!want(vm, i, argc, 1, 1) || !want_type(vm, i, args[0], V_ARR))
			return 0;
		struct arr *a = args[0].u.a;
		struct value *tmp = xmalloc((size_t)(a->n + 1) * sizeof *tmp);
		int ok = sort_values(vm, a->items, a->n, tmp);
		free(tmp);
		*out = args[0];
		return ok;
	}
	case B_SLICE: {
		if (!want(vm, i, argc, 3, 3) || !want_type(vm, i, args[1], V_INT) || !want_type(vm, i, args[2], V_INT))
			return 0;
		long long lo = args[1].u.i, hi = args[2].u.i;
		int n;
		if (args[0].t == V_STR)
			n = args[0].u.s->len;
		else if (args[0].t == V_ARR)
			n = args[0].u.a->n;
		else
			return want_type(vm, i, args[0], V_ARR);
		if (lo < 0)
			lo = 0;
		if (hi > n)
			hi = n;
		if (hi < lo)
			hi = lo;
		if (args[0].t == V_STR) {
			*out = v_str(str_new(args[0].u.s->chars + lo, (int)(hi - lo)));
		} else {
			struct arr *a = arr_new((int)(hi - lo));
			for (long long k = lo; k < hi; k++)
				arr_push(a, args[0].u.a->items[k]);
			*out = v_arr(a);
		}
		return 1;
	}
	case B_CONTAINS:
		if (!want(vm, i, argc, 2, 2))
			return 0;
		*out = v_int(contains(args[0], args[1]));
		return 1;
	default:
		vm_error(vm, "unknown builtin%s", NULL);
		return 0;
	}
}
