/*
 * overlap_prof.c: a `--mode overlap` profile back in the terms of
 * docs/overlap.md, for `kpath overlap` (overlap_cmd.c).
 *
 * From one function's profile entry: the graph the instrumenter numbered
 * (overlap_graph, so the same back edges, bodies and overlapping graphs),
 * every Ball-Larus path that ran decoded over the profile's cfg (the DAG
 * edges named by overlap_dag_kinds as dummies start a path at a loop head
 * or end it at a back edge), and per loop head the estimator's input
 * (struct ol_est_input): first halves p (BL paths ending with a back edge
 * into the head, cut to begin at it) with F_p - X_p, second halves q (BL
 * paths begun by such a back edge, cut at the body's end) with F_q - E_q,
 * their prefix groups at the degree, and OF(p, g) from the OL counts,
 * whose ro the group's ol_og_path_id names.  Exact counts of p ! q come
 * from a k-IPF with k >= 2 of the same run (its level-2 pairs).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "overlap_prof.h"
#include "xalloc.h"

/* Decodes id over the profile's DAG into blocks; *from_head / *to_back
 * when its first / last DAG edge is a dummy (then ENTRY / EXIT are left
 * out).  Returns the length, 0 when id does not decode. */
static uint32_t decode(const struct ov_func *of, uint64_t id, uint32_t *out, bool *from_head, bool *to_back)
{
	const struct kp_cfg *g = &of->kf->cfg;
	uint32_t v = 0, n = 0, steps = 0;
	uint64_t rest = id;
	*from_head = *to_back = false;
	while (v != 1) {
		uint32_t best = UINT32_MAX;
		for (uint32_t e = of->first_out[v]; e < of->first_out[v + 1]; e++)
			if (g->edges[e].val <= rest)
				best = e;
		if (best == UINT32_MAX || ++steps > g->nblocks)
			return 0;
		rest -= g->edges[best].val;
		char k = of->kinds[best];
		if (v == 0 && k == 'e')
			*from_head = true;
		else if (v == 0)
			out[n++] = 0;
		if (k == 'x') {
			*to_back = true;
			out[n++] = v;
			return rest ? 0 : n;
		}
		if (v != 0)
			out[n++] = v;
		v = g->edges[best].dst;
	}
	out[n++] = 1;
	return rest ? 0 : n;
}

const char *ov_func_init(struct ov_func *of, const struct kp_func *kf)
{
	memset(of, 0, sizeof *of);
	of->kf = kf;
	json_t *o = kf->overlap, *x;
	size_t i;
	const struct kp_cfg *g = &kf->cfg;
	if (!g->nblocks)
		return "the profile has no cfg (the static graph): written by an older kpath?";
	of->kinds = json_string_value(json_object_get(o, "overlap_dag_kinds"));
	if (strlen(of->kinds) != g->nedges)
		return "overlap_dag_kinds does not have one letter per edge of cfg.edges";
	of->theta = kp_overlap_degree(o);
	of->first_out = xcalloc(g->nblocks + 1, sizeof *of->first_out);
	for (uint32_t e = 0; e < g->nedges; e++)
		of->first_out[g->edges[e].src + 1]++;
	for (uint32_t b = 0; b < g->nblocks; b++)
		of->first_out[b + 1] += of->first_out[b];
	ol_func_init(&of->f, g->nblocks, 0, 1);
	json_array_foreach(json_object_get(o, "overlap_graph"), i, x) {
		json_int_t s = json_integer_value(json_array_get(x, 0)), d = json_integer_value(json_array_get(x, 1));
		if (s >= (json_int_t)g->nblocks || d >= (json_int_t)g->nblocks)
			return "overlap_graph names a block beyond cfg.blocks";
		ol_func_add_edge(&of->f, (uint32_t)s, (uint32_t)d);
	}
	const char *why = ol_func_finish_checked(&of->f);
	if (why)
		return why;
	of->prog = (struct ol_program){.funcs = &of->f, .nfuncs = 1};
	of->buf = xcalloc(g->nblocks + 2, sizeof *of->buf);
	of->buf2 = xcalloc(g->nblocks + 2, sizeof *of->buf2);
	return NULL;
}

void ov_func_release(struct ov_func *of)
{
	ol_func_release(&of->f);
	free(of->first_out);
	free(of->buf);
	free(of->buf2);
	memset(of, 0, sizeof *of);
}

