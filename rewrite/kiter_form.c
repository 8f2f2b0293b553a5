/*
 * kiter_form.c: `kpath instrument --mode kiter --kiter K`, the code of Roy &
 * Srikant's Algorithm 3 (CGO 2009; docs/kiter-paths.md, "The
 * instrumentation") on every CFG edge, and the function's descriptor
 * (docs/kiter-mode.md).
 *
 * State per activation (locals, so recursion and threads never mix):
 *   kpath_rt_u64 kp_kc[M]   the counters c[0 .. M-1], M = the largest K in use
 *   unsigned kp_kt          t: back edges taken in this visit of the current
 *                           k-iteration loop, saturated at K (only when M >= 2)
 * Invariant (kiter_exec.c): inside a visit, kp_kc[i] holds the partial ID of
 * the path that began i back edges ago, for i <= min(t, K-1), and that path
 * began at the loop head (is compensated by cval) iff t > i.  At most one
 * k-iteration loop is active at a time (they are innermost, so disjoint).
 *
 * Each edge's code is one C expression (it may stand in a statement, a
 * comma expression or a condition wrapper), by the kind of the edge, with
 * L the k-iteration loop of its source:
 *   inside L        c[i] += val - (t > i ? cval : 0) for i <= min(t, K-1)
 *   back edge of L  the same below K-1; count c[K-1] + val(δend) once t >= K-1;
 *                   shift; c[0] = val - cval of δstart; t = min(t+1, K)
 *   exit of L       c[0] = c[min(t, K-1)] + val(e, that version); t = 0
 *                   (then as an acyclic back edge or a return when it is one)
 *   acyclic back    count c[0] + val(δend); c[0] = val - cval of δstart
 *   into End        count c[0] + val
 *   elsewhere       c[0] += val
 * where count(id) is kpath_rt_count(&desc, id, numPaths): the runtime's
 * per-function counters, an array while numPaths <= 4096
 * (KP_COUNTS_ARRAY_MAX, runtime/counts.c), an open-addressing hash table
 * above, per thread and merged at exit.  A function whose static count
 * exceeds RW_KITER_LIMIT has its K lowered loop by loop (ki_fit).
 *
 * Edges without a site (a switch's dispatch into a case label also reached
 * by fall-through) carry their code at the label's start site: all of it
 * when it is the label's only way in (a dispatch that leaves the loop, say),
 * else the other edges into the label carry the difference, which needs
 * every edge into the label to be a plain increment (no count, no exit, same
 * loop); a function where it is not so is left out with a reason, as is a function with setjmp (its counters would be stale after
 * a longjmp).
 *
 * The descriptor is the runtime's struct kpath_rt_func (kpath_rt.h), whose
 * decoder walks a DAG taking at each node the out-edge with the largest val
 * <= the rest of the ID.  Algorithm 2 is such a walk on the loop-unrolled
 * DAG Glu once each slot of a k-iteration loop is split in two, "in a path
 * that began at δstart of this loop" or not (the compensated weights
 * val - cval and counts numPaths - invalidPaths apply in the first), and
 * arcs carrying no valid path are dropped: so the descriptor's blocks are
 * those (slot, compensated) pairs and its edges their arcs with the
 * weights Algorithm 2 uses; a path's lines are then its blocks' lines, the
 * loop head's line opening each iteration.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiter.h"
#include "rewrite.h"
#include "strbuf.h"


/* A separator between the parts of one expression. */
static void sb_part(struct sb *b)
{
	if (b->n)
		sb_printf(b, ", ");
}

#define U64(v) rw_u64((char[RW_U64_MAX]){0}, (v))

