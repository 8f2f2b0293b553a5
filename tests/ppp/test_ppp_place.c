/*
 * Property test of the PPP register on the Ball-Larus spanning forest
 * (cfgbuild/ppp_place.c), on the random CFGs of tests/cfg/test_place_random.c
 * (site-less dispatch edges, split blocks, setjmp restart blocks), each with
 * a random interesting set numbered over ppp_dag_from_bl:
 *  - for every ENTRY->EXIT path of the DAG (all when at most 3000, else
 *    random walks) both registers start as garbage and run the code placed
 *    on the path's edges: the Ball-Larus register reports the path's ID and
 *    the PPP register its PPP ID (sum of W), and ppp_classify on the two
 *    reports the path's slot exactly when it is interesting;
 *  - both registers change on the same chords: tree edges and site-less
 *    edges carry no PPP code, and every edge with PPP code is a chord or an
 *    edge that carries code anyway (out of ENTRY or a restart block, into
 *    EXIT, a back or cut edge).
 */
#include "placegen.h"
#include "placement.h"
#include "ppp_place.h"

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

struct ctx {
	const struct gen *x;
	const struct bl_dag *d;
	const struct bl_placement *p;
	const struct ppp_numbering *n;
	const struct ppp_place *pp;
};

/* The code of one DAG edge for both registers. */
static void edge_code(const struct ctx *k, const struct bl_edge *b, struct bl_code *c, struct bl_code *q)
{
	const struct cfg *g = k->x->g;
	uint32_t e;

	if (b->kind == BL_EDGE_DUMMY_ENTRY) {
		e = cfg_edge_between(g, k->d, CFG_NONE, b->dst, false);
		CHECK(e != CFG_NONE && bl_code_edge(k->p, g, k->d, e, c) && c->upd == BL_UPD_SET);
		CHECK(ppp_code_edge(k->pp, k->p, g, k->d, k->n, e, q) && q->upd == BL_UPD_SET);
		c->ends = q->ends = false; /* the reset after the emit */
	} else if (b->kind == BL_EDGE_DUMMY_EXIT) {
		e = cfg_edge_between(g, k->d, b->src, CFG_NONE, true);
		CHECK(e != CFG_NONE && bl_code_edge(k->p, g, k->d, e, c) && c->ends);
		CHECK(ppp_code_edge(k->pp, k->p, g, k->d, k->n, e, q) && q->ends);
		c->upd = q->upd = BL_UPD_NONE;
	} else {
		CHECK(bl_code_edge(k->p, g, k->d, b->cfg_edge, c));
		CHECK(ppp_code_edge(k->pp, k->p, g, k->d, k->n, b->cfg_edge, q));
	}
}

/* Runs both registers along the DAG path eds[0..len) from garbage. */
static bool run_path(const struct ctx *k, const struct ppp_slots *t, const uint32_t *eds, uint32_t len, uint64_t id)
{
	uint64_t r = bt_rand(), q = bt_rand(), got = 0, got_ppp = 0, want_ppp = 0;
	bool ended = false, ended_ppp = false, interesting = false;
	uint32_t i;

	for (i = 0; i < len; i++) {
		const struct bl_edge *b = &k->d->edges[eds[i]];
		struct bl_code c, cq;

		want_ppp += (uint64_t)k->n->weight[eds[i]];
		if (k->x->restart[b->src]) {
			r = bt_rand(); /* a longjmp may land here */
			q = bt_rand();
		}
		edge_code(k, b, &c, &cq);
		if (i == 0)
			CHECK(c.upd == BL_UPD_SET && cq.upd == BL_UPD_SET);
		apply(&c, &r, &ended, &got);
		apply(&cq, &q, &ended_ppp, &got_ppp);
		if (b->dst < k->x->g->nblocks && k->x->split[b->dst] && b->dst != CFG_EXIT) {
			bl_code_start(k->p, b->dst, &c);
			ppp_code_start(k->pp, k->p, b->dst, &cq);
			apply(&c, &r, &ended, &got);
			apply(&cq, &q, &ended_ppp, &got_ppp);
		}
		CHECK(ended == (i + 1 == len) && ended_ppp == ended);
	}
	for (i = 0; i < k->n->npaths; i++)
		interesting |= k->n->bl_id[i] == id;
	CHECK((ppp_classify(t, got_ppp, got) != PPP_RESIDUAL) == interesting);
	return ended && got == id && got_ppp == want_ppp;
}

