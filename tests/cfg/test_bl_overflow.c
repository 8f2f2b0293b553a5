/*
 * Overflow and uncuttable edges: a chain of 70 diamonds has 2^70 paths,
 * more than uint64_t holds; bl_build must cut edges (or fail with a reason
 * when it may not), and the result must still be a perfect numbering.
 */
#include "bltest.h"
#include "dag_test.h"

/* ENTRY -> t0; t_i -> l_i, r_i -> j_i -> t_{i+1}; last j -> EXIT. */
static struct cfg *diamonds(uint32_t n, bool can_cut)
{
	struct cfg *g = cfg_new();
	uint32_t i, prev = CFG_ENTRY;

	for (i = 0; i < n; i++) {
		uint32_t t = cfg_add_block(g, 4 * i + 1), l = cfg_add_block(g, 4 * i + 2);
		uint32_t r = cfg_add_block(g, 4 * i + 3), j = cfg_add_block(g, 4 * i + 4);

		cfg_add_edge(g, prev, t, 0, prev, can_cut);
		cfg_add_edge(g, t, l, 0, t, can_cut);
		cfg_add_edge(g, t, r, 1, t, can_cut);
		cfg_add_edge(g, l, j, 0, l, can_cut);
		cfg_add_edge(g, r, j, 0, r, can_cut);
		prev = j;
	}
	cfg_add_edge(g, prev, CFG_EXIT, 0, prev, can_cut);
	return g;
}

/* Random walks: the ID is in range and decodes back to the same edges. */
static void sample(const struct bl_dag *d, int walks)
{
	uint32_t walked[600], dec[600], blocks[600];
	int k;

	for (k = 0; k < walks; k++) {
		uint64_t id;
		uint32_t n = bt_random_walk(d, walked, 600, &id), m, nb, i;

		CHECK(n > 0);
		CHECK(id < d->num_paths[CFG_ENTRY]);
		m = bt_decode_edges(d, id, dec, 600);
		nb = bl_decode(d, id, blocks, 600);
		CHECK(m == n && nb == n + 1);
		for (i = 0; i < n && m == n; i++)
			CHECK(dec[i] == walked[i] && blocks[i + 1] == d->edges[walked[i]].dst);
	}
}

static void test_chain70(void)
{
	char err[256];
	struct cfg *g = diamonds(70, true);
	struct bl_dag *d = bl_build(g, err, sizeof err);
	uint32_t i, ncut = 0;

	CHECK(d != NULL);
	if (!d) {
		fprintf(stderr, "bl_build: %s\n", err);
		cfg_free(g);
		return;
	}
	for (i = 0; i < g->nedges; i++)
		ncut += d->role[i] == ROLE_CUT;
	printf("70 diamonds: %u cuts, %" PRIu64 " paths\n", d->ncut, d->num_paths[CFG_ENTRY]);
	CHECK(d->ncut > 0 && d->ncut == ncut);
	CHECK(d->num_paths[CFG_ENTRY] > (uint64_t)1 << 60);
	CHECK(bl_check(d, 1000, err, sizeof err)); /* local invariants only */
	sample(d, 3000);
	bl_free(d);
	cfg_free(g);

	g = diamonds(70, false);
	d = bl_build(g, err, sizeof err);
	CHECK(d == NULL);
	CHECK(strstr(err, "overflow") != NULL);
	printf("uncuttable: %s\n", err);
	bl_free(d);
	cfg_free(g);
}

/* The same with 12 diamonds (4096 paths) under a test limit of 100: small
 * enough for bl_check to enumerate every path. */
static void test_small_limit(void)
{
	char err[256];
	struct cfg *g = diamonds(12, true);
	struct bl_dag *d;
	uint32_t v;

	bl_test_path_limit = 100;
	d = bl_build(g, err, sizeof err);
	bl_test_path_limit = UINT64_MAX;
	CHECK(d != NULL);
	if (!d) {
		fprintf(stderr, "bl_build: %s\n", err);
		cfg_free(g);
		return;
	}
	printf("12 diamonds, limit 100: %u cuts, %" PRIu64 " paths\n", d->ncut, d->num_paths[CFG_ENTRY]);
	CHECK(d->ncut > 0);
	for (v = 0; v < d->nblocks; v++)
		CHECK(d->num_paths[v] <= 100);
	CHECK(bl_check(d, 1u << 20, err, sizeof err));
	sample(d, 500);
	bl_free(d);
	cfg_free(g);
}