struct kform {
	const struct fn_plan *plan;
	const char *p;                /* identifier prefix */
	struct ki_graph *kg;
	struct ki_numbering *n;
	uint32_t *cfg_edge;           /* per ki edge: its CFG edge */
	uint32_t *ki_edge;            /* per CFG edge: its ki edge, KI_NONE when dead */
	char desc[160];               /* "&kp_fn_NAME" */
	bool *fit_lowered;            /* per node: a loop head whose K ki_fit lowered */
	unsigned *pragma_k;           /* per node: 1 + the K of the #pragma kpath kiter naming the
	                                 loop with this head, 0 if none (or --kiter-loop won) */
	unsigned k;                   /* --kiter */
};

static uint64_t weight(const struct ki_numbering *n, uint32_t arc, bool comp)
{
	if (arc == KI_NONE)
		return 0; /* a version no valid path takes (ki_build ignored the arc) */
	return n->arcs[arc].val - (comp ? n->arcs[arc].cval : 0);
}

/* The weight of arc for counter i: compensated iff t > i (departure 1). */
static void put_sel(struct kform *kf, struct sb *b, uint32_t arc, unsigned i)
{
	uint64_t wn = weight(kf->n, arc, false), wc = weight(kf->n, arc, true);
	if (wn == wc)
		sb_printf(b, "%s", U64(wn));
	else
		sb_printf(b, "(%skt > %u ? %s : %s)", kf->p, i, U64(wc), U64(wn));
}

static void put_count(struct kform *kf, struct sb *b, const char *id)
{
	sb_printf(b, "kpath_rt_count(%s, %s, %s)", kf->desc, id, U64(kf->n->total));
}

/* c[i] += w for the live counters (i <= min(t, K-1)); K = 1 outside loops. */
static void put_inc(struct kform *kf, struct sb *b, uint32_t base, unsigned K, unsigned upto)
{
	for (unsigned i = 0; i < upto; i++) {
		uint32_t arc = kf->n->edge_arc[base + i];
		if (weight(kf->n, arc, false) == 0 && weight(kf->n, arc, true) == 0)
			continue;
		sb_part(b);
		if (i)
			sb_printf(b, "(%skt >= %u ? (void)(", kf->p, i);
		if (K == 1 && weight(kf->n, arc, false) > UINT64_MAX / 2)
			sb_printf(b, "%skc[0] -= %s", kf->p, U64(0 - weight(kf->n, arc, false)));
		else {
			sb_printf(b, "%skc[%u] += ", kf->p, i);
			if (K == 1)
				sb_printf(b, "%s", U64(weight(kf->n, arc, false)));
			else
				put_sel(kf, b, arc, i);
		}
		if (i)
			sb_printf(b, ") : (void)0)");
	}
}

/* The ID a path leaving loop L (K) by edge e (ki) completes or carries on:
 * c[j] + weight of e's arc of version j+1, j = min(t, K-1) (Algorithm 3,
 * loop-exit edges: "c[0] := c[itr]").  For j < K-1, t == j, so the path in
 * c[j] did not begin at the head; for j = K-1 it did iff t >= K. */
static void put_exit_value(struct kform *kf, struct sb *b, uint32_t ke, unsigned K, bool back)
{
	const struct ki_numbering *n = kf->n;
	uint32_t base = n->edge_base[ke];
	sb_printf(b, "(");
	for (unsigned j = 0; j < K; j++) {
		uint32_t arc = back ? n->end_arc[base + j] : n->edge_arc[base + j];
		if (j < K - 1)
			sb_printf(b, "%skt == %u ? %skc[%u] + %s : ", kf->p, j, kf->p, j, U64(weight(n, arc, false)));
		else {
			sb_printf(b, "%skc[%u] + ", kf->p, j);
			put_sel(kf, b, arc, j);
		}
	}
	sb_printf(b, ")");
}

