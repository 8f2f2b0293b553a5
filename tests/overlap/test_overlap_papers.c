/*
 * The worked examples of Tallam, Zhang & Gupta (CGO 2004), exactly:
 * Table 2's loop (Tables 3, 4, 5), a loop shaped as Figure 1 describes it
 * (the DI / PI / DNI edges and dummy edges the text names), and Figure 2's
 * call (15 Type I and 10 Type II paths, Tables 6 and 7, the estimate of
 * 3.2.3).  docs/overlap.md explains the Table 5 OL-1 column.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap.h"

static int failures, checks;

#define CHECK(c)                                                                           \
	do {                                                                               \
		checks++;                                                                  \
		if (!(c)) {                                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
			failures++;                                                        \
		}                                                                          \
	} while (0)

#define CHECK_EQ(a, b)                                                                                        \
	do {                                                                                                  \
		uint64_t a_ = (a), b_ = (b);                                                                  \
		checks++;                                                                                     \
		if (a_ != b_) {                                                                               \
			fprintf(stderr, "%s:%d: %s = %" PRIu64 ", expected %" PRIu64 "\n", __FILE__, __LINE__, #a, a_, b_); \
			failures++;                                                                           \
		}                                                                                             \
	} while (0)

static void build(struct ol_func *f, uint32_t n, uint32_t entry, uint32_t exit, const uint32_t (*e)[2], uint32_t ne)
{
	uint32_t i;

	ol_func_init(f, n, entry, exit);
	for (i = 0; i < ne; i++)
		ol_func_add_edge(f, e[i][0], e[i][1]);
}

/* ---- Table 2 / Table 4: the loop ---- */

enum { En, P1, B1, P2, B2, B3, P3, Ex, NLOOP };

static const uint32_t loop_edges[][2] = {
	{ En, P1 }, { P1, B1 }, { P1, P2 }, { P2, B2 }, { P2, B3 },
	{ B1, P3 }, { B2, P3 }, { B3, P3 }, { P3, P1 }, { P3, Ex },
};

/* The three loop paths of 2.2.3. */
static const uint32_t path1[] = { P1, B1, P3 }, path2[] = { P1, P2, B2, P3 }, path3[] = { P1, P2, B3, P3 };
static const uint32_t *const paths[3] = { path1, path2, path3 };
static const uint32_t path_len[3] = { 3, 4, 4 };

/* Table 5, as printed: [theta][pair i * 3 + j] for pair (i+1)!(j+1). */
static const uint64_t real5[9] = { 250, 0, 250, 0, 250, 250, 0, 0, 0 };
static const uint64_t lower5[2][9] = {
	{ 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	{ 250, 0, 0, 0, 0, 0, 0, 0, 0 },
};
static const uint64_t upper5[2][9] = {
	{ 250, 250, 500, 250, 250, 500, 0, 0, 0 },
	{ 250, 250, 250, 0, 250, 250, 0, 0, 0 },
};
/* What equations 7 and 8 give at OL-1 (docs/overlap.md): the table but
 * for 2!3, whose lower bound is 250 and upper bound 500. */
static const uint64_t lower_eq1[9] = { 250, 0, 0, 0, 0, 250, 0, 0, 0 };
static const uint64_t upper_eq1[9] = { 250, 250, 250, 0, 250, 500, 0, 0, 0 };

static void push_iter(struct ol_event *ev, size_t *n, uint32_t k)
{
	uint32_t i;

	for (i = 0; i < path_len[k]; i++)
		ev[(*n)++] = (struct ol_event){ 0, paths[k][i] };
}

/* Index in si's first / second halves of loop path k, OL_NONE if absent. */
static uint32_t find_half(struct ol_model *m, const uint32_t *ids, uint32_t n, uint32_t k)
{
	uint32_t id = ol_seq_intern(&m->seqs, paths[k], path_len[k]), i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return i;
	return OL_NONE;
}

/* Bounds of (i+1)!(j+1) in Table 5's order; a first half never followed by
 * the back edge (path 3) has the bounds 0 / 0 of its zero row. */
static void table_order(struct ol_model *m, const struct ol_site_input *si, const struct ol_bounds *b, uint64_t *lo, uint64_t *up)
{
	uint32_t i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			uint32_t pi = find_half(m, si->p_ids, si->in.np, i), qi = find_half(m, si->q_ids, si->in.nq, j);

			CHECK(qi != OL_NONE);
			lo[i * 3 + j] = pi == OL_NONE ? 0 : b->lower[pi * si->in.nq + qi];
			up[i * 3 + j] = pi == OL_NONE ? 0 : b->upper[pi * si->in.nq + qi];
		}
}

