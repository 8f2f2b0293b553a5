/*
 * test_ksf.c: the k-SF and its conversion against brute force (k-BLPP
 * paper): random streams with routine-entry markers, k = 1..8, several
 * seeds, small alphabets; single streams and interleaved activations
 * sharing one forest (recursion).  Checks
 *   - online k-SF -> make_k_ipf equals brute-force n-gram counting
 *     (n <= k, n-grams not crossing markers);
 *   - the sum of the k-SF counters equals the number of non-marker items;
 *   - k-IPF is the (k+1)-IPF truncated to depth k (Property 2);
 *   - counters never increase going down (Property 1);
 *   - the paper's example stream and its 4-SF (list L) and 4-IPF;
 *   - kpath_dump semantics: zeroing counters and continuing adds up;
 *   - the inline step of kpath_rt.h (kpath_rt_step, where the header has
 *     it) followed by the library on a miss, as kpath_rt_emit does it,
 *     builds the same forest node for node as the library alone, with
 *     colliding cache slots, invalid IDs and interleaved activations.
 */
#include <unistd.h>

#include "rt_test.h"

static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

#define MARK UINT64_MAX

/* A random stream: MARK starts an activation. */
static size_t make_stream(uint64_t *s, size_t len, unsigned alpha, unsigned mark_every)
{
	size_t n = 0;
	s[n++] = MARK;
	while (n < len) {
		if (rnd() % mark_every == 0)
			s[n++] = MARK;
		else if (rnd() % 3 == 0 && n >= 2 && s[n - 1] != MARK && s[n - 2] != MARK)
			s[n] = s[n - 2], n++; /* repetitions */
		else
			s[n++] = rnd() % alpha;
	}
	return n;
}

/* Items that took the inline step, the trampoline's child-table fast
 * path / all items given to item(). */
static uint64_t n_inline, n_kids, n_items;

/* One item as kpath_rt_emit does it: the inline step if the header has it
 * and it applies, else the trampoline's fast path through the node's child
 * table (kp_tr_kids_probe runs its instructions), else the library
 * (kp_tfunc_item is what kpath_rt_emit_slow does outside trace mode).
 * with_inline = 0: the library alone. */
static void item(struct kp_tfunc *tf, struct kp_cursor *c, uint64_t id, int with_inline)
{
	n_items++;
#ifdef KPATH_RT_INLINE
	if (with_inline) {
		struct kpath_rt_state s = kp_cursor_pack(c);
		struct kpath_rt_node *y;
		if (kpath_rt_step(&s, id)) {
			*c = kp_cursor_unpack(s, c->state);
			n_inline++;
			return;
		}
		if ((y = kp_tr_kids_probe(s.x, id))) {
			s.x = y;
			*c = kp_cursor_unpack(s, c->state);
			n_kids++;
			return;
		}
	}
#else
	(void)with_inline;
#endif
	kp_tfunc_item(tf, c, id);
}

/* The k-IPF of stream s computed online (k-SF, or counters for k = 1),
 * for a function with num_paths paths; the tfunc in *keep if keep. */
static int online_n(const uint64_t *s, size_t len, unsigned k, uint64_t num_paths, int with_inline,
		    struct kp_ipf *out, uint64_t *sum, struct kp_tfunc **keep)
{
	struct kpath_rt_func f = { .num_paths = num_paths };
	struct kp_tfunc *tf = kp_tfunc_new(&f, k);
	struct kp_cursor c = { 0 };
	if (!tf)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == MARK)
			tf->cons->enter(tf, &c);
		else
			item(tf, &c, s[i], with_inline);
	}
	*sum = tf->cons->sum(tf);
	CHECK(kp_tfunc_emitted(tf) == *sum + tf->dropped);
	int rc = kp_ipf_init(out) || tf->cons->to_ipf(tf, out);
	if (keep) {
		*keep = tf;
		return rc;
	}
	kp_tfunc_free(tf);
	return rc;
}

static int online(const uint64_t *s, size_t len, unsigned k, struct kp_ipf *out, uint64_t *sum)
{
	return online_n(s, len, k, UINT64_MAX, 1, out, sum, NULL);
}

static void brute(const uint64_t *s, size_t len, unsigned k, struct kp_ipf *out)
{
	CHECK(kp_ipf_init(out) == 0);
	size_t i = 0;
	while (i < len) {
		while (i < len && s[i] == MARK)
			i++;
		size_t j = i;
		while (j < len && s[j] != MARK)
			j++;
		CHECK(rt_ngrams(out, s + i, j - i, k) == 0);
		i = j;
	}
}

/* A forest the conversion stamped compact for k (struct kp_ipf; the
 * window forest's, runtime/window.c) is what kp_ipf_compact makes of the
 * same forest joined in another order: the same array, node for node, so
 * that the exit's snapshot may take it as it is (kp_ipf_borrow).  1 when
 * on was stamped (and checked). */
