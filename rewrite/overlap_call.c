/*
 * overlap_call.c: the calls of `kpath instrument --mode overlap --degree
 * THETA` (Tallam, Zhang & Gupta, CGO 2004, section 3; docs/overlap.md
 * defines the terms, docs/overlap-mode.md the mode; runtime/overlap_call.c
 * is the other half).
 *
 * Section 3.3 counts an interprocedural OL path as a tuple <callee, call
 * site, r, ro>: r the path in one function, ro the overlapping graph's
 * path in the other.  Here each call site of the function (build.h,
 * call_sites: one call in its block, to a function defined in the file)
 * has two companions, counters like the loops' (kpath_rt_count):
 *
 *   Type I  (I-OL: the caller's path to the call, extended into the
 *           callee to its (theta+1)-th predicate).  The handoff inserted
 *           around the callee's name, "(kpath_rt_ol_call(callee, &site,
 *           p, N, ids, &kp_xo[i]), g)(...)", counts C (ID 0) and passes p,
 *           the caller's Ball-Larus prefix at the call block c (r - pot(c),
 *           cfgbuild/placement.h, or the constant prefix when every path
 *           to c has it).  The callee takes it at its entry (kp_in) and
 *           walks its overlapping graph from the entry (the OL_CALL_IN
 *           space) with kp_iro / kp_iol, as the loops' code walks theirs;
 *           at theta + 1 predicates, at its exit or at its first back edge
 *           (its first path ends) it counts 1 + ro * N + p on the site's
 *           companion, N the caller's num_paths.
 *   Type II (II-OL: the callee's last path, extended into the caller past
 *           the call to the (theta+1)-th predicate).  At its exit the
 *           callee writes its last path + 1 into the caller's kp_xo[i];
 *           on each out-edge of c the caller starts the walk of c's
 *           overlapping graph (the OL_CALL_OUT space) with
 *           kp_xo[i] = last * T_i, kp_xl[i] = 1 + [c is a predicate] (0:
 *           no walk), and counts kp_xo[i] (+ the vals) at theta + 1
 *           predicates or where the caller's path ends (its exit, a back
 *           edge).  One register pair per site: walks from two sites may
 *           overlap.
 *
 * A callee defined later in the file is named through macros its
 * descriptor text defines (P OLD_g its descriptor, P OLT_g its entry
 * graph's path count, P OLN_g its num_paths; descriptors come before the
 * preamble's site companions); a callee not instrumented in this mode
 * gets 0s there, so its calls count C and nothing else.
 *
 * Across files (a site marked across, cfgbuild/calls.c): neither the
 * callee's descriptor nor its counts are known where the caller is
 * compiled.  A callee with external linkage (not inline: its file defines
 * the external symbol) exports its key, "const struct kpath_rt_olkey
 * kpath_olk<theta>_g = {&P fn_g, T, N}", and a caller in another file
 * refers to it as a weak symbol: the linker leaves it null when no file
 * of the program defines g instrumented in this mode at this degree (a
 * library, another mode, another degree, a function skipped), and the
 * site then counts C and nothing else, as above.  The handoff
 * (kpath_rt_ol_callx) names the callee by the key's descriptor, which
 * only g's own entry takes; the site's companions are sized from the key
 * at the first call (runtime/overlap_call.c).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap_call.h"

#define U64(v) rw_u64((char[RW_U64_MAX]){0}, (v))
#define FIT 0x7fffffffu /* radixes below 2^31: products fit 62 bits */

static bool reachable(const struct ol_func *f, uint32_t v)
{
	for (uint32_t i = 0; i < f->nrpo; i++)
		if (f->rpo[i] == v)
			return true;
	return false;
}

/* Every live out-edge of block c has an insertion site (the walk starts there). */
static bool sited_exits(const struct fn_plan *plan, const struct bl_dag *dag, uint32_t c)
{
	const struct cfg *g = plan->g;
	for (uint32_t e = 0; e < g->nedges; e++)
		if (g->edges[e].src == c && dag->role[e] != ROLE_DEAD && g->edges[e].site == CFG_NONE)
			return false;
	return true;
}

