/*
 * place.c: the code each CFG edge carries, written at the edge's site.
 *
 * Ball-Larus instrumentation (Ball & Larus 1996; k-BLPP paper, "Ball-Larus
 * Path Tracing Algorithm"), with the path register r:
 *   entry               r = val(ENTRY -> first block)
 *   forward edge e      r += val(e)                      (nothing when 0)
 *   edge into EXIT      leave(r + val(e))
 *   back/cut edge v->w  emit(r + val(v -> EXIT)); r = val(ENTRY -> w)
 *
 * Compensation: a switch dispatch into a case block B has no site of its
 * own.  Its val, comp(B), is added at B's start site (just after the case
 * label), which runs on every entry into B; every other way into B therefore
 * subtracts comp(B) first (their sites run before the label).  Arithmetic is
 * on unsigned 64-bit values, so the sum along any path is exact.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite.h"

struct strlist {
	char **v;
	uint32_t n, cap;
};

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	return q;
}

static char *fmt(const char *f, ...)
{
	va_list ap, aq;
	va_start(ap, f);
	va_copy(aq, ap);
	int n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	char *s = xrealloc(NULL, (size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, f, aq);
	va_end(aq);
	return s;
}

static void push(struct strlist *l, char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 4;
		l->v = xrealloc(l->v, l->cap * sizeof *l->v);
	}
	l->v[l->n++] = s;
}

/* Constants that do not fit a long long need a suffix: without one they
 * are unsigned only by accident (and gcc warns). */
static const char *big(uint64_t v)
{
	return v > INT64_MAX ? "ULL" : "";
}

/* "r += d" for a (mod 2^64) difference d, written as a subtraction when d
 * is a small negative number. */
static char *add_code(const char *p, uint64_t d)
{
	if (d > UINT64_MAX / 2)
		return fmt("%sr -= %llu%s", p, (unsigned long long)(0 - d), big(0 - d));
	return fmt("%sr += %llu%s", p, (unsigned long long)d, big(d));
}

static char *value_code(const char *p, uint64_t d)
{
	if (d == 0)
		return fmt("%sr", p);
	return fmt("%sr + %llu%s", p, (unsigned long long)d, big(d));
}

static char *join(struct strlist *l, const char *sep, const char *pre, const char *post)
{
	size_t n = strlen(pre) + strlen(post) + 1;
	for (uint32_t i = 0; i < l->n; i++)
		n += strlen(l->v[i]) + strlen(sep);
	char *s = xrealloc(NULL, n);
	strcpy(s, pre);
	for (uint32_t i = 0; i < l->n; i++) {
		if (i)
			strcat(s, sep);
		strcat(s, l->v[i]);
	}
	strcat(s, post);
	return s;
}

struct placer {
	const struct fn_plan *plan;
	const struct bl_dag *dag;
	const char *p;            /* identifier prefix */
	uint64_t *edge_val;       /* per CFG edge: val in the DAG */
	bool *edge_in_dag;
	uint64_t *comp;           /* per block */
	struct strlist *code;     /* per site */
	bool check;
	const char *failed;       /* why placement is impossible, NULL if fine */
};

static bool compute_comp(struct placer *pl, char *err, size_t errlen)
{
	const struct cfg *g = pl->plan->g;
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct cfg_edge *ce = &g->edges[e];
		if (ce->site != CFG_NONE || pl->dag->role[e] == ROLE_DEAD || e == pl->plan->entry_edge)
			continue;
		if (pl->dag->role[e] != ROLE_FORWARD) {
			snprintf(err, errlen, "an edge without insertion site is a back edge");
			return false;
		}
		uint64_t v = pl->edge_in_dag[e] ? pl->edge_val[e] : 0;
		if (v == 0)
			continue;
		if (ce->dst >= pl->plan->cap_block_start || pl->plan->block_start[ce->dst] == CFG_NONE ||
		    pl->comp[ce->dst] != 0) {
			snprintf(err, errlen, "no site for the increment of a switch dispatch");
			return false;
		}
		pl->comp[ce->dst] = v;
	}
	return true;
}

static uint64_t comp_of(const struct placer *pl, uint32_t b)
{
	return pl->comp[b];
}

