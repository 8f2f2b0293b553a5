/*
 * test_join.c: the merge-join of the profile component (profile/join.c)
 * against the nested scans it replaced, on random profiles whose names,
 * files and checksums are drawn from small sets so that functions collide
 * in every way: same name in another file, same name and file under
 * another checksum, files that hash alike, and (in the merged profile only, which the reader
 * would refuse) the same function listed twice.
 *
 *  - kp_profile_join yields exactly the pairs with equal name and file, in
 *    the order of a scan over b then a;
 *  - kp_profile_compatible gives the verdict and message of the scan;
 *  - kp_profile_merge_into(dst, src) equals merging src's functions one at
 *    a time, each found by kp_profile_find (a linear lookup): the same
 *    functions in the same order with the same counts, and the same bytes
 *    once written.
 * A run that compares nothing fails.
 * Links the profile component alone (kpath_profile), not the runtime.
 */
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "profile_int.h"

static int failures;

#include "../check.h"

static uint64_t rng = 88172645463325252ull;

static unsigned pick(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static const char *const names[] = { "f", "g", "main", "h" };
/* The last two differ only before their last 16 bytes, which is all of a
 * file the join's hash reads (join.c): equal hashes, different keys. */
static const char *const files[] = { "a.c", "b.c", "lib/a.c", "xa/lib/src/common/util.c", "xb/lib/src/common/util.c" };
static const char *const sums[] = { "00000000000000aa", "00000000000000bb", "0123456789abcdef" };

/* A random profile of n functions; unique (name, file, checksum) unless
 * dups is set. */
static void make(struct kp_profile *p, unsigned k, unsigned n, int dups)
{
	kp_profile_init(p, k);
	p->runs = 1 + pick(3);
	for (unsigned i = 0; i < n; i++) {
		const char *name = names[pick(4)], *file = files[pick(5)], *sum = sums[pick(3)];
		if (!dups && kp_profile_find(p, name, file, sum))
			continue;
		struct kp_func *f = kp_profile_add_func(p, name, file, 1 + pick(50), sum, 8);
		CHECK(f != NULL);
		if (!f)
			return;
		f->emitted = pick(100);
		f->invalid_paths = pick(2);
		for (unsigned r = pick(4); r > 0; r--) { /* a path of random depth, counts going down */
			uint32_t v = 0;
			uint64_t c = 1 + pick(20);
			for (unsigned d = 0, depth = 1 + pick(k); d < depth; d++) {
				CHECK(kp_ipf_child(&f->ipf, v, pick(8), &v) == 0);
				f->ipf.nodes[v].count += c;
				c = c > 1 ? c - pick((unsigned)c) : 1;
			}
		}
	}
}

static int same_key(const struct kp_func *x, const struct kp_func *y)
{
	return !strcmp(x->name, y->name) && !strcmp(x->file, y->file);
}

static void check_join(const struct kp_profile *a, const struct kp_profile *b)
{
	struct kp_match *m;
	size_t n, t = 0;
	CHECK(kp_profile_join(a, b, &m, &n) == 0);
	for (size_t j = 0; j < b->nfuncs; j++)
		for (size_t i = 0; i < a->nfuncs; i++)
			if (same_key(&a->funcs[i], &b->funcs[j])) {
				CHECK(t < n && m[t].a == i && m[t].b == j);
				t++;
			}
	CHECK(t == n);
	free(m);
}

/* What kp_profile_compatible decides, as a scan (profile modes left out:
 * these profiles have none): a function of b conflicts when a has its name
 * and file only under other checksums (the first of them is named). */
static int scan_compatible(const struct kp_profile *a, const struct kp_profile *b, char *err, size_t len)
{
	if (a->k != b->k) {
		snprintf(err, len, "incompatible profile: k is %u there, %u here", a->k, b->k);
		return KP_EINCOMPAT;
	}
	for (size_t j = 0; j < b->nfuncs; j++) {
		const struct kp_func *y = &b->funcs[j], *other = NULL;
		bool same = false;
		for (size_t i = 0; i < a->nfuncs; i++) {
			const struct kp_func *x = &a->funcs[i];
			if (!same_key(x, y))
				continue;
			if (!strcmp(x->checksum, y->checksum))
				same = true;
			else if (!other)
				other = x;
		}
		if (!same && other) {
			snprintf(err, len,
				 "incompatible profile: %s (%s) has checksum %s there, %s here "
				 "(the program changed)",
				 y->name, y->file, other->checksum, y->checksum);
			return KP_EINCOMPAT;
		}
	}
	return 0;
}

/* dst += src one function at a time: a profile holding just that function
 * (the runs and drops go with the first). */
static void merge_one_by_one(struct kp_profile *dst, const struct kp_profile *src)
{
	char err[256];
	dst->runs += src->runs;
	dst->dropped += src->dropped;
	for (size_t i = 0; i < src->nfuncs; i++) {
		struct kp_profile one = *src;
		one.funcs = &src->funcs[i];
		one.nfuncs = one.cap = 1;
		one.runs = one.dropped = 0;
		CHECK(kp_profile_merge_into(dst, &one, err, sizeof err) == 0);
	}
	if (!src->nfuncs && src->k < dst->k) { /* the k truncation alone */
		struct kp_profile none = *src;
		none.runs = none.dropped = 0;
		CHECK(kp_profile_merge_into(dst, &none, err, sizeof err) == 0);
	}
}

static char *written(struct kp_profile *p, size_t *len)
{
	char *buf = NULL, err[256];
	FILE *f = open_memstream(&buf, len);
	CHECK(f && kp_profile_write_file(f, p, err, sizeof err) == 0);
	if (f)
		fclose(f);
	return buf;
}

static void one_case(unsigned round)
{
	struct kp_profile a, a2, b;
	unsigned ka = 1 + pick(4), kb = pick(3) ? ka : 1 + pick(4);
	make(&a, ka, pick(12), 0);
	make(&b, kb, pick(12), round % 3 == 0);
	check_join(&a, &b);
	check_join(&b, &a);
	check_join(&a, &a);
	char e1[512] = "", e2[512] = "";
	int r1 = kp_profile_compatible(&a, &b, e1, sizeof e1), r2 = scan_compatible(&a, &b, e2, sizeof e2);
	CHECK(r1 == r2 && !strcmp(e1, e2));

	/* a2: a copy of a, by merging it into an empty profile */
	kp_profile_init(&a2, a.k);
	CHECK(kp_profile_merge_into(&a2, &a, e1, sizeof e1) == 0 && a2.nfuncs == a.nfuncs);
	a2.runs = a.runs;
	CHECK(kp_profile_merge_into(&a, &b, e1, sizeof e1) == 0);
	merge_one_by_one(&a2, &b);
	CHECK(a.k == a2.k && a.runs == a2.runs && a.nfuncs == a2.nfuncs);
	for (size_t i = 0; i < a.nfuncs && i < a2.nfuncs; i++) {
		const struct kp_func *x = &a.funcs[i], *y = &a2.funcs[i];
		CHECK(!strcmp(x->name, y->name) && !strcmp(x->file, y->file) && !strcmp(x->checksum, y->checksum) &&
		      x->line == y->line && x->emitted == y->emitted && x->invalid_paths == y->invalid_paths);
	}
	size_t la, l2;
	char *wa = written(&a, &la), *w2 = written(&a2, &l2);
	CHECK(wa && w2 && la == l2 && !memcmp(wa, w2, la));
	free(wa);
	free(w2);
	kp_profile_free(&a);
	kp_profile_free(&a2);
	kp_profile_free(&b);
}

/* argv[1]: the number of rounds (default 800: a few seconds under the
 * sanitizers on a loaded machine; every seeded mutation of join.c tried
 * failed hundreds of them). */
int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 800;
	for (unsigned r = 0; r < rounds; r++)
		one_case(r);
	if (rounds == 0)
		failures++;
	if (failures) {
		fprintf(stderr, "test_join: %d failures\n", failures);
		return 1;
	}
	printf("test_join: %u random merges agree with the nested scans\n", rounds);
	return 0;
}