static int stamp_holds(const struct kp_ipf *on, unsigned k)
{
	if (on->compact_n != on->n || on->compact_k != k)
		return 0;
	struct kp_ipf t = { 0 };
	CHECK(kp_ipf_init(&t) == 0 && kp_ipf_add(&t, on, k) == 0 && kp_ipf_compact(&t, k) == 0);
	CHECK(t.n == on->n && memcmp(t.nodes, on->nodes, on->n * sizeof *on->nodes) == 0);
	struct kp_ipf b = { 0 };
	CHECK(kp_ipf_init(&b) == 0 && kp_ipf_borrow(&b, on, k) == 1 && b.nodes == on->nodes && b.borrowed);
	kp_ipf_free(&b); /* leaves on's nodes */
	CHECK(on->nodes[0].id == 0);
	kp_ipf_free(&t);
	return 1;
}

static void random_streams(void)
{
	unsigned stamped = 0;
	static uint64_t s[5000];
	static const unsigned lens[] = { 1, 2, 7, 40, 300, 5000 };
	static const unsigned alphas[] = { 1, 2, 3, 5, 17 };
	for (uint64_t seed = 1; seed <= 6; seed++) {
		for (unsigned li = 0; li < sizeof lens / sizeof *lens; li++) {
			unsigned alpha = alphas[(seed + li) % 5];
			rng_state = seed * 0x9e3779b97f4a7c15ull + li;
			size_t len = make_stream(s, lens[li], alpha, li % 2 ? 7 : 400);
			size_t items = 0;
			for (size_t i = 0; i < len; i++)
				items += s[i] != MARK;
			struct kp_ipf prev = { 0 };
			for (unsigned k = 1; k <= 9; k++) {
				struct kp_ipf on, bf;
				uint64_t sum = 0;
				CHECK(online(s, len, k, &on, &sum) == 0);
				brute(s, len, k, &bf);
				CHECK(sum == items);
				CHECK(rt_monotone(&on, 0));
				CHECK(kp_ipf_depth(&on) <= k);
				stamped += stamp_holds(&on, k);
				if (!rt_ipf_equal(&on, &bf)) {
					fprintf(stderr, "seed %" PRIu64 " len %zu alpha %u k %u: k-IPF differs\n", seed,
						len, alpha, k);
					rt_failures++;
				}
				if (k > 1) {
					/* Property 2: (k-1)-IPF = k-IPF without level k */
					struct kp_ipf t = { 0 };
					CHECK(kp_ipf_init(&t) == 0 && kp_ipf_add(&t, &on, k - 1) == 0);
					CHECK(rt_ipf_equal(&t, &prev));
					kp_ipf_free(&t);
				}
				kp_ipf_free(&prev);
				prev = on;
				kp_ipf_free(&bf);
			}
			kp_ipf_free(&prev);
		}
	}
	if (kp_forest == &kp_consumer_window)
		CHECK(stamped > 100); /* its forests at k >= 2 (the k-SF's are not stamped) */
}

/* Activations of one function interleaved in one thread (recursion): each
 * has its own cursor over the shared forest. */
static void interleaved(void)
{
	enum { NACT = 6, LEN = 400 };
	static uint64_t seqs[NACT][LEN];
	for (uint64_t seed = 1; seed <= 4; seed++) {
		rng_state = seed * 7919;
		for (unsigned k = 1; k <= 8; k++) {
			struct kpath_rt_func f = { .num_paths = 4 };
			struct kp_tfunc *tf = kp_tfunc_new(&f, k);
			struct kp_cursor c[NACT];
			size_t n[NACT] = { 0 }, lenof[NACT];
			struct kp_ipf bf, on;
			CHECK(tf && kp_ipf_init(&bf) == 0 && kp_ipf_init(&on) == 0);
			for (unsigned a = 0; a < NACT; a++) {
				tf->cons->enter(tf, &c[a]);
				lenof[a] = 1 + rnd() % LEN;
			}
			for (int more = 1; more;) {
				more = 0;
				unsigned a = (unsigned)(rnd() % NACT);
				if (n[a] < lenof[a]) {
					uint64_t id = rnd() % 5; /* 4 is invalid */
					item(tf, &c[a], id, (int)(seed % 2));
					seqs[a][n[a]++] = id;
				}
				for (unsigned b = 0; b < NACT; b++)
					more |= n[b] < lenof[b];
			}
			uint64_t invalid = 0, valid = 0;
			for (unsigned a = 0; a < NACT; a++) {
				/* invalid IDs are skipped: the sequence continues */
				size_t m = 0;
				for (size_t i = 0; i < n[a]; i++)
					if (seqs[a][i] < 4)
						seqs[a][m++] = seqs[a][i];
					else
						invalid++;
				valid += m;
				CHECK(rt_ngrams(&bf, seqs[a], m, k) == 0);
			}
			CHECK(tf->invalid == invalid && kp_tfunc_emitted(tf) == valid);
			CHECK(tf->cons->to_ipf(tf, &on) == 0);
			CHECK(rt_ipf_equal(&on, &bf));
			kp_ipf_free(&on);
			kp_ipf_free(&bf);
			kp_tfunc_free(tf);
		}
	}
}

