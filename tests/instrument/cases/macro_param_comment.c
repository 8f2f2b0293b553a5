/* A comment inside a macro's parameter list, as zopfli's util.h writes
 * #define ZOPFLI_APPEND_DATA(T value, T** data, size_t* size) with each
 * type as a comment before its parameter: gcc and clang compile it, but
 * clang -E -CC (which keeps the comments of macro definitions, so that a
 * written-out expansion keeps its fall-through comments) rejects it,
 * "invalid token in macro parameter list".  The write-out then
 * preprocesses the file without comments (frontend/expand.c, pp_marked):
 * every function is written out and instrumented.  Before, every function
 * with such an invocation was skipped, "the preprocessor failed on the
 * expanded text" (13 of zopfli's 103 functions).
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: push=3 push_bits=10 */
#include <stdio.h>
#include <stdlib.h>

#define APPEND(/* T */ value, /* T** */ data, /* size_t* */ size) { \
	if (!((*size) & ((*size) - 1))) { \
		/* double the size at each power of two */ \
		(*data) = (*size) == 0 ? malloc(sizeof(**data)) \
		                       : realloc((*data), (*size) * 2 * sizeof(**data)); \
	} \
	(*data)[(*size)] = (value); \
	(*size)++; \
}

static void push(unsigned char v, unsigned char **out, size_t *n)
{
	APPEND(v, out, n);
}

static void push_bits(unsigned bits, unsigned count, unsigned char **out, size_t *n)
{
	unsigned i;
	for (i = 0; i < count; i++)
		if ((bits >> i) & 1)
			APPEND((unsigned char)i, out, n);
}

static unsigned sum(const unsigned char *p, size_t n)
{
	unsigned s = 0;
	while (n--)
		s = s * 31 + *p++;
	return s;
}

int main(void)
{
	unsigned char *out = NULL;
	size_t n = 0;
	for (unsigned v = 0; v < 20; v++)
		push((unsigned char)(v * 7), &out, &n);
	push_bits(0xa5f3u, 16, &out, &n);
	printf("%zu %u\n", n, sum(out, n));
	free(out);
	return 0;
}
