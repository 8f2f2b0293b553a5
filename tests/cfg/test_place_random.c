/*
 * Property test of the spanning-forest placement (cfgbuild/placement.c) on
 * random CFGs with site-less edges (switch dispatch), split blocks (case
 * labels: a start site that runs on every entry) and setjmp restart blocks
 * (entered by forced cuts; after a longjmp the register holds garbage).
 *
 * For every ENTRY->EXIT path of the DAG (all of them when there are at most
 * 3000, else random walks), the code the placement puts on the path's edges
 * is executed on a register that starts as garbage: the path must start with
 * an absolute assignment (the initialisation or the reset after a back
 * edge), and the ID reported at its end must equal the sum of the Ball-Larus
 * vals along it.  Also: tree edges and site-less edges carry nothing; when
 * bl_place refuses, an independent check confirms that no placement exists
 * (site-less edges that must end a path or leave a restart block, or a cycle
 * of site-less edges whose signed sum of vals is not 0); and the coded edges
 * weigh no more (sum of 4^depth) than the edges the old scheme instrumented
 * (every non-zero val), on graphs without split blocks.  A fixed nested-loop
 * case pins the loop depths, the edge weights and where the one chord goes.
 * The stage checkers of cfgbuild/stages.c accept every placement and
 * numbering built here and reject each one corrupted.
 */
#include <math.h>

#include "placegen.h"
#include "placement.h"
#include "stages.h"

static int mutations_caught, mutations_tried;

/* The stage checkers (cfgbuild/stages.c) accept what the stages built and
 * catch a corruption: a chord that needs an increment put in the tree (so
 * it carries nothing), a back edge relabelled forward. */
static void checkers(const struct gen *x, const struct bl_dag *d, struct bl_placement *p)
{
	char err[256];
	uint32_t e;

	CHECK(check_backedges(x->g, d, err, sizeof err));
	CHECK(check_placement(x->g, d, p, err, sizeof err));
	for (e = 0; e < x->g->nedges; e++) {
		struct bl_code c;

		if (d->role[e] == ROLE_FORWARD && bl_code_edge(p, x->g, d, e, &c) && c.upd == BL_UPD_ADD) {
			p->in_tree[e] = true;
			mutations_tried++;
			mutations_caught += !check_placement(x->g, d, p, err, sizeof err);
			p->in_tree[e] = false;
			break;
		}
	}
	for (e = 0; e < x->g->nedges; e++)
		if (d->role[e] == ROLE_BACK) {
			d->role[e] = ROLE_FORWARD;
			mutations_tried++;
			mutations_caught += !check_backedges(x->g, d, err, sizeof err);
			d->role[e] = ROLE_BACK;
			break;
		}
}

/* Code of one edge applied to r; returns the reported ID in *id when the
 * edge ends a path. */
static void apply(const struct bl_code *c, uint64_t *r, bool *ended, uint64_t *id)
{
	if (c->ends) {
		*ended = true;
		*id = c->end_rel ? *r + c->end : c->end;
	}
	if (c->upd == BL_UPD_ADD)
		*r += c->val;
	else if (c->upd == BL_UPD_SET)
		*r = c->val;
}

static uint32_t cfg_edge_between(const struct cfg *g, const struct bl_dag *d, uint32_t src, uint32_t dst, bool back_src)
{
	uint32_t e;

	for (e = 0; e < g->nedges; e++)
		if ((d->role[e] == ROLE_BACK || d->role[e] == ROLE_CUT) &&
		    (back_src ? g->edges[e].src == src : g->edges[e].dst == dst))
			return e;
	return CFG_NONE;
}