/* The k-BLPP paper's example: Sigma = * 6 2 0 0 2 2 0 0 2 2 0 0 2 3, k = 4. */
static void paper_example(void)
{
	static const uint64_t sigma[] = { 6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3 };
	const size_t len = sizeof sigma / sizeof *sigma;
	struct kp_ksf s;
	struct kp_cursor c;
	CHECK(kp_ksf_init(&s, 4) == 0);
	kp_ksf_marker(&s, &c);
	for (size_t i = 0; i < len; i++)
		CHECK(kp_ksf_process(&s, &c, sigma[i]) == 0);
	CHECK(kp_ksf_sum(&s) == len);

	/* The 4-SF is F(L) for the list L of the paper's example, plus the
	 * upper-slab path <2,3> of the last, unfinished chunk (counter 0). */
	static const uint64_t L[][6] = {
		{ 6 }, { 6, 2 }, { 6, 2, 0 }, { 6, 2, 0, 0 }, { 6, 2, 0, 0, 2 }, { 6, 2, 0, 0, 2, 2 },
		{ 0, 2, 2, 0 }, { 0, 2, 2, 0, 0 }, { 0, 2, 2, 0, 0, 2 },
		{ 0, 0, 2, 2 }, { 0, 0, 2, 2, 0 }, { 0, 0, 2, 2, 0, 0 },
		{ 2, 0, 0, 2 }, { 2, 0, 0, 2, 3 },
	};
	static const size_t Llen[] = { 1, 2, 3, 4, 5, 6, 4, 5, 6, 4, 5, 6, 4, 5 };
	struct kp_ipf fl, ksf;
	CHECK(kp_ipf_init(&fl) == 0 && kp_ipf_init(&ksf) == 0);
	for (size_t i = 0; i < sizeof Llen / sizeof *Llen; i++) {
		uint32_t v = 0;
		for (size_t j = 0; j < Llen[i]; j++)
			CHECK(kp_ipf_child(&fl, v, L[i][j], &v) == 0);
		fl.nodes[v].count++; /* c counts occurrences of the sequence in L */
	}
	uint32_t v;
	CHECK(kp_ipf_child(&fl, 0, 2, &v) == 0 && kp_ipf_child(&fl, v, 3, &v) == 0);
	CHECK(fl.n - 1 == 23);
	/* copy the k-SF into an ipf, node for node */
	CHECK(s.n - 1 == 23);
	for (uint64_t r = 0; r < 8; r++) {
		const struct kpath_rt_node *root = kp_ksf_root(&s, r), *ch;
		CHECK((root != NULL) == (r == 0 || r == 2 || r == 6));
		if (!root)
			continue;
		/* depth-first copy */
		const struct kpath_rt_node *stack[64];
		uint32_t at[64];
		int sp = 0;
		CHECK(kp_ipf_child(&ksf, 0, r, &at[0]) == 0);
		ksf.nodes[at[0]].count = root->count;
		stack[sp++] = root;
		while (sp > 0) {
			const struct kpath_rt_node *x = stack[--sp];
			uint32_t y = at[sp];
			for (uint32_t i = 0; (ch = kp_kids_next(x, &i));) {
				uint32_t z;
				CHECK(kp_ipf_child(&ksf, y, ch->id, &z) == 0);
				ksf.nodes[z].count = ch->count;
				CHECK(sp < 63);
				at[sp] = z;
				stack[sp++] = ch;
			}
		}
	}
	CHECK(ksf.n == fl.n); /* no label repeats among siblings */
	/* rt_ipf_equal prunes all-zero subtrees: <2,3> has count 0 in both */
	CHECK(rt_ipf_equal(&ksf, &fl));
	CHECK(kp_ipf_depth(&ksf) == 6); /* 2k - 2 levels */

	struct kp_ipf ipf, bf;
	CHECK(kp_ipf_init(&ipf) == 0 && kp_ipf_init(&bf) == 0);
	CHECK(kp_ksf_to_ipf(&s, &ipf) == 0);
	static const uint64_t g2002[] = { 2, 0, 0, 2 }, g00[] = { 0, 0 }, g6[] = { 6 }, g2[] = { 2 },
			      g0[] = { 0 }, g3[] = { 3 }, g6200[] = { 6, 2, 0, 0 };
	CHECK(rt_count(&ipf, g2002, 4) == 3); /* "occurs 3 times in Sigma" */
	CHECK(rt_count(&ipf, g00, 2) == 3);   /* "<0,0> occurs three times" */
	CHECK(rt_count(&ipf, g6, 1) == 1 && rt_count(&ipf, g2, 1) == 6 && rt_count(&ipf, g0, 1) == 6 &&
	      rt_count(&ipf, g3, 1) == 1);
	CHECK(rt_count(&ipf, g6200, 4) == 1);
	/* exactly one tree per distinct ID: 0, 2, 3, 6 */
	unsigned roots = 0;
	for (uint32_t r = ipf.nodes[0].first_child; r; r = ipf.nodes[r].next_sibling)
		roots++;
	CHECK(roots == 4);
	CHECK(rt_ngrams(&bf, sigma, len, 4) == 0);
	CHECK(rt_ipf_equal(&ipf, &bf));
	kp_ipf_free(&ipf);
	kp_ipf_free(&bf);
	kp_ipf_free(&fl);
	kp_ipf_free(&ksf);
	kp_ksf_free(&s);
}

