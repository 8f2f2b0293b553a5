/*
 * join.c: the functions two profiles have in common, found by a merge-join
 * (kp_profile_join, profile.h).
 *
 * Both function lists are sorted, as arrays of pointers with a hash of
 * (name, file), by (hash, name, file, index); one pass over the two then
 * meets each group of equal (name, file) in both at once, and every pair
 * of the two groups is a match.  The
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

/* A function in the join's order: by the hash of (name, file), then
 * (name, file), then position.  Equal keys have equal hashes, so each
 * group of equal (name, file) is still one run; the hash settles nearly
 * every comparison of the sort without touching the strings (files often
 * share a long directory prefix). */
struct keyed {
	uint64_t h;
	const struct kp_func *f;
};

/* FNV-1a 64 of the name, the file's length and the file's last 16
 * bytes: a function of (name, file), so equal keys hash equal, and files
 * differ mostly at their end (the directory is often the same). */
static uint64_t key_hash(const struct kp_func *f)
{
	uint64_t h = 0xcbf29ce484222325u;
	for (const unsigned char *s = (const unsigned char *)f->name; *s; s++)
		h = (h ^ *s) * 0x100000001b3u;
	size_t n = strlen(f->file);
	h = (h ^ n) * 0x100000001b3u; /* also a separator: ("ab", "c") and ("a", "bc") hash apart */
	for (const unsigned char *s = (const unsigned char *)f->file + (n > 16 ? n - 16 : 0); *s; s++)
		h = (h ^ *s) * 0x100000001b3u;
	return h;
}

static int cmp_key(const struct keyed *x, const struct keyed *y)
{
	if (x->h != y->h)
		return x->h < y->h ? -1 : 1;
	int c = strcmp(x->f->name, y->f->name);
	return c ? c : strcmp(x->f->file, y->f->file);
}

/* Functions by key, then position in the profile's array. */
static inline int before(const struct keyed *x, const struct keyed *y)
{
	int c = cmp_key(x, y);
	return c ? c < 0 : x->f < y->f;
}

/* v[0..n) sorted by before(), through tmp[0..n): a bottom-up merge sort,
 * inline, where qsort's indirect comparisons cost more than the hashes
 * (three joins of the same two profiles at every accumulation). */
static void sort_keyed(struct keyed *v, struct keyed *tmp, size_t n)
{
	struct keyed *src = v, *dst = tmp;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, o = lo;
			while (i < mid && j < hi)
				dst[o++] = before(&src[j], &src[i]) ? src[j++] : src[i++];
			while (i < mid)
				dst[o++] = src[i++];
			while (j < hi)
				dst[o++] = src[j++];
		}
		struct keyed *t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
}

static int cmp_match(const void *a, const void *b)
{
	const struct kp_match *x = a, *y = b;
	if (x->b != y->b)
		return x->b < y->b ? -1 : 1;
	return (x->a > y->a) - (x->a < y->a);
}

/* p's functions sorted by key and index; NULL on ENOMEM (never for an
 * empty profile). */
static struct keyed *sorted(const struct kp_profile *p)
{
	size_t n = p->nfuncs ? p->nfuncs : 1;
	struct keyed *v = kp_malloc(2 * n * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < p->nfuncs; i++)
		v[i] = (struct keyed){ key_hash(&p->funcs[i]), &p->funcs[i] };
	sort_keyed(v, v + n, p->nfuncs);
	return v;
}

/* Appends the pairs of a's group va[0..na) and b's group vb[0..nb). */
static int add_group(struct kp_match **m, size_t *n, size_t *cap, const struct kp_profile *a,
		     const struct keyed *va, size_t na, const struct kp_profile *b, const struct keyed *vb, size_t nb)
{
	if (*n + na * nb > *cap) {
		struct kp_match *t = kp_grow(*m, cap, *n + na * nb, sizeof *t);
		if (!t)
			return KP_ENOMEM;
		*m = t;
	}
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			(*m)[(*n)++] = (struct kp_match){ .a = (size_t)(va[i].f - a->funcs), .b = (size_t)(vb[j].f - b->funcs) };
	return 0;
}

/* The length of the run of equal keys starting at v[i]. */
static size_t run(const struct kp_profile *p, const struct keyed *v, size_t i)
{
	size_t j = i + 1;
	while (j < p->nfuncs && cmp_key(&v[i], &v[j]) == 0)
		j++;
	return j - i;
}

int kp_profile_join(const struct kp_profile *a, const struct kp_profile *b, struct kp_match **matches, size_t *n)
{
	struct keyed *va = sorted(a), *vb = sorted(b);
	size_t cap = 0, i = 0, j = 0;
	int rc = va && vb ? 0 : KP_ENOMEM;
	*matches = NULL;
	*n = 0;
	while (rc == 0 && i < a->nfuncs && j < b->nfuncs) {
		int c = cmp_key(&va[i], &vb[j]);
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
	free(va);
	free(vb);
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