/* Runs the placed code along the DAG path eds[0..n); true when it reports id. */
static bool run_path(const struct gen *x, const struct bl_dag *d, const struct bl_placement *p, const uint32_t *eds,
                     uint32_t n, uint64_t id)
{
	const struct cfg *g = x->g;
	uint64_t r = bt_rand(), got = 0;
	bool ended = false;
	uint32_t i;

	for (i = 0; i < n; i++) {
		const struct bl_edge *b = &d->edges[eds[i]];
		struct bl_code c;
		uint32_t e;

		if (x->restart[b->src])
			r = bt_rand(); /* a longjmp may land here */
		if (b->kind == BL_EDGE_DUMMY_ENTRY) {
			e = cfg_edge_between(g, d, CFG_NONE, b->dst, false);
			CHECK(e != CFG_NONE && bl_code_edge(p, g, d, e, &c) && c.upd == BL_UPD_SET);
			r = c.val; /* the reset after the emit */
		} else if (b->kind == BL_EDGE_DUMMY_EXIT) {
			e = cfg_edge_between(g, d, b->src, CFG_NONE, true);
			CHECK(e != CFG_NONE && bl_code_edge(p, g, d, e, &c) && c.ends);
			c.upd = BL_UPD_NONE;
			apply(&c, &r, &ended, &got);
		} else {
			CHECK(bl_code_edge(p, g, d, b->cfg_edge, &c));
			if (i == 0)
				CHECK(c.upd == BL_UPD_SET && !c.ends);
			apply(&c, &r, &ended, &got);
		}
		if (b->dst < g->nblocks && x->split[b->dst] && b->dst != CFG_EXIT) {
			bl_code_start(p, b->dst, &c);
			apply(&c, &r, &ended, &got);
		}
		CHECK(ended == (i + 1 == n));
	}
	return ended && got == id;
}

/* Independent evidence that no placement exists. */
static bool impossible(const struct gen *x, const struct bl_dag *d)
{
	const struct cfg *g = x->g;
	uint32_t nb = g->nblocks, i, k;
	uint64_t pot[128];
	bool set[128], changed = true;

	for (i = 0; i < d->nedges; i++) {
		const struct bl_edge *b = &d->edges[i];

		if (b->kind == BL_EDGE_CFG && b->src != CFG_ENTRY && g->edges[b->cfg_edge].site == CFG_NONE &&
		    (b->dst == CFG_EXIT || x->restart[b->src]))
			return true;
	}
	/* potentials over site-less edges only (pre-nodes nb + v): a conflict is
	 * a cycle of them with a non-zero signed sum */
	memset(set, 0, sizeof set);
	for (k = 0; k < 2 * nb; k++) {
		if (set[k])
			continue;
		set[k] = true;
		pot[k] = 0;
		changed = true;
		while (changed) {
			changed = false;
			for (i = 0; i < d->nedges; i++) {
				const struct bl_edge *b = &d->edges[i];
				uint32_t a, c;

				if (b->kind != BL_EDGE_CFG || b->src == CFG_ENTRY || g->edges[b->cfg_edge].site != CFG_NONE)
					continue;
				a = b->src;
				c = x->split[b->dst] ? nb + b->dst : b->dst;
				if (set[a] && set[c] && b->val + pot[c] - pot[a] != 0)
					return true;
				if (set[a] && !set[c]) {
					pot[c] = pot[a] - b->val;
					set[c] = changed = true;
				} else if (set[c] && !set[a]) {
					pot[a] = pot[c] + b->val;
					set[a] = changed = true;
				}
			}
		}
	}
	return false;
}

static bool free_edge(const struct gen *x, const struct bl_edge *b)
{
	return b->src == CFG_ENTRY || b->dst == CFG_EXIT || x->restart[b->src];
}

static int run(uint64_t seed, int *placed, int *refused, double *cost_new, double *cost_old)
{
	char err[256];
	struct gen x;
	struct bl_dag *d;
	struct bl_placement *p;
	struct bl_place_in in;
	uint32_t eds[256], i, e;
	uint64_t id, n;
	bool any_split = false;
	int fails = bt_failures;

	bt_rng_state = seed;
	random_graph(&x, 1 + bt_below(30));
	d = bl_build(x.g, err, sizeof err);
	if (!d) {
		cfg_free(x.g);
		return 0;
	}
	in.split = x.split;
	in.restart = x.restart;
	in.awkward = NULL;
	p = bl_place(x.g, d, &in, err, sizeof err);
	if (!p) {
		CHECK(impossible(&x, d));
		++*refused;
		goto out;
	}
	++*placed;
	checkers(&x, d, p);
	for (e = 0; e < x.g->nedges; e++) {
		struct bl_code c;

		if (!bl_code_edge(p, x.g, d, e, &c))
			continue;
		if (p->in_tree[e])
			CHECK(!c.ends && c.upd == BL_UPD_NONE);
		if (x.g->edges[e].site == CFG_NONE && x.g->edges[e].src != CFG_ENTRY)
			CHECK(!c.ends && c.upd == BL_UPD_NONE);
	}
	n = d->num_paths[CFG_ENTRY];
	if (n <= 3000) {
		for (id = 0; id < n; id++) {
			uint32_t k = bt_decode_edges(d, id, eds, 256);

			CHECK(k > 0 && run_path(&x, d, p, eds, k, id));
		}
	} else {
		for (i = 0; i < 3000; i++) {
			uint32_t k = bt_random_walk(d, eds, 256, &id);

			CHECK(k > 0 && run_path(&x, d, p, eds, k, id));
		}
	}
	for (i = 2; i < x.g->nblocks; i++)
		any_split |= x.split[i];
	if (!any_split) {
		double cn = 0, co = 0;

		for (i = 0; i < d->nedges; i++) {
			const struct bl_edge *b = &d->edges[i];
			struct bl_code c;

			if (b->kind != BL_EDGE_CFG || free_edge(&x, b))
				continue;
			bl_code_edge(p, x.g, d, b->cfg_edge, &c);
			if (c.upd != BL_UPD_NONE)
				cn += pow(4, p->weight[b->cfg_edge]);
			if (b->val != 0)
				co += pow(4, p->weight[b->cfg_edge]);
		}
		CHECK(cn <= co);
		*cost_new += cn;
		*cost_old += co;
	}
out:
	if (bt_failures != fails) {
		fprintf(stderr, "seed %" PRIu64 ": %s\n", seed, p ? "placed" : err);
		bl_dump(stderr, x.g, d);
	}
	bl_placement_free(p);
	bl_free(d);
	cfg_free(x.g);
	return 1;
}