/* kpath_dump: zero the counters mid-stream, convert twice; the sum of the
 * two deltas is the k-IPF of the whole stream. */
static void dump_delta(void)
{
	static uint64_t s[3000];
	rng_state = 42;
	size_t len = make_stream(s, 3000, 3, 50);
	for (unsigned k = 1; k <= 6; k++) {
		struct kpath_rt_func f = { .num_paths = UINT64_MAX };
		struct kp_tfunc *tf = kp_tfunc_new(&f, k);
		struct kp_cursor c = { 0 };
		struct kp_ipf acc, bf;
		CHECK(tf && kp_ipf_init(&acc) == 0);
		for (size_t i = 0; i < len; i++) {
			if (i == len / 3 || i == len / 2) {
				CHECK(tf->cons->to_ipf(tf, &acc) == 0);
				tf->cons->zero(tf);
			}
			if (s[i] == MARK)
				tf->cons->enter(tf, &c);
			else
				kp_tfunc_item(tf, &c, s[i]);
		}
		/* a conversion leaves the counters as it found them (the window
		 * forest's sums its totals in them): a second one, without the
		 * zeroing between, gives the same k-IPF */
		struct kp_ipf once, twice;
		CHECK(kp_ipf_init(&once) == 0 && tf->cons->to_ipf(tf, &once) == 0);
		CHECK(kp_ipf_init(&twice) == 0 && tf->cons->to_ipf(tf, &twice) == 0);
		CHECK(rt_ipf_equal(&once, &twice));
		kp_ipf_free(&once);
		kp_ipf_free(&twice);
		CHECK(tf->cons->to_ipf(tf, &acc) == 0);
		brute(s, len, k, &bf);
		CHECK(rt_ipf_equal(&acc, &bf));
		kp_ipf_free(&acc);
		kp_ipf_free(&bf);
		kp_tfunc_free(tf);
	}
}

/* This process's resident set in KiB (/proc/self/statm), or -1. */
static long rss_kb(void)
{
	long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f)
		return -1;
	int n = fscanf(f, "%ld %ld", &size, &resident);
	fclose(f);
	return n == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

/* k = 1 with many paths: a sparse counter array up to KP_COUNTS_SPARSE_MAX
 * paths, counted inline (lim = num_paths) and zeroed without committing
 * its untouched pages; one path more, the hash table. */
