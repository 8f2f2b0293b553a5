/*
 * place.c: the code each CFG edge carries, written at the edge's site.
 *
 * What each edge does to the path register r comes from the spanning-forest
 * placement (cfgbuild/placement.h: Ball & Larus 1996, sections 3.3-3.5); this
 * file only spells it at the sites build.c recorded:
 *   entry               r = c                  (in the declaration)
 *   chord e             r += Inc(e), or r = c where the prefix is known
 *   tree edge           nothing
 *   edge into EXIT      leave(r + c) or leave(c); in an acyclic function
 *                       (no cursor) count(&desc, r + c or c, num_paths)
 *   back/cut edge v->w  emit(r + c) or emit(c); then r = c'
 *   case label          r += Inc at the start site (the split block's edge)
 * Arithmetic is on unsigned 64-bit values, so the sum along any path is
 * exact; a "negative" constant is written as a subtraction.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "array.h"
#include "rewrite.h"
#include "strbuf.h"
#include "xalloc.h"

struct strlist {
	char **v;
	uint32_t n, cap;
};

/* Whether f has only the conversions %s, %u, %llu and %%, which
 * fmt_simple writes itself. */
static bool simple_format(const char *f)
{
	for (; *f; f++)
		if (*f == '%') {
			f++;
			if (f[0] == 'l' && f[1] == 'l' && f[2] == 'u')
				f += 2;
			else if (*f != 's' && *f != 'u' && *f != '%')
				return false;
		}
	return true;
}

/* The decimal digits of v, ending at end (exclusive); returns their start. */
static char *utoa(char *end, unsigned long long v)
{
	do
		*--end = (char)('0' + v % 10);
	while (v /= 10);
	return end;
}

/* fmt for a simple_format f: the same text as vsnprintf, without its cost
 * (this runs for every inserted piece of code). */
static char *fmt_simple(const char *f, va_list ap)
{
	size_t cap = 64, n = 0;
	char *s = xrealloc(NULL, cap), num[24];
	for (; *f; f++) {
		const char *piece = f;
		size_t len = 1;
		if (*f == '%') {
			f++;
			if (*f == 's') {
				piece = va_arg(ap, const char *);
				if (!piece)
					piece = "(null)"; /* as glibc */
				len = strlen(piece);
			} else if (*f == 'u') {
				piece = utoa(num + sizeof num, va_arg(ap, unsigned));
				len = (size_t)(num + sizeof num - piece);
			} else if (*f == 'l') {
				f += 2;
				piece = utoa(num + sizeof num, va_arg(ap, unsigned long long));
				len = (size_t)(num + sizeof num - piece);
			}
			/* "%%": piece is the second "%" */
		}
		if (n + len + 1 > cap) {
			while (n + len + 1 > cap)
				cap *= 2;
			s = xrealloc(s, cap);
		}
		memcpy(s + n, piece, len);
		n += len;
	}
	s[n] = 0;
	return s;
}

/* The formatted text, malloc'd.  Formatted once into a buffer on the
 * stack when it fits, which is nearly always. */
static char *fmt(const char *f, ...)
{
	char tmp[256];
	va_list ap, aq;
	va_start(ap, f);
	if (simple_format(f)) {
		char *s = fmt_simple(f, ap);
		va_end(ap);
		return s;
	}
	va_copy(aq, ap);
	int n = vsnprintf(tmp, sizeof tmp, f, ap);
	va_end(ap);
	char *s = xrealloc(NULL, (size_t)n + 1);
	if ((size_t)n < sizeof tmp)
		memcpy(s, tmp, (size_t)n + 1);
	else
		vsnprintf(s, (size_t)n + 1, f, aq);
	va_end(aq);
	return s;
}

static void push(struct strlist *l, char *s)
{
	KP_RESERVE(l->v, l->cap, l->n + 1);
	l->v[l->n++] = s;
}

/* A path ID, value or count as C text (rw_u64: KPATH_RT_C(N) above 2^31 -
 * 1, so that -std=c89 -pedantic accepts it); valid in the enclosing block. */