void oc_init(struct ocall *oc, const struct fn_plan *plan, const struct bl_dag *dag,
             const struct bl_placement *place, const struct ol_func *f, uint32_t entry_oe, const char *prefix,
             unsigned theta)
{
	memset(oc, 0, sizeof *oc);
	*oc = (struct ocall){.plan = plan, .dag = dag, .place = place, .f = f, .p = prefix, .theta = theta,
	                     .entry_oe = entry_oe};
	uint64_t n = dag->num_paths[CFG_ENTRY];
	oc->in_sp = (struct ol_space){.f = f, .start = f->entry, .body = NULL};
	ol_og_build(&oc->in_og, &oc->in_sp, theta);
	oc->callee = entry_oe != OL_NONE && ol_og_number(&oc->in_og, &oc->in_nb) && oc->in_nb.total <= FIT && n <= FIT;
	oc->sites = calloc(plan->ncall_sites + 1, sizeof *oc->sites);
	if (!oc->sites) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (uint32_t k = 0; k < plan->ncall_sites && n <= FIT; k++) {
		const struct call_site *cs = &plan->call_sites[k];
		if (cs->block < 2 || cs->block >= f->nblocks || !reachable(f, cs->block) ||
		    !sited_exits(plan, dag, cs->block))
			continue;
		struct oc_site *s = &oc->sites[oc->nsites];
		s->cs = cs;
		s->sp = (struct ol_space){.f = f, .start = cs->block, .body = NULL};
		ol_og_build(&s->og, &s->sp, theta);
		if (!ol_og_number(&s->og, &s->nb) || s->nb.total > FIT) {
			ol_og_numbering_release(&s->nb);
			ol_og_release(&s->og);
			continue;
		}
		oc->nsites++;
	}
}

void oc_release(struct ocall *oc)
{
	for (uint32_t i = 0; i < oc->nsites; i++) {
		ol_og_numbering_release(&oc->sites[i].nb);
		ol_og_release(&oc->sites[i].og);
	}
	free(oc->sites);
	if (oc->callee)
		ol_og_numbering_release(&oc->in_nb);
	ol_og_release(&oc->in_og);
	memset(oc, 0, sizeof *oc);
}

static void sep(struct sb *b)
{
	if (b->n)
		sb_printf(b, ", ");
}

/* One walk's step on edge oe of its graph (og, nb): registers id (the
 * accumulated ID) and ol (0: no walk, else 1 + predicates passed), count
 * the text that counts id. */
static bool walk_step(const struct ocall *oc, struct sb *b, uint32_t oe, const struct ol_og *og,
                      const struct ol_og_numbering *nb, const char *id, const char *ol, const char *count)
{
	const struct ol_func *f = oc->f;
	uint32_t w = f->edges[oe].dst;
	bool any = false;
	if (f->is_back[oe]) { /* the path ends at the back edge's source */
		sep(b);
		sb_printf(b, "(void)(%s && (%s, %s = 0))", ol, count, ol);
		return true;
	}
	if (og->cls[oe] != OL_EDGE_DI && og->cls[oe] != OL_EDGE_PI)
		return false;
	uint64_t v = nb->val[oe];
	if (f->is_pred[w]) {
		sep(b);
		sb_printf(b, "(void)(%s && (", ol);
		if (v)
			sb_printf(b, "%s += %s, ", id, U64(v));
		sb_printf(b, "++%s == %u) && (%s, %s = 0))", ol, oc->theta + 2, count, ol);
		any = true;
	} else if (v) {
		sep(b);
		sb_printf(b, "(void)(%s && (%s += %s))", ol, id, U64(v));
		any = true;
	}
	if (w == f->exit) { /* the path ends at the exit */
		sep(b);
		sb_printf(b, "(void)(%s && (%s, %s = 0))", ol, count, ol);
		any = true;
	}
	return any;
}

static void put_count2(const struct ocall *oc, char *buf, size_t n, uint32_t i)
{
	snprintf(buf, n, "kpath_rt_count(&%soco_%s_%u, %sxo[%u], %soco_%s_%u.num_paths)", oc->p, oc->plan->name, i, oc->p,
	         i, oc->p, oc->plan->name, i);
}

void oc_edge(struct ocall *oc, struct sb *b, uint32_t oe, const struct bl_code *c)
{
	const struct ol_func *f = oc->f;
	const char *p = oc->p;
	uint32_t u = f->edges[oe].src, w = f->edges[oe].dst;
	char id[64], ol[64], count[300];
	for (uint32_t i = 0; i < oc->nsites; i++) {
		const struct oc_site *s = &oc->sites[i];
		snprintf(id, sizeof id, "%sxo[%u]", p, i);
		snprintf(ol, sizeof ol, "%sxl[%u]", p, i);
		put_count2(oc, count, sizeof count, i);
		if (u == s->cs->block) { /* the callee returned its last path + 1: the II-OL path starts at c */
			unsigned k0 = 1 + f->is_pred[u];
			sep(b);
			sb_printf(b, "(void)(%s && (%s = (%s - 1) * %s, %s = %u", id, id, id, U64(s->nb.total), ol, k0);
			if (k0 == oc->theta + 2)
				sb_printf(b, ", %s, %s = 0", count, ol);
			sb_printf(b, "))");
		}
		walk_step(oc, b, oe, &s->og, &s->nb, id, ol, count);
	}
	if (!oc->callee)
		return;
	if (oe != oc->entry_oe) {
		snprintf(id, sizeof id, "%siro", p);
		snprintf(ol, sizeof ol, "%siol", p);
		snprintf(count, sizeof count, "kpath_rt_ol_in(&%sin, %siro)", p, p);
		oc->read_in |= walk_step(oc, b, oe, &oc->in_og, &oc->in_nb, id, ol, count);
	}
	if (w == f->exit && c->ends) { /* the last path, for the caller's II-OL walk */
		char reg[64];
		snprintf(reg, sizeof reg, "%sr", p);
		sep(b);
		sb_printf(b, "(void)(%sin.ret && (*%sin.ret = (", p, p);
		rw_put_bl_end(b, reg, c);
		sb_printf(b, ") + 1))");
	}
}

