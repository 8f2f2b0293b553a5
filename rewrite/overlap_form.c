/*
 * overlap_form.c: `kpath instrument --mode overlap --degree THETA`, the
 * loop half of Tallam, Zhang & Gupta's overlapping paths (CGO 2004,
 * section 2; docs/overlap.md defines the terms, docs/overlap-mode.md the
 * mode).
 *
 * A function keeps the default mode's Ball-Larus register and cursor
 * (every BL path still goes to the k-IPF, so KPATH_K=2 in the same run
 * gives the exact two-iteration counts the bounds are checked against),
 * and four more locals per activation, the paper's OL registers:
 *
 *   unsigned kp_os       the loop whose OL path is being extended (1 + its
 *                        index), 0 when none is
 *   kpath_rt_u64 kp_oid  base of that loop's ID range + p * T, where p is
 *                        the Ball-Larus ID of the path that took the back
 *                        edge (the first half) and T the number of paths
 *                        of the loop's overlapping graph
 *   kpath_rt_u64 kp_ro   the paper's ro: the sum of the overlapping
 *                        graph's vals (section 2.3, ol_og_number)
 *   unsigned kp_ol       the paper's ol: predicates passed so far
 *
 * A back edge into head h ends the OL path in progress (if any), then
 * starts one: kp_os = loop, kp_oid = base + (r + end) * T, kp_ro = 0,
 * kp_ol = [h is a predicate].  A DI or PI edge of the loop's overlapping
 * graph (ol_og_build) adds its val to kp_ro and, entering a predicate,
 * 1 to kp_ol; reaching theta + 1 predicates counts the OL path.  (The PI
 * guard "ol <= theta" holds whenever the loop is active: the walk stops at
 * theta + 1.)  A back edge or an edge leaving the body ends a shorter OL
 * path (one "not contained in an OL-theta path").  Each OL path is counted
 * with kpath_rt_count on a second descriptor (the companion, named
 * "kpath_rt_overlap:NAME") whose IDs are kp_oid + kp_ro; runtime/overlap.c
 * folds its counts into the function's profile entry.  The instrumenter
 * registers the graph it numbered (edges in the order the numbering used)
 * so that `kpath overlap` rebuilds the same overlapping graphs.
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap.h"
#include "overlap_call.h"
#include "rewrite.h"
#include "strbuf.h"

#define U64(v) rw_u64((char[RW_U64_MAX]){0}, (v))

struct oloop {
	uint32_t head;
	struct ol_space sp;
	struct ol_og og;
	struct ol_og_numbering nb;
	uint64_t base, total; /* its ID range: [base, base + N * total) */
};

struct oform {
	const struct fn_plan *plan;
	const struct bl_dag *dag;
	const struct bl_placement *place;
	const char *p;
	unsigned theta;
	struct ol_func f;
	uint32_t *ol_edge;    /* per CFG edge: its edge in f, OL_NONE (dead) */
	uint32_t *cfg_edge;   /* per edge of f: the CFG edge */
	struct oloop *loops;
	uint32_t nloops;
	uint64_t nids;        /* the companion's ID space */
	bool read_r, read_ol;
	bool acyclic;         /* no loop, no call site: no cursor, its one path counted at the exit */
	struct ocall oc;      /* the calls (overlap_call.c) */
};

/* f from the CFG's live edges, grouped by source, each group in the
 * (order, id) order of the DFS of cfgbuild/dag.c, so that f's back edges
 * are the numbering's. */