/* A switch-like head: ENTRY -> h; h -> c_0 .. c_{ways-1} by edges with no
 * site (uncuttable, like a switch dispatch); every c_i -> t0 of a chain of
 * n diamonds (cuttable when chain_cut) -> EXIT. */
static struct cfg *switch_diamonds(uint32_t ways, uint32_t n, bool chain_cut)
{
	struct cfg *g = cfg_new();
	uint32_t h = cfg_add_block(g, 1), c[16], i, t0 = 0, prev = CFG_NONE;

	cfg_add_edge(g, CFG_ENTRY, h, 0, 0, true);
	for (i = 0; i < ways; i++) {
		c[i] = cfg_add_block(g, 2 + i);
		cfg_add_edge(g, h, c[i], i, CFG_NONE, false);
	}
	for (i = 0; i < n; i++) {
		uint32_t t = cfg_add_block(g, 100 + 4 * i), l = cfg_add_block(g, 101 + 4 * i);
		uint32_t r = cfg_add_block(g, 102 + 4 * i), j = cfg_add_block(g, 103 + 4 * i);

		if (i == 0)
			t0 = t;
		else
			cfg_add_edge(g, prev, t, 0, prev, chain_cut);
		cfg_add_edge(g, t, l, 0, t, chain_cut);
		cfg_add_edge(g, t, r, 1, t, chain_cut);
		cfg_add_edge(g, l, j, 0, l, chain_cut);
		cfg_add_edge(g, r, j, 0, r, chain_cut);
		prev = j;
	}
	for (i = 0; i < ways; i++)
		cfg_add_edge(g, c[i], t0, 0, c[i], true);
	cfg_add_edge(g, prev, CFG_EXIT, 0, prev, chain_cut);
	return g;
}

/* n switches in a row, each like the generated long_switches.c: head h ->
 * case blocks a, b, c, d, e by uncuttable dispatch edges; b falls through
 * into c; a, c, d, e -> the next head (cuttable).  5^n paths: only
 * cutting every edge into a join splits the chain. */
static struct cfg *switch_chain(uint32_t n)
{
	struct cfg *g = cfg_new();
	uint32_t i, k, h = cfg_add_block(g, 1);

	cfg_add_edge(g, CFG_ENTRY, h, 0, 0, true);
	for (i = 0; i < n; i++) {
		uint32_t cs[5], next = cfg_add_block(g, 10 * i + 10);

		for (k = 0; k < 5; k++) {
			cs[k] = cfg_add_block(g, 10 * i + 2 + k);
			cfg_add_edge(g, h, cs[k], (k + 1) % 5, CFG_NONE, false);
		}
		cfg_add_edge(g, cs[1], cs[2], 0, cs[1], true);
		for (k = 0; k < 5; k++)
			if (k != 1)
				cfg_add_edge(g, cs[k], next, 0, cs[k], true);
		h = next;
	}
	cfg_add_edge(g, h, CFG_EXIT, 0, h, true);
	return g;
}

static struct bl_dag *build_ok(const struct cfg *g, const char *what)
{
	char err[256];
	struct bl_dag *d = bl_build(g, err, sizeof err);
	uint32_t i, ncut = 0;

	CHECK(d != NULL);
	if (!d) {
		fprintf(stderr, "%s: bl_build: %s\n", what, err);
		return NULL;
	}
	for (i = 0; i < g->nedges; i++) {
		ncut += d->role[i] == ROLE_CUT;
		CHECK(d->role[i] != ROLE_CUT || g->edges[i].can_cut);
	}
	CHECK(d->ncut > 0 && d->ncut == ncut);
	CHECK(bl_check(d, 1u << 20, err, sizeof err));
	printf("%s: %u cuts, %" PRIu64 " paths\n", what, d->ncut, d->num_paths[CFG_ENTRY]);
	return d;
}

/* The overflow is at a block none of whose out-edges can be cut: edges
 * below it must be cut instead. */