static void counts_sparse(void)
{
	static const uint64_t npaths[] = { KP_COUNTS_ARRAY_MAX + 1, 557901, 58382670, KP_COUNTS_SPARSE_MAX };
	static uint64_t s[20000];
	for (size_t pi = 0; pi < sizeof npaths / sizeof *npaths; pi++) {
		/* 2,000 IDs in the largest array: each random one commits a page */
		size_t nitems = npaths[pi] > 1000000 ? 2000 : 20000;
		struct kpath_rt_func f = { .num_paths = npaths[pi] };
		struct kp_tfunc *tf = kp_tfunc_new(&f, 1);
		struct kp_cursor c;
		struct kp_ipf on, bf;
		CHECK(tf && tf->u.counts.arr && tf->u.counts.map_bytes && tf->u.counts.narr == npaths[pi]);
		if (!tf)
			continue;
		CHECK(kp_ipf_init(&on) == 0 && kp_ipf_init(&bf) == 0);
		rng_state = 7 + pi;
		tf->cons->enter(tf, &c);
		CHECK(c.lim == npaths[pi]);
		for (size_t i = 0; i < nitems; i++) {
			/* the first and last IDs, and a spread of others */
			s[i] = i % 5 == 0 ? 0 : i % 5 == 1 ? npaths[pi] - 1 : rnd() % npaths[pi];
			kp_tfunc_item(tf, &c, s[i]);
		}
		CHECK(tf->cons->to_ipf(tf, &on) == 0);
		CHECK(rt_ngrams(&bf, s, nitems, 1) == 0);
		CHECK(rt_ipf_equal(&on, &bf));
		CHECK(tf->cons->sum(tf) == nitems);
		tf->cons->zero(tf);
		CHECK(tf->cons->sum(tf) == 0);
		kp_ipf_free(&on);
		kp_ipf_free(&bf);
		kp_tfunc_free(tf);
	}
	/* only the pages written are committed: two counts, a sum, a
	 * snapshot and a zero of the largest array (8 MB of address space)
	 * leave the resident set almost as it was */
	long rss0 = rss_kb();
	struct kpath_rt_func wide = { .num_paths = KP_COUNTS_SPARSE_MAX };
	struct kp_tfunc *tw = kp_tfunc_new(&wide, 1);
	struct kp_cursor cw;
	struct kp_ipf iw;
	CHECK(tw && kp_ipf_init(&iw) == 0);
	if (tw) {
		tw->cons->enter(tw, &cw);
		kp_tfunc_item(tw, &cw, 0);
		kp_tfunc_item(tw, &cw, KP_COUNTS_SPARSE_MAX - 1);
		CHECK(tw->cons->sum(tw) == 2 && tw->cons->to_ipf(tw, &iw) == 0 && iw.n == 3);
		tw->cons->zero(tw);
		/* and the scans read only the written pages: a read of another
		 * maps the zero page, which the page map shows as present (each
		 * scan read every page before kp_sparse_touched) */
		static unsigned char touched[((size_t)KP_COUNTS_SPARSE_MAX + 64) * 8 / 4096 / 8 + 8]; /* a bit per page */
		size_t page = kp_sparse_touched(tw->u.counts.arr - sizeof(struct kpath_rt_node) / sizeof(kpath_rt_u64),
		                                tw->u.counts.map_bytes, touched, sizeof touched);
		size_t npages = page ? (tw->u.counts.map_bytes + page - 1) / page : 0, present = 0;
		for (size_t i = 0; i < npages; i++)
			present += touched[i / 8] >> (i % 8) & 1;
		fprintf(stderr, "sparse counters: %zu of %zu pages present after the scans\n", present, npages);
		CHECK(page == 0 || (present >= 2 && present <= 3));
		long grew = rss_kb() - rss0;
		fprintf(stderr, "sparse counters: 2 counts in %u paths, resident set +%ld KiB\n", KP_COUNTS_SPARSE_MAX, grew);
#if defined(__SANITIZE_THREAD__)
		(void)grew; /* ThreadSanitizer writes shadow memory for every word read (4x the array) */
#else
		CHECK(rss0 > 0 && grew < 4096);
#endif
	}
	kp_ipf_free(&iw);
	kp_tfunc_free(tw);
	/* above the arrays' limit, k = 1 is the forest (consumer.c) */
	struct kpath_rt_func big = { .num_paths = (uint64_t)KP_COUNTS_SPARSE_MAX + 1 };
	struct kp_tfunc *tf = kp_tfunc_new(&big, 1);
	CHECK(tf && tf->cons == &kp_consumer_ksf);
	kp_tfunc_free(tf);
}

/* k = 1 with more paths than any array: the forest, whose root's children
 * are the paths (the inline step and the trampolines' child tables serve
 * it, where the hash table took a library call per item); and the hash
 * table itself, which a ppp function's IDs above its prefix still use. */
static void counts_hash(void)
{
	struct kpath_rt_func f = { .num_paths = 1ull << 40 };
	struct kp_tfunc *tf = kp_tfunc_new(&f, 1);
	struct kp_cursor c;
	struct kp_ipf on, bf, hs;
	struct kp_counts t;
	static uint64_t s[20000];
	CHECK(tf && tf->cons == &kp_consumer_ksf);
	CHECK(kp_ipf_init(&on) == 0 && kp_ipf_init(&bf) == 0 && kp_ipf_init(&hs) == 0);
	CHECK(kp_counts_init(&t, f.num_paths, 0) == 0 && t.arr == NULL && t.keys);
	rng_state = 5;
	tf->cons->enter(tf, &c);
	for (size_t i = 0; i < 20000; i++) {
		s[i] = (rnd() % 3000) * 1000003ull;
		kp_tfunc_item(tf, &c, s[i]);
		CHECK(kp_counts_add(&t, s[i]) == 0);
	}
	CHECK(tf->cons->to_ipf(tf, &on) == 0);
	CHECK(kp_counts_to_ipf(&t, &hs) == 0);
	CHECK(rt_ngrams(&bf, s, 20000, 1) == 0);
	CHECK(rt_ipf_equal(&on, &bf));
	CHECK(rt_ipf_equal(&hs, &bf));
	kp_ipf_free(&on);
	kp_ipf_free(&bf);
	kp_ipf_free(&hs);
	kp_counts_free(&t);
	kp_tfunc_free(tf);
}

/* Every node of a (online, under failures) is in b with a count >= its
 * own: dropping an item restarts the stream, so no n-gram is invented. */