static const char *build_graph(struct oform *of)
{
	const struct cfg *g = of->plan->g;
	of->ol_edge = calloc(g->nedges + 1, sizeof *of->ol_edge);
	of->cfg_edge = calloc(g->nedges + 1, sizeof *of->cfg_edge);
	if (!of->ol_edge || !of->cfg_edge)
		return "out of memory";
	ol_func_init(&of->f, g->nblocks, CFG_ENTRY, CFG_EXIT);
	for (uint32_t e = 0; e < g->nedges; e++)
		of->ol_edge[e] = OL_NONE;
	for (uint32_t b = 0; b < g->nblocks; b++) {
		for (;;) { /* the next edge out of b in (order, id) order: few out-edges */
			uint32_t best = OL_NONE;
			for (uint32_t e = 0; e < g->nedges; e++) {
				const struct cfg_edge *x = &g->edges[e];
				if (x->src != b || of->ol_edge[e] != OL_NONE ||
				    (of->dag->role[e] != ROLE_FORWARD && of->dag->role[e] != ROLE_BACK))
					continue;
				if (best == OL_NONE || x->order < g->edges[best].order)
					best = e;
			}
			if (best == OL_NONE)
				break;
			/* parallel CFG edges (two case labels of one block) are one
			 * edge of f: the same blocks, the same OL code */
			uint32_t same = OL_NONE;
			for (uint32_t k = 0; k < of->f.nedges && same == OL_NONE; k++)
				if (of->f.edges[k].src == b && of->f.edges[k].dst == g->edges[best].dst)
					same = k;
			if (same != OL_NONE) {
				of->ol_edge[best] = same;
				continue;
			}
			of->ol_edge[best] = of->f.nedges;
			of->cfg_edge[of->f.nedges] = best;
			ol_func_add_edge(&of->f, b, g->edges[best].dst);
		}
	}
	const char *why = ol_func_finish_checked(&of->f);
	if (why)
		return why;
	for (uint32_t e = 0; e < g->nedges; e++)
		if (of->ol_edge[e] != OL_NONE && of->f.is_back[of->ol_edge[e]] != (of->dag->role[e] == ROLE_BACK))
			return "the back edges of the overlapping graph differ from the numbering's";
	return NULL;
}

/* The overlapping graph of every loop at theta and the companion's ID
 * ranges (checked against 64 bits). */
static const char *build_loops(struct oform *of)
{
	uint64_t n = of->dag->num_paths[CFG_ENTRY];
	struct ol_program prog = {.funcs = &of->f, .nfuncs = 1};
	for (uint32_t h = 0; h < of->f.nblocks; h++)
		of->nloops += of->f.is_head[h];
	of->loops = calloc(of->nloops + 1, sizeof *of->loops);
	if (!of->loops)
		return "out of memory";
	uint32_t i = 0;
	for (uint32_t h = 0; h < of->f.nblocks; h++) {
		if (!of->f.is_head[h])
			continue;
		struct oloop *L = &of->loops[i++];
		struct ol_site s = {.kind = OL_LOOP, .func = 0, .block = h, .callee = OL_NONE};
		L->head = h;
		L->sp = ol_site_space(&prog, &s);
		ol_og_build(&L->og, &L->sp, of->theta);
		if (!ol_og_number(&L->og, &L->nb))
			return "a loop's overlapping graph has more than 2^64 - 1 paths";
		L->total = L->nb.total;
		L->base = of->nids;
		if (L->total && n > (UINT64_MAX / 2 - of->nids) / L->total)
			return "the OL path IDs do not fit 63 bits (too many Ball-Larus paths)";
		of->nids += n * L->total;
	}
	return NULL;
}

static void sep(struct sb *b)
{
	if (b->n)
		sb_printf(b, ", ");
}

/* Counts the OL path in progress: "kpath_rt_count(&companion, ID, N), kp_os = 0". */
static void put_ol_count(const struct oform *of, struct sb *b, const char *id)
{
	sb_printf(b, "(kpath_rt_count(&%sofn_%s, %s, %s), %sos = 0)", of->p, of->plan->name, id, U64(of->nids), of->p);
}

