/*
 * The worked examples of the papers, with their exact path IDs.
 */
#include "bltest.h"

/* k-BLPP paper, figure "kblpp-example": blocks A..F, back edge E->B. */
enum { A = 2, B, C, D, E, F };

static const char *name_of(uint32_t v)
{
	static const char *n[] = {"ENTRY", "EXIT", "A", "B", "C", "D", "E", "F"};

	return v < 8 ? n[v] : "?";
}

static struct cfg *kblpp_cfg(void)
{
	struct cfg *g = cfg_new();
	uint32_t i;

	for (i = A; i <= F; i++)
		cfg_add_block(g, 10 + i);
	cfg_add_edge(g, CFG_ENTRY, A, 0, 0, true);
	cfg_add_edge(g, A, B, 0, 1, true);
	cfg_add_edge(g, B, C, 1, 2, true); /* B->D comes first */
	cfg_add_edge(g, B, D, 0, 3, true);
	cfg_add_edge(g, C, E, 0, 4, true);
	cfg_add_edge(g, D, E, 0, 5, true);
	cfg_add_edge(g, E, B, 0, 6, true); /* the back edge, before E->F */
	cfg_add_edge(g, E, F, 1, 7, true);
	cfg_add_edge(g, F, CFG_EXIT, 0, 8, true);
	return g;
}

/* Decodes id with bl_decode into "B D E(back)" style text. */
static void path_text(const struct bl_dag *d, uint64_t id, char *buf, size_t len)
{
	uint32_t blocks[32], n = bl_decode(d, id, blocks, 32), i;
	size_t at = 0;

	buf[0] = '\0';
	for (i = 1; i + 1 < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i > 1 ? " " : "", name_of(blocks[i]));
	if (n >= 2 && blocks[n - 2] != F && at < len)
		snprintf(buf + at, len - at, "(back)");
}

static const char *golden_path;

/* bl_dump of the example equals the golden file (argv[1]). */
static bool same_as_golden(const struct cfg *g, const struct bl_dag *d)
{
	FILE *got = tmpfile(), *want = golden_path ? fopen(golden_path, "r") : NULL;
	bool same = got && want;
	int a, b;

	if (same) {
		bl_dump(got, g, d);
		rewind(got);
		do {
			a = getc(got);
			b = getc(want);
		} while (a == b && a != EOF);
		same = a == b;
	}
	if (!same)
		fprintf(stderr, "bl_dump differs from %s\n", golden_path ? golden_path : "(no golden file)");
	if (got)
		fclose(got);
	if (want)
		fclose(want);
	return same;
}

static void test_kblpp(void)
{
	static const char *expect[8] = {
		"B D E(back)", "B D E F", "B C E(back)", "B C E F",
		"A B D E(back)", "A B D E F", "A B C E(back)", "A B C E F",
	};
	static const uint32_t seqs[8][8] = {
		{CFG_ENTRY, B, D, E, CFG_EXIT}, {CFG_ENTRY, B, D, E, F, CFG_EXIT},
		{CFG_ENTRY, B, C, E, CFG_EXIT}, {CFG_ENTRY, B, C, E, F, CFG_EXIT},
		{CFG_ENTRY, A, B, D, E, CFG_EXIT}, {CFG_ENTRY, A, B, D, E, F, CFG_EXIT},
		{CFG_ENTRY, A, B, C, E, CFG_EXIT}, {CFG_ENTRY, A, B, C, E, F, CFG_EXIT},
	};
	static const uint32_t seqlen[8] = {5, 6, 5, 6, 6, 7, 6, 7};
	/* the 44-block trace of the figure and the stream the paper emits */
	static const char *trace = "ABCEBCEBDEBDEBCEBCEBDEBDEBCEBCEBDEBDEBCEBCEF";
	static const uint64_t stream[] = {6, 2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2, 3};
	char err[200], buf[100];
	struct cfg *g = kblpp_cfg();
	struct bl_dag *d = bl_build(g, err, sizeof err);
	uint64_t r = 0, got[20];
	uint32_t i, ngot = 0, v;

	CHECK(d != NULL);
	if (!d) {
		fprintf(stderr, "bl_build: %s\n", err);
		cfg_free(g);
		return;
	}
	CHECK(d->num_paths[CFG_ENTRY] == 8);
	CHECK(d->role[6] == ROLE_BACK);
	CHECK(d->ncut == 0);
	CHECK(bl_check(d, 1000, err, sizeof err));
	for (i = 0; i < 8; i++) {
		path_text(d, i, buf, sizeof buf);
		if (strcmp(buf, expect[i]) != 0)
			fprintf(stderr, "id %u decodes to '%s', expected '%s'\n", i, buf, expect[i]);
		CHECK(strcmp(buf, expect[i]) == 0);
		CHECK(bt_encode_blocks(d, seqs[i], seqlen[i]) == i);
	}
	CHECK(bl_decode(d, 8, NULL, 0) == 0);
	CHECK(same_as_golden(g, d));
	/* Instrumentation semantics: forward edge r += val; back edge v->w
	 * r += val(v->EXIT), emit, r = val(ENTRY->w); reaching EXIT emits. */
	r = d->edges[bt_find_edge(d, CFG_ENTRY, A, BL_EDGE_CFG)].val;
	for (v = A, i = 1; trace[i]; i++) {
		uint32_t w = (uint32_t)(trace[i] - 'A') + A;
		uint32_t cfgi;

		for (cfgi = 0; cfgi < g->nedges; cfgi++)
			if (g->edges[cfgi].src == v && g->edges[cfgi].dst == w)
				break;
		CHECK(cfgi < g->nedges);
		if (d->role[cfgi] == ROLE_BACK) {
			got[ngot++] = r + d->edges[d->dummy_exit[v]].val;
			r = d->edges[d->dummy_entry[w]].val;
		} else {
			r += d->edges[bt_find_edge(d, v, w, BL_EDGE_CFG)].val;
		}
		v = w;
	}
	got[ngot++] = r + d->edges[bt_find_edge(d, F, CFG_EXIT, BL_EDGE_CFG)].val;
	CHECK(ngot == sizeof stream / sizeof stream[0]);
	for (i = 0; i < ngot && i < sizeof stream / sizeof stream[0]; i++)
		CHECK(got[i] == stream[i]);
	bl_free(d);
	cfg_free(g);
}