static void test_loop(void)
{
	struct ol_func f;
	struct ol_program prog = { .funcs = &f, .nfuncs = 1 };
	struct ol_site *sites;
	struct ol_space sp;
	struct ol_model m;
	struct ol_event *ev = calloc(30000, sizeof *ev);
	size_t n = 0;
	uint64_t by[4], lo[9], up[9];
	uint32_t nsites, r, i, j, theta;

	build(&f, NLOOP, En, Ex, loop_edges, sizeof loop_edges / sizeof loop_edges[0]);
	ol_func_finish(&f);
	CHECK(f.is_back[8] && f.is_head[P1] && f.back_head[P3] == P1);
	CHECK(f.is_pred[P1] && f.is_pred[P2] && f.is_pred[P3] && !f.is_pred[B1] && !f.is_pred[En]);
	nsites = ol_sites(&prog, &sites);
	CHECK(nsites == 1 && sites[0].kind == OL_LOOP && sites[0].block == P1);
	sp = ol_site_space(&prog, &sites[0]);
	CHECK_EQ(ol_max_degree(&sp), 2); /* "the maximum overlap possible for the loop in Table 2 is only 2" */

	/* Table 3: 6, 12, 12 OL-k paths: first halves are BL paths 4-9 */
	CHECK_EQ(ol_count_first_halves(&prog, &sites[0]), 6);
	CHECK(ol_count_paths(&sp, 0, by, 1000));
	CHECK_EQ(6 * by[0], 6);
	CHECK(ol_count_paths(&sp, 1, by, 1000));
	CHECK_EQ(by[0], 0);
	CHECK_EQ(6 * by[1], 12);
	CHECK(ol_count_paths(&sp, 2, by, 1000));
	CHECK_EQ(6 * by[2], 12);
	CHECK_EQ(by[1], 1); /* P1 B1 P3: OL-1, not contained in an OL-2 path, also profiled */
	CHECK(ol_count_paths(&sp, 3, by, 1000));
	CHECK_EQ(by[0] + by[1] + by[2] + by[3], 3); /* past the maximum: the three loop paths */
	/* the overlapping graph's numbering (ro): P1 B1 P3 | P1 P2 at OL-1, the
	 * three loop paths at OL-2, each its own ID */
	for (theta = 1; theta <= 2; theta++) {
		struct ol_og og;
		struct ol_og_numbering nb;

		ol_og_build(&og, &sp, theta);
		CHECK(ol_og_number(&og, &nb));
		CHECK_EQ(nb.total, theta + 1);
		CHECK_EQ(ol_og_path_id(&og, &nb, path1, 3), 0);
		CHECK_EQ(ol_og_path_id(&og, &nb, path3, ol_og_prefix(&og, path3, 4)), theta);
		CHECK_EQ(ol_og_path_id(&og, &nb, path2, ol_og_prefix(&og, path2, 4)), 1); /* P1 P2 at OL-1, P1 P2 B2 P3 at OL-2 */
		ol_og_numbering_release(&nb);
		ol_og_release(&og);
	}

	/* 2.2.3: entered 500 times; 250 x 1!1!3, 250 x 2!2!3 */
	for (r = 0; r < 500; r++) {
		ev[n++] = (struct ol_event){ 0, En };
		push_iter(ev, &n, r < 250 ? 0 : 1);
		push_iter(ev, &n, r < 250 ? 0 : 1);
		push_iter(ev, &n, 2);
		ev[n++] = (struct ol_event){ 0, Ex };
	}
	ol_model_init(&m, &prog);
	CHECK(ol_model_run(&m, ev, n));
	CHECK_EQ(ol_model_total(&m, 0), 1000); /* B */
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			CHECK_EQ(ol_model_exact(&m, 0, ol_seq_intern(&m.seqs, paths[i], path_len[i]), ol_seq_intern(&m.seqs, paths[j], path_len[j])),
			         real5[i * 3 + j]);

	for (theta = 0; theta <= 2; theta++) {
		struct ol_site_input si;
		struct ol_bounds b;

		ol_model_input(&m, 0, theta, &si);
		CHECK(ol_estimate(&si.in, &b));
		table_order(&m, &si, &b, lo, up);
		for (i = 0; i < 9; i++)
			CHECK(lo[i] <= real5[i] && real5[i] <= up[i]);
		if (theta == 0) {
			/* E_1 = E_2 = 250, X_3 = 500: F_q - E_q is 250, 250, 500 */
			CHECK_EQ(si.in.col[find_half(&m, si.q_ids, si.in.nq, 0)], 250);
			CHECK_EQ(si.in.col[find_half(&m, si.q_ids, si.in.nq, 2)], 500);
			CHECK_EQ(si.in.np, 2); /* path 3 always ends the loop: X_3 = F_3 */
			for (i = 0; i < 9; i++) {
				CHECK_EQ(lo[i], lower5[0][i]);
				CHECK_EQ(up[i], upper5[0][i]);
			}
			CHECK_EQ(b.definite, 0);
			CHECK_EQ(b.potential, 2000); /* "off the real flow by +-100%" */
		} else if (theta == 1) {
			uint64_t nl[9], nu[9], pl[9], pu[9], tl[9], tu[9];
			uint32_t agree = 0;

			/* OF_{1!1(P3)} = F_{1!1} = 250 (2.2.3) */
			CHECK_EQ(si.in.ngroups, 2);
			for (i = 0; i < 9; i++) {
				CHECK_EQ(lo[i], lower_eq1[i]);
				CHECK_EQ(up[i], upper_eq1[i]);
				agree += lo[i] == lower5[1][i] && up[i] == upper5[1][i];
			}
			CHECK_EQ(agree, 8); /* every pair but 2!3 is as printed */
			CHECK_EQ(b.definite, 500);
			CHECK_EQ(b.potential, 1500);
			/* The printed column (definite 250, potential 1250) is not a fixed
			 * point: one round of equations 7-8 from it moves 2!3 to [250, 500].
			 * Ours is one: the round gives it back unchanged. */
			for (i = 0; i < 2; i++)
				for (j = 0; j < 3; j++) {
					uint32_t pi = find_half(&m, si.p_ids, si.in.np, i), qi = find_half(&m, si.q_ids, si.in.nq, j);

					pl[pi * 3 + qi] = lower5[1][i * 3 + j];
					pu[pi * 3 + qi] = upper5[1][i * 3 + j];
				}
			CHECK(si.in.nq == 3);
			CHECK(ol_estimate_round(&si.in, pl, pu, nl, nu));
			for (i = 0; i < 2; i++)
				for (j = 0; j < 3; j++) {
					uint32_t pi = find_half(&m, si.p_ids, si.in.np, i), qi = find_half(&m, si.q_ids, si.in.nq, j);

					tl[i * 3 + j] = nl[pi * 3 + qi];
					tu[i * 3 + j] = nu[pi * 3 + qi];
				}
			CHECK_EQ(tl[1 * 3 + 2], 250); /* equation 8: OF(2, P1 P2) - U(2!2) = 500 - 250 */
			CHECK_EQ(tu[1 * 3 + 2], 500); /* equation 7: min(500 - L(2!2), F_2 - X_2, F_3 - E_3) */
			CHECK(ol_estimate_round(&si.in, b.lower, b.upper, nl, nu));
			CHECK(!memcmp(nl, b.lower, 6 * sizeof *nl) && !memcmp(nu, b.upper, 6 * sizeof *nu));
		} else {
			/* OL-2 is the maximum overlap: exact */
			for (i = 0; i < 9; i++)
				CHECK(lo[i] == real5[i] && up[i] == real5[i]);
			CHECK(b.definite == 1000 && b.potential == 1000);
		}
		ol_bounds_release(&b);
		ol_site_input_release(&si);
	}
	ol_model_release(&m);
	free(sites);
	free(ev);
	ol_func_release(&f);
}