static int subforest(struct kp_ipf *a, uint32_t va, struct kp_ipf *b, uint32_t vb)
{
	for (uint32_t c = a->nodes[va].first_child; c != KP_NONE; c = a->nodes[c].next_sibling) {
		uint32_t d = kp_ipf_find(b, vb, a->nodes[c].id);
		if (d == KP_NONE || a->nodes[c].count > b->nodes[d].count || !subforest(a, c, b, d))
			return 0;
	}
	return 1;
}

/* Allocation failures (alloc.c hook): the k-SF drops items, counts them,
 * never crashes, and records only true n-grams. */
static void alloc_failures(void)
{
	static uint64_t s[4000];
	static const unsigned long every[] = { 2, 3, 7, 31, 257 };
	rng_state = 99;
	size_t len = make_stream(s, 4000, 6, 300);
	for (size_t e = 0; e < sizeof every / sizeof *every; e++) {
		for (unsigned k = 1; k <= 6; k++) {
			struct kpath_rt_func f = { .num_paths = k == 1 ? 1ull << 20 : 6 };
			struct kp_tfunc *tf = kp_tfunc_new(&f, k);
			kp_alloc_fail_every = every[e];
			struct kp_cursor c = { 0 };
			size_t items = 0;
			CHECK(tf != NULL);
			if (!tf)
				continue;
			for (size_t i = 0; i < len; i++) {
				if (s[i] == MARK) {
					tf->cons->enter(tf, &c);
				} else {
					kp_tfunc_item(tf, &c, s[i]);
					items++;
				}
			}
			CHECK(kp_tfunc_emitted(tf) == items);
			if (every[e] <= 2 && k >= 3) /* forests beyond one segment */
				CHECK(tf->dropped > 0);
			if (k >= 2)
				CHECK(kp_ksf_sum(&tf->u.ksf) == items - tf->dropped);
			kp_alloc_fail_every = 0;
			struct kp_ipf on, bf;
			CHECK(kp_ipf_init(&on) == 0 && tf->cons->to_ipf(tf, &on) == 0);
			brute(s, len, k, &bf);
			CHECK(subforest(&on, 0, &bf, 0));
			kp_ipf_free(&on);
			kp_ipf_free(&bf);
			kp_tfunc_free(tf);
		}
	}
	/* the k-IPF builder itself leaves a forest unchanged on failure */
	struct kp_ipf t;
	uint32_t v;
	CHECK(kp_ipf_init(&t) == 0);
	kp_alloc_fail_every = 1;
	CHECK(kp_ipf_child(&t, 0, 5, &v) == KP_ENOMEM && t.n == 1);
	kp_alloc_fail_every = 0;
	kp_ipf_free(&t);
}

/* The children of x (a node of forest a) and y (of b) have the same
 * labels and the same arena indices. */
static int same_kids(const struct kp_ksf *a, const struct kpath_rt_node *x, const struct kp_ksf *b,
		     const struct kpath_rt_node *y)
{
	const struct kpath_rt_node *u, *v;
	if (kp_kids_count(x) != kp_kids_count(y))
		return 0;
	for (uint32_t i = 0; (u = kp_kids_next(x, &i));)
		if (!(v = kp_kids_find(y, u->id)) || kp_ksf_index(a, u) != kp_ksf_index(b, v))
			return 0;
	return 1;
}

/* Two k-SFs built from the same stream are the same arena node for node
 * (label, counter, links) when nodes were created in the same order. */
static int same_ksf(const struct kp_ksf *a, const struct kp_ksf *b)
{
	if (a->n != b->n || !same_kids(a, &a->start, b, &b->start))
		return 0;
	for (uint32_t i = 1; i < a->n; i++) {
		const struct kpath_rt_node *x = kp_ksf_node(a, i), *y = kp_ksf_node(b, i);
		if (x->id != y->id || x->count != y->count || x->up != y->up || x->level != y->level ||
		    !same_kids(a, x, b, y))
			return 0;
	}
	return 1;
}

/* The inline step changes nothing but speed: random streams (repetitive,
 * so that caches hit; with invalid IDs, so that lim matters) through the
 * inline step + library and through the library alone give identical
 * forests (k >= 2, and k = 1 with huge num_paths) or counters (k = 1), both
 * equal to brute force.  Labels up to 19 collide in the KPATH_RT_WAYS cache
 * slots; with huge num_paths labels are spread. */