void oc_inverse(const struct ocall *oc, struct sb *b, uint32_t oe)
{
	const struct ol_func *f = oc->f;
	uint32_t w = f->edges[oe].dst;
	for (uint32_t i = 0; i <= oc->nsites; i++) {
		const struct ol_og *og = i < oc->nsites ? &oc->sites[i].og : &oc->in_og;
		const struct ol_og_numbering *nb = i < oc->nsites ? &oc->sites[i].nb : &oc->in_nb;
		if (i == oc->nsites && (!oc->callee || !oc->read_in))
			break;
		if (og->cls[oe] != OL_EDGE_DI && og->cls[oe] != OL_EDGE_PI)
			continue;
		uint64_t v = nb->val[oe];
		if (!v && !f->is_pred[w])
			continue;
		char id[64], ol[64];
		if (i < oc->nsites) {
			snprintf(id, sizeof id, "%sxo[%u]", oc->p, i);
			snprintf(ol, sizeof ol, "%sxl[%u]", oc->p, i);
		} else {
			snprintf(id, sizeof id, "%siro", oc->p);
			snprintf(ol, sizeof ol, "%siol", oc->p);
		}
		sep(b);
		sb_printf(b, "(void)(%s && (", ol);
		if (v)
			sb_printf(b, "%s -= %s, ", id, U64(v));
		if (f->is_pred[w])
			sb_printf(b, "%s -= 1, ", ol);
		sb_printf(b, "1))");
	}
}

void oc_entry(struct ocall *oc, struct sb *b)
{
	const char *p = oc->p, *un = RW_UNUSED(oc->plan);
	if (oc->callee) {
		uint32_t first = oc->f->edges[oc->entry_oe].dst;
		uint64_t v0 = oc->in_nb.val[oc->entry_oe];
		unsigned k0 = 1 + oc->f->is_pred[first];
		bool now = k0 == oc->theta + 2; /* the first block is the (theta+1)-th predicate */
		/* no handoff pending: a load, not a call (runtime/overlap_call.c) */
		sb_printf(b, " %sstruct kpath_rt_olin %sin = kpath_rt_ol_callee ? kpath_rt_ol_take(&%sfn_%s, %d, %s) : "
		          "kpath_rt_ol_zero;", un, p, p, oc->plan->name, now, U64(v0));
		if (oc->read_in && !now)
			sb_printf(b, " %skpath_rt_u64 %siro = %s; %sunsigned %siol = %sin.ret ? %u : 0;", un, p, U64(v0), un, p,
			          p, k0);
		else if (oc->read_in)
			sb_printf(b, " %skpath_rt_u64 %siro = 0; %sunsigned %siol = 0;", un, p, un, p);
	}
	if (oc->nsites)
		sb_printf(b, " %skpath_rt_u64 %sxo[%u] = {0}; %sunsigned %sxl[%u] = {0};", un, p, oc->nsites, un, p,
		          oc->nsites);
}

/* The prefix p of the caller's Ball-Larus path at the call block c, as C text. */
static void put_prefix(const struct ocall *oc, struct sb *b, uint32_t c)
{
	if (oc->place->known[c])
		sb_printf(b, "%s", U64(oc->place->prefix[c]));
	else
		sb_printf(b, "%sr - %s", oc->p, U64(oc->place->pot[c]));
}

