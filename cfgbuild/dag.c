/*
 * dag.c: back edges, the Ball-Larus DAG, its numbering and cutting.
 *
 * Read "Efficient Path Profiling" by Ball & Larus (1996) and the k-BLPP
 * paper's "Ball-Larus Path Tracing Algorithm" (bl_path_numbering).
 *
 * 1. An iterative DFS from ENTRY, out-edges in (order, id) order, classifies
 *    CFG edges: retreating edges (target on the DFS stack) are ROLE_BACK,
 *    edges whose source the DFS never reached are ROLE_DEAD, the rest
 *    ROLE_FORWARD.  The DFS postorder, EXIT first, is a reverse topological
 *    order of the DAG: every non-retreating edge u->v has post(u) > post(v),
 *    dummy ENTRY->w leave the DFS root, dummy v->EXIT enter the block we
 *    number first.
 * 2. A block's DAG out-edges, in numbering order: for v != ENTRY its forward
 *    CFG out-edges in (order, id) order, with the dummy v->EXIT in place of
 *    the first back or cut edge out of v; for ENTRY the dummy ENTRY->w first,
 *    by DFS discovery order of w, then its CFG out-edges.
 * 3. bl_path_numbering: val(e) = numPaths(v) before numPaths(v) +=
 *    numPaths(w).  An edge into a block with numPaths 0 (EXIT unreachable)
 *    takes part in no path: it gets no val and is not listed.
 * 4. Overflow: additions are checked against a limit (UINT64_MAX).  When a
 *    count exceeds it we renumber with a per-block threshold T: at a block
 *    whose count exceeds T we cut its cuttable out-edge with the most paths
 *    (ROLE_CUT: dummy ENTRY->w and v->EXIT, like a back edge) until the
 *    count fits.  Cutting v->w changes only numPaths(v) and ENTRY's dummy
 *    edges, so in the common case one pass in reverse topological order
 *    decides every cut.
 *    A block v with no out-edge worth cutting (a switch dispatch: its edges
 *    have no insertion site) is brought under T by cutting below it: one
 *    cuttable DAG edge x->y under v (removes about paths(v ~> x) *
 *    numPaths(y) paths from v), or every cuttable in-edge of a join y under
 *    v (splits a chain of switches, where single edges remove only a
 *    fraction); the fewest edges that bring v under T, else the most paths
 *    removed per edge (see cut_below).  The pass then resumes at the cut's
 *    place in the postorder (only blocks above the cut, v among them, can
 *    have changed), until v fits or nothing below v can be cut.  Every
 *    block keeps a fixed slot of DAG edges so renumbering overwrites them.
 *    T starts at the limit and halves while ENTRY overflows; at
 *    T = limit / (blocks + ENTRY's out-degree) every block but ENTRY holds
 *    at most T paths and ENTRY has fewer out-edges than that divisor, so
 *    ENTRY fits too whenever every over-full block could be cut.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "dag_test.h"

uint64_t bl_test_path_limit = UINT64_MAX;

enum { WHITE, GRAY, BLACK };

struct work {
	const struct cfg *g;
	uint32_t nb, ne;
	uint32_t *out_start, *out_list; /* CFG out-edges per block, (order, id) order */
	uint32_t *disc;                 /* DFS discovery index per block, CFG_NONE if unreached */
	uint32_t *by_disc, nreach;      /* reached blocks in discovery order */
	uint32_t *post;                 /* reached blocks in DFS postorder */
	uint32_t *postidx;              /* per block: its index in post */
	enum cfg_edge_role *role;
	uint64_t *num;                  /* numPaths per block */
	bool *has_entry;                /* block is the target of a back or cut edge */
	struct bl_edge *scratch;        /* one block's DAG out-edges */
	struct bl_edge *tmp;            /* numbered DAG edges, a fixed slot per block */
	uint32_t ntmp;                  /* edges kept in all slots */
	uint32_t *tstart, *tcount;      /* per block: its slot in tmp, edges kept there */
	double *pv;                     /* cutting below: paths from the over-full block */
	double *pin;                    /* cutting below: those over cuttable in-edges */
	uint32_t *nin;                  /* cutting below: cuttable in-edges */
	uint32_t resume;                /* cutting below: postorder index to resume at */
	uint32_t ncut;
	uint64_t limit;
	char *err;
	size_t errlen;
};