/* The OL code of CFG edge e (ol_edge oe), before the Ball-Larus code. */
static void put_ol_edge(struct oform *of, struct sb *b, uint32_t oe, const struct bl_code *c)
{
	const struct ol_func *f = &of->f;
	const char *p = of->p;
	char id[96];
	snprintf(id, sizeof id, "%soid + %sro", p, p);
	uint32_t w = f->edges[oe].dst;
	oc_edge(&of->oc, b, oe, c);
	if (f->is_back[oe]) {
		/* ends the OL path in progress, whichever loop it extends */
		sep(b);
		sb_printf(b, "(void)(%sos && ", p);
		put_ol_count(of, b, id);
		sb_printf(b, ")");
		uint32_t i = 0;
		while (of->loops[i].head != w)
			i++;
		const struct oloop *L = &of->loops[i];
		char reg[64];
		snprintf(reg, sizeof reg, "%sr", p);
		struct sb fixed = {0};
		/* the first half's ID is the path the back edge completes: r + end */
		sb_printf(&fixed, "%s + ", U64(L->base));
		rw_put_bl_end(&fixed, reg, c);
		sb_printf(&fixed, " * %s", U64(L->total));
		of->read_r |= c->end_rel;
		sep(b);
		if (f->is_pred[w] && of->theta == 0) { /* OL-0 at a predicate head: h alone */
			sb_printf(b, "kpath_rt_count(&%sofn_%s, %s, %s)", p, of->plan->name, fixed.s, U64(of->nids));
		} else {
			sb_printf(b, "%sos = %u, %soid = %s, %sro = 0", p, i + 1, p, fixed.s, p);
			if (of->read_ol)
				sb_printf(b, ", %sol = %u", p, f->is_pred[w]);
		}
		free(fixed.s);
		return;
	}
	for (uint32_t i = 0; i < of->nloops; i++) {
		const struct oloop *L = &of->loops[i];
		enum ol_edge_class cls = L->og.cls[oe];
		if (cls == OL_EDGE_DI || cls == OL_EDGE_PI) {
			uint64_t v = L->nb.val[oe];
			if (!v && !f->is_pred[w])
				continue;
			sep(b);
			sb_printf(b, "(void)(%sos == %u && ", p, i + 1);
			if (f->is_pred[w]) {
				if (v)
					sb_printf(b, "(%sro += %s, ++%sol == %u) && ", p, U64(v), p, of->theta + 1);
				else
					sb_printf(b, "++%sol == %u && ", p, of->theta + 1);
				put_ol_count(of, b, id);
				assert(of->read_ol);
			} else {
				sb_printf(b, "(%sro += %s)", p, U64(v));
			}
			sb_printf(b, ")");
		} else if (L->sp.body[f->edges[oe].src] && !L->sp.body[w]) {
			/* leaves the body: the second half ends short of theta + 1 predicates */
			sep(b);
			sb_printf(b, "(void)(%sos == %u && ", p, i + 1);
			put_ol_count(of, b, id);
			sb_printf(b, ")");
		}
	}
}

/* The whole code of CFG edge e: the OL registers, the path end, the update. */
static char *edge_text(struct oform *of, uint32_t e, bool ol_part, bool bl_part)
{
	const struct cfg *g = of->plan->g;
	struct bl_code c;
	char r[64];
	snprintf(r, sizeof r, "%sr", of->p);
	bool has = bl_code_edge(of->place, g, of->dag, e, &c);
	struct sb b = {0};
	if (ol_part && of->ol_edge[e] != OL_NONE)
		put_ol_edge(of, &b, of->ol_edge[e], has ? &c : &(struct bl_code){0});
	if (bl_part && has) {
		if (c.ends) {
			sep(&b);
			if (of->acyclic) { /* one path per activation: the default mode's acyclic form */
				assert(g->edges[e].dst == CFG_EXIT);
				sb_printf(&b, "kpath_rt_count(&%sfn_%s, ", of->p, of->plan->name);
				rw_put_bl_end(&b, r, &c);
				sb_printf(&b, ", %s)", U64(of->dag->num_paths[CFG_ENTRY]));
			} else {
				sb_printf(&b, "kpath_rt_%s(&%sc, ", g->edges[e].dst == CFG_EXIT ? "leave" : "emit", of->p);
				rw_put_bl_end(&b, r, &c);
				sb_printf(&b, ")");
			}
			of->read_r |= c.end_rel;
		}
		if (c.upd != BL_UPD_NONE)
			rw_put_bl_upd(&b, r, &c);
	}
	return b.s;
}

