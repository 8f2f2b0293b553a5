/*
 * overlap_model.c: the executable model of overlap.h.  A run's events are
 * cut into Ball-Larus paths per activation, as the runtime would cut them
 * (a back edge ends a path and starts one at its head; a call does not end
 * the caller's path); each finished BL path adds what a profile holds
 * (the Ball-Larus candidates of equations 5, 6, 11, 12; C of equation 9)
 * and the truth the bounds are checked against: the count of every
 * interesting path p ! q (docs/overlap.md, "Crossings").
 *
 * Invariant of a frame: path[0 .. npath) is the BL path in progress and
 * ends with cur; calls[] lists the calls made from it, each with the
 * callee's last BL path.
 */
#include "overlap.h"
#include "array.h"
#include "overlap_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

enum count_tag {
	TAG_EXACT = 1, /* site, p, q: interesting path p ! q */
	TAG_ROW,       /* site, p: F_p - X_p (loop), F_p (Type I) */
	TAG_COL,       /* site, q: F_q - E_q (loop), F_q (Type II) */
	TAG_TOTAL,     /* site: B (loop), C (calls) */
	TAG_FIRST,     /* function, path: BL paths from the entry (F_q of Type I) */
	TAG_LAST,      /* function, path: BL paths to the exit (F_p of Type II) */
};

/* ---- (tag, site, a, b) -> count ---- */

static uint32_t key_hash(uint32_t tag, uint32_t site, uint32_t a, uint32_t b)
{
	uint64_t h = 1469598103934665603ull;

	h = (h ^ tag) * 1099511628211ull;
	h = (h ^ site) * 1099511628211ull;
	h = (h ^ a) * 1099511628211ull;
	h = (h ^ b) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 29));
}

static struct ol_count_entry *counts_slot(const struct ol_counts *c, uint32_t tag, uint32_t site, uint32_t a, uint32_t b)
{
	uint32_t h = key_hash(tag, site, a, b);

	for (;; h++) {
		struct ol_count_entry *e = &c->e[h & (c->cap - 1)];

		if (!e->count || (e->tag == tag && e->site == site && e->a == a && e->b == b))
			return e;
	}
}

static void counts_add(struct ol_counts *c, uint32_t tag, uint32_t site, uint32_t a, uint32_t b)
{
	struct ol_count_entry *e;

	if (2 * (c->n + 1) > c->cap) {
		struct ol_counts big = { .cap = c->cap ? 2 * c->cap : 256 };
		uint32_t i;

		big.e = ol_xcalloc(big.cap, sizeof *big.e);
		for (i = 0; i < c->cap; i++)
			if (c->e[i].count)
				*counts_slot(&big, c->e[i].tag, c->e[i].site, c->e[i].a, c->e[i].b) = c->e[i];
		big.n = c->n;
		free(c->e);
		*c = big;
	}
	e = counts_slot(c, tag, site, a, b);
	if (!e->count) {
		*e = (struct ol_count_entry){ .tag = tag, .site = site, .a = a, .b = b };
		c->n++;
	}
	assert(e->count < UINT64_MAX);
	e->count++;
}

static uint64_t counts_get(const struct ol_counts *c, uint32_t tag, uint32_t site, uint32_t a, uint32_t b)
{
	return c->cap ? counts_slot(c, tag, site, a, b)->count : 0;
}

/* ---- the model ---- */

void ol_model_init(struct ol_model *m, const struct ol_program *prog)
{
	uint32_t fi, total = 0, s;

	memset(m, 0, sizeof *m);
	m->prog = prog;
	m->nsites = ol_sites(prog, &m->sites);
	m->func_base = ol_xcalloc(prog->nfuncs + 1, sizeof *m->func_base);
	for (fi = 0; fi < prog->nfuncs; fi++) {
		m->func_base[fi] = total;
		total += prog->funcs[fi].nblocks;
	}
	m->func_base[prog->nfuncs] = total;
	m->loop_site = ol_xcalloc(total, sizeof *m->loop_site);
	m->call_site = ol_xcalloc(total, sizeof *m->call_site);
	for (s = 0; s < total; s++)
		m->loop_site[s] = m->call_site[s] = OL_NONE;
	for (s = 0; s < m->nsites; s++) {
		const struct ol_site *st = &m->sites[s];
		uint32_t at = m->func_base[st->func] + st->block;

		if (st->kind == OL_LOOP)
			m->loop_site[at] = s;
		else if (st->kind == OL_CALL_IN)
			m->call_site[at] = s; /* ol_sites puts OL_CALL_OUT right after */
	}
}