static void seq_release(struct ol_seqtab *t)
{
	free(t->data);
	free(t->start);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

/* The first half a BL path of head h gives: its blocks from h (from its
 * start when it began at an inner head), or n = 0 when it is none. */
static const uint32_t *first_half(const struct ov_func *of, uint32_t h, const uint32_t *s, uint32_t n, bool to_back,
                                  uint32_t *len)
{
	*len = 0;
	if (!to_back || of->f.back_head[s[n - 1]] != h)
		return s;
	uint32_t k = 0;
	while (k < n && s[k] != h)
		k++;
	if (k == n)
		k = 0;
	*len = n - k;
	return s + k;
}

/* The second half: a BL path begun at h after a back edge, cut at the body's end. */
static uint32_t second_half(const struct ov_func *of, uint32_t h, const uint32_t *s, uint32_t n, bool from_head)
{
	if (!from_head || s[0] != h)
		return 0;
	uint32_t k = 0;
	while (k < n && of->f.body[h][s[k]])
		k++;
	return k;
}

static uint32_t find_or_add(struct ol_seqtab *t, const uint32_t *s, uint32_t n, uint64_t **vals, uint32_t *cap)
{
	uint32_t id = ol_seq_intern(t, s, n);
	if (id >= *cap) {
		uint32_t nc = *cap ? 2 * *cap : 16;
		*vals = realloc(*vals, nc * sizeof **vals);
		if (!*vals) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
		memset(*vals + *cap, 0, (nc - *cap) * sizeof **vals);
		*cap = nc;
	}
	return id;
}

/* The id of sequence s in t, OL_NONE when absent (nothing added). */
static uint32_t seq_find(const struct ol_seqtab *t, const uint32_t *s, uint32_t n)
{
	for (uint32_t i = 0; i < t->nseq; i++) {
		uint32_t m;
		const uint32_t *x = ol_seq(t, i, &m);
		if (m == n && !memcmp(x, s, n * sizeof *s))
			return i;
	}
	return OL_NONE;
}

const char *ov_loop_init(struct ov_loop *L, struct ov_func *of, uint32_t head, uint64_t ids)
{
	memset(L, 0, sizeof *L);
	L->of = of;
	L->head = head;
	if (head >= of->f.nblocks || !of->f.is_head[head])
		return "overlap_loops names a block that is not a loop head of overlap_graph";
	struct ol_site s = {.kind = OL_LOOP, .func = 0, .block = head, .callee = OL_NONE};
	L->sp = ol_site_space(&of->prog, &s);
	ol_og_build(&L->og, &L->sp, of->theta);
	if (!ol_og_number(&L->og, &L->nb) || L->nb.total != ids)
		return "overlap_loops: the overlapping graph's path count differs from ids (another numbering)";
	L->max_degree = ol_max_degree(&L->sp);
	uint32_t pcap = 0, qcap = 0;
	const struct kp_ipf *t = &of->kf->ipf;
	/* F_p - X_p and F_q - E_q from the Ball-Larus counts (level 1) */
	for (uint32_t c = t->n ? t->nodes[0].first_child : KP_NONE; c != KP_NONE; c = t->nodes[c].next_sibling) {
		bool fh, tb;
		uint32_t n = decode(of, t->nodes[c].id, of->buf, &fh, &tb), len;
		if (!n)
			return "a path ID of kipf does not decode over cfg";
		const uint32_t *p = first_half(of, head, of->buf, n, tb, &len);
		if (len) {
			uint32_t id = find_or_add(&L->ps, p, len, &L->row, &pcap);
			L->row[id] += t->nodes[c].count;
		}
		if ((len = second_half(of, head, of->buf, n, fh))) {
			uint32_t id = find_or_add(&L->qs, of->buf, len, &L->col, &qcap);
			L->col[id] += t->nodes[c].count;
			L->flow += t->nodes[c].count;
		}
	}
	/* the groups: prefix_theta of each q, named by its ro */
	L->group = xcalloc(L->qs.nseq, sizeof *L->group);
	L->group_ro = xcalloc(L->qs.nseq, sizeof *L->group_ro);
	for (uint32_t q = 0; q < L->qs.nseq; q++) {
		uint32_t n;
		const uint32_t *s = ol_seq(&L->qs, q, &n);
		uint32_t k = ol_og_prefix(&L->og, s, n);
		uint64_t ro = ol_og_path_id(&L->og, &L->nb, s, k);
		uint32_t g = 0;
		while (g < L->ngroups && L->group_ro[g] != ro)
			g++;
		if (g == L->ngroups)
			L->group_ro[L->ngroups++] = ro;
		L->group[q] = g;
	}
	/* OF(p, g) from the OL counts of this head */
	L->of_ = xcalloc((size_t)(L->ps.nseq ? L->ps.nseq : 1) * (L->ngroups ? L->ngroups : 1), sizeof *L->of_);
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(of->kf->overlap, "overlap_counts"), i, x) {
		if ((uint64_t)json_integer_value(json_array_get(x, 0)) != head)
			continue;
		bool fh, tb;
		uint32_t n = decode(of, (uint64_t)json_integer_value(json_array_get(x, 1)), of->buf, &fh, &tb), len;
		const uint32_t *p = n ? first_half(of, head, of->buf, n, tb, &len) : NULL;
		if (!n || !len)
			return "overlap_counts: a first half does not end with a back edge into its loop's head";
		uint32_t pid = seq_find(&L->ps, p, len);
		if (pid == OL_NONE)
			return "overlap_counts: a first half that the Ball-Larus counts never ran (counts of another run?)";
		uint64_t ro = (uint64_t)json_integer_value(json_array_get(x, 2));
		uint32_t g = 0;
		while (g < L->ngroups && L->group_ro[g] != ro)
			g++;
		if (g == L->ngroups)
			return "overlap_counts: an OL path no second half of the Ball-Larus counts begins with";
		L->of_[(size_t)pid * L->ngroups + g] += (uint64_t)json_integer_value(json_array_get(x, 3));
	}
	L->in = (struct ol_est_input){.np = L->ps.nseq, .nq = L->qs.nseq, .ngroups = L->ngroups, .group = L->group,
	                              .of = L->of_, .row = L->row, .col = L->col};
	if (!ol_estimate(&L->in, &L->b))
		return "counts too large for the estimator's 64-bit sums";
	return NULL;
}