/* Does the BL code of any edge or start read r (an end relative to it, an increment)? */
static void find_reads(struct oform *of)
{
	const struct fn_plan *plan = of->plan;
	const struct cfg *g = plan->g;
	struct bl_code c;
	for (uint32_t e = 0; e < g->nedges; e++)
		if (g->edges[e].site != CFG_NONE && of->dag->role[e] != ROLE_DEAD && e != plan->entry_edge &&
		    bl_code_edge(of->place, g, of->dag, e, &c))
			of->read_r |= (c.ends && c.end_rel) || c.upd == BL_UPD_ADD;
	for (uint32_t b = 0; b < g->nblocks && b < plan->cap_block_start; b++) {
		if (plan->block_start[b] == CFG_NONE)
			continue;
		bl_code_start(of->place, b, &c);
		of->read_r |= c.upd == BL_UPD_ADD;
	}
}

/* The undoing of the register increments of edge oe (put_ol_edge): the
 * compensation a sited edge into a block gets when the block's start runs
 * the code of a site-less edge (movable). */
static void put_ol_inverse(const struct oform *of, struct sb *b, uint32_t oe)
{
	const struct ol_func *f = &of->f;
	uint32_t w = f->edges[oe].dst;
	for (uint32_t i = 0; i < of->nloops; i++) {
		const struct oloop *L = &of->loops[i];
		if (L->og.cls[oe] != OL_EDGE_DI && L->og.cls[oe] != OL_EDGE_PI)
			continue;
		uint64_t v = L->nb.val[oe];
		if (!v && !f->is_pred[w])
			continue;
		sep(b);
		sb_printf(b, "(void)(%sos == %u && (", of->p, i + 1);
		if (v)
			sb_printf(b, "%sro -= %s%s", of->p, U64(v), f->is_pred[w] ? ", " : "");
		if (f->is_pred[w])
			sb_printf(b, "%sol -= 1", of->p);
		sb_printf(b, ", 1))");
	}
	oc_inverse(&of->oc, b, oe);
}

/*
 * May the OL code of the site-less edge e (text) run at the start of the
 * block d it enters?  The start site runs on every way into d, so each
 * other way must either be site-less with the same code (case labels of
 * one switch), or have a site, where it gets, after its own code, the
 * undoing of e's increments (*comp): a path through it then adds e's val
 * and predicate at the start of d and takes them back first.  The undoing
 * is exact: its own code, if it counts the OL path, clears kp_os, and then
 * neither the undoing nor d's start does anything; e's code only adds to
 * the registers (a count it makes on leaving a body is made by every way
 * out to d).  Returns false when neither holds.
 */
static bool movable(struct oform *of, uint32_t e, const char *text, char **comp)
{
	const struct cfg *g = of->plan->g;
	uint32_t d = g->edges[e].dst;
	if (d >= of->plan->cap_block_start || of->plan->block_start[d] == CFG_NONE)
		return false;
	for (uint32_t x = 0; x < g->nedges; x++) {
		if (g->edges[x].dst != d || of->dag->role[x] == ROLE_DEAD || x == e || g->edges[x].site != CFG_NONE)
			continue;
		char *t = edge_text(of, x, true, false);
		bool same = t && !strcmp(t, text);
		free(t);
		if (!same)
			return false;
	}
	for (uint32_t x = 0; x < g->nedges; x++) {
		if (g->edges[x].dst != d || of->dag->role[x] == ROLE_DEAD || x == e || g->edges[x].site == CFG_NONE ||
		    x == of->plan->entry_edge)
			continue;
		struct sb b = {0};
		if (comp[x])
			sb_printf(&b, "%s", comp[x]);
		put_ol_inverse(of, &b, of->ol_edge[e]);
		free(comp[x]);
		comp[x] = b.s;
	}
	return true;
}