/* The code of ki edge ke (Algorithm 3; the table of docs/kiter-paths.md). */
static char *edge_text(struct kform *kf, uint32_t ke)
{
	const struct ki_numbering *n = kf->n;
	const struct ki_edge *ed = &kf->kg->edges[ke];
	uint32_t u = ed->src, v = ed->dst, L = n->kloop[u], base = n->edge_base[ke];
	struct sb b = {0};
	char id[256];
	if (u == KI_START)
		return NULL; /* the counters' initialiser */
	if (L != KI_NONE && ed->back && v == n->loops[L].head) { /* back edge of a k-iteration loop */
		unsigned K = n->loops[L].k;
		put_inc(kf, &b, base, K, K - 1);
		sb_part(&b);
		sb_printf(&b, "(%skt >= %u ? ", kf->p, K - 1);
		struct sb idb = {0};
		sb_printf(&idb, "%skc[%u] + ", kf->p, K - 1);
		put_sel(kf, &idb, n->end_arc[base + K - 1], K - 1);
		put_count(kf, &b, idb.s);
		free(idb.s);
		sb_printf(&b, " : (void)0)");
		for (unsigned i = K - 1; i >= 1; i--)
			sb_printf(&b, ", %skc[%u] = %skc[%u]", kf->p, i, kf->p, i - 1);
		sb_printf(&b, ", %skc[0] = %s, %skt += %skt < %u", kf->p, U64(weight(n, n->loops[L].start_arc, true)),
		          kf->p, kf->p, K);
		return b.s;
	}
	if (L != KI_NONE && n->kloop[v] != L) { /* leaves a k-iteration loop */
		unsigned K = n->loops[L].k;
		struct sb val = {0};
		put_exit_value(kf, &val, ke, K, ed->back);
		if (ed->back || v == KI_END)
			put_count(kf, &b, val.s);
		else
			sb_printf(&b, "%skc[0] = %s", kf->p, val.s);
		free(val.s);
		if (ed->back)
			sb_printf(&b, ", %skc[0] = %s", kf->p,
			          U64(weight(n, n->loops[n->loop_of_head[v]].start_arc, true)));
		sb_printf(&b, ", %skt = 0", kf->p);
		return b.s;
	}
	if (ed->back) { /* back edge of an acyclic loop */
		snprintf(id, sizeof id, "%skc[0] + %s", kf->p, U64(weight(n, n->end_arc[base], false)));
		put_count(kf, &b, id);
		sb_printf(&b, ", %skc[0] = %s", kf->p, U64(weight(n, n->loops[n->loop_of_head[v]].start_arc, true)));
		return b.s;
	}
	if (v == KI_END) {
		snprintf(id, sizeof id, "%skc[0] + %s", kf->p, U64(weight(n, n->edge_arc[base], false)));
		put_count(kf, &b, id);
		return b.s;
	}
	if (L != KI_NONE)
		put_inc(kf, &b, base, n->loops[L].k, n->loops[L].k);
	else
		put_inc(kf, &b, base, 1, 1);
	return b.s; /* NULL when every weight is 0 */
}

/* A plain increment (no count, exit or back edge): the loop it is in. */
static bool plain(const struct kform *kf, uint32_t ke, uint32_t *L)
{
	const struct ki_edge *ed = &kf->kg->edges[ke];
	*L = kf->n->kloop[ed->src];
	return ed->src != KI_START && !ed->back && ed->dst != KI_END && (*L == KI_NONE || kf->n->kloop[ed->dst] == *L);
}

/* Site-less edge e with code into block B: its code at B's start site,
 * the difference on every other edge into B (see the top of the file).
 * Returns false when that cannot be done. */