/*
 * Roy & Srikant, Figure 1: 1->2, 2->{3,4}, 3->5, 4->{5,6}, 5->{2 (back), 6}.
 * Figure 2 lists the 10 acyclic paths numbered with ENTRY's real edge
 * first; kpath puts dummy ENTRY->w edges first (needed for the k-BLPP
 * example's IDs), so each ID here is the paper's plus 5, mod 10.
 */
static void test_roy_srikant(void)
{
	static const char *paper[10] = {
		"1-2-3-5-6", "1-2-3-5", "1-2-4-5-6", "1-2-4-5", "1-2-4-6",
		"2-3-5-6", "2-3-5", "2-4-5-6", "2-4-5", "2-4-6",
	};
	struct cfg *g = cfg_new();
	struct bl_dag *d;
	char err[200];
	uint32_t n1, i, back, freq[10] = {0};
	uint32_t blocks[16];
	uint64_t r;
	int step;

	n1 = cfg_add_block(g, 1); /* node k is block n1 + k - 1 */
	for (i = 2; i <= 6; i++)
		cfg_add_block(g, i);
#define N(k) (n1 + (k) - 1)
	cfg_add_edge(g, CFG_ENTRY, N(1), 0, 0, true);
	cfg_add_edge(g, N(1), N(2), 0, 1, true);
	cfg_add_edge(g, N(2), N(3), 0, 2, true);
	cfg_add_edge(g, N(2), N(4), 1, 3, true);
	cfg_add_edge(g, N(3), N(5), 0, 4, true);
	cfg_add_edge(g, N(4), N(5), 0, 5, true);
	cfg_add_edge(g, N(4), N(6), 1, 6, true);
	cfg_add_edge(g, N(5), N(6), 0, 7, true);
	back = cfg_add_edge(g, N(5), N(2), 1, 8, true);
	cfg_add_edge(g, N(6), CFG_EXIT, 0, 9, true);
	d = bl_build(g, err, sizeof err);
	CHECK(d != NULL);
	if (!d) {
		cfg_free(g);
		return;
	}
	CHECK(d->role[back] == ROLE_BACK);
	CHECK(d->num_paths[CFG_ENTRY] == 10);
	CHECK(bl_check(d, 1000, err, sizeof err));
	for (i = 0; i < 10; i++) {
		uint32_t n = bl_decode(d, (i + 5) % 10, blocks, 16), k;
		char buf[64];
		size_t at = 0;

		buf[0] = '\0';
		for (k = 1; k + 1 < n; k++)
			at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%u", k > 1 ? "-" : "", blocks[k] - n1 + 1);
		if (strcmp(buf, paper[i]) != 0)
			fprintf(stderr, "paper path %u: got %s, expected %s\n", i, buf, paper[i]);
		CHECK(strcmp(buf, paper[i]) == 0);
	}
	/* Figure 1's trace 1-(2-3-5-2-4-5)^100-6 and its acyclic frequencies:
	 * 1-2-3-5 once, 2-3-5 99, 2-4-5 99, 2-4-5-6 once. */
	r = d->edges[bt_find_edge(d, CFG_ENTRY, N(1), BL_EDGE_CFG)].val;
	r += d->edges[bt_find_edge(d, N(1), N(2), BL_EDGE_CFG)].val;
	for (step = 0; step < 200; step++) {
		uint32_t mid = step % 2 ? N(4) : N(3);

		r += d->edges[bt_find_edge(d, N(2), mid, BL_EDGE_CFG)].val;
		r += d->edges[bt_find_edge(d, mid, N(5), BL_EDGE_CFG)].val;
		if (step == 199)
			break;
		freq[(r + d->edges[d->dummy_exit[N(5)]].val + 5) % 10]++; /* paper's ID */
		r = d->edges[d->dummy_entry[N(2)]].val;
	}
	r += d->edges[bt_find_edge(d, N(5), N(6), BL_EDGE_CFG)].val;
	r += d->edges[bt_find_edge(d, N(6), CFG_EXIT, BL_EDGE_CFG)].val;
	freq[(r + 5) % 10]++;
#undef N
	CHECK(freq[1] == 1 && freq[6] == 99 && freq[8] == 99 && freq[7] == 1);
	CHECK(freq[0] + freq[2] + freq[3] + freq[4] + freq[5] + freq[9] == 0);
	bl_free(d);
	cfg_free(g);
}

int main(int argc, char **argv)
{
	golden_path = argc > 1 ? argv[1] : NULL;
	test_kblpp();
	test_roy_srikant();
	if (bt_failures)
		fprintf(stderr, "%d failures\n", bt_failures);
	return bt_failures != 0;
}