/* Every edge's code; OL code of an edge without a site moves to the start
 * site of the block it enters (movable).  Returns NULL or why the function
 * cannot be instrumented. */
static const char *all_code(struct oform *of, char **edge_code, char **start_code)
{
	const struct fn_plan *plan = of->plan;
	const struct cfg *g = plan->g;
	char r[64];
	bool *moved = calloc(g->nblocks + 1, sizeof *moved);
	char **comp = calloc(g->nedges + 1, sizeof *comp); /* per edge: undoings after its code (movable) */
	if (!moved || !comp) {
		free(moved);
		free(comp);
		return "out of memory";
	}
	snprintf(r, sizeof r, "%sr", of->p);
	for (uint32_t b = 0; b < g->nblocks && b < plan->cap_block_start; b++) {
		if (plan->block_start[b] == CFG_NONE)
			continue;
		struct bl_code c;
		struct sb s = {0};
		bl_code_start(of->place, b, &c);
		if (c.upd != BL_UPD_NONE)
			rw_put_bl_upd(&s, r, &c);
		start_code[b] = s.s;
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		if (of->dag->role[e] == ROLE_DEAD || e == plan->entry_edge)
			continue;
		if (g->edges[e].site != CFG_NONE) {
			edge_code[e] = edge_text(of, e, true, true);
			continue;
		}
		char *t = edge_text(of, e, true, false);
		uint32_t d = g->edges[e].dst;
		if (!t || moved[d]) {
			free(t);
			continue;
		}
		if (!movable(of, e, t, comp)) {
			free(t);
			free(moved);
			for (uint32_t x = 0; x < g->nedges; x++)
				free(comp[x]);
			free(comp);
			static char why[200];
			snprintf(why, sizeof why, "the edge from line %u to line %u, in a loop's overlapping graph, has no place "
			         "for its code (a switch dispatch into a case also reached by another dispatch with other code)",
			         g->blocks[g->edges[e].src].line, g->blocks[d].line);
			return why;
		}
		moved[d] = true;
		struct sb s = {0};
		sb_printf(&s, "%s", t);
		if (start_code[d])
			sb_printf(&s, ", %s", start_code[d]);
		free(t);
		free(start_code[d]);
		start_code[d] = s.s;
	}
	free(moved);
	for (uint32_t x = 0; x < g->nedges; x++) {
		if (!comp[x])
			continue;
		struct sb s = {0};
		if (edge_code[x])
			sb_printf(&s, "%s, ", edge_code[x]);
		sb_printf(&s, "%s", comp[x]);
		free(edge_code[x]);
		free(comp[x]);
		edge_code[x] = s.s;
	}
	free(comp);
	return NULL;
}