static bool move_to_start(struct kform *kf, uint32_t e, char **edge_code, char **start_code)
{
	const struct cfg *g = kf->plan->g;
	uint32_t B = g->edges[e].dst, ke = kf->ki_edge[e], L, others = 0;
	if (B >= kf->plan->cap_block_start || kf->plan->block_start[B] == CFG_NONE || start_code[B])
		return false;
	for (uint32_t x = 0; x < g->nedges; x++)
		others += x != e && g->edges[x].dst == B && kf->ki_edge[x] != KI_NONE;
	if (!others) { /* the start site runs exactly when e is taken: any code moves */
		start_code[B] = edge_code[e];
		edge_code[e] = NULL;
		return true;
	}
	if (!plain(kf, ke, &L))
		return false;
	unsigned K = L == KI_NONE ? 1 : kf->n->loops[L].k;
	for (uint32_t x = 0; x < g->nedges; x++) {
		uint32_t kx = kf->ki_edge[x], Lx;
		if (x == e || g->edges[x].dst != B || kx == KI_NONE)
			continue;
		if (g->edges[x].site == CFG_NONE || !plain(kf, kx, &Lx) || Lx != L)
			return false;
		/* x's weights minus e's, per counter */
		struct sb b = {0};
		for (unsigned i = 0; i < K; i++) {
			uint32_t ax = kf->n->edge_arc[kf->n->edge_base[kx] + i], ae = kf->n->edge_arc[kf->n->edge_base[ke] + i];
			uint64_t dn = weight(kf->n, ax, false) - weight(kf->n, ae, false);
			uint64_t dc = weight(kf->n, ax, true) - weight(kf->n, ae, true);
			if (!dn && !dc)
				continue;
			sb_part(&b);
			if (i)
				sb_printf(&b, "(%skt >= %u ? (void)(", kf->p, i);
			if (dn == dc)
				sb_printf(&b, "%skc[%u] += %s", kf->p, i, U64(dn));
			else
				sb_printf(&b, "%skc[%u] += (%skt > %u ? %s : %s)", kf->p, i, kf->p, i, U64(dc), U64(dn));
			if (i)
				sb_printf(&b, ") : (void)0)");
		}
		free(edge_code[x]);
		edge_code[x] = b.s;
	}
	start_code[B] = edge_code[e];
	edge_code[e] = NULL;
	return true;
}

/* Identifies the numbering: Ball-Larus's checksum of the CFG, the mode and
 * every loop's K (a kipf profile of the function never matches it). */
static uint64_t kiter_checksum(const struct fn_plan *plan, const struct bl_dag *dag, const struct ki_numbering *n)
{
	uint64_t h = 0xcbf29ce484222325ull, w[3];
	const char *tag = "kiter";
	for (const char *c = tag; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	w[0] = bl_checksum(plan->g, dag);
	w[1] = n->total;
	w[2] = n->nloops;
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 8; j++)
			h = (h ^ ((w[i] >> (8 * j)) & 0xff)) * 0x100000001b3ull;
	for (uint32_t l = 0; l < n->nloops; l++)
		h = (h ^ (n->loops[l].head * 131u + n->loops[l].k)) * 0x100000001b3ull;
	return h;
}

static const char *lowered_why(enum ki_lowered l)
{
	return l == KI_LOWER_NOT_INNERMOST ? "not innermost: acyclic" : "irreducible: acyclic";
}