/* ---- Figure 1: DI, PI and DNI edges ---- */

/* The drawing is not in our copy; this loop has the paths the text of 2.3
 * names: P1 B1 P3 B2 (2 predicates to P3 -> B2) and P1 P2 P3 B2 (3). */
enum { G_En, G_P1, G_B1, G_P2, G_P3, G_B2, G_B3, G_P4, G_Ex, NFIG1 };

static const uint32_t fig1_edges[][2] = {
	{ G_En, G_P1 }, { G_P1, G_B1 }, { G_P1, G_P2 }, { G_B1, G_P3 }, { G_P2, G_P3 }, { G_P2, G_B3 },
	{ G_P3, G_B2 }, { G_P3, G_P4 }, { G_B2, G_P4 }, { G_B3, G_P4 }, { G_P4, G_P1 }, { G_P4, G_Ex },
};

static enum ol_edge_class edge_class(const struct ol_og *og, const struct ol_func *f, uint32_t u, uint32_t v)
{
	uint32_t e;

	for (e = 0; e < f->nedges; e++)
		if (f->edges[e].src == u && f->edges[e].dst == v)
			return og->cls[e];
	return OL_EDGE_NOT_IN_SPACE;
}

static void test_figure1(void)
{
	struct ol_func f;
	struct ol_program prog = { .funcs = &f, .nfuncs = 1 };
	struct ol_site *sites;
	struct ol_space sp;
	struct ol_og og;

	build(&f, NFIG1, G_En, G_Ex, fig1_edges, sizeof fig1_edges / sizeof fig1_edges[0]);
	ol_func_finish(&f);
	CHECK_EQ(ol_sites(&prog, &sites), 1);
	sp = ol_site_space(&prog, &sites[0]);
	ol_og_build(&og, &sp, 2);
	CHECK(edge_class(&og, &f, G_P1, G_P2) == OL_EDGE_DI);
	CHECK(edge_class(&og, &f, G_B1, G_P3) == OL_EDGE_DI);
	CHECK(edge_class(&og, &f, G_P3, G_B2) == OL_EDGE_PI);
	CHECK(edge_class(&og, &f, G_P4, G_P1) == OL_EDGE_NOT_IN_SPACE); /* the back edge */
	/* "P3' and P4' in (c) are connected to Ex with dummy edges" */
	CHECK(og.stop[G_P3] && og.stop[G_P4] && !og.stop[G_P1] && !og.stop[G_P2]);
	CHECK(og.in_og[G_B2] && og.in_og[G_P4]);
	ol_og_release(&og);
	ol_og_build(&og, &sp, 1);
	CHECK(edge_class(&og, &f, G_P3, G_B2) == OL_EDGE_DNI); /* Figure 1(b), overlap 1 */
	CHECK(!og.in_og[G_B2]);
	ol_og_release(&og);
	/* numbering at theta = 2: 7 paths in the graph (a PI edge may be taken
	 * past the limit), 4 OL paths, distinct IDs */
	{
		static const uint32_t o1[] = { G_P1, G_B1, G_P3, G_B2, G_P4 }, o2[] = { G_P1, G_B1, G_P3, G_P4 },
		                      o3[] = { G_P1, G_P2, G_P3 }, o4[] = { G_P1, G_P2, G_B3, G_P4 };
		struct ol_og_numbering nb;
		uint64_t id[4];

		ol_og_build(&og, &sp, 2);
		CHECK(ol_og_number(&og, &nb));
		CHECK_EQ(nb.total, 7);
		id[0] = ol_og_path_id(&og, &nb, o1, 5);
		id[1] = ol_og_path_id(&og, &nb, o2, 4);
		id[2] = ol_og_path_id(&og, &nb, o3, 3);
		id[3] = ol_og_path_id(&og, &nb, o4, 4);
		CHECK(id[0] != id[1] && id[0] != id[2] && id[0] != id[3] && id[1] != id[2] && id[1] != id[3] && id[2] != id[3]);
		CHECK_EQ(ol_og_prefix(&og, (const uint32_t[]){ G_P1, G_P2, G_P3, G_B2, G_P4 }, 5), 3);
		ol_og_numbering_release(&nb);
		ol_og_release(&og);
	}
	free(sites);
	ol_func_release(&f);
}

