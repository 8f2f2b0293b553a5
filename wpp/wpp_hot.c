/*
 * wpp_hot.c: minimal hot subpaths (Larus, "Whole Program Paths", PLDI
 * 1999, section 4.2, Figure 7 "ReportHotSubPaths"; the "WPP paper").
 *
 * A subpath is a sequence of consecutive paths of the stream; its cost is
 * its frequency times the sum of its paths' costs; it is hot when that is
 * at least min_cost and its length is in [min_len, max_len] (L = max_len).
 * A post-order traversal of the grammar's DAG visits each rule once:
 *   - a rule's L-limited prefix is the first (at most L) symbols of its
 *     expansion that precede any hot subpath found in it; covers says
 *     that the prefix is the whole expansion;
 *   - its suffix is the last (at most L) symbols after the last hot
 *     subpath found in it;
 *   - walking its right side, a window (the "subPath" of Figure 7) takes
 *     each terminal, and each child's prefix symbol by symbol; a child that
 *     is not covered by its prefix breaks contiguity, so the window becomes
 *     the child's suffix.  After each symbol, if the window is hot at the
 *     rule's frequency (the number of times the rule occurs in the
 *     derivation, section 3.3), it is reported and cleared, and the rule's
 *     prefix stops before it ("Freeze").
 * Subpaths wholly inside a child are found at the child, at the child's
 * (higher) frequency; a rule examines only those that cross its symbols.
 *
 * Departures from Figure 7, all for exactness (docs/wpp.md says more):
 *   - the window keeps the last L symbols (a full window drops its first);
 *   - "Freeze" cuts the prefix before the hot subpath and stops it (the
 *     figure's code passes a length without saying what it cuts);
 *   - a rule's prefix also stops, and stops covering, after a child that
 *     is not covered (the figure's prefix would otherwise splice symbols
 *     that are not consecutive in the stream).
 * Time O(E L) for E edges of the DAG; a rule's prefix and suffix are freed
 * after its last reference is walked, as in the figure.
 */
#include <stdlib.h>
#include <string.h>

#include "wpp.h"
#include "array.h"

struct rstate {
	uint32_t *prefix, *suffix; /* L each, NULL until visited or after freed */
	unsigned plen, slen;
	unsigned char open, covers, visited;
	uint64_t refs; /* references not walked yet */
};

/* The window: the last (at most L) symbols since the last hot subpath. */
struct window {
	uint32_t *buf; /* ring of L */
	unsigned head, len;
	uint64_t cost; /* sum of term_cost over the window (< L * 2^64 / L) */
};

struct hot {
	const struct wpp_grammar *g;
	const struct wpp_hot_opts *o;
	const uint64_t *freq;
	struct rstate *rs;
	struct wpp_hot *out;
	size_t n, cap;
	int oom;
};

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

static uint32_t win_at(const struct window *w, unsigned i, unsigned L)
{
	return w->buf[(w->head + i) % L];
}

static void win_push(struct hot *h, struct window *w, uint32_t t)
{
	unsigned L = h->o->max_len;
	if (w->len == L) {
		w->cost -= h->o->term_cost[w->buf[w->head]];
		w->head = (w->head + 1) % L;
		w->len--;
	}
	w->buf[(w->head + w->len) % L] = t;
	w->len++;
	w->cost += h->o->term_cost[t];
}

static void report(struct hot *h, const struct window *w, uint32_t rule, uint64_t expense)
{
	KP_RESERVE(h->out, h->cap, h->n + 1);
	uint32_t *terms = malloc(w->len * sizeof *terms);
	if (!terms) {
		h->oom = 1;
		return;
	}
	for (unsigned i = 0; i < w->len; i++)
		terms[i] = win_at(w, i, h->o->max_len);
	h->out[h->n++] = (struct wpp_hot){ .terms = terms, .len = w->len, .freq = h->freq[rule],
					   .cost = expense, .rule = rule };
}

/* Figure 7, appendTerminal: terminal t joins rule's prefix and the window. */
static void append_terminal(struct hot *h, uint32_t rule, struct window *w, uint32_t t)
{
	struct rstate *r = &h->rs[rule];
	unsigned L = h->o->max_len;
	if (r->open) { /* appendTerminalToRulePrefix */
		if (r->plen < L) {
			r->prefix[r->plen++] = t;
		} else {
			r->open = 0;
			r->covers = 0;
		}
	} else {
		r->covers = 0;
	}
	win_push(h, w, t); /* appendTerminalToSubPath */
	uint64_t expense = mul_sat(w->cost, h->freq[rule]);
	if (expense >= h->o->min_cost && w->len >= h->o->min_len) {
		report(h, w, rule, expense);
		if (r->open) { /* "stop before hot subpath" */
			r->plen = r->plen >= w->len ? r->plen - w->len : 0;
			r->open = 0;
		}
		r->covers = 0;
		w->len = 0;
		w->cost = 0;
	}
}

struct frame {
	uint32_t rule;
	uint64_t at;
	struct window w;
};

static int start_rule(struct hot *h, struct frame *f, uint32_t rule)
{
	struct rstate *r = &h->rs[rule];
	unsigned L = h->o->max_len;
	r->prefix = malloc(L * sizeof *r->prefix);
	r->suffix = malloc(L * sizeof *r->suffix);
	if (!r->prefix || !r->suffix)
		return -1;
	r->visited = r->open = r->covers = 1;
	r->plen = r->slen = 0;
	f->rule = rule;
	f->at = h->g->start[rule];
	f->w.head = f->w.len = 0;
	f->w.cost = 0;
	return 0;
}

