/*
 * test_kiter_errors: ki_build's refusals (each with its reason), the path
 * limit, mixed mode's lowering with its reason, and ki_exec on a walk that
 * is not a run of the graph.
 */
#include "kiter.h"

#include <stdio.h>
#include <string.h>

static int failures;
#define EXPECT(cond, ...)                                                                          \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                            \
			fprintf(stderr, __VA_ARGS__);                                              \
			fputc('\n', stderr);                                                       \
			failures++;                                                                \
		}                                                                                  \
	} while (0)

/* Builds g with K = k and limit; checks the status and that err holds want. */
static void expect_build(struct ki_graph *g, unsigned k, uint64_t limit, enum ki_status want, const char *reason)
{
	static struct ki_numbering sentinel; /* ki_build must overwrite it */
	struct ki_numbering *n = &sentinel;
	char err[200] = "untouched";
	enum ki_status st = ki_build(g, &(struct ki_options){ .k = k, .limit = limit }, &n, err, sizeof err);

	EXPECT(st == want, "status %d, want %d (%s)", (int)st, (int)want, err);
	if (want != KI_OK) {
		EXPECT(n == NULL, "numbering returned on failure");
		EXPECT(strstr(err, reason) != NULL, "reason '%s' lacks '%s'", err, reason);
	}
	ki_free(st == KI_OK ? n : NULL);
}

int main(void)
{
	struct ki_graph *g;

	/* an edge into Start */
	g = ki_graph_new(3);
	ki_add_edge(g, KI_START, 2, false);
	ki_add_edge(g, 2, KI_START, false);
	ki_add_edge(g, 2, KI_END, false);
	expect_build(g, 2, 0, KI_BAD_GRAPH, "edge into Start");
	ki_graph_free(g);

	/* a cycle whose edge is not marked back */
	g = ki_graph_new(4);
	ki_add_edge(g, KI_START, 2, false);
	ki_add_edge(g, 2, 3, false);
	ki_add_edge(g, 3, 2, false);
	ki_add_edge(g, 3, KI_END, false);
	expect_build(g, 2, 0, KI_BAD_GRAPH, "cycle without a back edge");
	ki_graph_free(g);

	/* a node out of range */
	g = ki_graph_new(3);
	ki_add_edge(g, KI_START, 7, false);
	expect_build(g, 1, 0, KI_BAD_GRAPH, "out of range");
	ki_graph_free(g);

	/* a loop 2 -> 3 -> 2 with a branch 3 -> 4 | 4' -> 2: at K, 2^K-ish paths */
	g = ki_graph_new(6);
	ki_add_edge(g, KI_START, 2, false);
	ki_add_edge(g, 2, 3, false);
	ki_add_edge(g, 2, 4, false);
	ki_add_edge(g, 3, 5, false);
	ki_add_edge(g, 4, 5, false);
	ki_add_edge(g, 5, 2, true);
	ki_add_edge(g, 5, KI_END, false);
	uint64_t c3 = ki_count(g, &(struct ki_options){ .k = 3 });
	expect_build(g, 3, c3, KI_OK, "");
	expect_build(g, 3, c3 - 1, KI_TOO_MANY, "more than the limit");
	/* ki_fit from K = 3 to the K = 2 count keeps K = 2 */
	unsigned k_out[6];
	uint64_t c2 = ki_count(g, &(struct ki_options){ .k = 2 });
	EXPECT(ki_fit(g, &(struct ki_options){ .k = 3, .limit = c2 }, k_out) == c2 && k_out[2] == 2,
	       "ki_fit: K %u, want 2", k_out[2]);
	EXPECT(ki_fit(g, &(struct ki_options){ .k = 3, .limit = 1 }, k_out) == UINT64_MAX,
	       "ki_fit fits a limit below Ball-Larus");
	/* a walk that is not a run: 2 -> 4 is taken from Start's successor, then stops */
	struct ki_numbering *n;
	char err[200];
	if (ki_build(g, &(struct ki_options){ .k = 2 }, &n, err, sizeof err) == KI_OK) {
		uint64_t ids[4];
		uint32_t bad_run[] = { 0, 4 };    /* Start->2, then 4->5 from 2 */
		uint32_t unfinished[] = { 0, 1 }; /* stops at 3 */
		EXPECT(ki_exec(n, bad_run, 2, KI_FLAG_PER_COUNTER, ids, 4) == SIZE_MAX, "broken walk accepted");
		EXPECT(ki_exec(n, unfinished, 2, KI_FLAG_PER_COUNTER, ids, 4) == SIZE_MAX, "walk not at End accepted");
		EXPECT(ki_decode(n, n->total, (uint32_t[8]){ 0 }, 8) == 0, "ID total decodes");
		ki_free(n);
	}
	ki_graph_free(g);

	/* nested loops: the outer one is acyclic (not innermost), with its reason;
	 * an irreducible loop is acyclic too */
	g = ki_graph_new(6);
	ki_add_edge(g, KI_START, 2, false); /* 2: outer head */
	ki_add_edge(g, 2, 3, false);        /* 3: inner head */
	ki_add_edge(g, 3, 4, false);
	ki_add_edge(g, 4, 3, true);
	ki_add_edge(g, 4, 5, false);
	ki_add_edge(g, 5, 2, true);
	ki_add_edge(g, 2, KI_END, false);
	if (ki_build(g, &(struct ki_options){ .k = 3 }, &n, err, sizeof err) == KI_OK) {
		EXPECT(n->nloops == 2 && n->loops[0].head == 2 && n->loops[0].k == 1 &&
		           n->loops[0].lowered == KI_LOWER_NOT_INNERMOST && n->loops[1].k == 3,
		       "mixed mode: outer K %u (reason %d), inner K %u", n->loops[0].k, (int)n->loops[0].lowered,
		       n->loops[1].k);
		EXPECT(ki_check(n, 100000, err, sizeof err), "ki_check: %s", err);
		ki_free(n);
	} else {
		EXPECT(0, "nested: %s", err);
	}
	ki_graph_free(g);

	g = ki_graph_new(5);
	ki_add_edge(g, KI_START, 2, false);
	ki_add_edge(g, 2, 3, false); /* 3: head */
	ki_add_edge(g, 2, 4, false); /* goto into the body */
	ki_add_edge(g, 3, 4, false);
	ki_add_edge(g, 4, 3, true);
	ki_add_edge(g, 4, KI_END, false);
	if (ki_build(g, &(struct ki_options){ .k = 2 }, &n, err, sizeof err) == KI_OK) {
		EXPECT(n->loops[0].k == 1 && n->loops[0].lowered == KI_LOWER_IRREDUCIBLE, "irreducible: K %u",
		       n->loops[0].k);
		ki_free(n);
	} else {
		EXPECT(0, "irreducible: %s", err);
	}
	ki_graph_free(g);

	if (!failures)
		printf("errors and limits: ok\n");
	return failures != 0;
}
