/*
 * Property test: seeded random DAGs (parallel edges, nodes with no way to
 * the exit, wide and deep shapes) and random interesting subsets, checked
 * against brute-force path enumeration:
 *  - Figure 1: Ball-Larus IDs of all paths are exactly [0, N_entry);
 *    ppp_bl_decode and ppp_bl_encode agree with them;
 *  - uniqueness: interesting PPP IDs are distinct and inside [0, interval);
 *  - interval <= N_entry, and interval == |I| when I is every path;
 *  - classification: ppp_classify(ppp_id(p), bl_id(p)) gives p's slot when
 *    p is interesting and PPP_RESIDUAL for every other path;
 *  - the coder: ppp_encode(p) is p's PPP ID for interesting p and fails for
 *    the others; ppp_decode maps every non-hole ID back to its path, and
 *    exactly |I| IDs of the interval are not holes;
 *  - a slot limit demotes exactly the interesting paths at or above it;
 *  - ppp_select_top keeps the shortest hottest prefix reaching P%;
 *  - ppp_dag_from_bl on random kpath CFGs: same edges, same IDs.
 * Usage: test_ppp_random [CASES [SEED]]; ctest runs the default.
 */
#include <assert.h>

#include "cfg.h"
#include "ppptest.h"

static uint64_t compact_sum_num, compact_sum_den, cases_with_holes;

static struct ppp_dag *random_dag(void)
{
	uint32_t nnodes = 2 + pt_below(pt_below(4) == 0 ? 19 : 9), nedges = 0, cap = 64, v, k;
	uint32_t *src = malloc(cap * sizeof *src), *dst = malloc(cap * sizeof *dst);
	uint32_t density = 1 + pt_below(3);
	char err[200];
	struct ppp_dag *d;

	/* node 0 is the entry, nnodes - 1 the exit; edges go to higher ids in
	 * a random relabelling so that ids are not a topological order */
	uint32_t *label = malloc(nnodes * sizeof *label);

	for (v = 0; v < nnodes; v++)
		label[v] = v;
	for (v = nnodes - 1; v > 0; v--) {
		uint32_t j = pt_below(v + 1), x = label[v];

		label[v] = label[j];
		label[j] = x;
	}
	for (v = 0; v + 1 < nnodes; v++) {
		uint32_t deg = 1 + pt_below(density + 1);

		if (pt_below(8) == 0 && v > 0)
			deg = 0; /* a dead end: no path to the exit */
		for (k = 0; k < deg; k++) {
			uint32_t to = v + 1 + pt_below(pt_below(3) == 0 ? nnodes - v - 1 : (nnodes - v - 1 < 3 ? nnodes - v - 1 : 3));

			if (nedges + 2 > cap) {
				cap *= 2;
				src = realloc(src, cap * sizeof *src);
				dst = realloc(dst, cap * sizeof *dst);
			}
			src[nedges] = label[v];
			dst[nedges++] = label[to];
			if (pt_below(10) == 0) { /* a parallel edge */
				src[nedges] = label[v];
				dst[nedges++] = label[to];
			}
		}
	}
	d = ppp_dag_new(nnodes, label[0], label[nnodes - 1], src, dst, nedges, err, sizeof err);
	if (!d) {
		fprintf(stderr, "random dag: %s\n", err);
		exit(1);
	}
	free(src);
	free(dst);
	free(label);
	return d;
}

static bool same_path(const uint32_t *a, uint32_t la, const uint32_t *b, uint32_t lb)
{
	return la == lb && !memcmp(a, b, la * sizeof *a);
}

