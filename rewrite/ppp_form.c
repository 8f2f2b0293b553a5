/*
 * ppp_form.c: `kpath instrument --mode ppp --interesting PROFILE.json`,
 * preferential path profiling (Vaswani, Nori & Chilimbi, POPL 2007, "the
 * PPP paper"; docs/ppp.md, "The instrumentation").
 *
 * Per activation two registers, as the paper's section 5 has them
 * ("Counter optimizations": both change on the same chords):
 *   kpath_rt_u64 kp_r   the Ball-Larus register (cfgbuild/placement.h)
 *   kpath_rt_u64 kp_q   the PPP register: the sum of W(e) (Figure 10,
 *                       computePPPIncrements) on the same spanning forest
 *                       (cfgbuild/ppp_place.h)
 * At a path end, with q and r the two IDs of the path just completed and
 * NS the number of slots (the counter array, sized to the PPP interval,
 * section 2.3; at most RW_PPP_SLOT_LIMIT, section 5 "Hash table usage
 * policy"), the code counts
 *   q < NS && kp_ps[q] == r ? q : NS + r
 * with kpath_rt_count: kp_ps is the slot table (per PPP ID the Ball-Larus ID
 * of the interesting path that owns it, or a hole), so the check of the
 * stored Ball-Larus ID separates an interesting path from an alias and from
 * an out-of-range PPP ID (section 5, "Additional checks"; ppp_classify), and
 * every other path is counted exactly by its Ball-Larus ID in the residual
 * side (runtime/ppp.c maps both back to Ball-Larus IDs in the profile).
 * Where both IDs are constants at an end, the check is done here.  Where
 * the whole ID space NS + N fits the runtime's counter array anyway (4096),
 * the PPP register is left out and a constant table indexed by the
 * Ball-Larus ID gives the same slot (map_of): same counts, less work.
 *
 * The descriptor is the Ball-Larus one (same DAG, same checksum, so a ppp
 * profile compares with a k = 1 profile path for path) with num_paths
 * NS + N; the slot table and the interval are registered from a
 * constructor (kpath_rt_ppp_register).  A function with setjmp, or whose
 * placement cannot carry the PPP register (ppp_place_new), is left to the
 * caller (plain Ball-Larus mode, with a warning).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppp.h"
#include "ppp_place.h"
#include "rewrite.h"
#include "strbuf.h"


#define U64(v) rw_u64((char[RW_U64_MAX]){0}, (v))

struct pform {
	const struct fn_plan *plan;
	const struct bl_dag *dag;
	const struct bl_placement *place;
	const struct ppp_numbering *n;
	const struct ppp_place *pp;
	const struct ppp_slots *slots;
	const char *p;
	uint64_t ns, total;      /* slots; NS + N */
	bool map;                /* total <= 4096: classified by a table indexed by the Ball-Larus ID */
	bool acyclic;            /* one path per activation: kpath_rt_count, no cursor */
	bool map_used;           /* some end reads that table (else it is not written: -Wunused) */
	bool read_r, read_q;     /* some code reads the register */
};

/* Where the whole ID space is an array anyway (NS + N <= 4096, the
 * runtime's KP_COUNTS_ARRAY_MAX), the PPP register would add work and save
 * no memory: the Ball-Larus ID is classified by a constant table instead,
 * kp_pm[bl] = the slot of the interesting path bl, or NS + bl (docs/ppp.md,
 * "Departures").  The counts and the profile are the same. */
bool rw_ppp_registers;

static uint64_t map_of(const struct pform *pf, uint64_t bl)
{
	for (uint64_t s = 0; s < pf->ns; s++)
		if (pf->slots->bl[s] == bl)
			return s;
	return pf->ns + bl;
}

/* The ID counted at a path end whose IDs are c (Ball-Larus) and pc (PPP). */
static void put_id(struct pform *pf, struct sb *b, const struct bl_code *c, const struct bl_code *pc)
{
	char r[64], q[64];
	snprintf(r, sizeof r, "%sr", pf->p);
	snprintf(q, sizeof q, "%sq", pf->p);
	if (pf->map && !c->end_rel) {
		sb_printf(b, "%s", U64(map_of(pf, c->end)));
	} else if (pf->map) {
		struct sb bv = {0};
		rw_put_bl_end(&bv, r, c);
		sb_printf(b, "%spm_%s[%s]", pf->p, pf->plan->name, bv.s);
		pf->map_used = true;
		free(bv.s);
	} else if (!c->end_rel && !pc->end_rel) { /* both IDs known here: classify now */
		uint64_t s = ppp_classify(pf->slots, pc->end, c->end);
		sb_printf(b, "%s", U64(s != PPP_RESIDUAL ? s : pf->ns + c->end));
	} else if (!pf->ns) {
		rw_put_bl_end(b, r, c);
	} else {
		struct sb bv = {0}, qv = {0};
		rw_put_bl_end(&bv, r, c);
		rw_put_bl_end(&qv, q, pc);
		sb_printf(b, "(%s < %s && %sps_%s[%s] == %s ? %s : %s + %s)", qv.s, U64(pf->ns), pf->p, pf->plan->name,
		          qv.s, bv.s, qv.s, bv.s, U64(pf->ns));
		free(bv.s);
		free(qv.s);
	}
}