void oc_emit(struct ocall *oc, struct rw_file *f, struct sb *d, struct sb *reg, const char *checksum)
{
	const char *p = oc->p, *name = oc->plan->name;
	uint64_t n = oc->dag->num_paths[CFG_ENTRY];
	if (oc->callee) {
		sb_printf(d, "#define %sOLD_%s (&%sfn_%s)\n#define %sOLT_%s %s\n#define %sOLN_%s %s\n", p, name, p, name, p,
		          name, U64(oc->in_nb.total), p, name, U64(n));
		sb_printf(d, "#if defined(%sOLD_%s) && defined(%sOLT_%s) && defined(%sOLN_%s)\n#endif\n", p, name, p, name, p,
		          name);
		if (oc->plan->exported) /* the key callers in other files name it by (after the preamble) */
			sb_printf(reg, "#if defined(__GNUC__) || defined(__clang__)\nextern const struct kpath_rt_olkey kpath_olk%u_%s;\n"
			          "const struct kpath_rt_olkey kpath_olk%u_%s = {&%sfn_%s, %s, %s};\n#endif\n",
			          oc->theta, name, oc->theta, name, p, name, U64(oc->in_nb.total), U64(n));
	}
	if (!oc->nsites)
		return;
	struct sb pre = {0};
	sb_printf(reg, "static const struct kpath_rt_olsite %socs_%s[] = {", p, name);
	for (uint32_t i = 0; i < oc->nsites; i++) {
		const struct oc_site *s = &oc->sites[i];
		const char *g = s->cs->callee;
		bool across = s->cs->across;
		static const char *const mac[] = {"OLD", "OLT", "OLN"};
		if (across) /* the callee's key, null when no file defines it in this mode at this degree */
			sb_printf(&pre, "#ifndef %sOLK_%s\n#if defined(__GNUC__) || defined(__clang__)\n"
			          "extern const struct kpath_rt_olkey kpath_olk%u_%s __attribute__((weak));\n"
			          "#define %sOLK_%s (&kpath_olk%u_%s)\n#else\n#define %sOLK_%s 0\n#endif\n#endif\n",
			          p, g, oc->theta, g, p, g, oc->theta, g, p, g);
		for (int m = 0; m < 3 && !across; m++)
			sb_printf(&pre, "#ifndef %s%s_%s\n#define %s%s_%s 0\n#endif\n", p, mac[m], g, p, mac[m], g);
		for (int t = 0; t < 2; t++) {
			sb_printf(&pre, "static struct kpath_rt_func %soc%c_%s_%u = {KPATH_RT_ABI, \"kpath_rt_overlap:%s:%s:%u\", ",
			          p, t ? 'o' : 'i', name, i, t ? "out" : "in", name, i);
			sb_put_cstr(&pre, f->src_name);
			if (across) /* sized at the first call (kpath_rt_ol_callx) */
				sb_printf(&pre, ", %u, \"%s\", 0, ", s->cs->line, checksum);
			else if (t)
				sb_printf(&pre, ", %u, \"%s\", (kpath_rt_u64)%sOLN_%s * %s, ", s->cs->line, checksum, p, g,
				          U64(s->nb.total));
			else
				sb_printf(&pre, ", %u, \"%s\", 1 + (kpath_rt_u64)%sOLT_%s * %s, ", s->cs->line, checksum, p, g,
				          U64(n));
			sb_printf(&pre, "2, %solines_%s, 0, %soedges_%s, 0, 0, %solines_%s, 0};\n", p, name, p, name, p, name);
		}
		sb_printf(reg, "%s{%u, %u, ", i ? ", " : "", s->cs->block, s->cs->line);
		sb_put_cstr(reg, g);
		sb_printf(reg, ", &%soci_%s_%u, &%soco_%s_%u, %s, %s, ", p, name, i, p, name, i, U64(n), U64(s->nb.total));
		if (across)
			sb_printf(reg, "%sOLK_%s, 1}", p, g);
		else
			sb_printf(reg, "0, 0}");
		struct sb h = {0};
		if (across) {
			sb_printf(&h, "(kpath_rt_ol_callx(%sOLK_%s, &%soci_%s_%u, &%soco_%s_%u, ", p, g, p, name, i, p, name, i);
			put_prefix(oc, &h, s->cs->block);
			sb_printf(&h, ", %s, %s, &%sxo[%u]), ", U64(n), U64(s->nb.total), p, i);
		} else {
			sb_printf(&h, "(kpath_rt_ol_call(%sOLD_%s, &%soci_%s_%u, ", p, g, p, name, i);
			put_prefix(oc, &h, s->cs->block);
			sb_printf(&h, ", %s, %soci_%s_%u.num_paths, &%sxo[%u]), ", U64(n), p, name, i, p, i);
		}
		rw_insert(f, s->cs->off, h.s);
		rw_insert(f, s->cs->end, ")");
		free(h.s);
	}
	sb_printf(reg, "};\n");
	str_append(&f->preamble_extra, pre.s);
	free(pre.s);
}

bool oc_reads_r(const struct ocall *oc)
{
	for (uint32_t i = 0; i < oc->nsites; i++)
		if (!oc->place->known[oc->sites[i].cs->block])
			return true;
	return false;
}
