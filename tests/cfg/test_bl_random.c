/*
 * Property test: random CFGs (forward-ish edges, random back edges and
 * gotos into loop bodies for irreducible flow, self loops, unreachable
 * blocks).  Every result is cross-checked against independent brute force:
 * roles (reachability, acyclicity, retreating edges), numPaths by DP over
 * the DAG rebuilt from the roles, bl_check, decode/encode round trips.
 */
#include "bltest.h"
#include "dag_test.h"

static struct cfg *random_cfg(uint32_t nreal, bool all_cut)
{
	struct cfg *g = cfg_new();
	uint32_t i, v;

	for (i = 0; i < nreal; i++)
		cfg_add_block(g, 100 + i);
	cfg_add_edge(g, CFG_ENTRY, 2, bt_below(3), 0, true);
	if (bt_below(4) == 0 && nreal > 1) /* ENTRY with two successors */
		cfg_add_edge(g, CFG_ENTRY, 2 + bt_below(nreal), bt_below(3), 0, true);
	for (v = 2; v < 2 + nreal; v++) {
		uint32_t deg = bt_below(5), k;

		if (v == 1 + nreal)
			cfg_add_edge(g, v, CFG_EXIT, 0, 0, true);
		for (k = 0; k < deg; k++) {
			uint32_t kind = bt_below(10), dst = v + 1 + bt_below(3);

			if (kind < 6) /* forward-ish */
				dst = dst < 2 + nreal ? dst : CFG_EXIT;
			else if (kind < 8) /* loop back */
				dst = 2 + bt_below(v - 1);
			else if (kind < 9) /* goto anywhere */
				dst = 2 + bt_below(nreal);
			else
				dst = CFG_EXIT;
			cfg_add_edge(g, v, dst, bt_below(3), k, all_cut || bt_below(8) != 0);
		}
	}
	return g;
}

/* Reachability from ENTRY over all CFG edges. */
static void reach(const struct cfg *g, bool *r)
{
	bool changed = true;
	uint32_t i;

	memset(r, 0, g->nblocks * sizeof *r);
	r[CFG_ENTRY] = true;
	while (changed) {
		changed = false;
		for (i = 0; i < g->nedges; i++)
			if (r[g->edges[i].src] && !r[g->edges[i].dst])
				r[g->edges[i].dst] = changed = true;
	}
}

/* Does a reach b over forward and cut edges (DFS tree edges are among them)? */
static bool fwd_reaches(const struct cfg *g, const struct bl_dag *d, uint32_t a, uint32_t b, bool *seen)
{
	bool changed = true;
	uint32_t i;

	memset(seen, 0, g->nblocks * sizeof *seen);
	seen[a] = true;
	while (changed) {
		changed = false;
		for (i = 0; i < g->nedges; i++)
			if ((d->role[i] == ROLE_FORWARD || d->role[i] == ROLE_CUT) && seen[g->edges[i].src] && !seen[g->edges[i].dst])
				seen[g->edges[i].dst] = changed = true;
	}
	return seen[b];
}

/* numPaths by memoised DP over the DAG rebuilt from roles alone: forward
 * edges, one ENTRY->w per distinct back/cut target, one v->EXIT per
 * distinct back/cut source.  Saturates at UINT64_MAX. */
static uint64_t dp(const struct cfg *g, const struct bl_dag *d, uint32_t v, uint64_t *memo, bool *ent, bool *ext, int depth)
{
	uint64_t s = 0;
	uint32_t i;

	if (v == CFG_EXIT)
		return 1;
	if (memo[v] != UINT64_MAX)
		return memo[v];
	if (depth > (int)g->nblocks + 2)
		return 0; /* a cycle: the caller's check fails */
	for (i = 0; i < g->nedges; i++)
		if (g->edges[i].src == v && d->role[i] == ROLE_FORWARD)
			s += dp(g, d, g->edges[i].dst, memo, ent, ext, depth + 1);
	if (ext[v])
		s += 1;
	if (v == CFG_ENTRY)
		for (i = 0; i < g->nblocks; i++)
			if (ent[i])
				s += dp(g, d, i, memo, ent, ext, depth + 1);
	memo[v] = s;
	return s;
}

static void check_roles(const struct cfg *g, const struct bl_dag *d, bool *r, bool *seen)
{
	uint32_t i, ncut = 0;

	reach(g, r);
	for (i = 0; i < g->nedges; i++) {
		const struct cfg_edge *e = &g->edges[i];

		CHECK((d->role[i] == ROLE_DEAD) == !r[e->src]);
		if (d->role[i] == ROLE_BACK) /* retreating: dst is a DFS ancestor */
			CHECK(e->dst == e->src || fwd_reaches(g, d, e->dst, e->src, seen));
		if (d->role[i] == ROLE_BACK || d->role[i] == ROLE_CUT)
			CHECK(e->can_cut);
		ncut += d->role[i] == ROLE_CUT;
	}
	CHECK(ncut == d->ncut);
}