static char *entry_decls(struct oform *of)
{
	struct bl_code c;
	struct sb b = {0};
	const struct cfg *g = of->plan->g;
	const char *p = of->p;
	uint64_t r0 = 0;
	const char *un = RW_UNUSED(of->plan);
	if (bl_code_edge(of->place, g, of->dag, of->plan->entry_edge, &c))
		r0 = c.val;
	if (of->read_r)
		sb_printf(&b, " %skpath_rt_u64 %sr = %s;", un, p, U64(r0));
	if (!of->acyclic)
		sb_printf(&b, " %sstruct kpath_rt_cursor %sc = kpath_rt_begin(&%sfn_%s, %sc);", un, p, p, of->plan->name, p);
	if (of->nloops) {
		sb_printf(&b, " %skpath_rt_u64 %soid = 0, %sro = 0; %sunsigned %sos = 0", un, p, p, un, p);
		if (of->read_ol) /* else no clause reads it: not declared (-Wunused-but-set-variable) */
			sb_printf(&b, ", %sol = 0", p);
		sb_printf(&b, ";");
	}
	oc_entry(&of->oc, &b);
	sb_printf(&b, " /* kpath overlap: degree %u;", of->theta);
	for (uint32_t i = 0; i < of->nloops; i++)
		sb_printf(&b, "%s loop line %u: %s OL graph paths", i ? "," : "", g->blocks[of->loops[i].head].line,
		          U64(of->loops[i].total));
	for (uint32_t i = 0; i < of->oc.nsites; i++)
		sb_printf(&b, "%s call line %u: %s II-OL graph paths", i || of->nloops ? "," : "", of->oc.sites[i].cs->line,
		          U64(of->oc.sites[i].nb.total));
	if (of->oc.callee)
		sb_printf(&b, "%s entry: %s I-OL graph paths", of->nloops || of->oc.nsites ? "," : "",
		          U64(of->oc.in_nb.total));
	sb_printf(&b, " */");
	return b.s;
}

/* The Ball-Larus descriptor (as rw_descriptor writes it) and the companion. */
static char *descriptors(struct oform *of, const struct rw_file *f)
{
	const struct cfg *g = of->plan->g;
	const struct bl_dag *d = of->dag;
	const char *p = of->p, *name = of->plan->name;
	struct sb b = {0};
	rw_put_bl_descriptor(&b, f, p, name, of->plan->line, g, d, d->num_paths[CFG_ENTRY]);
	/* the companion: OL path counts only, never a function of the profile */
	char cname[300];
	snprintf(cname, sizeof cname, "kpath_rt_overlap:%s", name);
	sb_printf(&b, "static const unsigned %solines_%s[] = {0, 0};\n", p, name);
	sb_printf(&b, "static const struct kpath_rt_edge %soedges_%s[] = {{0, 0, 0}};\n", p, name);
	sb_printf(&b, "static struct kpath_rt_func %sofn_%s = {KPATH_RT_ABI, ", p, name);
	sb_put_cstr(&b, cname);
	sb_printf(&b, ", ");
	sb_put_cstr(&b, f->src_name);
	sb_printf(&b, ", %u, \"%016" PRIx64 "\", %s, 2, %solines_%s, 0, %soedges_%s, 0, 0, %solines_%s, 0};\n",
	          of->plan->line, bl_checksum(g, d), U64(of->nids), p, name, p, name, p, name);
	return b.s;
}

/* The declarations the registration needs (runtime/overlap.c), once per file. */
static const char ol_preamble[] = "/* kpath instrument --mode overlap (docs/overlap-mode.md) */\n"
                                  "struct kpath_rt_overlap {\n"
                                  "\tunsigned degree, nedges;\n"
                                  "\tconst unsigned *edges;\n"
                                  "\tconst char *dag_kinds;\n"
                                  "\tunsigned nloops;\n"
                                  "\tconst unsigned *head;\n"
                                  "\tconst kpath_rt_u64 *base, *total;\n"
                                  "};\n"
                                  "void kpath_rt_overlap_register(struct kpath_rt_func *f, struct kpath_rt_func *ol,\n"
                                  "\tconst struct kpath_rt_overlap *o);\n"
                                  "struct kpath_rt_olin {\n"
                                  "\tstruct kpath_rt_func *site;\n"
                                  "\tkpath_rt_u64 p, n, nids;\n"
                                  "\tkpath_rt_u64 *ret;\n"
                                  "};\n"
                                  "struct kpath_rt_olkey {\n"
                                  "\tconst struct kpath_rt_func *fn;\n"
                                  "\tkpath_rt_u64 t, n;\n"
                                  "};\n"
                                  "struct kpath_rt_olsite {\n"
                                  "\tunsigned block, line;\n"
                                  "\tconst char *callee;\n"
                                  "\tstruct kpath_rt_func *in, *out;\n"
                                  "\tkpath_rt_u64 n, t;\n"
                                  "\tconst struct kpath_rt_olkey *key;\n"
                                  "\tint across;\n"
                                  "};\n"
                                  "void kpath_rt_ol_call(const struct kpath_rt_func *callee, struct kpath_rt_func *site,\n"
                                  "\tkpath_rt_u64 p, kpath_rt_u64 n, kpath_rt_u64 nids, kpath_rt_u64 *ret);\n"
                                  "void kpath_rt_ol_callx(const struct kpath_rt_olkey *key, struct kpath_rt_func *site,\n"
                                  "\tstruct kpath_rt_func *out, kpath_rt_u64 p, kpath_rt_u64 n, kpath_rt_u64 t, kpath_rt_u64 *ret);\n"
                                  "struct kpath_rt_olin kpath_rt_ol_take(const struct kpath_rt_func *self, int now, kpath_rt_u64 ro);\n"
                                  "void kpath_rt_ol_in(const struct kpath_rt_olin *in, kpath_rt_u64 ro);\n"
                                  "extern __thread const struct kpath_rt_func *kpath_rt_ol_callee;\n"
                                  "extern const struct kpath_rt_olin kpath_rt_ol_zero;\n"
                                  "void kpath_rt_overlap_calls_register2(const struct kpath_rt_func *f, unsigned nsites,\n"
                                  "\tconst struct kpath_rt_olsite *s);\n";