static bool add_checked(uint64_t a, uint64_t b, uint64_t limit, uint64_t *r)
{
	if (a > limit || b > limit - a)
		return false; /* overflow: the caller cuts or gives up */
	*r = a + b;
	return true;
}

struct out_key {
	uint32_t src, order, id;
};

static int cmp_out(const void *pa, const void *pb)
{
	const struct out_key *a = pa, *b = pb;

	if (a->src != b->src)
		return a->src < b->src ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Checks edge ends and builds out_start/out_list.  Rejects edges into ENTRY
 * or out of EXIT: the DAG's dummy edges assume neither exists. */
static bool build_out(struct work *w)
{
	const struct cfg *g = w->g;
	struct out_key *k = malloc(((size_t)w->ne + 1) * sizeof *k);
	uint32_t i;

	if (!k) {
		snprintf(w->err, w->errlen, "out of memory");
		return false;
	}
	for (i = 0; i < w->ne; i++) {
		const struct cfg_edge *e = &g->edges[i];

		if (e->src >= w->nb || e->dst >= w->nb || e->dst == CFG_ENTRY || e->src == CFG_EXIT) {
			snprintf(w->err, w->errlen, "edge %u from block %u to block %u is malformed", i, e->src, e->dst);
			free(k);
			return false;
		}
		k[i].src = e->src;
		k[i].order = e->order;
		k[i].id = i;
		w->out_start[e->src + 1]++;
	}
	for (i = 0; i < w->nb; i++)
		w->out_start[i + 1] += w->out_start[i];
	qsort(k, w->ne, sizeof *k, cmp_out);
	for (i = 0; i < w->ne; i++)
		w->out_list[i] = k[i].id;
	free(k);
	return true;
}

/* Iterative DFS from ENTRY (no recursion: functions can have tens of
 * thousands of blocks).  Sets disc, by_disc, post and every edge's role. */
static void dfs(struct work *w, uint32_t *stk, uint32_t *pos, unsigned char *state)
{
	uint32_t sp = 0, npost = 0, i;

	for (i = 0; i < w->ne; i++)
		w->role[i] = ROLE_DEAD;
	state[CFG_ENTRY] = GRAY;
	w->disc[CFG_ENTRY] = w->nreach;
	w->by_disc[w->nreach++] = CFG_ENTRY;
	stk[sp] = CFG_ENTRY;
	pos[sp++] = w->out_start[CFG_ENTRY];
	while (sp) {
		uint32_t v = stk[sp - 1], e, d;

		if (pos[sp - 1] == w->out_start[v + 1]) {
			state[v] = BLACK;
			w->postidx[v] = npost;
			w->post[npost++] = v;
			sp--;
			continue;
		}
		e = w->out_list[pos[sp - 1]++];
		d = w->g->edges[e].dst;
		w->role[e] = state[d] == GRAY ? ROLE_BACK : ROLE_FORWARD;
		if (state[d] == WHITE) {
			state[d] = GRAY;
			w->disc[d] = w->nreach;
			w->by_disc[w->nreach++] = d;
			stk[sp] = d;
			pos[sp++] = w->out_start[d];
		}
	}
}

static bool first_uncuttable_back(struct work *w)
{
	uint32_t i;

	for (i = 0; i < w->ne; i++) {
		const struct cfg_edge *e = &w->g->edges[i];

		if (w->role[i] == ROLE_BACK && !e->can_cut) {
			snprintf(w->err, w->errlen,
				 "back edge from block %u (line %u) to block %u (line %u) has no insertion site",
				 e->src, w->g->blocks[e->src].line, e->dst, w->g->blocks[e->dst].line);
			return true;
		}
	}
	return false;
}

static struct bl_edge mk(uint32_t src, uint32_t dst, enum bl_edge_kind kind, uint32_t cfg_edge)
{
	struct bl_edge b;

	b.src = src;
	b.dst = dst;
	b.kind = kind;
	b.cfg_edge = cfg_edge;
	b.val = 0;
	return b;
}

/* Marks the targets of back and cut edges: each gets one dummy ENTRY->w. */
static void mark_entries(struct work *w)
{
	uint32_t i;

	memset(w->has_entry, 0, w->nb * sizeof *w->has_entry);
	for (i = 0; i < w->ne; i++)
		if (w->role[i] == ROLE_BACK || w->role[i] == ROLE_CUT)
			w->has_entry[w->g->edges[i].dst] = true;
}

/* Fills scratch with v's DAG out-edges in numbering order (see 2. above);
 * returns how many. */
static uint32_t block_out(struct work *w, uint32_t v)
{
	uint32_t n = 0, i;
	bool exit_done = false;

	if (v == CFG_ENTRY) {
		mark_entries(w);
		for (i = 0; i < w->nreach; i++)
			if (w->has_entry[w->by_disc[i]])
				w->scratch[n++] = mk(CFG_ENTRY, w->by_disc[i], BL_EDGE_DUMMY_ENTRY, CFG_NONE);
	}
	for (i = w->out_start[v]; i < w->out_start[v + 1]; i++) {
		uint32_t e = w->out_list[i];

		if (w->role[e] == ROLE_FORWARD) {
			w->scratch[n++] = mk(v, w->g->edges[e].dst, BL_EDGE_CFG, e);
		} else if (!exit_done) {
			exit_done = true;
			w->scratch[n++] = mk(v, CFG_EXIT, BL_EDGE_DUMMY_EXIT, CFG_NONE);
		}
	}
	return n;
}

/* bl_path_numbering for one block: sets scratch vals, returns false when
 * numPaths(v) would exceed the limit.  Edges into blocks with no path get
 * val UINT64_MAX and are dropped by keep(). */
static bool number_block(struct work *w, uint32_t n, uint64_t *sum)
{
	uint32_t i;

	*sum = 0;
	for (i = 0; i < n; i++) {
		uint64_t nw = w->num[w->scratch[i].dst];

		if (nw == 0) {
			w->scratch[i].val = UINT64_MAX;
			continue;
		}
		w->scratch[i].val = *sum;
		if (!add_checked(*sum, nw, w->limit, sum))
			return false;
	}
	return true;
}

/* The out-edge of the current scratch list whose cut removes the most paths
 * from v: cuttable, forward, not into EXIT (no gain), at least 2 paths.
 * Returns its index in scratch or CFG_NONE. */
static uint32_t pick_cut(struct work *w, uint32_t n)
{
	uint32_t i, best = CFG_NONE;
	uint64_t bestn = 1;

	for (i = 0; i < n; i++) {
		const struct bl_edge *b = &w->scratch[i];

		if (b->kind != BL_EDGE_CFG || b->dst == CFG_EXIT || !w->g->edges[b->cfg_edge].can_cut)
			continue;
		if (w->num[b->dst] > bestn) {
			bestn = w->num[b->dst];
			best = i;
		}
	}
	return best;
}

/* Stores v's numbered out-edges in its slot, replacing any earlier ones. */
static void keep(struct work *w, uint32_t v, uint32_t n)
{
	uint32_t i, k = 0;

	for (i = 0; i < n; i++)
		if (w->scratch[i].val != UINT64_MAX)
			w->tmp[w->tstart[v] + k++] = w->scratch[i];
	w->ntmp += k;
	w->ntmp -= w->tcount[v];
	w->tcount[v] = k;
}

/* Slots: ENTRY's DAG out-edges are its CFG out-edges (at most one dummy
 * v->EXIT among them) plus a dummy ENTRY->w per block; every other block's
 * are its CFG out-edges plus one dummy v->EXIT.  In all ne + 2 nb. */
static void slots(struct work *w)
{
	uint32_t v, at = 0;

	for (v = 0; v < w->nb; v++) {
		w->tstart[v] = at;
		at += w->out_start[v + 1] - w->out_start[v] + 1 + (v == CFG_ENTRY ? w->nb : 0);
	}
}

/* A way to cut below an over-full block v: one edge, or every cuttable
 * in-edge of a block y from under v (a join: often the only way to split a
 * chain of switches, whose dispatch edges cannot be cut). */
struct cand {
	double gain;   /* paths removed from v, about */
	uint32_t cost; /* edges to cut */
	uint32_t edge; /* the CFG edge, or CFG_NONE for all in-edges of node */
	uint32_t node; /* the edge's source, or the block y */
};

/* Candidates that bring v down to its threshold (gain >= need) beat those
 * that do not; among them the fewest edges, otherwise the most gain per edge;
 * ties go to the first found, the nearest to v. */
static bool better(const struct cand *c, const struct cand *best, double need)
{
	bool sc = c->gain >= need, sb = best->gain >= need;

	if (c->gain <= 0)
		return false;
	if (best->cost == 0)
		return true;
	if (sc != sb)
		return sc;
	if (sc)
		return c->cost < best->cost;
	return c->gain / c->cost > best->gain / best->cost;
}

/* Cutting below v, whose scratch holds its n DAG out-edges, none of them
 * worth cutting; every block under v was numbered in this pass.  With
 * pv(x) = paths from v to x in the DAG (doubles: estimates that cannot
 * overflow), cutting x->y removes about pv(x) * numPaths(y) paths from v and
 * cutting every cuttable in-edge of y removes the sum of that over them.
 * Cuts the best candidate (see better) and sets resume to a postorder index
 * at or below every block whose count changed.  False when no edge under v
 * can be cut. */
static bool cut_below(struct work *w, uint32_t v, uint32_t n, uint64_t thresh)
{
	uint32_t top = w->postidx[v], i, k;
	struct cand best = {0, 0, CFG_NONE, CFG_NONE};
	double need = -(double)thresh;

	for (i = 0; i <= top; i++) {
		w->pv[w->post[i]] = 0;
		w->pin[w->post[i]] = 0;
		w->nin[w->post[i]] = 0;
	}
	for (k = 0; k < n; k++)
		need += (double)w->num[w->scratch[k].dst];
	w->pv[v] = 1;
	for (i = top + 1; i-- > 0;) {
		uint32_t x = w->post[i], ne;
		const struct bl_edge *out;
		double px = w->pv[x];

		if (px == 0)
			continue;
		if (x != v && w->nin[x] >= 2 && w->num[x] >= 2) {
			struct cand c = {w->pin[x] * (double)w->num[x], w->nin[x], CFG_NONE, x};

			if (better(&c, &best, need))
				best = c;
		}
		out = x == v ? w->scratch : &w->tmp[w->tstart[x]];
		ne = x == v ? n : w->tcount[x];
		for (k = 0; k < ne; k++) {
			const struct bl_edge *b = &out[k];
			uint32_t y = b->dst;
			struct cand c;

			if (b->kind != BL_EDGE_CFG || w->num[y] == 0)
				continue;
			w->pv[y] += px;
			if (y == CFG_EXIT || !w->g->edges[b->cfg_edge].can_cut)
				continue;
			w->pin[y] += px;
			w->nin[y]++;
			if (w->num[y] < 2)
				continue;
			c.gain = px * (double)w->num[y];
			c.cost = 1;
			c.edge = b->cfg_edge;
			c.node = x;
			if (better(&c, &best, need))
				best = c;
		}
	}
	if (best.cost == 0)
		return false;
	if (best.edge != CFG_NONE) {
		w->role[best.edge] = ROLE_CUT;
		w->ncut++;
		w->resume = w->postidx[best.node];
		return true;
	}
	for (k = 0; k < w->ne; k++) {
		const struct cfg_edge *e = &w->g->edges[k];

		if (e->dst == best.node && e->can_cut && w->role[k] == ROLE_FORWARD &&
		    w->postidx[e->src] <= top && w->pv[e->src] > 0) {
			w->role[k] = ROLE_CUT;
			w->ncut++;
		}
	}
	w->resume = w->postidx[best.node];
	return true;
}

enum { NUM_OK, NUM_OVERFLOW, NUM_FAIL, NUM_RESUME };

/* Numbers block v, cutting its out-edges while numPaths(v) > thresh when
 * cutting is on; NUM_RESUME after cutting an edge below v (see cut_below). */
static int number_cut(struct work *w, uint32_t v, uint64_t thresh, bool cut)
{
	for (;;) {
		uint32_t n = block_out(w, v), c;
		uint64_t sum;
		bool fits = number_block(w, n, &sum);

		if (fits && (sum <= thresh || v == CFG_ENTRY || !cut)) {
			w->num[v] = sum;
			keep(w, v, n);
			return NUM_OK;
		}
		if (!cut || v == CFG_ENTRY)
			return NUM_OVERFLOW;
		c = pick_cut(w, n);
		if (c == CFG_NONE) {
			if (cut_below(w, v, n, thresh))
				return NUM_RESUME;
			if (fits) { /* over the threshold only: let ENTRY decide */
				w->num[v] = sum;
				keep(w, v, n);
				return NUM_OK;
			}
			snprintf(w->err, w->errlen,
				 "path count overflows at block %u (line %u) and no edge from it or below it can be cut",
				 v, w->g->blocks[v].line);
			return NUM_FAIL;
		}
		w->role[w->scratch[c].cfg_edge] = ROLE_CUT;
		w->ncut++;
	}
}

/* One numbering pass in reverse topological order (EXIT, then postorder).
 * A cut below a block resumes the pass at the cut edge's source: blocks
 * before it in postorder are not above it, so their numbers still hold. */
static int number_all(struct work *w, uint64_t thresh, bool cut)
{
	uint32_t i;
	int r;

	memset(w->num, 0, w->nb * sizeof *w->num);
	memset(w->tcount, 0, w->nb * sizeof *w->tcount);
	w->ntmp = 0;
	w->num[CFG_EXIT] = 1;
	for (i = 0; i < w->nreach;) {
		uint32_t v = w->post[i];

		if (v == CFG_EXIT) {
			i++;
			continue;
		}
		r = number_cut(w, v, thresh, cut);
		if (r == NUM_RESUME) {
			i = w->resume;
			continue;
		}
		if (r != NUM_OK)
			return r;
		i++;
	}
	return NUM_OK;
}

static void uncut(struct work *w)
{
	uint32_t i;

	for (i = 0; i < w->ne; i++)
		if (w->role[i] == ROLE_CUT && !w->g->edges[i].force_cut)
			w->role[i] = ROLE_FORWARD;
	w->ncut = 0;
}

/* Numbers without cuts; on overflow retries with cuts, halving the
 * threshold down to the floor that guarantees ENTRY fits (see 4. above). */
static bool number(struct work *w)
{
	uint64_t floor_t, t;
	int r = number_all(w, w->limit, false);

	if (r == NUM_OK)
		return true;
	floor_t = w->limit / ((uint64_t)w->nreach + (w->out_start[1] - w->out_start[0]) + 1);
	if (floor_t == 0)
		floor_t = 1;
	for (t = w->limit;; t = t / 2 > floor_t ? t / 2 : floor_t) {
		uncut(w);
		r = number_all(w, t, true);
		if (r == NUM_OK)
			return true;
		if (r == NUM_FAIL)
			return false;
		if (t == floor_t)
			break;
	}
	snprintf(w->err, w->errlen, "path count overflows at ENTRY even after cutting %u edges", w->ncut);
	return false;
}

/* Lays the numbered edges out grouped by src, then val (numbering order is
 * val order within a block). */
static bool lay_out(struct work *w, struct bl_dag *d)
{
	uint32_t v, i, k = 0;

	d->edges = malloc(((size_t)w->ntmp + 1) * sizeof *d->edges);
	if (!d->edges)
		return false;
	for (v = 0; v < w->nb; v++) {
		d->dummy_entry[v] = d->dummy_exit[v] = CFG_NONE;
		d->num_paths[v] = w->num[v];
	}
	for (v = 0; v < w->nb; v++)
		for (i = 0; i < w->tcount[v]; i++) {
			struct bl_edge *b = &d->edges[k];

			*b = w->tmp[w->tstart[v] + i];
			if (b->kind == BL_EDGE_DUMMY_ENTRY)
				d->dummy_entry[b->dst] = k;
			else if (b->kind == BL_EDGE_DUMMY_EXIT)
				d->dummy_exit[b->src] = k;
			k++;
		}
	d->nedges = k;
	for (v = 0; v < w->nb; v++) {
		d->dfs_pre[v] = w->disc[v];
		d->dfs_post[v] = w->disc[v] == CFG_NONE ? CFG_NONE : w->postidx[v];
	}
	memcpy(d->role, w->role, w->ne * sizeof *d->role);
	d->ncut = w->ncut;
	return true;
}

static void work_free(struct work *w)
{
	free(w->out_start);
	free(w->out_list);
	free(w->disc);
	free(w->by_disc);
	free(w->post);
	free(w->postidx);
	free(w->pv);
	free(w->pin);
	free(w->nin);
	free(w->role);
	free(w->num);
	free(w->has_entry);
	free(w->scratch);
	free(w->tmp);
	free(w->tstart);
	free(w->tcount);
}

/* DAG edges: at most one per CFG edge plus two dummies per block. */
static bool work_alloc(struct work *w)
{
	size_t nb = w->nb, ne = w->ne;

	w->out_start = calloc(nb + 1, sizeof *w->out_start);
	w->out_list = malloc((ne + 1) * sizeof *w->out_list);
	w->disc = malloc(nb * sizeof *w->disc);
	w->by_disc = malloc(nb * sizeof *w->by_disc);
	w->post = malloc(nb * sizeof *w->post);
	w->postidx = malloc(nb * sizeof *w->postidx);
	w->pv = malloc(nb * sizeof *w->pv);
	w->pin = malloc(nb * sizeof *w->pin);
	w->nin = malloc(nb * sizeof *w->nin);
	w->role = malloc((ne + 1) * sizeof *w->role);
	w->num = malloc(nb * sizeof *w->num);
	w->has_entry = malloc(nb * sizeof *w->has_entry);
	w->scratch = malloc((ne + nb + 1) * sizeof *w->scratch);
	w->tmp = malloc((ne + 2 * nb + 1) * sizeof *w->tmp); /* see slots() */
	w->tstart = malloc(nb * sizeof *w->tstart);
	w->tcount = malloc(nb * sizeof *w->tcount);
	return w->out_start && w->out_list && w->disc && w->by_disc && w->post && w->postidx && w->pv && w->pin && w->nin &&
	       w->role && w->num && w->has_entry && w->scratch && w->tmp && w->tstart && w->tcount;
}

static struct bl_dag *dag_alloc(uint32_t nb, uint32_t ne)
{
	struct bl_dag *d = calloc(1, sizeof *d);

	if (!d)
		return NULL;
	d->nblocks = nb;
	d->num_paths = malloc((size_t)nb * sizeof *d->num_paths);
	d->role = malloc(((size_t)ne + 1) * sizeof *d->role);
	d->dummy_entry = malloc((size_t)nb * sizeof *d->dummy_entry);
	d->dummy_exit = malloc((size_t)nb * sizeof *d->dummy_exit);
	d->dfs_pre = malloc((size_t)nb * sizeof *d->dfs_pre);
	d->dfs_post = malloc((size_t)nb * sizeof *d->dfs_post);
	if (!d->num_paths || !d->role || !d->dummy_entry || !d->dummy_exit || !d->dfs_pre || !d->dfs_post) {
		bl_free(d);
		return NULL;
	}
	return d;
}

/* Step 1 on w: out-edge lists, DFS, roles, forced cuts; false with w->err
 * set on malformed edges or a back edge that cannot be cut. */
static bool find_back_edges(struct work *w)
{
	uint32_t *stk, *pos;
	unsigned char *state;
	uint32_t i;
	bool ok;

	if (!build_out(w))
		return false;
	stk = malloc(w->nb * sizeof *stk);
	pos = malloc(w->nb * sizeof *pos);
	state = calloc(w->nb, 1);
	ok = stk && pos && state;
	if (ok) {
		for (i = 0; i < w->nb; i++)
			w->disc[i] = CFG_NONE;
		dfs(w, stk, pos, state);
		/* forced cuts (setjmp calls) are cuts whatever the numbering */
		for (i = 0; i < w->ne; i++)
			if (w->g->edges[i].force_cut && w->role[i] == ROLE_FORWARD)
				w->role[i] = ROLE_CUT;
	} else {
		snprintf(w->err, w->errlen, "out of memory");
	}
	free(stk);
	free(pos);
	free(state);
	return ok && !first_uncuttable_back(w);
}

/* Restores step 1's results from d (bl_backedges) into a fresh w. */
static bool resume_back_edges(struct work *w, const struct bl_dag *d)
{
	uint32_t v;

	if (d->nblocks != w->nb || !build_out(w))
		return false;
	memcpy(w->role, d->role, w->ne * sizeof *w->role);
	w->nreach = 0;
	for (v = 0; v < w->nb; v++) {
		w->disc[v] = d->dfs_pre[v];
		if (d->dfs_pre[v] == CFG_NONE)
			continue;
		assert(d->dfs_pre[v] < w->nb && d->dfs_post[v] < w->nb);
		w->by_disc[d->dfs_pre[v]] = v;
		w->post[d->dfs_post[v]] = v;
		w->postidx[v] = d->dfs_post[v];
		w->nreach++;
	}
	return true;
}

static bool work_init(struct work *w, const struct cfg *g, char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	w->g = g;
	w->nb = g->nblocks;
	w->ne = g->nedges;
	w->limit = bl_test_path_limit;
	w->err = err;
	w->errlen = errlen;
	if (w->nb < 2) {
		snprintf(err, errlen, "CFG lacks ENTRY or EXIT");
		return false;
	}
	if (!work_alloc(w)) {
		snprintf(err, errlen, "out of memory");
		return false;
	}
	return true;
}

struct bl_dag *bl_backedges(const struct cfg *g, char *err, size_t errlen)
{
	struct work w;
	struct bl_dag *d = NULL;
	char dummy[1];
	uint32_t v;

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	if (work_init(&w, g, err, errlen) && find_back_edges(&w)) {
		d = dag_alloc(w.nb, w.ne);
		if (!d) {
			snprintf(err, errlen, "out of memory");
		} else {
			for (v = 0; v < w.nb; v++) {
				d->num_paths[v] = 0;
				d->dummy_entry[v] = d->dummy_exit[v] = CFG_NONE;
				d->dfs_pre[v] = w.disc[v];
				d->dfs_post[v] = w.disc[v] == CFG_NONE ? CFG_NONE : w.postidx[v];
			}
			memcpy(d->role, w.role, w.ne * sizeof *d->role);
		}
	}
	work_free(&w);
	return d;
}

bool bl_number(const struct cfg *g, struct bl_dag *d, char *err, size_t errlen)
{
	struct work w;
	bool ok = false;
	char dummy[1];

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	assert(d && !d->edges && d->nblocks == g->nblocks);
	if (work_init(&w, g, err, errlen)) {
		if (!resume_back_edges(&w, d)) {
			snprintf(err, errlen, "out of memory");
		} else {
			slots(&w);
			ok = number(&w);
			if (ok && !lay_out(&w, d)) {
				snprintf(err, errlen, "out of memory");
				ok = false;
			}
		}
	}
	work_free(&w);
	return ok;
}

struct bl_dag *bl_build(const struct cfg *g, char *err, size_t errlen)
{
	struct bl_dag *d = bl_backedges(g, err, errlen);

	if (d && !bl_number(g, d, err, errlen)) {
		bl_free(d);
		d = NULL;
	}
	return d;
}

void bl_free(struct bl_dag *d)
{
	if (!d)
		return;
	free(d->edges);
	free(d->num_paths);
	free(d->role);
	free(d->dummy_entry);
	free(d->dummy_exit);
	free(d->dfs_pre);
	free(d->dfs_post);
	free(d);
}