#define u64_text(v) rw_u64((char[RW_U64_MAX]){0}, (v))

/* "r += d" for a (mod 2^64) difference d, written as a subtraction when d
 * is a small negative number. */
static char *add_code(const char *p, uint64_t d)
{
	if (d > UINT64_MAX / 2)
		return fmt("%sr -= %s", p, u64_text(0 - d));
	return fmt("%sr += %s", p, u64_text(d));
}

/* The ID reported at a path end. */
static char *end_code(const char *p, const struct bl_code *c)
{
	if (!c->end_rel)
		return fmt("%s", u64_text(c->end));
	if (c->end == 0)
		return fmt("%sr", p);
	if (c->end > UINT64_MAX / 2)
		return fmt("%sr - %s", p, u64_text(0 - c->end));
	return fmt("%sr + %s", p, u64_text(c->end));
}

static char *update_code(const char *p, const struct bl_code *c)
{
	if (c->upd == BL_UPD_ADD)
		return add_code(p, c->val);
	return fmt("%sr = %s", p, u64_text(c->val));
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
	const struct bl_placement *place;
	const char *p;            /* identifier prefix */
	uint64_t *edge_val;       /* per CFG edge: val in the DAG (check tables) */
	struct strlist *code;     /* per site */
	bool check;
	bool reads;               /* some code reads r (else it is only declared and set) */
	bool acyclic;             /* one path per activation: no cursor, kpath_rt_count at exits */
	bool entry_stmts;         /* the entry text ends with statements, not only declarations */
	bool *tail;               /* per site: a tail-call return's open or close site (find_tail_returns) */
	bool ret_used;            /* some return goes through Pret */
	bool fallthrough;         /* some text uses the fall-through marker */
	struct rw_repeats rep;    /* repeat counting (repeat.c) */
	const struct rw_form *form; /* another mode's code (rw_function_form), or NULL */
};

/* A function with no back edge, no cut edge and no setjmp completes exactly
 * one Ball-Larus path per activation, at its exit: it needs no cursor and
 * no routine-entry event (kpath_rt.h, kpath_rt_count).  A longjmp out of
 * it cannot resume in the same activation (no setjmp of its own), so that
 * path end is its exit too. */
static bool is_acyclic(const struct fn_plan *plan, const struct bl_dag *dag)
{
	if (plan->has_setjmp)
		return false;
	for (uint32_t e = 0; e < plan->g->nedges; e++)
		if (dag->role[e] == ROLE_BACK || dag->role[e] == ROLE_CUT)
			return false;
	return true;
}

/* Repeat counting, deferred form (repeat.c): where nothing inside counting
 * loop L but its back edge has code (no increment on the body's edges or
 * block starts) and the loop is entered only through its header, the back
 * edge only counts, ++n, and the register keeps the value it had when the
 * loop was entered.  The first item of the loop (the back edge's ID on that
 * value) waits for the exit as well: no other item of the activation can
 * come between (repeat.c, (a) and (b)), so the stream is the same, and the
 * loop body is left without a branch or a call for the compiler to
 * unroll, vectorise or turn into memset/memcpy (issue 14, item 2). */
static void decide_deferred(struct placer *pl)
{
	const struct cfg *g = pl->plan->g;
	struct rw_repeats *r = &pl->rep;
	struct bl_code c;
	if (!r->nloops)
		return;
	for (uint32_t L = 0; L < r->nloops; L++)
		r->deferred[L] = bl_code_edge(pl->place, g, pl->dag, r->back[L], &c) && c.ends && c.upd != BL_UPD_ADD;
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct cfg_edge *ce = &g->edges[e];
		uint32_t L = ce->dst != CFG_EXIT ? r->loop_of_block[ce->dst] : 0;
		if (!L || r->loop_of_back[e] || pl->dag->role[e] == ROLE_DEAD)
			continue;
		if (r->loop_of_block[ce->src] != L) { /* an entry: only the header's */
			if (ce->dst != g->edges[r->back[L - 1]].dst)
				r->deferred[L - 1] = false;
		} else if (bl_code_edge(pl->place, g, pl->dag, e, &c) && (c.ends || c.upd != BL_UPD_NONE)) {
			r->deferred[L - 1] = false;
		}
	}
	for (uint32_t b = 0; b < g->nblocks && b < pl->plan->cap_block_start; b++) {
		if (!r->loop_of_block[b] || pl->plan->block_start[b] == CFG_NONE)
			continue;
		bl_code_start(pl->place, b, &c);
		if (c.upd != BL_UPD_NONE)
			r->deferred[r->loop_of_block[b] - 1] = false;
	}
}