static char *registration(struct oform *of, const char *calls)
{
	const char *p = of->p, *name = of->plan->name;
	const struct bl_dag *d = of->dag;
	struct sb b = {0};
	sb_printf(&b, "static const unsigned %soge_%s[] = {", p, name);
	for (uint32_t e = 0; e < of->f.nedges; e++)
		sb_printf(&b, "%s%u, %u", e ? ", " : "", of->f.edges[e].src, of->f.edges[e].dst);
	sb_printf(&b, "%s};\nstatic const unsigned %sohead_%s[] = {", of->f.nedges ? "" : "0", p, name);
	for (uint32_t i = 0; i < of->nloops; i++)
		sb_printf(&b, "%s%u", i ? ", " : "", of->loops[i].head);
	sb_printf(&b, "%s};\nstatic const kpath_rt_u64 %sobase_%s[] = {", of->nloops ? "" : "0", p, name);
	for (uint32_t i = 0; i < of->nloops; i++)
		sb_printf(&b, "%s%s", i ? ", " : "", U64(of->loops[i].base));
	sb_printf(&b, "%s};\nstatic const kpath_rt_u64 %sototal_%s[] = {", of->nloops ? "" : "0", p, name);
	for (uint32_t i = 0; i < of->nloops; i++)
		sb_printf(&b, "%s%s", i ? ", " : "", U64(of->loops[i].total));
	if (!of->nloops)
		sb_printf(&b, "0");
	sb_printf(&b, "};\nstatic const struct kpath_rt_overlap %sol_%s = {%u, %u, %soge_%s, \"", p, name, of->theta,
	          of->f.nedges, p, name);
	for (uint32_t i = 0; i < d->nedges; i++) /* which DAG edges are dummies: the profile's decoder needs it */
		sb_printf(&b, "%c", d->edges[i].kind == BL_EDGE_CFG ? 'c' : d->edges[i].kind == BL_EDGE_DUMMY_ENTRY ? 'e' : 'x');
	sb_printf(&b, "\", %u, %sohead_%s, %sobase_%s, %sototal_%s};\n", of->nloops, p, name, p, name, p, name);
	if (calls)
		sb_printf(&b, "%s", calls);
	sb_printf(&b, "#if defined(__GNUC__) || defined(__clang__)\n"
	              "__attribute__((constructor, no_instrument_function)) static void %sol_register_%s(void)\n"
	              "{\n\tkpath_rt_overlap_register(&%sfn_%s, &%sofn_%s, &%sol_%s);\n",
	          p, name, p, name, p, name, p, name);
	if (of->oc.nsites)
		sb_printf(&b, "\tkpath_rt_overlap_calls_register2(&%sfn_%s, %u, %socs_%s);\n", p, name, of->oc.nsites, p, name);
	sb_printf(&b, "}\n#endif\n");
	return b.s;
}