void ol_model_release(struct ol_model *m)
{
	free(m->sites);
	free(m->loop_site);
	free(m->call_site);
	free(m->func_base);
	free(m->seqs.data);
	free(m->seqs.start);
	free(m->seqs.hash);
	free(m->counts.e);
	memset(m, 0, sizeof *m);
}

struct call_made {
	uint32_t pos;  /* index of the call block in the caller's path */
	uint32_t last; /* the callee's last BL path (sequence id) */
};

struct frame {
	uint32_t func, cur;
	bool call_pending;     /* cur calls a function not entered yet */
	uint32_t *path, npath, cap_path;
	uint32_t start_head;   /* head of the back edge that began this path, OL_NONE */
	uint32_t prev_p;       /* the loop first half before that back edge */
	bool first;            /* the activation's first BL path */
	uint32_t in_site, in_p; /* Type I site of the call into this activation and the caller's prefix */
	struct call_made *calls;
	uint32_t ncalls, cap_calls;
	uint32_t last_path;    /* set when the activation returns */
};

struct run {
	struct ol_model *m;
	bool record;
	struct frame *st;
	uint32_t n, cap;
};

static void path_push(struct frame *t, uint32_t b)
{
	KP_RESERVE(t->path, t->cap_path, t->npath + 1);
	t->path[t->npath++] = b;
}

static uint32_t intern(struct run *r, const uint32_t *s, uint32_t n)
{
	return r->record ? ol_seq_intern(&r->m->seqs, s, n) : OL_NONE;
}

static void add(struct run *r, uint32_t tag, uint32_t site, uint32_t a, uint32_t b)
{
	if (r->record)
		counts_add(&r->m->counts, tag, site, a, b);
}

/*
 * A BL path of frame t ends, at a back edge into back_head or (OL_NONE) at
 * the exit.  Everything a profile learns from it, and the interesting
 * paths it completes as a second half.
 */
static void finish_path(struct run *r, struct frame *t, uint32_t back_head)
{
	struct ol_model *m = r->m;
	const struct ol_func *f = &m->prog->funcs[t->func];
	uint32_t id = intern(r, t->path, t->npath), i;

	if (t->start_head != OL_NONE) { /* second half of an iteration pair: cut at the body's end */
		uint32_t s = m->loop_site[m->func_base[t->func] + t->start_head], qn = 0, q;
		const bool *body = f->body[t->start_head];

		while (qn < t->npath && body[t->path[qn]])
			qn++;
		q = intern(r, t->path, qn);
		add(r, TAG_COL, s, q, OL_NONE);
		add(r, TAG_EXACT, s, t->prev_p, q);
		add(r, TAG_TOTAL, s, OL_NONE, OL_NONE);
	}
	if (t->first) {
		add(r, TAG_FIRST, t->func, id, OL_NONE);
		if (t->in_site != OL_NONE) { /* Type I: caller's prefix ! this path */
			add(r, TAG_EXACT, t->in_site, t->in_p, id);
			add(r, TAG_TOTAL, t->in_site, OL_NONE, OL_NONE);
		}
	}
	for (i = 0; i < t->ncalls; i++) { /* Type II: callee's last path ! this path from the call */
		uint32_t pos = t->calls[i].pos, s_in = m->call_site[m->func_base[t->func] + t->path[pos]], q;

		assert(s_in != OL_NONE && m->sites[s_in + 1].kind == OL_CALL_OUT);
		add(r, TAG_ROW, s_in, intern(r, t->path, pos + 1), OL_NONE);
		q = intern(r, t->path + pos, t->npath - pos);
		add(r, TAG_COL, s_in + 1, q, OL_NONE);
		add(r, TAG_EXACT, s_in + 1, t->calls[i].last, q);
		add(r, TAG_TOTAL, s_in + 1, OL_NONE, OL_NONE);
	}
	if (back_head != OL_NONE) { /* first half: the path from the head when it passes it */
		uint32_t s = m->loop_site[m->func_base[t->func] + back_head], k = 0, p;

		while (k < t->npath && t->path[k] != back_head)
			k++;
		if (k == t->npath)
			k = 0; /* began at an inner head */
		p = intern(r, t->path + k, t->npath - k);
		add(r, TAG_ROW, s, p, OL_NONE);
		t->prev_p = p;
	} else {
		add(r, TAG_LAST, t->func, id, OL_NONE);
		t->last_path = id;
	}
}

