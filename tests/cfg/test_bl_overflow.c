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
	test_uncuttable_back();
	test_deep();
	if (bt_failures)
		fprintf(stderr, "%d failures\n", bt_failures);
	return bt_failures != 0;
}