static void check_counts(const struct cfg *g, const struct bl_dag *d)
{
	uint64_t *memo = malloc(g->nblocks * sizeof *memo);
	bool *ent = calloc(g->nblocks, 1), *ext = calloc(g->nblocks, 1);
	uint32_t i;

	for (i = 0; i < g->nblocks; i++)
		memo[i] = UINT64_MAX;
	for (i = 0; i < g->nedges; i++)
		if (d->role[i] == ROLE_BACK || d->role[i] == ROLE_CUT) {
			ent[g->edges[i].dst] = true;
			ext[g->edges[i].src] = true;
			CHECK(d->dummy_entry[g->edges[i].dst] != CFG_NONE);
			CHECK(d->dummy_exit[g->edges[i].src] != CFG_NONE);
		}
	CHECK(dp(g, d, CFG_ENTRY, memo, ent, ext, 0) == d->num_paths[CFG_ENTRY]);
	free(memo);
	free(ent);
	free(ext);
}

/* Every ID decodes (bl_decode and the linear decoder agree) and re-encodes. */
static void check_roundtrip(const struct bl_dag *d)
{
	uint32_t eds[256], blocks[256];
	uint64_t id;

	for (id = 0; id < d->num_paths[CFG_ENTRY]; id++) {
		uint32_t n = bt_decode_edges(d, id, eds, 256), nb = bl_decode(d, id, blocks, 256), i;
		uint64_t sum = 0;

		CHECK(n > 0 && nb == n + 1);
		for (i = 0; i < n && nb == n + 1; i++) {
			sum += d->edges[eds[i]].val;
			CHECK(blocks[i] == d->edges[eds[i]].src && blocks[i + 1] == d->edges[eds[i]].dst);
		}
		CHECK(sum == id);
	}
}

static int run(uint64_t seed, uint64_t limit, bool all_cut, int *ncut_seen)
{
	char err[256];
	struct cfg *g;
	struct bl_dag *d, *d2;
	bool *r, *seen;
	int fails = bt_failures;

	bt_rng_state = seed;
	g = random_cfg(1 + bt_below(40), all_cut);
	bl_test_path_limit = limit;
	d = bl_build(g, err, sizeof err);
	if (!d) {
		CHECK(err[0] != '\0');
		CHECK(!all_cut || limit != UINT64_MAX);
		bl_test_path_limit = UINT64_MAX;
		cfg_free(g);
		return 0;
	}
	r = malloc(g->nblocks * sizeof *r);
	seen = malloc(g->nblocks * sizeof *seen);
	check_roles(g, d, r, seen);
	check_counts(g, d);
	CHECK(d->num_paths[CFG_ENTRY] <= limit);
	CHECK(bl_check(d, 1u << 20, err, sizeof err));
	if (d->num_paths[CFG_ENTRY] <= 4000)
		check_roundtrip(d);
	d2 = bl_build(g, err, sizeof err);
	CHECK(d2 && bl_checksum(g, d) == bl_checksum(g, d2));
	*ncut_seen += d->ncut > 0;
	if (bt_failures != fails) {
		fprintf(stderr, "seed %" PRIu64 " limit %" PRIu64 ":\n", seed, limit);
		bl_dump(stderr, g, d);
	}
	bl_test_path_limit = UINT64_MAX;
	bl_free(d);
	bl_free(d2);
	free(r);
	free(seen);
	cfg_free(g);
	return 1;
}

int main(void)
{
	static const uint64_t limits[] = {UINT64_MAX, 1000, 100, 30, 8};
	int ok[5] = {0}, cuts[5] = {0}, partial = 0, dummy = 0;
	uint64_t seed;
	unsigned l;

	for (l = 0; l < 5; l++)
		for (seed = 1; seed <= 600; seed++)
			ok[l] += run(seed, limits[l], true, &cuts[l]);
	for (seed = 1; seed <= 600; seed++)
		partial += run(1000 + seed, UINT64_MAX, false, &dummy);
	for (l = 0; l < 5; l++)
		printf("limit %" PRIu64 ": %d/600 numbered, %d with cuts\n", limits[l], ok[l], cuts[l]);
	printf("random can_cut: %d/600 numbered\n", partial);
	CHECK(ok[0] == 600);
	CHECK(cuts[2] > 50 && ok[2] > 300);
	if (bt_failures)
		fprintf(stderr, "%d failures\n", bt_failures);
	return bt_failures != 0;
}