/* The descriptor: Glu's slots split by compensation, as a DAG (top of file). */
static char *descriptor(struct kform *kf, const struct rw_file *f, const struct bl_dag *dag)
{
	const struct ki_numbering *n = kf->n;
	const struct cfg *g = kf->plan->g;
	const char *p = kf->p, *name = kf->plan->name;
	uint32_t *pn = malloc(2 * (n->nslots + 1) * sizeof *pn), npn = 2;
	uint32_t *pn_slot = malloc(2 * (n->nslots + 1) * sizeof *pn_slot);
	if (!pn || !pn_slot) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	/* pn[2 s + c]: the block of (slot s, compensated c); KI_NONE if none */
	for (uint32_t s = 0; s < n->nslots; s++) {
		uint32_t u = n->slot_node[s];
		pn[2 * s] = pn[2 * s + 1] = KI_NONE;
		if (u == KI_START || u == KI_END) {
			pn[2 * s] = u;
			pn_slot[u] = 2 * s;
			continue;
		}
		pn_slot[npn] = 2 * s;
		pn[2 * s] = npn++;
		if (n->kloop[u] != KI_NONE) {
			pn_slot[npn] = 2 * s + 1;
			pn[2 * s + 1] = npn++;
		}
	}
	struct sb b = {0}, eb = {0};
	sb_printf(&b, "static const unsigned %slines_%s[] = {", p, name);
	for (uint32_t x = 0; x < npn; x++)
		sb_printf(&b, "%s%u", x ? ", " : "", g->blocks[n->slot_node[pn_slot[x] / 2]].line);
	sb_printf(&b, "};\nstatic const unsigned %slast_lines_%s[] = {", p, name);
	for (uint32_t x = 0; x < npn; x++)
		sb_printf(&b, "%s%u", x ? ", " : "", g->blocks[n->slot_node[pn_slot[x] / 2]].last_line);
	uint32_t nedges = 0;
	for (uint32_t x = 0; x < npn; x++) {
		uint32_t s = pn_slot[x] / 2, u = n->slot_node[s];
		bool c = pn_slot[x] % 2, comp = u == KI_START || c;
		for (uint32_t a = n->arc_first[s]; a < n->arc_first[s + 1]; a++) {
			const struct ki_arc *arc = &n->arcs[a];
			uint64_t cnt = n->num_paths[arc->dst] - (comp ? arc->invalid : 0);
			uint32_t v = n->slot_node[arc->dst];
			bool c2 = arc->kind == KI_ARC_START ? n->kloop[v] != KI_NONE
			                                    : c && n->kloop[v] != KI_NONE && n->kloop[v] == n->kloop[u];
			if (!cnt)
				continue;
			assert(pn[2 * arc->dst + c2] != KI_NONE);
			sb_printf(&eb, "%s{%u, %u, %s}", nedges ? ", " : "", x, pn[2 * arc->dst + c2],
			          U64(arc->val - (comp ? arc->cval : 0)));
			nedges++;
		}
	}
	sb_printf(&b, "};\nstatic const struct kpath_rt_edge %sedges_%s[] = {%s};\n", p, name,
	          nedges ? eb.s : "{0, 0, 0}");
	free(eb.s);
	sb_printf(&b, "static struct kpath_rt_func %sfn_%s = {KPATH_RT_ABI, ", p, name);
	sb_put_cstr(&b, name);
	sb_printf(&b, ", ");
	sb_put_cstr(&b, f->src_name);
	sb_printf(&b, ", %u, \"%016" PRIx64 "\", %s, %u, %slines_%s, %u, %sedges_%s, 0, 0, %slast_lines_%s, ",
	          kf->plan->line, kiter_checksum(kf->plan, dag, n), U64(n->total), npn, p, name, nedges, p, name, p,
	          name);
	if (f->src_hash[0])
		sb_printf(&b, "\"%s\"};\n", f->src_hash);
	else
		sb_printf(&b, "0};\n");
	free(pn);
	free(pn_slot);
	return b.s;
}

/* Each loop's K for the profile (runtime/kiter.c), registered from a
 * constructor where the compiler has them; at the end of the file, after
 * the declarations the preamble adds (add_preamble). */