/* The code of CFG edge e, appended to its site's list. */
static void edge_code(struct placer *pl, uint32_t e)
{
	const struct cfg_edge *ce = &pl->plan->g->edges[e];
	const struct bl_dag *d = pl->dag;
	const char *p = pl->p;
	if (ce->site == CFG_NONE || d->role[e] == ROLE_DEAD)
		return;
	struct strlist *l = &pl->code[ce->site];
	if (pl->check)
		push(l, fmt("kpath_chk_edge(&%sc, %u)", p, e));
	bool restart = pl->plan->restart && ce->src < pl->plan->cap_block_start && pl->plan->restart[ce->src];
	switch (d->role[e]) {
	case ROLE_FORWARD:
		if (!pl->edge_in_dag[e])
			return; /* leads to no complete path: never completes an ID */
		if (restart) {
			/* out of a setjmp block: absolute, the register may be stale */
			if (d->dummy_entry[ce->src] == CFG_NONE) {
				pl->failed = "a setjmp block is not the start of a path";
				return;
			}
			uint64_t v = d->edges[d->dummy_entry[ce->src]].val + pl->edge_val[e];
			if (ce->dst == CFG_EXIT)
				push(l, fmt("kpath_rt_%s(&%sc, %lluULL)", pl->plan->sites[ce->site].resume ? "emit" : "leave",
				            p, (unsigned long long)v));
			else
				push(l, fmt("%sr = %llu%s", p, (unsigned long long)(v - comp_of(pl, ce->dst)),
				            big(v - comp_of(pl, ce->dst))));
		} else if (ce->dst == CFG_EXIT) {
			char *v = value_code(p, pl->edge_val[e]);
			push(l, fmt("kpath_rt_%s(&%sc, %s)", pl->plan->sites[ce->site].resume ? "emit" : "leave", p, v));
			free(v);
		} else if (pl->edge_val[e] - comp_of(pl, ce->dst) != 0) {
			push(l, add_code(p, pl->edge_val[e] - comp_of(pl, ce->dst)));
		}
		break;
	case ROLE_BACK:
	case ROLE_CUT: {
		if (restart) {
			pl->failed = "an edge out of a setjmp block is a back or cut edge";
			return;
		}
		uint32_t x = d->dummy_exit[ce->src], n = d->dummy_entry[ce->dst];
		char *v = value_code(p, d->edges[x].val);
		push(l, fmt("kpath_rt_emit(&%sc, %s)", p, v));
		free(v);
		uint64_t reset = d->edges[n].val - comp_of(pl, ce->dst);
		push(l, fmt("%sr = %llu%s", p, (unsigned long long)reset, big(reset)));
		break;
	}
	case ROLE_DEAD:
		break;
	}
}

/* Text of site s from its code list (see build.h for the site kinds). */
static char *ret_decl_text(const struct placer *pl);