static int run(uint64_t seed, int *placed, int *refused, uint64_t *chords_both, uint64_t *chords_ppp_only)
{
	char err[256];
	struct gen x;
	struct bl_dag *d;
	struct bl_placement *p = NULL;
	struct bl_place_in in;
	struct ppp_dag *pd = NULL;
	struct ppp_set *s = NULL;
	struct ppp_numbering *n = NULL;
	struct ppp_place *pp = NULL;
	struct ppp_slots *t = NULL;
	struct ctx k;
	uint32_t eds[256], i, e;
	uint64_t id, np;
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
	pd = p ? ppp_dag_from_bl(d, err, sizeof err) : NULL;
	if (!pd)
		goto out;
	np = d->num_paths[CFG_ENTRY];
	s = ppp_set_new(pd);
	{
		uint32_t want = np < 3 ? (uint32_t)np : bt_below(np < 200 ? (uint32_t)np + 1 : 200);

		for (i = 0; i < want; i++)
			CHECK(ppp_set_add_bl_id(s, bt_rand() % np, err, sizeof err) != PPP_NONE);
	}
	n = ppp_number(pd, s, err, sizeof err);
	CHECK(n != NULL);
	if (!n)
		goto out;
	pp = ppp_place_new(p, &in, x.g, d, n, err, sizeof err);
	if (!pp) {
		CHECK(strstr(err, "switch dispatch") != NULL);
		++*refused;
		goto out;
	}
	++*placed;
	t = ppp_slots_new(n, UINT64_MAX);
	k = (struct ctx){ .x = &x, .d = d, .p = p, .n = n, .pp = pp };
	for (e = 0; e < x.g->nedges; e++) {
		struct bl_code c, cq;
		bool bl_free_edge, has_ppp;

		if (!bl_code_edge(p, x.g, d, e, &c)) {
			CHECK(!ppp_code_edge(pp, p, x.g, d, n, e, &cq));
			continue;
		}
		CHECK(ppp_code_edge(pp, p, x.g, d, n, e, &cq));
		has_ppp = cq.ends || cq.upd != BL_UPD_NONE;
		bl_free_edge = !c.ends && c.upd == BL_UPD_NONE;
		if (p->in_tree[e] || (x.g->edges[e].site == CFG_NONE && x.g->edges[e].src != CFG_ENTRY))
			CHECK(!has_ppp);
		if (has_ppp && bl_free_edge) {
			CHECK(!p->in_tree[e] && x.g->edges[e].site != CFG_NONE); /* a chord of the same forest */
			++*chords_ppp_only;
		} else if (has_ppp) {
			++*chords_both;
		}
	}
	if (np <= 3000) {
		for (id = 0; id < np; id++) {
			uint32_t len = bt_decode_edges(d, id, eds, 256);

			CHECK(len > 0 && run_path(&k, t, eds, len, id));
		}
	} else {
		for (i = 0; i < 3000; i++) {
			uint32_t len = bt_random_walk(d, eds, 256, &id);

			CHECK(len > 0 && run_path(&k, t, eds, len, id));
		}
	}
out:
	if (bt_failures != fails) {
		fprintf(stderr, "seed %" PRIu64 "\n", seed);
		bl_dump(stderr, x.g, d);
	}
	ppp_slots_free(t);
	ppp_place_free(pp);
	ppp_numbering_free(n);
	ppp_set_free(s);
	ppp_dag_free(pd);
	bl_placement_free(p);
	bl_free(d);
	cfg_free(x.g);
	return 1;
}

int main(void)
{
	int built = 0, placed = 0, refused = 0;
	uint64_t seed, both = 0, ppp_only = 0;

	for (seed = 1; seed <= 3000; seed++)
		built += run(seed, &placed, &refused, &both, &ppp_only);
	printf("%d numbered, %d with PPP placed, %d refused; edges with PPP code: %" PRIu64
	       " also with Ball-Larus code, %" PRIu64 " chords with PPP code only\n",
	       built, placed, refused, both, ppp_only);
	CHECK(placed > 1000);
	if (bt_failures)
		fprintf(stderr, "%d failures\n", bt_failures);
	return bt_failures != 0;
}