static void inline_vs_library(void)
{
	static uint64_t s[6000];
	static const uint64_t npaths[] = { 1, 2, 3, 5, 9, 17, 5000, 100000, UINT64_MAX };
	uint64_t inl0 = n_inline, kids0 = n_kids, items0 = n_items;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		for (size_t pi = 0; pi < sizeof npaths / sizeof *npaths; pi++) {
			uint64_t np = npaths[pi];
			/* alphabet: a few more labels than valid IDs; for huge
			 * num_paths, labels spread so that root slots collide */
			unsigned alpha = np < 20 ? (unsigned)np + 2 : 40;
			rng_state = seed * 104729 + pi;
			size_t len = make_stream(s, 6000, alpha, 200);
			if (np >= 20)
				for (size_t i = 0; i < len; i++)
					if (s[i] != MARK)
						s[i] = s[i] * 4096 + s[i] % 3;
			for (unsigned k = 1; k <= 9; k++) {
				struct kp_ipf a, b, bf;
				struct kp_tfunc *ta = NULL, *tb = NULL;
				uint64_t suma = 0, sumb = 0;
				CHECK(online_n(s, len, k, np, 1, &a, &suma, &ta) == 0);
				CHECK(online_n(s, len, k, np, 0, &b, &sumb, &tb) == 0);
				/* brute force over the valid IDs only */
				static uint64_t v[6000];
				size_t m = 0;
				for (size_t i = 0; i < len; i++)
					if (s[i] == MARK || s[i] < np)
						v[m++] = s[i];
				brute(v, m, k, &bf);
				CHECK(suma == sumb && ta && tb && ta->invalid == tb->invalid);
				CHECK(rt_ipf_equal(&a, &bf) && rt_ipf_equal(&b, &bf));
				/* k = 1 above the arrays' limit is the forest too (consumer.c) */
				int forest = ta && tb && ta->cons != &kp_consumer_counts;
				if (forest && !same_ksf(&ta->u.ksf, &tb->u.ksf)) {
					fprintf(stderr, "seed %" PRIu64 " num_paths %" PRIu64 " k %u: forests differ\n",
						seed, np, k);
					rt_failures++;
				}
				if (ta && tb && !forest && ta->u.counts.arr)
					CHECK(memcmp(ta->u.counts.arr, tb->u.counts.arr,
						     (size_t)ta->u.counts.narr * sizeof *ta->u.counts.arr) == 0);
				kp_ipf_free(&a);
				kp_ipf_free(&b);
				kp_ipf_free(&bf);
				kp_tfunc_free(ta);
				kp_tfunc_free(tb);
			}
		}
	}
#ifdef KPATH_RT_INLINE
	/* the inline step did a good part of the work (random streams with
	 * repetitions: each k-SF item needs two cache hits) */
	fprintf(stderr, "inline steps: %" PRIu64 ", child-table steps %" PRIu64 " of %" PRIu64 " items\n",
		n_inline - inl0, n_kids - kids0, (n_items - items0) / 2);
	CHECK(10 * (n_inline - inl0) > (n_items - items0) / 2);
	CHECK(n_kids > kids0); /* the alphabets exceed the cache slots */
#else
	(void)inl0;
	(void)kids0;
	(void)items0;
#endif
}

/* The window forest on the paper's example: its nodes are the windows
 * (the last min(j, 4) items at each item j) and their suffix chains, each
 * window's counter the number of items it ends at; the same 4-IPF. */
static void window_example(void)
{
	static const uint64_t sigma[] = { 6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3 };
	const size_t len = sizeof sigma / sizeof *sigma;
	struct kp_ksf s;
	struct kp_cursor c;
	CHECK(kp_win_init(&s, 4) == 0);
	kp_ksf_marker(&s, &c);
	for (size_t i = 0; i < len; i++)
		CHECK(kp_win_process(&s, &c, sigma[i]) == 0);
	CHECK(kp_ksf_sum(&s) == len);
	/* windows: 6, 62, 620, 6200, 2002, 0022, 0220, 2200, 2002 (again),
	 * 0022, 0220, 2200, 2002, 0023: 10 distinct windows; with their
	 * prefixes and suffix chains the forest has the nodes below. */
	static const uint64_t nodes[][4] = {
		{ 6 }, { 6, 2 }, { 6, 2, 0 }, { 6, 2, 0, 0 }, { 2 }, { 2, 0 }, { 0 },
		{ 2, 0, 0 }, { 0, 0 }, { 0, 0, 2 }, { 0, 2 }, { 2, 0, 0, 2 }, { 0, 0, 2, 2 },
		{ 0, 2, 2 }, { 2, 2 }, { 0, 2, 2, 0 }, { 2, 2, 0 }, { 2, 2, 0, 0 }, { 0, 0, 2, 3 },
		{ 0, 2, 3 }, { 2, 3 }, { 3 },
	};
	static const unsigned lens[] = { 1, 2, 3, 4, 1, 2, 1, 3, 2, 3, 2, 4, 4, 3, 2, 4, 3, 4, 4, 3, 2, 1 };
	static const uint64_t counts[] = { 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 3, 2, 0, 0, 2, 0, 2, 1, 0, 0, 0 };
	const size_t nn = sizeof lens / sizeof *lens;
	CHECK(s.n - 1 == nn);
	for (size_t i = 0; i < nn; i++) {
		const struct kpath_rt_node *v = kp_ksf_root(&s, nodes[i][0]);
		for (unsigned d = 1; v && d < lens[i]; d++)
			v = kp_kids_find(v, nodes[i][d]);
		CHECK(v != NULL && v->count == counts[i]);
	}
	struct kp_ipf ipf, bf;
	CHECK(kp_ipf_init(&ipf) == 0 && kp_ksf_to_ipf(&s, &ipf) == 0);
	CHECK(kp_ipf_init(&bf) == 0 && rt_ngrams(&bf, sigma, len, 4) == 0);
	CHECK(rt_ipf_equal(&ipf, &bf));
	kp_ipf_free(&ipf);
	/* the window forest's own conversion: one lookup per node */
	CHECK(kp_ipf_init(&ipf) == 0 && kp_win_to_ipf(&s, &ipf) == 0);
	CHECK(rt_ipf_equal(&ipf, &bf) && ipf.n == s.n);
	kp_ipf_free(&ipf);
	kp_ipf_free(&bf);
	kp_ksf_free(&s);
}

