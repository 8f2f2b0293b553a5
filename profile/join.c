/*
 * join.c: the functions two profiles have in common, found by a merge-join
 * (kp_profile_join, profile.h).
 *
 * Both function lists are sorted, as pointer arrays, by (name, file,
 * index); one pass over the two then meets each group of equal (name,
 * file) in both at once, and every pair of the two groups is a match.  The
 * matches are finally sorted by (index in b, index in a): the order in
 * which the nested scan this replaces (for each function of b, every
 * function of a) met them, so that a caller stopping at its first match,
 * or reporting the first conflict, says what it said before.
 * O((n + m) log(n + m) + P log P) for n and m functions and P matches,
 * against the n * m string comparisons of the scan; P is at most max(n, m)
 * unless both sides hold several versions (checksums) of one function.
 */
#include <stdlib.h>
#include <string.h>

#include "profile_int.h"

static int cmp_key(const struct kp_func *x, const struct kp_func *y)
{
	int c = strcmp(x->name, y->name);
	return c ? c : strcmp(x->file, y->file);
}

/* Functions by (name, file), then position: pointers into one array, whose
 * order is the profile's. */
static int cmp_ptr(const void *a, const void *b)
{
	const struct kp_func *x = *(const struct kp_func *const *)a, *y = *(const struct kp_func *const *)b;
	int c = cmp_key(x, y);
	return c ? c : (x > y) - (x < y);
}

static int cmp_match(const void *a, const void *b)
{
	const struct kp_match *x = a, *y = b;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return (x->a > y->a) - (x->a < y->a);
}

/* p's functions sorted by (name, file, index), as pointers; NULL on ENOMEM
 * (never for an empty profile). */
static const struct kp_func **sorted(const struct kp_profile *p)
{
	const struct kp_func **v = kp_malloc((p->nfuncs ? p->nfuncs : 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < p->nfuncs; i++)
		v[i] = &p->funcs[i];
	qsort(v, p->nfuncs, sizeof *v, cmp_ptr);
	return v;
}

/* Appends the pairs of a's group va[0..na) and b's group vb[0..nb). */
static int add_group(struct kp_match **m, size_t *n, size_t *cap, const struct kp_profile *a,
		     const struct kp_func *const *va, size_t na, const struct kp_profile *b,
		     const struct kp_func *const *vb, size_t nb)
{
	if (*n + na * nb > *cap) {
		struct kp_match *t = kp_grow(*m, cap, *n + na * nb, sizeof *t);
		if (!t)
			return KP_ENOMEM;
		*m = t;
	}
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			(*m)[(*n)++] = (struct kp_match){ .a = (size_t)(va[i] - a->funcs), .b = (size_t)(vb[j] - b->funcs) };
	return 0;
}

/* The length of the run of equal keys starting at v[i]. */
static size_t run(const struct kp_profile *p, const struct kp_func *const *v, size_t i)
{
	size_t j = i + 1;
	while (j < p->nfuncs && cmp_key(v[i], v[j]) == 0)
		j++;
	return j - i;
}

int kp_profile_join(const struct kp_profile *a, const struct kp_profile *b, struct kp_match **matches, size_t *n)
{
	const struct kp_func **va = sorted(a), **vb = sorted(b);
	size_t cap = 0, i = 0, j = 0;
	int rc = va && vb ? 0 : KP_ENOMEM;
	*matches = NULL;
	*n = 0;
	while (rc == 0 && i < a->nfuncs && j < b->nfuncs) {
		int c = cmp_key(va[i], vb[j]);
		if (c < 0) {
			i += run(a, va, i);
		} else if (c > 0) {
			j += run(b, vb, j);
		} else {
			size_t ra = run(a, va, i), rb = run(b, vb, j);
			rc = add_group(matches, n, &cap, a, va + i, ra, b, vb + j, rb);
			i += ra;
			j += rb;
		}
	}
	free((void *)va);
	free((void *)vb);
	if (rc != 0) {
		free(*matches);
		*matches = NULL;
		*n = 0;
		return rc;
	}
	if (*n > 1)
		qsort(*matches, *n, sizeof **matches, cmp_match);
	return 0;
}