static void test_cut_below(void)
{
	char err[256];
	struct cfg *g;
	struct bl_dag *d;
	uint32_t v;

	/* 3 ways into 2^70 paths: the chain itself overflows too */
	g = switch_diamonds(3, 70, true);
	d = build_ok(g, "3-way dispatch + 70 diamonds");
	if (d) {
		CHECK(d->ncut <= 16);
		sample(d, 3000);
	}
	bl_free(d);
	cfg_free(g);

	/* the reported shape: the chain fits (2^63), the dispatch does not */
	g = switch_diamonds(3, 63, true);
	d = build_ok(g, "3-way dispatch + 63 diamonds");
	if (d) {
		CHECK(d->ncut <= 4);
		sample(d, 3000);
	}
	bl_free(d);
	cfg_free(g);

	/* 12 ways, diamonds uncuttable: only the case blocks' edges remain */
	g = switch_diamonds(12, 63, false);
	d = build_ok(g, "12-way dispatch + 63 uncuttable diamonds");
	if (d)
		sample(d, 3000);
	bl_free(d);
	cfg_free(g);

	/* 40 five-way switches (5^40 ~ 2^93 paths): whole joins are cut */
	g = switch_chain(40);
	d = build_ok(g, "40 switches");
	if (d) {
		CHECK(d->ncut <= 8);
		sample(d, 3000);
	}
	bl_free(d);
	cfg_free(g);

	/* small enough to enumerate: 8 switches (390625 paths), limit 1000 */
	g = switch_chain(8);
	bl_test_path_limit = 1000;
	d = build_ok(g, "8 switches, limit 1000");
	bl_test_path_limit = UINT64_MAX;
	if (d) {
		for (v = 0; v < d->nblocks; v++)
			CHECK(d->num_paths[v] <= 1000);
		sample(d, 500);
	}
	bl_free(d);
	cfg_free(g);

	/* 3 ways into 12 diamonds (12288 paths), limit 100 */
	g = switch_diamonds(3, 12, true);
	bl_test_path_limit = 100;
	d = build_ok(g, "3-way dispatch + 12 diamonds, limit 100");
	bl_test_path_limit = UINT64_MAX;
	if (d) {
		for (v = 0; v < d->nblocks; v++)
			CHECK(d->num_paths[v] <= 100);
		sample(d, 500);
	}
	bl_free(d);
	cfg_free(g);

	/* nothing below the dispatch can be cut: fail, naming the block */
	g = switch_diamonds(3, 63, false);
	for (v = 0; v < g->nedges; v++)
		g->edges[v].can_cut = g->edges[v].src == CFG_ENTRY;
	d = bl_build(g, err, sizeof err);
	CHECK(d == NULL);
	CHECK(strstr(err, "overflows at block 2 (line 1)") && strstr(err, "can be cut"));
	printf("nothing to cut below: %s\n", err);
	bl_free(d);
	cfg_free(g);
}

/* A loop whose back edge has no insertion site. */
static void test_uncuttable_back(void)
{
	char err[256];
	struct cfg *g = cfg_new();
	uint32_t h = cfg_add_block(g, 3), b = cfg_add_block(g, 5);
	struct bl_dag *d;

	cfg_add_edge(g, CFG_ENTRY, h, 0, 0, true);
	cfg_add_edge(g, h, CFG_EXIT, 0, 1, true);
	cfg_add_edge(g, h, b, 1, 2, true);
	cfg_add_edge(g, b, h, 0, CFG_NONE, false);
	d = bl_build(g, err, sizeof err);
	CHECK(d == NULL);
	CHECK(strstr(err, "back edge from block 3") && strstr(err, "to block 2") &&
	      strstr(err, "has no insertion site"));
	printf("uncuttable back edge: %s\n", err);
	bl_free(d);
	cfg_free(g);
}

/* Tens of thousands of blocks, nested loops: nothing recurses. */
static void test_deep(void)
{
	char err[256];
	struct cfg *g = cfg_new();
	uint32_t i, n = 60000, prev = CFG_ENTRY, first = 0;
	struct bl_dag *d;

	for (i = 0; i < n; i++) {
		uint32_t v = cfg_add_block(g, i + 1);

		if (!first)
			first = v;
		cfg_add_edge(g, prev, v, 0, i, true);
		if (i % 7 == 6)
			cfg_add_edge(g, v, first + i / 2, 1, i, true); /* back */
		prev = v;
	}
	cfg_add_edge(g, prev, CFG_EXIT, 0, n, true);
	d = bl_build(g, err, sizeof err);
	CHECK(d != NULL);
	CHECK(d && bl_check(d, 100000, err, sizeof err));
	bl_free(d);
	cfg_free(g);
}

int main(void)
{
	test_chain70();
	test_small_limit();
	test_cut_below();
	test_uncuttable_back();
	test_deep();
	if (bt_failures)
		fprintf(stderr, "%d failures\n", bt_failures);
	return bt_failures != 0;
}