static char *registration(struct kform *kf)
{
	const struct ki_numbering *n = kf->n;
	const struct cfg *g = kf->plan->g;
	const char *p = kf->p, *name = kf->plan->name;
	struct sb b = {0};
	sb_printf(&b, "static const unsigned %ski_lines_%s[] = {", p, name);
	for (uint32_t l = 0; l < n->nloops; l++)
		sb_printf(&b, "%s%u", l ? ", " : "", g->blocks[n->loops[l].head].line);
	sb_printf(&b, "%s};\nstatic const unsigned %ski_k_%s[] = {", n->nloops ? "" : "0", p, name);
	for (uint32_t l = 0; l < n->nloops; l++)
		sb_printf(&b, "%s%u", l ? ", " : "", n->loops[l].k);
	sb_printf(&b, "%s};\nstatic const char *const %ski_why_%s[] = {", n->nloops ? "" : "0", p, name);
	for (uint32_t l = 0; l < n->nloops; l++) {
		const struct ki_loop *L = &n->loops[l];
		sb_printf(&b, "%s\"%s\"", l ? ", " : "",
		          L->lowered != KI_LOWER_NONE ? lowered_why(L->lowered) : kf->fit_lowered[L->head] ? "fit" : "");
	}
	sb_printf(&b, "%s};\nstatic const struct kpath_rt_kiter %ski_%s = {%u, %u, %ski_lines_%s, %ski_k_%s, %ski_why_%s};\n",
	          n->nloops ? "" : "0", p, name, kf->k, n->nloops, p, name, p, name, p, name);
	sb_printf(&b, "#if defined(__GNUC__) || defined(__clang__)\n"
	              "__attribute__((constructor, no_instrument_function)) static void %ski_register_%s(void)\n"
	              "{\n\tkpath_rt_kiter_register(&%sfn_%s, &%ski_%s);\n}\n#endif\n",
	          p, name, p, name, p, name);
	return b.s;
}

/* The declarations the registration needs (runtime/kiter.c), once per file. */
static const char kiter_preamble[] =
	"/* kpath instrument --mode kiter (docs/kiter-mode.md) */\n"
	"struct kpath_rt_kiter {\n"
	"\tunsigned k, nloops;\n"
	"\tconst unsigned *loop_line, *loop_k;\n"
	"\tconst char *const *loop_why;\n"
	"};\n"
	"void kpath_rt_kiter_register(struct kpath_rt_func *f, const struct kpath_rt_kiter *k);\n";

static void add_preamble(struct rw_file *f)
{
	if (f->preamble_extra && strstr(f->preamble_extra, kiter_preamble))
		return;
	str_append(&f->preamble_extra, kiter_preamble);
}

/* Declarations after the body's "{", with each loop's K as a comment. */
static char *entry_decls(struct kform *kf, uint64_t init)
{
	const struct ki_numbering *n = kf->n;
	struct sb b = {0};
	unsigned m = n->max_k ? n->max_k : 1;
	const char *un = RW_UNUSED(kf->plan);
	sb_printf(&b, " %skpath_rt_u64 %skc[%u] = {%s};", un, kf->p, m, U64(init));
	if (m >= 2)
		sb_printf(&b, " %sunsigned %skt = 0;", un, kf->p);
	sb_printf(&b, " /* kpath kiter: %s paths;", U64(n->total));
	for (uint32_t l = 0; l < n->nloops; l++) {
		const struct ki_loop *L = &n->loops[l];
		unsigned line = kf->plan->g->blocks[L->head].line;
		sb_printf(&b, " loop line %u K=%u", line, L->k);
		if (kf->pragma_k[L->head])
			sb_printf(&b, " (#pragma kpath kiter(%u))", kf->pragma_k[L->head] - 1);
		if (L->lowered != KI_LOWER_NONE)
			sb_printf(&b, " (%s)", lowered_why(L->lowered));
		else if (kf->fit_lowered[L->head])
			sb_printf(&b, " (lowered to fit %u paths)", RW_KITER_LIMIT);
		sb_printf(&b, "%s", l + 1 < n->nloops ? "," : "");
	}
	sb_printf(&b, " */");
	return b.s;
}

/* Whether a --kiter-loop FILE names the file src_name: the same string, or
 * the same last component. */
static bool same_file(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	return !strcmp(a, b) || !strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b);
}

/* The K asked of each loop head (the target of a back edge), per node:
 * --kiter, then #pragma kpath kiter(K) on the loop statement (kiter(0) is
 * acyclic, K = 1: docs/kiter-mode.md), then --kiter-loop FILE:LINE=K, which
 * wins.  Marks the pragmas and specs used; fills kf->pragma_k. */