static void check_case(const struct ppp_dag *d, const struct pt_paths *ps)
{
	uint32_t np = ps->n, i, j, len;
	uint64_t *bl = malloc((np + 1) * sizeof *bl);
	bool *in = calloc(np + 1, sizeof *in), *seen = calloc(np + 1, sizeof *seen);
	uint32_t *buf = malloc((d->nnodes + 1) * sizeof *buf);
	uint32_t mode = pt_below(4), *idx;
	struct ppp_set *s = ppp_set_new(d);
	struct ppp_numbering *n;
	struct ppp_slots *t, *lim;
	char err[200];
	uint64_t id, nonholes = 0;

	CHECK(d->num_paths[d->entry] == np);
	/* Figure 1 against brute force */
	for (i = 0; i < np; i++) {
		bl[i] = ppp_bl_path_id(d, PT_PATH(ps, i), PT_LEN(ps, i));
		CHECK(bl[i] < np && !seen[bl[i]]);
		if (bl[i] < np)
			seen[bl[i]] = true;
		CHECK(ppp_bl_encode(d, PT_PATH(ps, i), PT_LEN(ps, i), &id) && id == bl[i]);
		len = ppp_bl_decode(d, bl[i], buf, d->nnodes + 1);
		CHECK(same_path(buf, len, PT_PATH(ps, i), PT_LEN(ps, i)));
	}
	/* the interesting subset: none, all, a random density, or one path */
	for (i = 0; i < np; i++) {
		switch (mode) {
		case 0: in[i] = pt_below(2); break;
		case 1: in[i] = pt_below(8) == 0; break;
		case 2: in[i] = pt_below(8) != 0; break;
		default: in[i] = np > 0 && i == (uint32_t)(bl[0] % np); break;
		}
		if (pt_below(50) == 0)
			in[i] = pt_below(2); /* now and then all or none */
	}
	if (pt_below(20) == 0)
		for (i = 0; i < np; i++)
			in[i] = true;
	/* added in random order, half by Ball-Larus ID, some twice */
	idx = malloc((np + 1) * sizeof *idx);
	for (i = 0; i < np; i++)
		idx[i] = i;
	for (i = np; i > 1; i--) {
		uint32_t k = pt_below(i), x = idx[i - 1];

		idx[i - 1] = idx[k];
		idx[k] = x;
	}
	for (j = 0; j < np; j++) {
		uint32_t r;

		i = idx[j];
		if (!in[i])
			continue;
		r = pt_below(2) ? ppp_set_add_bl_id(s, bl[i], err, sizeof err)
		                : ppp_set_add_edges(s, PT_PATH(ps, i), PT_LEN(ps, i), err, sizeof err);
		CHECK(r != PPP_NONE);
		if (pt_below(10) == 0)
			CHECK(ppp_set_add_bl_id(s, bl[i], err, sizeof err) == r);
	}
	n = ppp_number(d, s, err, sizeof err);
	if (!n) {
		fprintf(stderr, "ppp_number: %s\n", err);
		exit(1);
	}
	CHECK(n->npaths == ppp_set_size(s));
	CHECK(n->interval <= d->num_paths[d->entry]);
	CHECK(n->interval >= n->npaths);
	if (n->npaths == np)
		CHECK(n->interval == np);
	for (i = 0; i < n->npaths; i++) {
		CHECK(n->ppp_id[i] < n->interval);
		for (j = i + 1; j < n->npaths; j++)
			CHECK(n->ppp_id[i] != n->ppp_id[j]);
	}
	if (n->npaths) {
		compact_sum_num += n->interval;
		compact_sum_den += n->npaths;
		cases_with_holes += n->interval > n->npaths;
	}
	t = ppp_slots_new(n, UINT64_MAX);
	CHECK(t->nslots == n->interval && t->demoted == 0 && t->holes == n->interval - n->npaths);
	for (i = 0; i < np; i++) {
		uint64_t pid = ppp_path_id(n, PT_PATH(ps, i), PT_LEN(ps, i));
		uint64_t slot = ppp_classify(t, pid, bl[i]);
		bool enc = ppp_encode(n, PT_PATH(ps, i), PT_LEN(ps, i), &id);

		CHECK((slot != PPP_RESIDUAL) == in[i]);
		CHECK(enc == in[i]);
		if (in[i]) {
			CHECK(slot == pid && id == pid);
			len = ppp_decode(n, pid, buf, d->nnodes + 1);
			CHECK(same_path(buf, len, PT_PATH(ps, i), PT_LEN(ps, i)));
		}
	}
	for (id = 0; id < n->interval; id++)
		nonholes += ppp_decode(n, id, buf, d->nnodes + 1) != 0;
	CHECK(nonholes == n->npaths);
	CHECK(ppp_decode(n, n->interval, buf, d->nnodes + 1) == 0);
	/* every edge an interesting path takes is defined, no other */
	for (i = 0; i < d->nedges; i++) {
		bool used = false;

		for (j = 0; j < np && !used; j++) {
			uint32_t k;

			if (!in[j])
				continue;
			for (k = 0; k < PT_LEN(ps, j); k++)
				used |= PT_PATH(ps, j)[k] == i;
		}
		CHECK(used == n->defined[i]);
	}
	/* a slot limit */
	{
		uint64_t limit = n->interval ? pt_below((uint32_t)n->interval + 1) : 0;
		uint32_t above = 0;

		lim = ppp_slots_new(n, limit);
		for (i = 0; i < n->npaths; i++)
			above += n->ppp_id[i] >= limit;
		CHECK(lim->nslots == (n->interval < limit ? n->interval : limit) && lim->demoted == above);
		for (i = 0; i < np; i++) {
			uint64_t pid = ppp_path_id(n, PT_PATH(ps, i), PT_LEN(ps, i));

			CHECK((ppp_classify(lim, pid, bl[i]) != PPP_RESIDUAL) == (in[i] && pid < limit));
		}
		ppp_slots_free(lim);
	}
	ppp_slots_free(t);
	ppp_numbering_free(n);
	ppp_set_free(s);
	free(idx);
	free(bl);
	free(in);
	free(seen);
	free(buf);
}