/* The path end of edge e, as the default mode reports one (rewrite/place.c):
 * kpath_rt_count in an acyclic function, else the cursor's emit, or leave
 * at the function's exit; the ID is put_id's. */
static void put_count(struct pform *pf, struct sb *b, uint32_t e, const struct bl_code *c, const struct bl_code *pc)
{
	uint64_t bound = pf->total <= 4096 ? pf->total : pf->ns; /* KP_COUNTS_ARRAY_MAX: all inline */
	if (pf->acyclic) {
		sb_printf(b, "kpath_rt_count(&%sfn_%s, ", pf->p, pf->plan->name);
		put_id(pf, b, c, pc);
		sb_printf(b, ", %s)", U64(bound));
		return;
	}
	sb_printf(b, "kpath_rt_%s(&%sc, ", pf->plan->g->edges[e].dst == CFG_EXIT ? "leave" : "emit", pf->p);
	put_id(pf, b, c, pc);
	sb_printf(b, ")");
}

/* The code of CFG edge e: the end's count, then both updates (NULL: none). */
static char *edge_text(struct pform *pf, uint32_t e)
{
	const struct cfg *g = pf->plan->g;
	struct bl_code c, pc;
	char r[64], q[64];
	if (!bl_code_edge(pf->place, g, pf->dag, e, &c))
		return NULL;
	bool ok = ppp_code_edge(pf->pp, pf->place, g, pf->dag, pf->n, e, &pc);
	assert(ok && pc.ends == c.ends);
	(void)ok;
	snprintf(r, sizeof r, "%sr", pf->p);
	snprintf(q, sizeof q, "%sq", pf->p);
	struct sb b = {0};
	if (c.ends)
		put_count(pf, &b, e, &c, &pc);
	if (c.upd != BL_UPD_NONE && pf->read_r)
		rw_put_bl_upd(&b, r, &c);
	if (pc.upd != BL_UPD_NONE && pf->read_q)
		rw_put_bl_upd(&b, q, &pc);
	return b.s;
}

static char *start_text(struct pform *pf, uint32_t blk)
{
	struct bl_code c, pc;
	char r[64], q[64];
	bl_code_start(pf->place, blk, &c);
	ppp_code_start(pf->pp, pf->place, blk, &pc);
	snprintf(r, sizeof r, "%sr", pf->p);
	snprintf(q, sizeof q, "%sq", pf->p);
	struct sb b = {0};
	if (c.upd != BL_UPD_NONE && pf->read_r)
		rw_put_bl_upd(&b, r, &c);
	if (pc.upd != BL_UPD_NONE && pf->read_q)
		rw_put_bl_upd(&b, q, &pc);
	return b.s;
}

/* Which registers some code reads (an end relative to it, an increment):
 * the others are not declared (-Wunused-but-set-variable). */
static void find_reads(struct pform *pf)
{
	const struct fn_plan *plan = pf->plan;
	const struct cfg *g = plan->g;
	struct bl_code c, pc;
	for (uint32_t e = 0; e < g->nedges; e++) {
		if (g->edges[e].site == CFG_NONE || pf->dag->role[e] == ROLE_DEAD || e == plan->entry_edge ||
		    !bl_code_edge(pf->place, g, pf->dag, e, &c))
			continue;
		ppp_code_edge(pf->pp, pf->place, g, pf->dag, pf->n, e, &pc);
		bool both_const = c.ends && !c.end_rel && (pf->map || !pc.end_rel);
		bool ns = pf->ns != 0 && !pf->map; /* with no slot (or a map) the PPP ID is never looked at */
		pf->read_r |= (c.ends && c.end_rel && !both_const) || c.upd == BL_UPD_ADD;
		pf->read_q |= ns && ((pc.ends && pc.end_rel && !both_const) || pc.upd == BL_UPD_ADD);
		/* an end relative to one register reads both when classified at run time */
		if (c.ends && !both_const && ns)
			pf->read_r = pf->read_q = true;
	}
	for (uint32_t b = 0; b < g->nblocks && b < plan->cap_block_start; b++) {
		if (plan->block_start[b] == CFG_NONE)
			continue;
		bl_code_start(pf->place, b, &c);
		ppp_code_start(pf->pp, pf->place, b, &pc);
		pf->read_r |= c.upd == BL_UPD_ADD;
		pf->read_q |= pf->ns && !pf->map && pc.upd == BL_UPD_ADD;
	}
}