/* Child tables (kp_internal.h, struct kp_kids): a node with more
 * children than cache slots, whose labels also share one bucket of the
 * table's hash (so every lookup probes past the others, in every table
 * the node gets while it grows to 64 entries), finds each child through
 * kp_kids_find and through the trampolines' fast path, which counts it
 * and caches it in its slot pair; absent labels and nodes without a
 * table go to the library; a forest without caches (trace and WPP mode)
 * never lets the fast path count. */
static void child_tables(void)
{
	uint64_t lab[40];
	size_t nl = 0;
	for (uint64_t r = 0; nl < 40; r++)
		if ((kp_kids_hash(r) & 63) == 5)
			lab[nl++] = r;
	for (int nocache = 0; nocache <= 1; nocache++) {
		struct kp_ksf s;
		CHECK(kp_ksf_init(&s, 4) == 0);
		s.nocache = nocache;
		struct kpath_rt_node *p = kp_ksf_root_node(&s, 7), *kid[40];
		CHECK(p && kp_ksf_root(&s, 7) == p && kp_kids_count(&s.start) == 1);
		for (size_t i = 0; p && i < nl; i++) {
			kid[i] = kp_ksf_child(&s, p, lab[i], NULL);
			CHECK(kid[i] && kid[i]->id == lab[i] && kid[i]->next == kid[i] && kp_kids_count(p) == i + 1);
			for (size_t j = 0; j <= i; j++)
				CHECK(kp_kids_find(p, lab[j]) == kid[j]);
			CHECK(!kp_kids_find(p, lab[nl - 1] + 1));
		}
		uint32_t it = 0, seen = 0;
		for (const struct kpath_rt_node *x; (x = kp_kids_next(p, &it));)
			seen++;
		CHECK(seen == nl);
#ifdef KPATH_RT_INLINE
		for (size_t i = 0; p && i < nl; i++) {
			/* the slots kp_cache_put gives, where the inline step misses */
			struct kpath_rt_node want = *p;
			int missed = !kp_cache_get(p, lab[i]);
			if (missed)
				kp_cache_put(&want, kid[i]);
			struct kpath_rt_node *y = kp_tr_kids_probe(p, lab[i]);
			unsigned a = (unsigned)(lab[i] % KPATH_RT_WAYS);
			if (nocache) {
				CHECK(!y && kid[i]->count == 0);
				continue;
			}
			CHECK(y == kid[i] && kid[i]->count == 1);
			CHECK(p->slot[a] == kid[i] || p->slot[a ^ 1] == kid[i]);
			CHECK(!missed || memcmp(p->slot, want.slot, sizeof want.slot) == 0);
			for (unsigned w = 0; w < KPATH_RT_WAYS; w++)
				CHECK(!p->slot[w] || (p->slot[w]->id % KPATH_RT_WAYS) / 2 == w / 2);
		}
		CHECK(!kp_tr_kids_probe(p, lab[nl - 1] + 1));                 /* a new child */
		CHECK(!kp_tr_kids_probe(&kp_rt_idle, 7) && !kp_tr_kids_probe(&kp_rt_lib, 7)); /* no table */
		CHECK(kp_tr_kids_probe(&s.start, 7) == (nocache ? NULL : p)); /* a root (R) */
		CHECK(p->count == (nocache ? 0u : 1u));
		CHECK(kp_ksf_sum(&s) == (nocache ? 0u : nl + 1));
#endif
		kp_ksf_free(&s);
	}
}

int main(void)
{
	/* everything that builds forests through kp_tfunc_new runs with both
	 * k >= 2 consumers */
	static const char *const forests[] = { "ksf", "window" };
	for (size_t i = 0; i < sizeof forests / sizeof *forests; i++) {
		CHECK(kp_forest_select(forests[i]) == 0);
		alloc_failures();
		random_streams();
		interleaved();
		dump_delta();
		counts_sparse();
		counts_hash();
		inline_vs_library();
	}
	CHECK(kp_forest_select("slab") == -1);
	paper_example();
	window_example();
	child_tables();
	return rt_done("test_ksf");
}
