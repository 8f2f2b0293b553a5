/* value.h: run-time values: nil, integers, strings, arrays, functions. */
#ifndef STK_VALUE_H
#define STK_VALUE_H

#include "common.h"

enum vtype { V_NIL, V_INT, V_STR, V_ARR, V_FN, V_BUILTIN };

struct str {
	int len;
	uint32_t hash;
	char chars[];
};

struct value;

struct arr {
	int n, cap;
	struct value *items;
};

struct value {
	enum vtype t;
	union {
		long long i;
		struct str *s;
		struct arr *a;
		int fn; /* index in the function table */
		int bi; /* builtin number */
	} u;
};

struct value v_nil(void);
struct value v_int(long long i);
struct value v_str(struct str *s);
struct value v_arr(struct arr *a);

struct str *str_new(const char *chars, int len);
struct str *str_concat(const struct str *a, const struct str *b);
struct str *str_from_int(long long i);
uint32_t str_hash(const char *s, int len);

struct arr *arr_new(int cap);
void arr_push(struct arr *a, struct value v);
int arr_pop(struct arr *a, struct value *out);

int value_truthy(struct value v);
int value_equal(struct value a, struct value b);
/* -1, 0, 1; *ok = 0 when the two cannot be ordered */
int value_compare(struct value a, struct value b, int *ok);
const char *value_type_name(struct value v);
/* Appends the printed form of v to buf (growable); returns the new length. */
void value_print(struct value v, char **buf, size_t *len, size_t *cap);
struct str *value_to_str(struct value v);

#endif