static struct frame *push(struct run *r, uint32_t func, uint32_t in_site, uint32_t in_p)
{
	struct frame *t;

	KP_RESERVE(r->st, r->cap, r->n + 1);
	t = &r->st[r->n++];
	memset(t, 0, sizeof *t);
	t->func = func;
	t->cur = r->m->prog->funcs[func].entry;
	t->start_head = t->prev_p = t->last_path = OL_NONE;
	t->first = true;
	t->in_site = in_site;
	t->in_p = in_p;
	path_push(t, t->cur);
	return t;
}

/* The top frame has just executed t->cur: a call starts, or the exit
 * returns (finishing the path, popping, telling the caller). */
static void entered(struct run *r)
{
	struct frame *t = &r->st[r->n - 1];
	const struct ol_func *f = &r->m->prog->funcs[t->func];
	uint32_t last;

	if (f->callee[t->cur] != OL_NONE) {
		t->call_pending = true;
		return;
	}
	if (t->cur != f->exit)
		return;
	finish_path(r, t, OL_NONE);
	last = t->last_path;
	free(t->path);
	free(t->calls);
	r->n--;
	if (r->n) {
		struct frame *c = &r->st[r->n - 1];

		KP_RESERVE(c->calls, c->cap_calls, c->ncalls + 1);
		c->calls[c->ncalls++] = (struct call_made){ .pos = c->npath - 1, .last = last };
	}
}

static bool step(struct run *r, struct ol_event ev)
{
	const struct ol_program *prog = r->m->prog;
	struct frame *t;
	const struct ol_func *f;
	uint32_t k, e = OL_NONE;

	if (ev.func >= prog->nfuncs || ev.block >= prog->funcs[ev.func].nblocks)
		return false;
	if (!r->n) { /* a top-level activation */
		if (ev.block != prog->funcs[ev.func].entry)
			return false;
		push(r, ev.func, OL_NONE, OL_NONE);
		entered(r);
		return true;
	}
	t = &r->st[r->n - 1];
	f = &prog->funcs[t->func];
	if (t->call_pending) {
		uint32_t callee = f->callee[t->cur], in_site, in_p;

		if (ev.func != callee || ev.block != prog->funcs[callee].entry)
			return false;
		t->call_pending = false;
		in_site = r->m->call_site[r->m->func_base[t->func] + t->cur];
		in_p = intern(r, t->path, t->npath);
		push(r, callee, in_site, in_p);
		entered(r);
		return true;
	}
	if (ev.func != t->func)
		return false;
	for (k = f->succ_start[t->cur]; k < f->succ_start[t->cur + 1] && e == OL_NONE; k++)
		if (f->edges[f->succ_edge[k]].dst == ev.block)
			e = f->succ_edge[k];
	if (e == OL_NONE)
		return false;
	if (f->is_back[e]) {
		finish_path(r, t, ev.block);
		t->npath = 0;
		t->ncalls = 0;
		t->first = false;
		t->start_head = ev.block;
	}
	path_push(t, ev.block);
	t->cur = ev.block;
	entered(r);
	return true;
}

static bool replay(struct ol_model *m, const struct ol_event *ev, size_t n, bool record)
{
	struct run r = { .m = m, .record = record };
	bool ok = true;
	size_t i;

	for (i = 0; i < n && ok; i++)
		ok = step(&r, ev[i]);
	ok = ok && r.n == 0;
	while (r.n) {
		r.n--;
		free(r.st[r.n].path);
		free(r.st[r.n].calls);
	}
	free(r.st);
	return ok;
}

bool ol_model_run(struct ol_model *m, const struct ol_event *ev, size_t n)
{
	if (!replay(m, ev, n, false))
		return false;
	replay(m, ev, n, true);
	return true;
}