static char *site_text(struct placer *pl, uint32_t s)
{
	const struct site *st = &pl->plan->sites[s];
	struct strlist *l = &pl->code[s];
	const char *p = pl->p;
	switch (st->kind) {
	case SITE_TEXT:
		return fmt("%s", st->text);
	case SITE_STMT:
		return l->n ? join(l, "; ", " ", "; ") : NULL;
	case SITE_ELSE:
		return l->n ? join(l, "; ", " else { ", "; }") : NULL;
	case SITE_EXPR:
		return l->n ? join(l, ", ", st->empty_expr ? " " : ", ", "") : NULL;
	case SITE_COND_OPEN:
	case SITE_RET_OPEN:
		if (st->kind == SITE_RET_OPEN && pl->plan->ret_init_only) {
			char *decl = ret_decl_text(pl), *r = fmt("%s__extension__ ({ %s = (", st->lead_space ? " " : "", decl);
			free(decl);
			return r;
		}
		if (st->kind == SITE_RET_OPEN)
			return fmt("%s%sret = (", st->lead_space ? " " : "", p);
		return pl->code[st->partner].n ? fmt(st->wrap ? "((" : "(") : NULL;
	case SITE_COND_CLOSE: {
		struct strlist t = {0}, f = {0};
		if (st->edge_true != CFG_NONE)
			edge_code(pl, st->edge_true), t = pl->code[s], pl->code[s] = (struct strlist){0};
		if (st->edge_false != CFG_NONE)
			edge_code(pl, st->edge_false), f = pl->code[s], pl->code[s] = (struct strlist){0};
		char *r = NULL, *ts = t.n ? join(&t, ", ", "(", ", 1)") : NULL,
		     *fs = f.n ? join(&f, ", ", "(", ", 0)") : NULL;
		const char *w = st->wrap ? ")" : "";
		if (ts && fs)
			r = fmt(") ? %s : %s%s", ts, fs, w);
		else if (ts)
			r = fmt(") && %s%s", ts, w);
		else if (fs)
			r = fmt(") || %s%s", fs, w);
		free(ts);
		free(fs);
		/* keep the lists so the open site knows whether to write "(" */
		for (uint32_t i = 0; i < t.n; i++)
			push(&pl->code[s], t.v[i]);
		for (uint32_t i = 0; i < f.n; i++)
			push(&pl->code[s], f.v[i]);
		free(t.v);
		free(f.v);
		return r;
	}
	case SITE_RET_CLOSE: {
		if (pl->plan->ret_init_only) {
			char *post = fmt("%s%sret; })", l->n ? "; " : "", p), *r = join(l, "; ", "); ", post);
			free(post);
			return r;
		}
		/* a dead return carries no code: "ret = (v), ret" */
		char *post = fmt("%s%sret", l->n ? ", " : "", p), *r = join(l, ", ", "), ", post);
		free(post);
		return r;
	}
	case SITE_ENTRY:
	case SITE_FALLTHROUGH:
		return NULL; /* written by entry_text, mark_fallthroughs */
	}
	return NULL;
}

/* "T kp_ret"; "T volatile kp_ret", "T *volatile kp_ret" (the object
 * itself) in a function with setjmp. */
static char *ret_decl_text(const struct placer *pl)
{
	char *qname = fmt("%s%sret", pl->plan->has_setjmp ? "volatile " : "", pl->p);
	char *decl = fmt(pl->plan->ret_decl, qname);
	free(qname);
	return decl;
}

static char *entry_text(struct placer *pl)
{
	const char *p = pl->p;
	char *ret = NULL;
	if (pl->plan->ret_decl && pl->plan->has_value_return && !pl->plan->ret_init_only) {
		char *decl = ret_decl_text(pl);
		ret = fmt(" %s;", decl);
		free(decl);
	}
	uint64_t init = pl->edge_val[pl->plan->entry_edge];
	char *chk = pl->check ? fmt(" kpath_chk_enter(&%sc, %schk_%s, %uu, %uu);", p, p, pl->plan->name,
	                            pl->plan->g->nedges, pl->plan->entry_edge)
	                      : NULL;
	char *s = fmt(" kpath_rt_u64 %sr = %llu%s; struct kpath_rt_cursor %sc;%s kpath_rt_enter(&%sfn_%s, &%sc);%s", p,
	              (unsigned long long)init, big(init), p, ret ? ret : "", p, pl->plan->name, p, chk ? chk : "");
	free(ret);
	free(chk);
	return s;
}

/* Code inserted between an intended fall-through and its case label would
 * hide the intent from -Wimplicit-fallthrough: such code is followed by the
 * preamble's fall-through marker, which must directly precede the label. */
static void mark_fallthroughs(struct placer *pl, char **texts)
{
	const struct fn_plan *plan = pl->plan;
	for (uint32_t s = 0; s < plan->nsites; s++) {
		if (plan->sites[s].kind != SITE_FALLTHROUGH)
			continue;
		for (uint32_t o = 0; o < plan->nsites; o++)
			if (o != s && texts[o] && plan->sites[o].off == plan->sites[s].off) {
				texts[s] = fmt(" %sfallthrough;", pl->p);
				break;
			}
	}
}

static void add_edit(struct rw_file *f, uint32_t off, uint8_t phase, uint32_t seq, char *text)
{
	if (f->nedits == f->cap_edits) {
		f->cap_edits = f->cap_edits ? 2 * f->cap_edits : 256;
		f->edits = xrealloc(f->edits, f->cap_edits * sizeof *f->edits);
	}
	f->edits[f->nedits++] = (struct rw_edit){off, phase, seq, text};
}