void ov_loop_release(struct ov_loop *L)
{
	ol_bounds_release(&L->b);
	ol_og_numbering_release(&L->nb);
	ol_og_release(&L->og);
	seq_release(&L->ps);
	seq_release(&L->qs);
	free(L->row);
	free(L->col);
	free(L->group);
	free(L->group_ro);
	free(L->of_);
	free(L->exact);
	memset(L, 0, sizeof *L);
}

const char *ov_loop_exact(struct ov_loop *L, const struct kp_func *ex)
{
	const struct ov_func *of = L->of;
	const struct kp_ipf *t = &ex->ipf;
	L->exact = xcalloc((size_t)(L->ps.nseq ? L->ps.nseq : 1) * (L->qs.nseq ? L->qs.nseq : 1), sizeof *L->exact);
	L->exact_outside = 0;
	for (uint32_t a = t->n ? t->nodes[0].first_child : KP_NONE; a != KP_NONE; a = t->nodes[a].next_sibling) {
		bool fh, tb;
		uint32_t n = decode(of, t->nodes[a].id, of->buf, &fh, &tb), len;
		if (!n)
			return "a path ID of the exact profile does not decode over cfg";
		const uint32_t *p = first_half(of, L->head, of->buf, n, tb, &len);
		if (!len)
			continue;
		for (uint32_t b = t->nodes[a].first_child; b != KP_NONE; b = t->nodes[b].next_sibling) {
			bool fh2, tb2;
			uint32_t n2 = decode(of, t->nodes[b].id, of->buf2, &fh2, &tb2);
			if (!n2)
				return "a path ID of the exact profile does not decode over cfg";
			uint32_t ql = second_half(of, L->head, of->buf2, n2, fh2);
			if (!ql)
				return "the exact profile has a path after a back edge that does not begin at its head";
			uint32_t nq = L->qs.nseq, pid = seq_find(&L->ps, p, len), qid = seq_find(&L->qs, of->buf2, ql);
			if (pid == OL_NONE || qid == OL_NONE) { /* a pair the estimate bounds by 0 */
				L->exact_outside += t->nodes[b].count;
				continue;
			}
			L->exact[(size_t)pid * nq + qid] += t->nodes[b].count;
		}
	}
	return NULL;
}

/* ---- for overlap_calls.c ---- */

uint32_t ov_decode(const struct ov_func *of, uint64_t id, uint32_t *out, bool *from_head, bool *to_back)
{
	return decode(of, id, out, from_head, to_back);
}

uint32_t ov_seq_add(struct ol_seqtab *t, const uint32_t *s, uint32_t n, uint64_t **vals, uint32_t *cap)
{
	return find_or_add(t, s, n, vals, cap);
}

uint32_t ov_seq_find(const struct ol_seqtab *t, const uint32_t *s, uint32_t n)
{
	return seq_find(t, s, n);
}

void ov_seq_release(struct ol_seqtab *t)
{
	seq_release(t);
}