uint64_t ol_model_exact(const struct ol_model *m, uint32_t site, uint32_t p, uint32_t q)
{
	return counts_get(&m->counts, TAG_EXACT, site, p, q);
}

uint64_t ol_model_total(const struct ol_model *m, uint32_t site)
{
	return counts_get(&m->counts, TAG_TOTAL, site, OL_NONE, OL_NONE);
}

/* Collects the a's of entries (tag, site, a, *) into ids/idx, with their counts. */
static uint32_t collect(const struct ol_model *m, uint32_t tag, uint32_t site, uint32_t **ids, uint64_t **vals, uint32_t *idx)
{
	uint32_t n = 0, i;

	*ids = ol_xcalloc(m->counts.n, sizeof **ids);
	*vals = ol_xcalloc(m->counts.n, sizeof **vals);
	for (i = 0; i < m->counts.cap; i++) {
		const struct ol_count_entry *e = &m->counts.e[i];

		if (e->count && e->tag == tag && e->site == site) {
			idx[e->a] = n;
			(*ids)[n] = e->a;
			(*vals)[n++] = e->count;
		}
	}
	return n;
}

void ol_model_input(const struct ol_model *m, uint32_t site, uint32_t theta, struct ol_site_input *si)
{
	const struct ol_site *s = &m->sites[site];
	uint32_t nseq = m->seqs.nseq, *pidx = ol_xcalloc(nseq, sizeof *pidx), *qidx = ol_xcalloc(nseq, sizeof *qidx), i;
	struct ol_space sp = ol_site_space(m->prog, s);
	struct ol_seqtab prefixes = { 0 };
	struct ol_og og;
	uint32_t np, nq;

	memset(si, 0, sizeof *si);
	for (i = 0; i < nseq; i++)
		pidx[i] = qidx[i] = OL_NONE;
	/* first halves and their row candidates */
	if (s->kind == OL_CALL_OUT)
		np = collect(m, TAG_LAST, s->callee, &si->p_ids, &si->row_buf, pidx);
	else
		np = collect(m, TAG_ROW, site, &si->p_ids, &si->row_buf, pidx);
	/* second halves and their column candidates */
	if (s->kind == OL_CALL_IN)
		nq = collect(m, TAG_FIRST, s->callee, &si->q_ids, &si->col_buf, qidx);
	else
		nq = collect(m, TAG_COL, site, &si->q_ids, &si->col_buf, qidx);
	/* prefix_theta of every second half, walked through the overlapping graph */
	ol_og_build(&og, &sp, theta);
	si->group_buf = ol_xcalloc(nq, sizeof *si->group_buf);
	for (i = 0; i < nq; i++) {
		uint32_t n;
		const uint32_t *q = ol_seq(&m->seqs, si->q_ids[i], &n);

		si->group_buf[i] = ol_seq_intern(&prefixes, q, ol_og_prefix(&og, q, n));
	}
	ol_og_release(&og);
	/* OF(p, g): one OL path per occurrence of p ! q (equation 2 / 15) */
	si->of_buf = ol_xcalloc((size_t)np * (prefixes.nseq ? prefixes.nseq : 1), sizeof *si->of_buf);
	for (i = 0; i < m->counts.cap; i++) {
		const struct ol_count_entry *e = &m->counts.e[i];

		if (e->count && e->tag == TAG_EXACT && e->site == site) {
			assert(pidx[e->a] != OL_NONE && qidx[e->b] != OL_NONE);
			si->of_buf[(size_t)pidx[e->a] * prefixes.nseq + si->group_buf[qidx[e->b]]] += e->count;
		}
	}
	si->in = (struct ol_est_input){
		.np = np, .nq = nq, .ngroups = prefixes.nseq,
		.group = si->group_buf, .of = si->of_buf, .row = si->row_buf, .col = si->col_buf,
		.total = ol_model_total(m, site), .use_total = s->kind != OL_LOOP,
	};
	free(prefixes.data);
	free(prefixes.start);
	free(prefixes.hash);
	free(pidx);
	free(qidx);
}

void ol_site_input_release(struct ol_site_input *si)
{
	free(si->p_ids);
	free(si->q_ids);
	free(si->group_buf);
	free(si->of_buf);
	free(si->row_buf);
	free(si->col_buf);
	memset(si, 0, sizeof *si);
}