static void release(struct oform *of)
{
	for (uint32_t i = 0; of->loops && i < of->nloops; i++) {
		ol_og_numbering_release(&of->loops[i].nb);
		ol_og_release(&of->loops[i].og);
	}
	free(of->loops);
	if (of->oc.f)
		oc_release(&of->oc);
	ol_func_release(&of->f);
	free(of->ol_edge);
	free(of->cfg_edge);
}

const char *rw_overlap_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                                const struct bl_placement *place, unsigned theta, struct rw_overlap_result *res,
                                char *err, size_t errlen)
{
	const struct cfg *g = plan->g;
	struct oform of = {.plan = plan, .dag = dag, .place = place, .p = f->prefix, .theta = theta};
	char **edge_code = NULL, **start_code = NULL;
	memset(res, 0, sizeof *res);
	const char *why = NULL;
	if (plan->has_setjmp)
		why = "it calls setjmp (the OL registers would be stale after a longjmp)";
	else if (dag->ncut)
		why = "edges were cut to keep path IDs within 64 bits (a cut would end an OL path)";
	else
		why = build_graph(&of);
	if (!why)
		why = build_loops(&of);
	if (why) {
		snprintf(err, errlen, "%s", why);
		release(&of);
		return err;
	}
	res->loops = of.nloops;
	oc_init(&of.oc, plan, dag, place, &of.f, of.ol_edge[plan->entry_edge], f->prefix, theta);
	/* A function with neither loops nor call sites completes one path per
	 * activation: as in the default mode (rewrite/place.c, is_acyclic) it
	 * needs no cursor, its exit counts the path (kpath_rt_count).  It stays
	 * in this form for its callers' I-OL and II-OL paths. */
	of.acyclic = !of.nloops && !of.oc.nsites;
	find_reads(&of);
	of.read_r |= oc_reads_r(&of.oc);
	for (uint32_t i = 0; i < of.nloops; i++) /* some clause counts predicates (put_ol_edge) */
		for (uint32_t e = 0; e < of.f.nedges; e++)
			of.read_ol |= (of.loops[i].og.cls[e] == OL_EDGE_DI || of.loops[i].og.cls[e] == OL_EDGE_PI) &&
			              of.f.is_pred[of.f.edges[e].dst];
	edge_code = calloc(g->nedges + 1, sizeof *edge_code);
	start_code = calloc(g->nblocks + 1, sizeof *start_code);
	if (!edge_code || !start_code) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	why = all_code(&of, edge_code, start_code);
	if (!why) {
		char dn[160], chk[20];
		snprintf(dn, sizeof dn, "%sfn_%s", f->prefix, plan->name);
		snprintf(chk, sizeof chk, "%016" PRIx64, bl_checksum(g, dag));
		struct rw_form form = {.edge_code = edge_code, .start_code = start_code, .entry = entry_decls(&of),
		                       .desc = descriptors(&of, f), .desc_name = dn};
		if (!f->preamble_extra || !strstr(f->preamble_extra, ol_preamble))
			str_append(&f->preamble_extra, ol_preamble);
		struct sb d = {0}, calls = {0};
		sb_printf(&d, "%s", form.desc);
		oc_emit(&of.oc, f, &d, &calls, chk);
		free(form.desc);
		form.desc = d.s;
		char *reg = registration(&of, calls.s);
		free(calls.s);
		rw_form_write(f, plan, dag, place, &form, reg);
	} else {
		snprintf(err, errlen, "%s", why);
		why = err;
	}
	rw_form_code_free(edge_code, start_code, g);
	release(&of);
	return why;
}