/* ppp_select_top against its definition. */
static void check_select_top(void)
{
	uint32_t n = pt_below(12), i, k, kept;
	uint64_t ids[12], counts[12], total = 0, sum = 0;
	uint32_t keep[12];
	double pct = pt_below(4) == 0 ? 100.0 * pt_below(2) : pt_below(10001) / 100.0;

	for (i = 0; i < n; i++) {
		ids[i] = pt_below(50);
		counts[i] = pt_below(3) == 0 ? 0 : pt_below(100);
		total += counts[i];
	}
	kept = ppp_select_top(ids, counts, n, pct, keep);
	for (k = 0; k < kept; k++) {
		sum += counts[keep[k]];
		CHECK(counts[keep[k]] > 0);
		if (k > 0)
			CHECK(counts[keep[k - 1]] > counts[keep[k]] ||
			      (counts[keep[k - 1]] == counts[keep[k]] && ids[keep[k - 1]] <= ids[keep[k]]));
	}
	/* every kept path is at least as hot as every path left out */
	for (i = 0; i < n; i++) {
		bool is_kept = false;

		for (k = 0; k < kept; k++)
			is_kept |= keep[k] == i;
		if (!is_kept && kept)
			CHECK(counts[i] <= counts[keep[kept - 1]]);
	}
	if (pct <= 0)
		CHECK(kept == 0);
	else if (pct >= 100) {
		uint32_t ran = 0;

		for (i = 0; i < n; i++)
			ran += counts[i] > 0;
		CHECK(kept == ran);
	} else {
		CHECK((long double)sum * 100 >= (long double)pct * total || sum == total);
		if (kept)
			CHECK((long double)(sum - counts[keep[kept - 1]]) * 100 < (long double)pct * total);
	}
}

/* A random kpath CFG as in tests/cfg/test_bl_random.c (loops, gotos,
 * exits, cut edges), its bl_dag, and the PPP DAG made from it. */
static void check_from_bl(void)
{
	struct cfg *g = cfg_new();
	uint32_t nreal = 1 + pt_below(10), v, i, k;
	struct bl_dag *bd;
	struct ppp_dag *d;
	char err[200];
	uint32_t blocks[64], edges[64];

	for (i = 0; i < nreal; i++)
		cfg_add_block(g, 100 + i);
	cfg_add_edge(g, CFG_ENTRY, 2, 0, 0, true);
	for (v = 2; v < 2 + nreal; v++) {
		uint32_t deg = pt_below(4);

		if (v == 1 + nreal)
			cfg_add_edge(g, v, CFG_EXIT, 0, 0, true);
		for (k = 0; k < deg; k++) {
			uint32_t kind = pt_below(10), dst = v + 1 + pt_below(3);

			if (kind < 6)
				dst = dst < 2 + nreal ? dst : CFG_EXIT;
			else if (kind < 8)
				dst = 2 + pt_below(v - 1);
			else
				dst = CFG_EXIT;
			cfg_add_edge(g, v, dst, pt_below(3), k, true);
		}
	}
	bd = bl_build(g, err, sizeof err);
	if (!bd) {
		cfg_free(g);
		return;
	}
	d = ppp_dag_from_bl(bd, err, sizeof err);
	CHECK(d != NULL);
	if (d) {
		uint64_t id, np = bd->num_paths[CFG_ENTRY];

		CHECK(d->nedges == bd->nedges && d->num_paths[d->entry] == np);
		for (i = 0; i < d->nedges; i++)
			CHECK(d->edges[i].src == bd->edges[i].src && d->edges[i].dst == bd->edges[i].dst &&
			      d->edges[i].bl_val == bd->edges[i].val);
		for (id = 0; id < np && id < 200; id++) {
			uint32_t nb = bl_decode(bd, id, blocks, 64), ne = ppp_bl_decode(d, id, edges, 64);

			CHECK(nb == ne + 1 && ne < 64);
			for (i = 0; i < ne && i < 64; i++)
				CHECK(d->edges[edges[i]].src == blocks[i] && d->edges[edges[i]].dst == blocks[i + 1]);
		}
	}
	ppp_dag_free(d);
	bl_free(bd);
	cfg_free(g);
}

int main(int argc, char **argv)
{
	uint32_t cases = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 10000, c, skipped = 0;

	if (argc > 2)
		pt_state = strtoull(argv[2], NULL, 0) | 1;
	for (c = 0; c < cases; c++) {
		struct ppp_dag *d = random_dag();
		struct pt_paths ps;

		if (pt_enumerate(d, &ps, 3000))
			check_case(d, &ps);
		else
			skipped++;
		pt_paths_free(&ps);
		ppp_dag_free(d);
		check_select_top();
		check_from_bl();
		if (pt_failures > 20)
			break;
	}
	printf("%u random DAGs (%u too large to enumerate), mean interval/|I| %.3f, %llu with holes\n", cases,
	       skipped, compact_sum_den ? (double)compact_sum_num / compact_sum_den : 0.0,
	       (unsigned long long)cases_with_holes);
	if (skipped * 4 > cases)
		CHECK(!"too many cases skipped: the test compared too little");
	if (pt_failures) {
		fprintf(stderr, "%d checks failed\n", pt_failures);
		return 1;
	}
	return 0;
}