/* The Ball-Larus descriptor (as rw_descriptor writes it) with num_paths
 * NS + N, and the slot table before it. */
static char *descriptor(struct pform *pf, const struct rw_file *f)
{
	const struct cfg *g = pf->plan->g;
	const struct bl_dag *d = pf->dag;
	const char *p = pf->p, *name = pf->plan->name;
	struct sb b = {0};
	sb_printf(&b, "static const kpath_rt_u64 %sps_%s[] = {", p, name);
	for (uint64_t s = 0; s < pf->ns; s++)
		sb_printf(&b, "%s%s", s ? ", " : "", U64(pf->slots->bl[s]));
	sb_printf(&b, "%s};\n", pf->ns ? "" : "0");
	if (pf->map_used) {
		sb_printf(&b, "static const kpath_rt_u64 %spm_%s[] = {", p, name);
		for (uint64_t i = 0; i < d->num_paths[CFG_ENTRY]; i++)
			sb_printf(&b, "%s%s", i ? ", " : "", U64(map_of(pf, i)));
		sb_printf(&b, "%s};\n", d->num_paths[CFG_ENTRY] ? "" : "0");
	}
	rw_put_bl_descriptor(&b, f, p, name, pf->plan->line, g, d, pf->total);
	return b.s;
}

/* The declarations the registration needs (runtime/ppp.c), once per file. */
static const char ppp_preamble[] = "/* kpath instrument --mode ppp (docs/ppp.md) */\n"
                                   "struct kpath_rt_ppp {\n"
                                   "\tkpath_rt_u64 num_bl, interval, nslots;\n"
                                   "\tunsigned ninteresting;\n"
                                   "\tconst kpath_rt_u64 *slot_bl;\n"
                                   "};\n"
                                   "void kpath_rt_ppp_register(struct kpath_rt_func *f, const struct kpath_rt_ppp *p);\n";

static char *registration(struct pform *pf)
{
	const char *p = pf->p, *name = pf->plan->name;
	struct sb b = {0};
	sb_printf(&b, "static const struct kpath_rt_ppp %spp_%s = {%s, ", p, name, U64(pf->dag->num_paths[CFG_ENTRY]));
	sb_printf(&b, "%s, ", U64(pf->n->interval));
	sb_printf(&b, "%s, %u, %sps_%s};\n", U64(pf->ns), pf->n->npaths, p, name);
	sb_printf(&b, "#if defined(__GNUC__) || defined(__clang__)\n"
	              "__attribute__((constructor, no_instrument_function)) static void %spp_register_%s(void)\n"
	              "{\n\tkpath_rt_ppp_register(&%sfn_%s, &%spp_%s);\n}\n#endif\n",
	          p, name, p, name, p, name);
	return b.s;
}

static char *entry_decls(struct pform *pf)
{
	struct bl_code c, pc;
	struct sb b = {0};
	const struct cfg *g = pf->plan->g;
	uint32_t e = pf->plan->entry_edge;
	uint64_t r0 = 0, q0 = 0;
	if (bl_code_edge(pf->place, g, pf->dag, e, &c))
		r0 = c.val;
	if (ppp_code_edge(pf->pp, pf->place, g, pf->dag, pf->n, e, &pc))
		q0 = pc.val;
	const char *un = RW_UNUSED(pf->plan);
	if (pf->read_r || pf->read_q) {
		sb_printf(&b, " %skpath_rt_u64 ", un);
		if (pf->read_r)
			sb_printf(&b, "%sr = %s%s", pf->p, U64(r0), pf->read_q ? ", " : "");
		if (pf->read_q)
			sb_printf(&b, "%sq = %s", pf->p, U64(q0));
		sb_printf(&b, ";");
	}
	if (!pf->acyclic)
		sb_printf(&b, " %sstruct kpath_rt_cursor %sc = kpath_rt_begin(&%sfn_%s, %sc);", un, pf->p, pf->p,
		          pf->plan->name, pf->p);
	sb_printf(&b, " /* kpath ppp: %u interesting of %s paths, interval %s, %s slots%s */", pf->n->npaths,
	          U64(pf->dag->num_paths[CFG_ENTRY]), U64(pf->n->interval), U64(pf->ns),
	          pf->map ? ", classified by Ball-Larus ID" : "");
	return b.s;
}