/* The flush of counting loop L (1-based) on an edge that leaves it. */
static char *flush_code(const struct placer *pl, uint32_t L)
{
	const char *p = pl->p;
	const char *k = u64_text(pl->rep.k[L - 1]);
	struct bl_code c;
	if (!pl->rep.deferred[L - 1])
		return fmt("kpath_rt_flush(&%sc, %s, %sn%u)", p, k, p, L);
	/* the back edge's ID on the entry value, then the register's value
	 * after it (its update is a BL_UPD_SET or none: decide_deferred) */
	bl_code_edge(pl->place, pl->plan->g, pl->dag, pl->rep.back[L - 1], &c);
	char *first = end_code(p, &c), *s;
	if (c.upd == BL_UPD_SET && pl->reads)
		s = fmt("kpath_rt_exit_loop_r(&%sc, %s, %s, %sn%u, %sr, %s)", p, first, k, p, L, p, u64_text(c.val));
	else
		s = fmt("kpath_rt_exit_loop(&%sc, %s, %s, %sn%u)", p, first, k, p, L);
	free(first);
	return s;
}

/* The code of CFG edge e, appended to its site's list: the path end first,
 * then the register update. */
static void edge_code(struct placer *pl, uint32_t e)
{
	const struct cfg_edge *ce = &pl->plan->g->edges[e];
	const char *p = pl->p;
	struct bl_code c;
	if (ce->site == CFG_NONE || pl->dag->role[e] == ROLE_DEAD)
		return; /* bl_place checked that site-less edges carry nothing */
	struct strlist *l = &pl->code[ce->site];
	if (pl->form) {
		if (pl->form->edge_code[e])
			push(l, fmt("%s", pl->form->edge_code[e]));
		return;
	}
	if (pl->check)
		push(l, fmt("kpath_chk_edge(&%sc, %u)", p, e));
	/* leaving a counting loop: its held-back items go first */
	for (const struct rw_exit *x = pl->rep.exits ? pl->rep.exits[e] : NULL; x; x = x->next)
		push(l, flush_code(pl, x->loop));
	if (!bl_code_edge(pl->place, pl->plan->g, pl->dag, e, &c))
		return; /* leads to no complete path: never completes an ID */
	if (c.ends) {
		/* a path ends before a longjmp that may resume in this activation: emit, not leave */
		bool leave = ce->dst == CFG_EXIT && !pl->plan->sites[ce->site].resume;
		uint32_t loop = pl->rep.loop_of_back ? pl->rep.loop_of_back[e] : 0;
		if (loop && pl->rep.deferred[loop - 1]) {
			/* every item of the loop waits for its exit (flush_code),
			 * and so does the register's update: it keeps its value
			 * from the loop's entry */
			push(l, fmt("++%sn%u", p, loop));
			return;
		}
		char *v = end_code(p, &c);
		uint64_t n = pl->dag->num_paths[CFG_ENTRY];
		if (loop) {
			uint64_t k = pl->rep.k[loop - 1];
			push(l, fmt("kpath_rt_repeat(&%sc, %s, %s, %sn%u)", p, v, u64_text(k), p, loop));
		} else if (pl->acyclic && !pl->check) {
			/* through the file's thread-local pointer (add_descriptor) */
			push(l, fmt("kpath_rt_tally(&%sfn_%s, &%scnt_%s, %s, %s)", p, pl->plan->name, p, pl->plan->name, v,
			            u64_text(n)));
		} else if (pl->acyclic) { /* the checking runtime's count */
			push(l, fmt("kpath_rt_count(&%sfn_%s, %s, %s)", p, pl->plan->name, v, u64_text(n)));
		} else {
			push(l, fmt("kpath_rt_%s(&%sc, %s)", leave ? "leave" : "emit", p, v));
		}
		free(v);
	}
	if (c.upd != BL_UPD_NONE && pl->reads)
		push(l, update_code(p, &c));
}