char *rw_descriptor(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d);
char *rw_check_table(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d,
                     const uint64_t *edge_val);

bool rw_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                 char *err, size_t errlen)
{
	const struct cfg *g = plan->g;
	struct placer pl = {plan, dag, f->prefix, NULL, NULL, NULL, NULL, f->check, NULL};
	pl.edge_val = calloc(g->nedges + 1, sizeof *pl.edge_val);
	pl.edge_in_dag = calloc(g->nedges + 1, sizeof *pl.edge_in_dag);
	pl.comp = calloc(g->nblocks + 1, sizeof *pl.comp);
	pl.code = calloc(plan->nsites + 1, sizeof *pl.code);
	if (!pl.edge_val || !pl.edge_in_dag || !pl.comp || !pl.code) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (uint32_t i = 0; i < dag->nedges; i++)
		if (dag->edges[i].kind == BL_EDGE_CFG) {
			pl.edge_val[dag->edges[i].cfg_edge] = dag->edges[i].val;
			pl.edge_in_dag[dag->edges[i].cfg_edge] = true;
		}
	bool ok = compute_comp(&pl, err, errlen);
	if (ok) {
		for (uint32_t e = 0; e < g->nedges; e++) {
			uint32_t s = g->edges[e].site;
			if (s != CFG_NONE && plan->sites[s].kind != SITE_COND_CLOSE)
				edge_code(&pl, e);
		}
		for (uint32_t b = 0; b < g->nblocks; b++) {
			if (f->check && b < plan->cap_block_start && plan->block_start[b] != CFG_NONE)
				push(&pl.code[plan->block_start[b]], fmt("kpath_chk_block(&%sc, %u)", f->prefix, b));
			if (pl.comp[b])
				push(&pl.code[plan->block_start[b]], add_code(f->prefix, pl.comp[b]));
		}
		/* close sites before their open partners, which depend on them */
		char **texts = calloc(plan->nsites + 1, sizeof *texts);
		for (uint32_t s = 0; s < plan->nsites; s++)
			if (plan->sites[s].kind == SITE_COND_CLOSE || plan->sites[s].kind == SITE_RET_CLOSE)
				texts[s] = site_text(&pl, s);
		for (uint32_t s = 0; s < plan->nsites; s++) {
			const struct site *st = &plan->sites[s];
			if (st->kind == SITE_ENTRY)
				texts[s] = entry_text(&pl);
			else if (st->kind != SITE_COND_CLOSE && st->kind != SITE_RET_CLOSE)
				texts[s] = site_text(&pl, s);
		}
		mark_fallthroughs(&pl, texts);
		if (pl.failed) {
			snprintf(err, errlen, "%s", pl.failed);
			ok = false;
		}
		for (uint32_t s = 0; s < plan->nsites; s++) {
			if (ok && texts[s])
				add_edit(f, plan->sites[s].off, plan->sites[s].phase, plan->sites[s].seq, texts[s]);
			else
				free(texts[s]);
		}
		free(texts);
	}
	if (ok) {
		if (f->ndescs == f->cap_descs) {
			f->cap_descs = f->cap_descs ? 2 * f->cap_descs : 16;
			f->descs = xrealloc(f->descs, f->cap_descs * sizeof *f->descs);
			f->desc_names = xrealloc(f->desc_names, f->cap_descs * sizeof *f->desc_names);
			f->check_tables = xrealloc(f->check_tables, f->cap_descs * sizeof *f->check_tables);
		}
		if (f->check)
			f->check_tables[f->ndescs] = rw_check_table(f, plan, dag, pl.edge_val);
		f->descs[f->ndescs] = rw_descriptor(f, plan, dag);
		f->desc_names[f->ndescs++] = fmt("%sfn_%s", f->prefix, plan->name);
	}
	for (uint32_t s = 0; s < plan->nsites; s++) {
		for (uint32_t i = 0; i < pl.code[s].n; i++)
			free(pl.code[s].v[i]);
		free(pl.code[s].v);
	}
	free(pl.code);
	free(pl.comp);
	free(pl.edge_val);
	free(pl.edge_in_dag);
	return ok;
}