/* ---- Figure 2: f calls g at C1 ---- */

enum { F_En, F_P1, F_P2, F_B1, F_B2, F_B3, F_C1, F_P3, F_B4, F_B5, F_B6, F_Ex, NF };
enum { G_gEn, G_gP1, G_gP2, G_gB1, G_gP3, G_gB2, G_gB3, G_gEx, NG };

static const uint32_t f_edges[][2] = {
	{ F_En, F_P1 }, { F_P1, F_P2 }, { F_P1, F_B2 }, { F_P2, F_B1 }, { F_P2, F_B2 }, { F_B1, F_B3 }, { F_B2, F_B3 },
	{ F_B3, F_C1 }, { F_C1, F_P3 }, { F_P3, F_B4 }, { F_P3, F_B5 }, { F_B4, F_B6 }, { F_B5, F_B6 }, { F_B6, F_Ex },
};
static const uint32_t g_edges[][2] = {
	{ G_gEn, G_gP1 }, { G_gP1, G_gB3 }, { G_gP1, G_gP2 }, { G_gP2, G_gB1 }, { G_gP2, G_gP3 },
	{ G_gB1, G_gP3 }, { G_gP3, G_gB3 }, { G_gP3, G_gB2 }, { G_gB2, G_gB3 }, { G_gB3, G_gEx },
};