static unsigned *loop_ks(struct kform *kf, const struct rw_file *f, const struct rw_kiter_opts *o)
{
	const struct cfg *g = kf->plan->g;
	const struct fn_plan *plan = kf->plan;
	unsigned *k_head = calloc(g->nblocks + 1, sizeof *k_head);
	if (!k_head) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (uint32_t v = 0; v < g->nblocks; v++)
		k_head[v] = o->k;
	/* a pragma names the first (outermost) loop statement on its line */
	for (unsigned i = 0; i < o->npragmas; i++)
		for (uint32_t s = 0; s < plan->nloop_stmts; s++)
			if (plan->loop_stmts[s].kw_line == o->pragmas[i].loop_line) {
				uint32_t h = plan->loop_stmts[s].head;
				assert(h < g->nblocks);
				k_head[h] = o->pragmas[i].k ? o->pragmas[i].k : 1;
				kf->pragma_k[h] = o->pragmas[i].k + 1;
				o->pragmas[i].used = true;
				break;
			}
	for (uint32_t ke = 0; ke < kf->kg->nedges; ke++) {
		uint32_t h = kf->kg->edges[ke].dst;
		if (!kf->kg->edges[ke].back)
			continue;
		for (unsigned i = 0; i < o->nloops; i++)
			if (g->blocks[h].line == o->loops[i].line && same_file(o->loops[i].file, f->src_name)) {
				k_head[h] = o->loops[i].k;
				kf->pragma_k[h] = 0;
				o->loops[i].used = true;
			}
	}
	return k_head;
}

/* After ki_fit: marks the loops whose K is below what they could have
 * without the limit (full: the numbering without it, NULL when that does
 * not fit 64 bits; k: --kiter) and says which in res. */
static void lowered_note(struct kform *kf, const struct ki_numbering *full, unsigned k, struct rw_kiter_result *res)
{
	const struct cfg *g = kf->plan->g;
	struct sb note = {0};
	for (uint32_t l = 0; l < kf->n->nloops; l++) {
		const struct ki_loop *L = &kf->n->loops[l];
		unsigned could = full ? full->loops[l].k : k;
		if (L->k >= could)
			continue;
		if (!res->lowered)
			sb_printf(&note, "K lowered to fit %u k-iteration paths:", RW_KITER_LIMIT);
		sb_printf(&note, "%s loop at line %u to K=%u", res->lowered ? "," : "", g->blocks[L->head].line, L->k);
		res->lowered = true;
		kf->fit_lowered[L->head] = true;
	}
	if (res->lowered)
		snprintf(res->note, sizeof res->note, "%s (%s paths)", note.s, U64(kf->n->total));
	free(note.s);
}