/* Whether some code reads the register: a path end relative to it or an
 * increment (edge_code, rw_function's block starts).  Where none does,
 * every path ID is a constant, and the register is left out altogether
 * (its assignments would be dead: -Wunused-but-set-variable). */
static bool register_read(const struct placer *pl)
{
	const struct cfg *g = pl->plan->g;
	struct bl_code c;
	for (uint32_t e = 0; e < g->nedges; e++)
		if (g->edges[e].site != CFG_NONE && pl->dag->role[e] != ROLE_DEAD &&
		    bl_code_edge(pl->place, g, pl->dag, e, &c) && ((c.ends && c.end_rel) || c.upd == BL_UPD_ADD))
			return true;
	for (uint32_t b = 0; b < g->nblocks && b < pl->plan->cap_block_start; b++) {
		if (pl->plan->block_start[b] == CFG_NONE)
			continue;
		bl_code_start(pl->place, b, &c);
		if (c.upd == BL_UPD_ADD)
			return true;
	}
	return false;
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
		if (st->kind == SITE_RET_OPEN && pl->tail[s]) /* "return (leave, f(x));" */
			return pl->code[st->partner].n ? join(&pl->code[st->partner], ", ", st->lead_space ? " (" : "(", ", ")
			                               : NULL;
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
		if (pl->tail[s])
			return l->n ? fmt(")") : NULL;
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
	/* build.h, skips_text: a branch the compiler may build without them */
	const char *un = pl->plan->skips_text ? "KPATH_RT_UNUSED " : "";
	char *ret = NULL;
	if (pl->plan->ret_decl && pl->ret_used && !pl->plan->ret_init_only) {
		char *decl = ret_decl_text(pl);
		ret = fmt(" %s%s;", un, decl);
		free(decl);
	}
	if (pl->form) {
		char *s = fmt("%s%s", pl->form->entry ? pl->form->entry : "", ret ? ret : "");
		free(ret);
		pl->entry_stmts = false;
		return s;
	}
	struct bl_code ic;
	uint64_t init = 0;
	if (bl_code_edge(pl->place, pl->plan->g, pl->dag, pl->plan->entry_edge, &ic))
		init = ic.val;
	char *chk = NULL, *s;
	if (pl->check && pl->acyclic)
		chk = fmt(" struct kpath_rt_cursor %sc; kpath_chk_acyclic(&%sfn_%s, &%sc, %schk_%s, %uu, %uu);", p, p,
		          pl->plan->name, p, p, pl->plan->name, pl->plan->g->nedges, pl->plan->entry_edge);
	else if (pl->check)
		chk = fmt(" kpath_chk_enter(&%sc, %schk_%s, %uu, %uu);", p, p, pl->plan->name, pl->plan->g->nedges,
		          pl->plan->entry_edge);
	/* after a longjmp the cursor must be what the last step left in memory */
	char *pin = pl->plan->has_setjmp ? fmt(" kpath_rt_pin(&%sc);", p) : NULL;
	/* the register (when read) and the counters of the counting loops:
	 * "kpath_rt_u64 kp_r = 16, kp_n1 = 0, kp_n2 = 0;" */
	char *regs = pl->reads ? fmt(" %skpath_rt_u64 %sr = %s", un, p, u64_text(init)) : NULL;
	for (uint32_t i = 1; i <= pl->rep.nloops; i++) {
		char *t = fmt("%s%s%s%sn%u = 0", regs ? regs : " ", regs ? ", " : un, regs ? "" : "kpath_rt_u64 ", p, i);
		free(regs);
		regs = t;
	}
	/* declarations only, so that the function's own declarations may
	 * follow (C90); the routine-entry event is the cursor's initialiser */
	if (pl->acyclic) /* no cursor, no routine-entry event */
		s = fmt("%s%s%s%s", regs ? regs : "", regs ? ";" : "", ret ? ret : "", chk ? chk : "");
	else if (pin || pl->check) /* the library's templates: kpath_rt_enter_sj, the checking runtime */
		s = fmt("%s%s %sstruct kpath_rt_cursor %sc = kpath_rt_begin%s(&%sfn_%s, %sc);%s%s%s", regs ? regs : "",
		        regs ? ";" : "", un, p, pin ? "_sj" : "", p, pl->plan->name, p, ret ? ret : "",
		        pin ? pin : "", chk ? chk : "");
	else /* through the file's thread-local template pointer (add_descriptor) */
		s = fmt("%s%s %sstruct kpath_rt_cursor %sc = kpath_rt_begin_t(&%sfn_%s, &%stpl_%s, %sc);%s", regs ? regs : "",
		        regs ? ";" : "", un, p, p, pl->plan->name, p, pl->plan->name, p, ret ? ret : "");
	pl->entry_stmts = pin || chk;
	if (!*s) { /* an acyclic function with constant IDs returning nothing */
		free(s);
		s = NULL;
	}
	free(regs);
	free(pin);
	free(ret);
	free(chk);
	return s;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

/* Index of the first of the sorted v[0, n) above x. */
static uint32_t first_above(const uint32_t *v, uint32_t n, uint32_t x)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Tail calls (docs/instrumented-code.md, "Tail calls"): in "return f(x);"
 * whose expression holds no site (no branch: the path ID is known before
 * the call), the path end goes before the call, "return (leave(ID),
 * f(x));", so that nothing of the activation is left after the call and
 * the compiler can make it a jump (and a self-recursion a loop).  The
 * activation's stream ends before the callee's begins; the callee's is its
 * own either way (k-IPF streams are per activation).  Not with setjmp
 * (kp_ret is volatile there) nor, for a call, with an initialise-only
 * kp_ret.  A structure or union value that calls nothing ("return
 * result;", site record_value) takes the same form: copied into kp_ret,
 * members never set made gcc warn (-Wuninitialized) where the original
 * does not.  Sets pl->tail for both sites of such returns and
 * pl->ret_used. */
static void find_tail_returns(struct placer *pl)
{
	const struct fn_plan *plan = pl->plan;
	uint32_t *offs = xrealloc(NULL, (plan->nsites + 1) * sizeof *offs);
	for (uint32_t s = 0; s < plan->nsites; s++)
		offs[s] = plan->sites[s].off;
	qsort(offs, plan->nsites, sizeof *offs, cmp_u32);
	pl->ret_used = false;
	for (uint32_t s = 0; s < plan->nsites; s++) {
		const struct site *st = &plan->sites[s];
		if (st->kind != SITE_RET_OPEN)
			continue;
		uint32_t lo = st->off, hi = plan->sites[st->partner].off;
		bool tail = ((st->tail_call && !plan->ret_init_only) || st->record_value) && !plan->has_setjmp &&
		            first_above(offs, plan->nsites, lo) == first_above(offs, plan->nsites, hi - 1);
		pl->tail[s] = pl->tail[st->partner] = tail;
		pl->ret_used |= !tail;
	}
	free(offs);
}

/* Code inserted between an intended fall-through and its case label would
 * hide the intent from -Wimplicit-fallthrough: such code is followed by the
 * preamble's fall-through marker, which must directly precede the label.
 * (Sites are grouped by offset, so that a switch with many labels costs no
 * more than its sites.) */
static const struct fn_plan *by_off_plan; /* qsort has no context argument in C11 */

static int by_off(const void *a, const void *b)
{
	uint32_t x = by_off_plan->sites[*(const uint32_t *)a].off, y = by_off_plan->sites[*(const uint32_t *)b].off;
	return x < y ? -1 : x > y;
}

static void mark_fallthroughs(struct placer *pl, char **texts)
{
	const struct fn_plan *plan = pl->plan;
	uint32_t nft = 0;
	for (uint32_t s = 0; s < plan->nsites; s++)
		nft += plan->sites[s].kind == SITE_FALLTHROUGH;
	if (!nft)
		return;
	/* per site, the number of sites with text at its offset (group) */
	uint32_t *order = xrealloc(NULL, plan->nsites * sizeof *order);
	uint32_t *group = xrealloc(NULL, plan->nsites * sizeof *group);
	uint32_t *with_text = xrealloc(NULL, plan->nsites * sizeof *with_text);
	for (uint32_t s = 0; s < plan->nsites; s++)
		order[s] = s;
	by_off_plan = plan;
	qsort(order, plan->nsites, sizeof *order, by_off);
	uint32_t ng = 0;
	for (uint32_t i = 0; i < plan->nsites; i++) {
		if (i == 0 || plan->sites[order[i]].off != plan->sites[order[i - 1]].off)
			with_text[ng++] = 0;
		group[order[i]] = ng - 1;
		with_text[ng - 1] += texts[order[i]] != NULL;
	}
	uint32_t *pos = xrealloc(NULL, plan->nsites * sizeof *pos);
	for (uint32_t i = 0; i < plan->nsites; i++)
		pos[order[i]] = i;
	for (uint32_t s = 0; s < plan->nsites; s++) {
		const struct site *st = &plan->sites[s];
		if (st->kind != SITE_FALLTHROUGH)
			continue;
		/* another site with text at this offset (texts[s] is still NULL),
		 * or after it, between the label and the jump (or the switch's
		 * end) that keeps gcc quiet without kpath's code */
		bool code = with_text[group[s]] > (texts[s] != NULL);
		for (uint32_t i = pos[s] + 1; !code && i < plan->nsites && plan->sites[order[i]].off <= st->quiet_end; i++)
			code = plan->sites[order[i]].off > st->off && texts[order[i]];
		if (code) {
			texts[s] = fmt(" %sfallthrough;", pl->p);
			with_text[group[s]]++;
			pl->fallthrough = true;
		}
	}
	free(order);
	free(pos);
	free(group);
	free(with_text);
}

static void add_edit(struct rw_file *f, uint32_t off, uint8_t phase, uint32_t seq, char *text)
{
	KP_RESERVE(f->edits, f->cap_edits, f->nedits + 1);
	f->edits[f->nedits++] = (struct rw_edit){off, phase, seq, text};
}

/* Statements inserted at the start of a block that begins with a
 * declaration would precede it (C90 6.6.2 wants declarations first;
 * -Wdeclaration-after-statement): after that code a block of the block's
 * own opens, and it closes just before the block's "}".  The "{" comes
 * after every other insertion at the start (phase 1, last seq); the "}"
 * after every insertion that closes a statement ending there (phase 0, last
 * seq) and before the code that runs at the block's end (phase 1). */
static void wrap_decl_blocks(struct placer *pl, struct rw_file *f, char **texts)
{
	const struct fn_plan *plan = pl->plan;
	bool *used = NULL;
	if (!plan->ndecl_blocks)
		return;
	used = xrealloc(NULL, plan->ndecl_blocks * sizeof *used);
	memset(used, 0, plan->ndecl_blocks * sizeof *used);
	for (uint32_t s = 0; s < plan->nsites; s++) {
		const struct site *st = &plan->sites[s];
		if (!texts[s] || !(st->kind == SITE_STMT || (st->kind == SITE_ENTRY && pl->entry_stmts)))
			continue;
		/* decl_blocks is in source order (build.c records each block
		 * before the blocks inside it) */
		uint32_t lo = 0, hi = plan->ndecl_blocks;
		while (lo < hi) {
			uint32_t mid = lo + (hi - lo) / 2;
			if (plan->decl_blocks[2 * mid] < st->off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < plan->ndecl_blocks && plan->decl_blocks[2 * lo] == st->off)
			used[lo] = true;
	}
	for (uint32_t i = 0; i < plan->ndecl_blocks; i++) {
		if (!used[i])
			continue;
		add_edit(f, plan->decl_blocks[2 * i], 1, UINT32_MAX, fmt(" {"));
		add_edit(f, plan->decl_blocks[2 * i + 1], 0, UINT32_MAX, fmt(" }"));
	}
	free(used);
}

char *rw_descriptor(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d);
char *rw_check_table(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d,
                     const uint64_t *edge_val);

void rw_place_input(const struct fn_plan *plan, struct rw_place_input *pi)
{
	const struct cfg *g = plan->g;
	pi->split = calloc(g->nblocks + 1, sizeof *pi->split);
	pi->restart = calloc(g->nblocks + 1, sizeof *pi->restart);
	pi->awkward = calloc(g->nedges + 1, sizeof *pi->awkward);
	if (!pi->split || !pi->restart || !pi->awkward) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (uint32_t b = 0; b < g->nblocks && b < plan->cap_block_start; b++) {
		pi->split[b] = plan->block_start[b] != CFG_NONE;
		pi->restart[b] = plan->restart[b];
	}
	for (uint32_t e = 0; e < g->nedges; e++) {
		uint32_t s = g->edges[e].site;
		/* code in a condition wrapper or an added else reads worse than at a statement */
		pi->awkward[e] = s != CFG_NONE && (plan->sites[s].kind == SITE_COND_CLOSE ||
		                                   plan->sites[s].kind == SITE_ELSE || plan->sites[s].kind == SITE_EXPR);
	}
	pi->in = (struct bl_place_in){pi->split, pi->restart, pi->awkward};
}

void rw_place_input_free(struct rw_place_input *pi)
{
	free(pi->split);
	free(pi->restart);
	free(pi->awkward);
	memset(pi, 0, sizeof *pi);
}

/* The code of every edge and start site, into pl->code by site. */
static void place_code(struct placer *pl, const struct rw_file *f)
{
	const struct fn_plan *plan = pl->plan;
	const struct cfg *g = plan->g;
	for (uint32_t e = 0; e < g->nedges; e++) {
		uint32_t s = g->edges[e].site;
		if (s != CFG_NONE && plan->sites[s].kind != SITE_COND_CLOSE)
			edge_code(pl, e);
	}
	/* after the edge code at a shared site: the start site runs after the entering edge */
	for (uint32_t b = 0; b < g->nblocks && b < plan->cap_block_start; b++) {
		struct bl_code c;
		if (plan->block_start[b] == CFG_NONE)
			continue;
		if (pl->form) {
			if (pl->form->start_code[b])
				push(&pl->code[plan->block_start[b]], fmt("%s", pl->form->start_code[b]));
			continue;
		}
		if (f->check)
			push(&pl->code[plan->block_start[b]], fmt("kpath_chk_block(&%sc, %u)", f->prefix, b));
		bl_code_start(pl->place, b, &c);
		if (c.upd != BL_UPD_NONE && pl->reads)
			push(&pl->code[plan->block_start[b]], update_code(f->prefix, &c));
	}
}

/* Each site's text from its code, as edits of f. */
static void write_sites(struct placer *pl, struct rw_file *f)
{
	const struct fn_plan *plan = pl->plan;
	find_tail_returns(pl);
	/* close sites before their open partners, which depend on them */
	char **texts = calloc(plan->nsites + 1, sizeof *texts);
	if (!texts) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (uint32_t s = 0; s < plan->nsites; s++)
		if (plan->sites[s].kind == SITE_COND_CLOSE || plan->sites[s].kind == SITE_RET_CLOSE)
			texts[s] = site_text(pl, s);
	for (uint32_t s = 0; s < plan->nsites; s++) {
		const struct site *st = &plan->sites[s];
		if (st->kind == SITE_ENTRY)
			texts[s] = entry_text(pl);
		else if (st->kind != SITE_COND_CLOSE && st->kind != SITE_RET_CLOSE)
			texts[s] = site_text(pl, s);
	}
	mark_fallthroughs(pl, texts);
	wrap_decl_blocks(pl, f, texts);
	f->fallthrough |= pl->fallthrough;
	for (uint32_t s = 0; s < plan->nsites; s++) {
		if (texts[s])
			add_edit(f, plan->sites[s].off, plan->sites[s].phase, plan->sites[s].seq, texts[s]);
	}
	free(texts);
}

/* The descriptor, and but for the checking runtime its function's
 * thread-local pointer (kpath_rt.h): an acyclic function's counters
 * (kpath_rt_tally), another's template (kpath_rt_begin_t; not with
 * setjmp, whose entry is kpath_rt_begin_sj). */
static void add_descriptor(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                           const uint64_t *edge_val, bool acyclic)
{
	rw_reserve_descriptor(f);
	if (f->check)
		f->check_tables[f->ndescs] = rw_check_table(f, plan, dag, edge_val);
	f->descs[f->ndescs] = rw_descriptor(f, plan, dag);
	if (!f->check && (acyclic || !plan->has_setjmp)) {
		char *tls = acyclic ? fmt("KPATH_RT_TLS kpath_rt_u64 *%scnt_%s;\n", f->prefix, plan->name)
		                    : fmt("KPATH_RT_TLS void *%stpl_%s;\n", f->prefix, plan->name);
		str_append(&f->descs[f->ndescs], tls);
		free(tls);
	}
	f->desc_names[f->ndescs++] = fmt("%sfn_%s", f->prefix, plan->name);
}

/* The per-site code lists of pl, empty (placer_open) and freed (placer_close). */
static void placer_open(struct placer *pl)
{
	pl->code = xcalloc(pl->plan->nsites + 1, sizeof *pl->code);
	pl->tail = xcalloc(pl->plan->nsites + 1, sizeof *pl->tail);
}

static void placer_close(struct placer *pl)
{
	for (uint32_t s = 0; s < pl->plan->nsites; s++) {
		for (uint32_t i = 0; i < pl->code[s].n; i++)
			free(pl->code[s].v[i]);
		free(pl->code[s].v);
	}
	free(pl->code);
	free(pl->tail);
}

void rw_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                 const struct bl_placement *place)
{
	const struct cfg *g = plan->g;
	struct placer pl = {.plan = plan, .dag = dag, .place = place, .p = f->prefix, .check = f->check,
	                    .acyclic = is_acyclic(plan, dag)};
	pl.edge_val = xcalloc(g->nedges + 1, sizeof *pl.edge_val);
	placer_open(&pl);
	for (uint32_t i = 0; i < dag->nedges; i++)
		if (dag->edges[i].kind == BL_EDGE_CFG)
			pl.edge_val[dag->edges[i].cfg_edge] = dag->edges[i].val;
	if (!f->check) /* the checking runtime wants every item where it is taken */
		rw_find_repeats(plan, dag, place->dag_edge, &pl.rep);
	pl.reads = register_read(&pl);
	decide_deferred(&pl);
	place_code(&pl, f);
	write_sites(&pl, f);
	add_descriptor(f, plan, dag, pl.edge_val, pl.acyclic);
	placer_close(&pl);
	rw_repeats_free(&pl.rep, g->nedges);
	free(pl.edge_val);
}

void rw_function_form(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                      const struct bl_placement *place, const struct rw_form *form)
{
	struct placer pl = {.plan = plan, .dag = dag, .place = place, .p = f->prefix, .form = form};
	placer_open(&pl);
	place_code(&pl, f);
	write_sites(&pl, f);
	rw_reserve_descriptor(f);
	f->check_tables[f->ndescs] = NULL;
	f->descs[f->ndescs] = fmt("%s", form->desc);
	f->desc_names[f->ndescs++] = fmt("%s", form->desc_name);
	placer_close(&pl);
}

void rw_form_write(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                   const struct bl_placement *place, struct rw_form *form, char *reg)
{
	str_append(&f->tail_extra, reg);
	free(reg);
	rw_function_form(f, plan, dag, place, form);
	free(form->entry);
	free(form->desc);
	form->entry = form->desc = NULL;
}

void rw_form_code_free(char **edge_code, char **start_code, const struct cfg *g)
{
	for (uint32_t e = 0; edge_code && e < g->nedges; e++)
		free(edge_code[e]);
	for (uint32_t b = 0; start_code && b < g->nblocks; b++)
		free(start_code[b]);
	free(edge_code);
	free(start_code);
}