/* A fixed case with exact expectations: a loop (header b3) holding an
 * if-else (b4 / b5, join b6) whose then arm holds an inner loop (header b8,
 * body b9).  Loop depths and edge weights are exact; the inner loop's edges
 * and every edge of depth 2 carry nothing; exactly one forward edge carries
 * code (the diamond needs one chord), and it is at depth 1. */
static void nested_case(void)
{
	char err[256];
	struct cfg *g = cfg_new();
	struct bl_dag *d;
	struct bl_placement *p;
	uint32_t e, i, coded = 0, coded_e = CFG_NONE;
	static const uint32_t ends[][2] = {{0, 2}, {2, 3}, {3, 7}, {3, 4}, {3, 5}, {4, 8}, {8, 6}, {8, 9},
	                                   {9, 8}, {5, 6}, {6, 3}, {7, 1}};
	static const uint32_t depth[] = {0, 0, 0, 1, 1, 1, 1, 0, 2, 2};
	static const uint32_t weight[] = {0, 0, 0, 1, 1, 1, 1, 2, 2, 1, 1, 0};

	for (i = 2; i < 10; i++)
		cfg_add_block(g, i);
	for (i = 0; i < sizeof ends / sizeof ends[0]; i++)
		cfg_add_edge(g, ends[i][0], ends[i][1], i == 2 || i == 6 ? 0 : 1, i ? i : CFG_NONE, i != 0);
	d = bl_build(g, err, sizeof err);
	CHECK(d != NULL);
	p = d ? bl_place(g, d, NULL, err, sizeof err) : NULL;
	CHECK(p != NULL);
	if (!p) {
		bl_free(d);
		cfg_free(g);
		return;
	}
	for (i = 2; i < 10; i++)
		CHECK(p->depth[i] == depth[i]);
	for (e = 0; e < g->nedges; e++) {
		struct bl_code c;

		if (d->role[e] != ROLE_FORWARD || g->edges[e].src == CFG_ENTRY || g->edges[e].dst == CFG_EXIT)
			continue;
		CHECK(p->weight[e] == weight[e]);
		CHECK(bl_code_edge(p, g, d, e, &c));
		if (c.upd != BL_UPD_NONE) {
			coded++;
			coded_e = e;
		}
	}
	CHECK(coded == 1 && coded_e != CFG_NONE && p->weight[coded_e] == 1);
	bl_placement_free(p);
	bl_free(d);
	cfg_free(g);
}

int main(void)
{
	int built = 0, placed = 0, refused = 0;
	double cn = 0, co = 0;
	uint64_t seed;

	nested_case();
	for (seed = 1; seed <= 3000; seed++)
		built += run(seed, &placed, &refused, &cn, &co);
	printf("%d numbered, %d placed, %d refused; coded weight %.0f vs %.0f for every non-zero val\n", built, placed,
	       refused, cn, co);
	printf("stage checkers: %d of %d corruptions caught\n", mutations_caught, mutations_tried);
	CHECK(placed > 1000);
	CHECK(cn < co);
	CHECK(mutations_tried > 1000 && mutations_caught == mutations_tried);
	if (bt_failures)
		fprintf(stderr, "%d failures\n", bt_failures);
	return bt_failures != 0;
}