const char *rw_kiter_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                              const struct bl_placement *place, const struct rw_kiter_opts *o,
                              struct rw_kiter_result *res, char *err, size_t errlen)
{
	const struct cfg *g = plan->g;
	struct kform kf = {.plan = plan, .p = f->prefix, .k = o->k};
	const char *why = NULL;
	unsigned *k_out = NULL;
	char **edge_code = NULL, **start_code = NULL;
	memset(res, 0, sizeof *res);
	if (plan->has_setjmp)
		return "it calls setjmp, which --mode kiter does not support yet (the counters would be stale after a "
		       "longjmp)";
	kf.cfg_edge = malloc((g->nedges + 1) * sizeof *kf.cfg_edge);
	kf.ki_edge = malloc((g->nedges + 1) * sizeof *kf.ki_edge);
	kf.kg = ki_graph_from_cfg(g, dag, kf.cfg_edge);
	k_out = calloc(g->nblocks + 1, sizeof *k_out);
	kf.fit_lowered = calloc(g->nblocks + 1, sizeof *kf.fit_lowered);
	kf.pragma_k = calloc(g->nblocks + 1, sizeof *kf.pragma_k);
	edge_code = calloc(g->nedges + 1, sizeof *edge_code);
	start_code = calloc(g->nblocks + 1, sizeof *start_code);
	if (!kf.cfg_edge || !kf.ki_edge || !kf.kg || !k_out || !kf.fit_lowered || !kf.pragma_k || !edge_code || !start_code) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (uint32_t e = 0; e < g->nedges; e++)
		kf.ki_edge[e] = KI_NONE;
	for (uint32_t ke = 0; ke < kf.kg->nedges; ke++)
		kf.ki_edge[kf.cfg_edge[ke]] = ke;
	/* K as asked when the function fits the hard limit; else ki_fit lowers
	 * it loop by loop (docs/kiter-paths.md, "Irreducible loops, deep nests,
	 * overflow") */
	unsigned *k_head = loop_ks(&kf, f, o);
	struct ki_options ko = {.k = o->k, .k_head = k_head, .limit = RW_KITER_LIMIT};
	enum ki_status st = ki_build(kf.kg, &ko, &kf.n, err, errlen);
	if (st == KI_TOO_MANY) {
		/* which loops could keep K (mixed mode): a build without the
		 * limit, when its count fits 64 bits */
		struct ki_numbering *full = NULL;
		if (ki_build(kf.kg, &(struct ki_options){.k = o->k, .k_head = k_head}, &full, err, errlen) != KI_OK)
			full = NULL;
		uint64_t fit = ki_fit(kf.kg, &ko, k_out);
		if (fit == UINT64_MAX) {
			ki_free(full);
			snprintf(err, errlen, "more than %u k-iteration paths even with every loop acyclic", RW_KITER_LIMIT);
			why = err;
			goto out;
		}
		ko.k_head = k_out;
		st = ki_build(kf.kg, &ko, &kf.n, err, errlen);
		if (st == KI_OK)
			lowered_note(&kf, full, o->k, res);
		ki_free(full);
	}
	if (st != KI_OK) {
		if (st == KI_NOMEM) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
		why = err;
		goto out;
	}
	snprintf(kf.desc, sizeof kf.desc, "&%sfn_%s", f->prefix, plan->name);
	uint64_t init = 0;
	for (uint32_t ke = 0; ke < kf.kg->nedges; ke++) {
		uint32_t e = kf.cfg_edge[ke];
		if (kf.kg->edges[ke].src == KI_START)
			init = weight(kf.n, kf.n->edge_arc[kf.n->edge_base[ke]], true);
		else
			edge_code[e] = edge_text(&kf, ke);
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		if (g->edges[e].site != CFG_NONE || !edge_code[e] || kf.ki_edge[e] == KI_NONE)
			continue;
		if (!move_to_start(&kf, e, edge_code, start_code)) {
			snprintf(err, errlen, "a switch edge without an insertion site (line %u to line %u) carries "
			         "k-iteration code kpath cannot move to the block it enters", g->blocks[g->edges[e].src].line,
			         g->blocks[g->edges[e].dst].line);
			why = err;
			goto out;
		}
	}
	struct rw_form form = {.edge_code = edge_code, .start_code = start_code, .entry = entry_decls(&kf, init),
	                       .desc = descriptor(&kf, f, dag)};
	char dn[160];
	snprintf(dn, sizeof dn, "%sfn_%s", f->prefix, plan->name);
	form.desc_name = dn;
	add_preamble(f);
	rw_form_write(f, plan, dag, place, &form, registration(&kf));
out:
	rw_form_code_free(edge_code, start_code, g);
	ki_free(kf.n);
	ki_graph_free(kf.kg);
	free(kf.cfg_edge);
	free(kf.ki_edge);
	free(k_out);
	free(kf.fit_lowered);
	free(kf.pragma_k);
	free(k_head);
	return why;
}