/* The numbering of I on plan's DAG and its placement; NULL or the reason. */
static const char *number(struct pform *pf, struct ppp_dag **pd, struct ppp_set **set, struct ppp_numbering **n,
                          struct ppp_place **pp, struct ppp_slots **slots, const uint64_t *ids, uint32_t nids,
                          char *err, size_t errlen)
{
	struct rw_place_input pi;
	if (!(*pd = ppp_dag_from_bl(pf->dag, err, errlen)) || !(*set = ppp_set_new(*pd)))
		return *pd ? "out of memory" : err;
	for (uint32_t i = 0; i < nids; i++)
		if (ppp_set_add_bl_id(*set, ids[i], err, errlen) == PPP_NONE)
			return err;
	if (!(*n = ppp_number(*pd, *set, err, errlen)))
		return err;
	rw_place_input(pf->plan, &pi);
	*pp = ppp_place_new(pf->place, &pi.in, pf->plan->g, pf->dag, *n, err, errlen);
	rw_place_input_free(&pi);
	if (!*pp)
		return err;
	if (!(*slots = ppp_slots_new(*n, RW_PPP_SLOT_LIMIT)))
		return "out of memory";
	return NULL;
}

const char *rw_ppp_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                            const struct bl_placement *place, const uint64_t *ids, uint32_t nids,
                            struct rw_ppp_result *res, char *err, size_t errlen)
{
	const struct cfg *g = plan->g;
	struct pform pf = {.plan = plan, .dag = dag, .place = place, .p = f->prefix};
	struct ppp_dag *pd = NULL;
	struct ppp_set *set = NULL;
	struct ppp_numbering *n = NULL;
	struct ppp_place *pp = NULL;
	struct ppp_slots *slots = NULL;
	char **edge_code = NULL, **start_code = NULL;
	memset(res, 0, sizeof *res);
	const char *why = plan->has_setjmp ? "it calls setjmp (the registers would be stale after a longjmp)"
	                                   : number(&pf, &pd, &set, &n, &pp, &slots, ids, nids, err, errlen);
	if (why)
		goto out;
	pf.n = n;
	pf.pp = pp;
	pf.slots = slots;
	pf.ns = slots->nslots;
	pf.total = pf.ns + dag->num_paths[CFG_ENTRY]; /* N <= INT64_MAX (ppp_dag_from_bl) */
	pf.map = pf.total <= 4096 && !rw_ppp_registers;
	pf.acyclic = true; /* no back or cut edge (setjmp is refused above) */
	for (uint32_t e = 0; e < g->nedges; e++)
		pf.acyclic &= dag->role[e] != ROLE_BACK && dag->role[e] != ROLE_CUT;
	*res = (struct rw_ppp_result){n->npaths, n->interval, pf.ns, dag->num_paths[CFG_ENTRY], slots->demoted};
	find_reads(&pf);
	edge_code = calloc(g->nedges + 1, sizeof *edge_code);
	start_code = calloc(g->nblocks + 1, sizeof *start_code);
	if (!edge_code || !start_code) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (uint32_t e = 0; e < g->nedges; e++)
		if (g->edges[e].site != CFG_NONE && dag->role[e] != ROLE_DEAD && e != plan->entry_edge)
			edge_code[e] = edge_text(&pf, e);
	for (uint32_t b = 0; b < g->nblocks && b < plan->cap_block_start; b++)
		if (plan->block_start[b] != CFG_NONE)
			start_code[b] = start_text(&pf, b);
	char dn[160];
	snprintf(dn, sizeof dn, "%sfn_%s", f->prefix, plan->name);
	struct rw_form form = {.edge_code = edge_code, .start_code = start_code, .entry = entry_decls(&pf),
	                       .desc = descriptor(&pf, f), .desc_name = dn};
	if (!f->preamble_extra || !strstr(f->preamble_extra, ppp_preamble))
		str_append(&f->preamble_extra, ppp_preamble);
	rw_form_write(f, plan, dag, place, &form, registration(&pf));
out:
	rw_form_code_free(edge_code, start_code, g);
	ppp_slots_free(slots);
	ppp_place_free(pp);
	ppp_numbering_free(n);
	ppp_set_free(set);
	ppp_dag_free(pd);
	return why;
}