/* The walk of rule's right side reached child c (visited). */
static void take_child(struct hot *h, struct frame *f, uint32_t c)
{
	struct rstate *cs = &h->rs[c], *r = &h->rs[f->rule];
	for (unsigned i = 0; i < cs->plen; i++) /* appendTerminalString */
		append_terminal(h, f->rule, &f->w, cs->prefix[i]);
	if (!cs->covers) {
		/* "node is wider than prefix, so change suffix" */
		f->w.head = 0;
		f->w.len = cs->slen;
		f->w.cost = 0;
		for (unsigned i = 0; i < cs->slen; i++) {
			f->w.buf[i] = cs->suffix[i];
			f->w.cost += h->o->term_cost[cs->suffix[i]];
		}
		r->open = 0; /* what follows is not consecutive to the prefix */
		r->covers = 0;
	}
	if (--cs->refs == 0) { /* "free strings after last use" */
		free(cs->prefix);
		free(cs->suffix);
		cs->prefix = cs->suffix = NULL;
	}
}

int wpp_hot_figure7(const struct wpp_grammar *g, const struct wpp_hot_opts *o, struct wpp_hot **out, size_t *n)
{
	struct hot h = { .g = g, .o = o };
	unsigned L = o->max_len;
	int rc = -1;
	*out = NULL;
	*n = 0;
	if (L == 0 || o->min_len > L)
		return 0;
	h.freq = wpp_frequencies(g);
	h.rs = calloc((size_t)g->nrules + 1, sizeof *h.rs);
	struct frame *stack = calloc((size_t)g->nrules + 1, sizeof *stack);
	uint32_t depth = 0, nbuf = 0;
	if (!h.freq || !h.rs || !stack)
		goto done;
	for (uint64_t k = 0; k < g->start[g->nrules]; k++)
		if (WPP_SYM_IS_RULE(g->syms[k]))
			h.rs[WPP_SYM_VAL(g->syms[k])].refs++;
	if (start_rule(&h, &stack[0], 0) != 0 || !(stack[0].w.buf = malloc(L * sizeof(uint32_t))))
		goto done;
	depth = nbuf = 1;
	while (depth && !h.oom) {
		struct frame *f = &stack[depth - 1];
		if (f->at == g->start[f->rule + 1]) {
			/* rule->SetSuffix(subPath) */
			struct rstate *r = &h.rs[f->rule];
			r->slen = f->w.len;
			for (unsigned i = 0; i < f->w.len; i++)
				r->suffix[i] = win_at(&f->w, i, L);
			depth--;
			if (depth)
				take_child(&h, &stack[depth - 1], f->rule);
			continue;
		}
		uint32_t s = g->syms[f->at++];
		if (!WPP_SYM_IS_RULE(s)) {
			append_terminal(&h, f->rule, &f->w, WPP_SYM_VAL(s));
			continue;
		}
		uint32_t c = WPP_SYM_VAL(s);
		if (h.rs[c].visited) {
			take_child(&h, f, c);
			continue;
		}
		/* post order: visit the child first (the frames' windows are
		 * reused by depth) */
		struct frame *cf = &stack[depth];
		if (depth == nbuf) {
			if (!(cf->w.buf = malloc(L * sizeof(uint32_t))))
				goto done;
			nbuf++;
		}
		if (start_rule(&h, cf, c) != 0)
			goto done;
		depth++;
	}
	if (h.oom)
		goto done;
	*out = h.out;
	*n = h.n;
	h.out = NULL;
	h.n = 0;
	rc = 0;
done:
	for (uint32_t i = 0; i < nbuf; i++)
		free(stack[i].w.buf);
	for (uint32_t r = 0; h.rs && r < g->nrules; r++) {
		free(h.rs[r].prefix);
		free(h.rs[r].suffix);
	}
	wpp_hot_free(h.out, h.n);
	free(stack);
	free(h.rs);
	free((void *)h.freq);
	return rc;
}

uint64_t wpp_path_cost(const struct wpp_func *f, uint64_t id, enum wpp_cost_model m)
{
	uint32_t *lines, n;
	if (m == WPP_COST_UNIT || kp_decode_path(&f->dag, id, &lines, &n) != 0)
		return 1;
	free(lines);
	return n ? n : 1;
}

uint64_t *wpp_term_costs(const struct wpp_file *w, const struct wpp_grammar *g, enum wpp_cost_model m)
{
	uint64_t *cost = malloc(((size_t)g->nterms + 1) * sizeof *cost);
	for (uint32_t t = 0; cost && t < g->nterms; t++)
		cost[t] = wpp_path_cost(&w->funcs[g->terms[t].func], g->terms[t].id, m);
	return cost;
}

int wpp_hot_find(const struct wpp_grammar *g, const struct wpp_hot_opts *o, struct wpp_hot **out, size_t *n)
{
	return o->method == WPP_HOT_FIGURE7 ? wpp_hot_figure7(g, o, out, n) : wpp_hot_exact(g, o, out, n);
}

void wpp_hot_free(struct wpp_hot *h, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(h[i].terms);
	free(h);
}
