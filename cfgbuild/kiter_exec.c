/*
 * kiter_exec.c: executable model of the paper's Algorithm 3 (the
 * instrumentation), run over one activation given as its edge sequence.
 *
 * State, as in the paper: counters c[0 .. K-1] and the number t of back
 * edges taken in the current visit of the current k-iteration loop (the
 * paper's saturating itr is min(t, K-1)).  Invariant inside a visit: c[i]
 * holds the partial ID of the path that began i back edges ago, for
 * i <= min(t, K-1); that path began at the loop head (δstart, compensated)
 * iff t > i, else it is the path that entered the loop (its prefix P).
 * Outside k-iteration loops only c[0] is live.
 *
 * The dummy edges' weights are applied where the dummy edge stands for an
 * event (docs/kiter-paths.md, departure 5): Start->entry and δstart
 * initialise c[0]; δend is added to the counter a back edge records.
 */
#include "kiter.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct exec {
	const struct ki_numbering *n;
	enum ki_flag_rule rule;
	uint64_t c[KI_MAX_K];
	unsigned t;  /* back edges taken in this visit, saturated at K */
	uint64_t *ids;
	size_t cap, nids;
};

/* Weight of arc x for a counter: val, or val - cval when compensated
 * (equation 1).  Arcs out of Start are always compensated (departure 3). */
static uint64_t weight(const struct ki_numbering *n, uint32_t x, bool comp)
{
	const struct ki_arc *a = &n->arcs[x];
	return a->val - (comp ? a->cval : 0);
}

/* Whether counter c[i] is compensated.  The paper's rule ("if fδ = true")
 * uses one flag, set once K-1 back edges were taken; the path in c[i] began
 * at the head iff t > i (departure 1). */
static bool compensated(const struct exec *x, unsigned i, unsigned K)
{
	if (x->rule == KI_FLAG_PAPER)
		return x->t >= K - 1;
	return x->t > i;
}

static void record(struct exec *x, uint64_t id)
{
	if (x->nids < x->cap)
		x->ids[x->nids] = id;
	x->nids++;
}

/* Algorithm 3, "for all k-iteration profiled loop-backedges e": the
 * counters below K-1 take the back edge's weight into the next version; the
 * oldest, at K iterations, takes δend and is recorded ("if (fδ) then
 * IncrPathFreq(c[itr])"); the counters shift ("c[i] := c[i-1]") and c[0]
 * starts a path at the head with δstart's compensated weight. */
static void back_edge(struct exec *x, uint32_t e, uint32_t L)
{
	const struct ki_numbering *n = x->n;
	unsigned K = n->loops[L].k, live = x->t < K - 1 ? x->t : K - 1;
	uint32_t base = n->edge_base[e];

	for (unsigned i = 0; i <= live && i < K - 1; i++) {
		assert(n->edge_arc[base + i] != KI_NONE);
		x->c[i] += weight(n, n->edge_arc[base + i], compensated(x, i, K));
	}
	if (x->t >= K - 1) {
		assert(n->end_arc[base + K - 1] != KI_NONE);
		record(x, x->c[K - 1] + weight(n, n->end_arc[base + K - 1], compensated(x, K - 1, K)));
	}
	for (unsigned i = K - 1; i >= 1; i--)
		x->c[i] = x->c[i - 1];
	x->c[0] = weight(n, n->loops[L].start_arc, true);
	if (x->t < K)
		x->t++;
}

/* Algorithm 3, "for all k-iteration profiled loop-exit edges e":
 * "c[0] := c[itr]"; the other counters held paths that began at the head
 * and leave before K iterations: invalid, dropped.  Returns the version of
 * the surviving path (1-based) and whether it is compensated. */
static unsigned exit_loop(struct exec *x, uint32_t L, bool *comp)
{
	unsigned K = x->n->loops[L].k, j = x->t < K - 1 ? x->t : K - 1;

	*comp = compensated(x, j, K);
	x->c[0] = x->c[j];
	memset(x->c + 1, 0, (KI_MAX_K - 1) * sizeof x->c[0]);
	x->t = 0;
	return j + 1;
}

/* One edge of the run (every other case of Algorithm 3: the per-edge
 * increments "e << c[i-1] += val(e, i) [- cval(e, i)]", acyclic back edges
 * "IncrPathFreq(c[0]); c[0] := 0", and edges into End). */
static void step(struct exec *x, uint32_t e)
{
	const struct ki_numbering *n = x->n;
	const struct ki_edge *ed = &n->g->edges[e];
	uint32_t u = ed->src, v = ed->dst, L = n->kloop[u], base = n->edge_base[e];
	unsigned live = 1, ver0 = 1;
	bool comp0 = u == KI_START;

	if (L != KI_NONE && ed->back && v == n->loops[L].head) {
		back_edge(x, e, L);
		return;
	}
	if (L != KI_NONE && n->kloop[v] != L) {
		ver0 = exit_loop(x, L, &comp0);
	} else if (L != KI_NONE) {
		unsigned K = n->loops[L].k;
		live = (x->t < K - 1 ? x->t : K - 1) + 1;
	}
	if (ed->back) {
		/* back edge of an acyclic loop: c[0] is the only live counter */
		assert(live == 1);
		record(x, x->c[0] + weight(n, n->end_arc[base + ver0 - 1], comp0));
		x->c[0] = weight(n, n->loops[n->loop_of_head[v]].start_arc, true);
		return;
	}
	if (live == 1) {
		x->c[0] += weight(n, n->edge_arc[base + ver0 - 1], comp0);
	} else {
		unsigned K = n->loops[L].k;
		for (unsigned i = 0; i < live; i++)
			x->c[i] += weight(n, n->edge_arc[base + i], compensated(x, i, K));
	}
	if (v == KI_END)
		record(x, x->c[0]);
}

size_t ki_exec(const struct ki_numbering *n, const uint32_t *run, size_t len,
               enum ki_flag_rule rule, uint64_t *ids, size_t cap)
{
	struct exec x = { .n = n, .rule = rule, .ids = ids, .cap = cap };
	uint32_t at = KI_START;

	/* Algorithm 3, "Start <<": c[...] := 0, fδ := false, itr := 0; the
	 * Start->entry weight comes with the first edge. */
	for (size_t j = 0; j < len; j++) {
		if (run[j] >= n->g->nedges || n->g->edges[run[j]].src != at)
			return SIZE_MAX;
		step(&x, run[j]);
		at = n->g->edges[run[j]].dst;
	}
	if (at != KI_END)
		return SIZE_MAX;
	return x.nids;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
	return (a > b) - (a < b);
}

size_t ki_tally(uint64_t *ids, size_t n, struct ki_count *out)
{
	size_t m = 0;

	qsort(ids, n, sizeof *ids, cmp_u64);
	for (size_t j = 0; j < n; j++) {
		if (m && out[m - 1].id == ids[j])
			out[m - 1].count++;
		else
			out[m++] = (struct ki_count){ .id = ids[j], .count = 1 };
	}
	return m;
}