static void test_figure2(void)
{
	struct ol_func fn[2];
	struct ol_program prog = { .funcs = fn, .nfuncs = 2 };
	struct ol_site *sites;
	struct ol_space in, out;
	uint64_t by[5];
	uint32_t nsites;
	static const uint32_t g1[] = { G_gEn, G_gP1, G_gB3, G_gEx }, g2[] = { G_gEn, G_gP1, G_gP2, G_gB1, G_gP3, G_gB3, G_gEx };

	build(&fn[0], NF, F_En, F_Ex, f_edges, sizeof f_edges / sizeof f_edges[0]);
	ol_func_set_call(&fn[0], F_C1, 1);
	build(&fn[1], NG, G_gEn, G_gEx, g_edges, sizeof g_edges / sizeof g_edges[0]);
	ol_func_finish(&fn[0]);
	ol_func_finish(&fn[1]);
	nsites = ol_sites(&prog, &sites);
	CHECK(nsites == 2 && sites[0].kind == OL_CALL_IN && sites[1].kind == OL_CALL_OUT);
	in = ol_site_space(&prog, &sites[0]);
	out = ol_site_space(&prog, &sites[1]);

	/* 15 Type I paths: 3 ways to C1 times 5 paths of g; 10 Type II: 5 times 2 */
	CHECK_EQ(ol_count_first_halves(&prog, &sites[0]), 3);
	CHECK(ol_count_paths(&in, 4, by, 1000));
	CHECK_EQ(3 * (by[0] + by[1] + by[2] + by[3] + by[4]), 15);
	CHECK_EQ(ol_count_first_halves(&prog, &sites[1]), 5);
	CHECK(ol_count_paths(&out, 4, by, 1000));
	CHECK_EQ(5 * (by[0] + by[1] + by[2] + by[3] + by[4]), 10);

	/* Table 6: I-OL-k paths 3, 6, 6, 12; maximum degree 3 */
	CHECK_EQ(ol_max_degree(&in), 3);
	CHECK(ol_count_paths(&in, 0, by, 1000));
	CHECK_EQ(3 * by[0], 3);
	CHECK(ol_count_paths(&in, 1, by, 1000));
	CHECK_EQ(3 * by[1], 6);
	CHECK(ol_count_paths(&in, 2, by, 1000));
	CHECK_EQ(3 * by[2], 6);
	CHECK_EQ(3 * by[1], 3); /* gEn P1 B3 gEx, an I-OL-1 path also profiled at degree 2 */
	CHECK(ol_count_paths(&in, 3, by, 1000));
	CHECK_EQ(3 * by[3], 12);
	/* Table 7: II-OL-k paths 5, 10; maximum degree 1 */
	CHECK_EQ(ol_max_degree(&out), 1);
	CHECK(ol_count_paths(&out, 0, by, 1000));
	CHECK_EQ(5 * by[0], 5);
	CHECK(ol_count_paths(&out, 1, by, 1000));
	CHECK_EQ(5 * by[1], 10);

	/* Table 6's examples: OL-1 ends at gEx (a predicate by assumption), OL-2 at P3 */
	{
		struct ol_og og;

		ol_og_build(&og, &in, 0);
		CHECK_EQ(ol_og_prefix(&og, g1, 4), 2); /* gEn P1 */
		ol_og_release(&og);
		ol_og_build(&og, &in, 1);
		CHECK_EQ(ol_og_prefix(&og, g1, 4), 4);
		CHECK_EQ(ol_og_prefix(&og, g2, 7), 3); /* gEn P1 P2 */
		ol_og_release(&og);
		ol_og_build(&og, &in, 2);
		CHECK_EQ(ol_og_prefix(&og, g2, 7), 5); /* gEn P1 P2 B1 P3 */
		ol_og_release(&og);
	}

	/* 3.2.3's estimate, with the paper's numbers: C = 100, every sequence
	 * 200, 1!1 the only path run (100 times).  BL: every path in [0, 100];
	 * I-OL-1: exact. */
	{
		uint64_t row[3] = { 200, 200, 200 }, col[5] = { 200, 200, 200, 200, 200 };
		uint32_t group0[5] = { 0, 0, 0, 0, 0 }, group1[5] = { 0, 1, 1, 1, 1 };
		uint64_t of0[3] = { 200, 200, 200 }, of1[6] = { 100, 0, 0, 0, 0, 0 };
		struct ol_est_input bl = { .np = 3, .nq = 5, .ngroups = 1, .group = group0, .of = of0, .row = row, .col = col, .total = 100, .use_total = true };
		struct ol_est_input ol1 = { .np = 3, .nq = 5, .ngroups = 2, .group = group1, .of = of1, .row = row, .col = col, .total = 100, .use_total = true };
		struct ol_bounds b;
		uint32_t i;

		CHECK(ol_estimate(&bl, &b));
		for (i = 0; i < 15; i++)
			CHECK(b.lower[i] == 0 && b.upper[i] == 100);
		ol_bounds_release(&b);
		CHECK(ol_estimate(&ol1, &b));
		for (i = 0; i < 15; i++)
			CHECK(b.lower[i] == (i == 0 ? 100u : 0u) && b.upper[i] == b.lower[i]);
		ol_bounds_release(&b);
		/* counts whose sums could overflow int64 are refused, not bounded wrongly */
		row[1] = (uint64_t)1 << 62;
		CHECK(!ol_estimate(&ol1, &b) && !b.lower && !b.upper);
		row[1] = 200;
	}

	/* The same through the model: f runs path 1 to C1 100 times, g path 1 */
	{
		static const uint32_t fpre[] = { F_En, F_P1, F_P2, F_B1, F_B3, F_C1 }, fpost[] = { F_P3, F_B4, F_B6, F_Ex };
		struct ol_event ev[1400];
		struct ol_model m;
		struct ol_site_input si;
		struct ol_bounds b;
		size_t n = 0;
		uint32_t r, i;

		for (r = 0; r < 100; r++) {
			for (i = 0; i < 6; i++)
				ev[n++] = (struct ol_event){ 0, fpre[i] };
			for (i = 0; i < 4; i++)
				ev[n++] = (struct ol_event){ 1, g1[i] };
			for (i = 0; i < 4; i++)
				ev[n++] = (struct ol_event){ 0, fpost[i] };
		}
		ol_model_init(&m, &prog);
		CHECK(ol_model_run(&m, ev, n));
		CHECK(!ol_model_run(&m, ev, 8)); /* cut short: not a run, nothing added */
		{
			struct ol_event bad[14];

			memcpy(bad, ev, sizeof bad);
			bad[2].block = F_B2; /* P1 -> B2 is an edge, B2 -> B1 is not */
			CHECK(!ol_model_run(&m, bad, 14));
			memcpy(bad, ev, sizeof bad);
			bad[6] = (struct ol_event){ 0, F_P3 }; /* C1 calls g: g's entry must follow */
			CHECK(!ol_model_run(&m, bad, 14));
			memcpy(bad, ev, sizeof bad);
			bad[0].func = 7; /* no such function */
			CHECK(!ol_model_run(&m, bad, 14));
			memcpy(bad, ev, sizeof bad);
			bad[0] = (struct ol_event){ 1, G_gEn }; /* g run at top level, then f's blocks */
			CHECK(!ol_model_run(&m, bad, 14));
			CHECK(ol_model_run(&m, ev + 6, 4)); /* g alone, from the top: a run */
		}
		CHECK_EQ(ol_model_total(&m, 0), 100); /* the refused runs added nothing */
		CHECK_EQ(ol_model_total(&m, 1), 100);
		CHECK_EQ(ol_model_exact(&m, 0, ol_seq_intern(&m.seqs, fpre, 6), ol_seq_intern(&m.seqs, g1, 4)), 100);
		ol_model_input(&m, 0, 1, &si);
		CHECK(ol_estimate(&si.in, &b));
		CHECK(si.in.np == 1 && si.in.nq == 1 && b.definite == 100 && b.potential == 100);
		ol_bounds_release(&b);
		ol_site_input_release(&si);
		ol_model_release(&m);
	}
	free(sites);
	ol_func_release(&fn[0]);
	ol_func_release(&fn[1]);
}

int main(void)
{
	test_loop();
	test_figure1();
	test_figure2();
	if (failures) {
		fprintf(stderr, "test_overlap_papers: %d of %d checks failed\n", failures, checks);
		return 1;
	}
	printf("test_overlap_papers: %d checks passed\n", checks);
	return checks > 0 ? 0 : 1;
}
