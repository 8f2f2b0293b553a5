/*
 * overlap_trace.c: the exact Type I and Type II paths of every call site
 * (Tallam, Zhang & Gupta, CGO 2004, section 3.1) from a KPATH_TRACE of the
 * run that wrote a --mode overlap profile (docs/trace-format.md, read with
 * wpp/trace_read.c), for `kpath overlap check` (overlap_calls_out.c
 * compares them with the bounds).  tests/overlapmode/calls_trace.py is an
 * independent implementation of the same matching, the test's oracle.
 *
 * The trace holds every activation's Ball-Larus paths in order and the
 * order in which activations start, so each activation's direct callees
 * are known and when: a callee entered while its caller's path p is in
 * progress ran from a call in p.  When p ends, the callees entered during
 * it are matched, in order, to the sites on p with the same callee; the
 * pair (caller's prefix to c ! callee's first path) is a Type I path, and
 * (callee's last path ! caller's suffix from c) a Type II path when the
 * callee returned.  A path on which that matching is not one to one (a
 * call of the same function from a block that is no site, or through a
 * pointer) makes its sites ambiguous: they are counted, not matched.
 *
 * Activations are kept per thread in a vector sorted by number: the live
 * ones and the callees that returned and wait for their caller's path to
 * end (a record's kids are the records after it that name it as parent).
 */
#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap_trace.h"
#include "array.h"
#include "wpp.h"
#include "xalloc.h"

#define COMPANION "kpath_rt_overlap:" /* runtime/overlap.c: OL counters, not calls */

struct ov_xfunc {
	const struct kp_func *kf;
	struct ov_func of;
	struct ov_xsite *sites;
	uint32_t nsites;
	int32_t *site_at; /* per block: its site, or -1 */
};

struct xrec {
	uint64_t act, parent; /* parent 0: none (or no longer waited for) */
	uint64_t first, last;
	int32_t fx;           /* its ov_xfunc, or -1 */
	uint32_t tfunc;       /* its trace function */
	bool has_first, left;
};

struct xthread {
	uint64_t tid;
	struct xrec *r;
	size_t n, cap;
};

struct xstate {
	struct ov_calls_exact *E;
	int32_t *tmap; /* per trace function: its ov_xfunc, or -1 */
	uint32_t nmapped, matched;
	struct xthread *th;
	size_t nth;
	uint32_t *blk, *kb, *pair, *on_k; /* scratch */
	int32_t *on_site;
	size_t *kids, capkids;
	char msg[512];
};

static const char *say(struct xstate *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->msg, sizeof s->msg, fmt, ap);
	va_end(ap);
	return s->msg;
}

/* New trace functions mapped to the profile's overlap entries (name, file, checksum). */
static const char *map_funcs(struct xstate *s, const struct wpp_trace *t)
{
	if (s->nmapped == t->nfuncs)
		return NULL;
	s->tmap = xrealloc(s->tmap, t->nfuncs * sizeof *s->tmap);
	for (; s->nmapped < t->nfuncs; s->nmapped++) {
		const struct wpp_func *f = &t->funcs[s->nmapped];
		s->tmap[s->nmapped] = -1;
		for (size_t i = 0; i < s->E->nf; i++) {
			const struct kp_func *kf = s->E->f[i].kf;
			if (strcmp(kf->name, f->name) || strcmp(kf->file, f->file))
				continue;
			if (strcmp(kf->checksum, f->checksum))
				return say(s, "function '%s' (%s) has checksum %s here and %s in the profile: a trace of another "
				           "program or numbering", f->name, f->file, f->checksum, kf->checksum);
			s->tmap[s->nmapped] = (int32_t)i;
			s->matched++;
		}
	}
	return NULL;
}

static struct xthread *thread_of(struct xstate *s, uint64_t tid)
{
	for (size_t i = 0; i < s->nth; i++)
		if (s->th[i].tid == tid)
			return &s->th[i];
	s->th = xrealloc(s->th, (s->nth + 1) * sizeof *s->th);
	memset(&s->th[s->nth], 0, sizeof *s->th);
	s->th[s->nth].tid = tid;
	return &s->th[s->nth++];
}

static size_t find_rec(const struct xthread *th, uint64_t act)
{
	size_t lo = 0, hi = th->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (th->r[mid].act < act)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < th->n && th->r[lo].act == act ? lo : SIZE_MAX;
}

static bool same_func(const struct wpp_func *f, const struct kp_func *kf)
{
	return !strcmp(f->name, kf->name) && !strcmp(f->file, kf->file);
}

/* One pair into site x's table of type t (0: Type I, 1: Type II). */
static void add_pair(struct xstate *s, struct ov_xsite *x, int t, const uint32_t *a, uint32_t na, const uint32_t *b,
                     uint32_t nb)
{
	memcpy(s->pair, a, na * sizeof *a);
	s->pair[na] = OV_PAIR_SEP;
	memcpy(s->pair + na + 1, b, nb * sizeof *b);
	uint32_t id = ov_seq_add(&x->pairs[t], s->pair, na + 1 + nb, &x->n[t], &x->cap[t]);
	x->n[t][id]++;
}

/* The pairs of the path that record pos just ended (its last ID). */
static const char *path_pairs(struct xstate *s, const struct wpp_trace *t, struct xthread *th, size_t pos)
{
	const struct xrec *r = &th->r[pos];
	struct ov_xfunc *F = &s->E->f[r->fx];
	bool fh, tb;
	uint32_t n = ov_decode(&F->of, r->last, s->blk, &fh, &tb), ns = 0, nk = 0;
	if (!n)
		return say(s, "path %" PRIu64 " of '%s' does not decode over the profile's cfg", r->last, F->kf->name);
	for (uint32_t k = 0; k < n; k++) {
		int32_t x = F->site_at[s->blk[k]];
		if (x >= 0 && F->sites[x].callee) {
			s->on_k[ns] = k;
			s->on_site[ns++] = x;
		}
	}
	if (!ns)
		return NULL;
	for (size_t i = pos + 1; i < th->n; i++)
		if (th->r[i].parent == r->act) {
			KP_RESERVE(s->kids, s->capkids, nk + 1);
			s->kids[nk++] = i;
		}
	bool ok = true; /* each callee: as many sites on the path as activations entered */
	for (uint32_t a = 0; a < ns && ok; a++) {
		const struct kp_func *g = F->sites[s->on_site[a]].callee;
		uint32_t want = 0, got = 0;
		for (uint32_t b = 0; b < ns; b++)
			want += F->sites[s->on_site[b]].callee == g;
		for (uint32_t b = 0; b < nk; b++)
			got += same_func(&t->funcs[th->r[s->kids[b]].tfunc], g);
		ok = want == got;
	}
	for (uint32_t a = 0, j = 0; a < ns; a++) {
		struct ov_xsite *x = &F->sites[s->on_site[a]];
		uint32_t k = s->on_k[a];
		if (!ok) {
			x->ambiguous++;
			continue;
		}
		while (!same_func(&t->funcs[th->r[s->kids[j]].tfunc], x->callee))
			j++;
		const struct xrec *kid = &th->r[s->kids[j++]];
		assert(kid->fx >= 0); /* named as the callee, whose overlap entry has the same checksum */
		const struct ov_func *G = &s->E->f[kid->fx].of;
		x->calls++;
		if (kid->has_first) {
			uint32_t m = ov_decode(G, kid->first, s->kb, &fh, &tb);
			if (!m)
				return say(s, "path %" PRIu64 " of '%s' does not decode over the profile's cfg", kid->first,
				           x->callee->name);
			add_pair(s, x, 0, s->blk, k + 1, s->kb, m);
		}
		if (kid->left) {
			uint32_t m = ov_decode(G, kid->last, s->kb, &fh, &tb);
			if (!m)
				return say(s, "path %" PRIu64 " of '%s' does not decode over the profile's cfg", kid->last,
				           x->callee->name);
			add_pair(s, x, 1, s->kb, m, s->blk + k, n - k);
		}
	}
	return NULL;
}

static const char *on_event(void *arg, const struct wpp_trace *t, const struct wpp_trace_event *e)
{
	struct xstate *s = arg;
	const char *why = map_funcs(s, t);
	if (why)
		return why;
	struct xthread *th = thread_of(s, e->thread);
	if (e->kind == WPP_TRACE_ENTER) {
		uint64_t parent = 0; /* the last activation entered that has not returned */
		for (size_t i = th->n; i-- > 0 && !parent;)
			if (!th->r[i].left)
				parent = th->r[i].act;
		if (!strncmp(t->funcs[e->func].name, COMPANION, sizeof COMPANION - 1))
			parent = 0;
		KP_RESERVE(th->r, th->cap, th->n + 1);
		th->r[th->n++] = (struct xrec){.act = e->act, .parent = parent, .fx = s->tmap[e->func], .tfunc = e->func};
		return NULL;
	}
	size_t pos = find_rec(th, e->act);
	if (pos == SIZE_MAX)
		return NULL;
	struct xrec *r = &th->r[pos];
	if (!r->has_first)
		r->first = e->id, r->has_first = true;
	r->last = e->id;
	if (r->fx >= 0 && s->E->f[r->fx].nsites && (why = path_pairs(s, t, th, pos)))
		return why;
	size_t w = pos + 1; /* its callees: matched now; the ones that returned are done */
	for (size_t i = pos + 1; i < th->n; i++) {
		if (th->r[i].parent == e->act && th->r[i].left)
			continue;
		if (th->r[i].parent == e->act)
			th->r[i].parent = 0;
		th->r[w++] = th->r[i];
	}
	th->n = w;
	r = &th->r[pos];
	if (e->kind == WPP_TRACE_LEAVE) {
		r->left = true;
		if (!r->parent) { /* no caller waits for it */
			memmove(r, r + 1, (th->n - pos - 1) * sizeof *r);
			th->n--;
		}
	}
	return NULL;
}

/* The profile's overlap functions and their sites. */
static const char *setup(struct ov_calls_exact *E, const struct kp_profile *p, uint32_t *maxb)
{
	*maxb = 0;
	E->f = xcalloc(p->nfuncs, sizeof *E->f);
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].overlap) {
			struct ov_xfunc *F = &E->f[E->nf++];
			F->kf = &p->funcs[i];
			const char *why = ov_func_init(&F->of, F->kf);
			if (why)
				return why;
			*maxb = F->kf->cfg.nblocks > *maxb ? F->kf->cfg.nblocks : *maxb;
		}
	for (size_t i = 0; i < E->nf; i++) {
		struct ov_xfunc *F = &E->f[i];
		const json_t *calls = json_object_get(F->kf->overlap, "overlap_calls"), *site;
		size_t k;
		F->site_at = xcalloc(F->kf->cfg.nblocks, sizeof *F->site_at);
		for (uint32_t b = 0; b < F->kf->cfg.nblocks; b++)
			F->site_at[b] = -1;
		F->sites = xcalloc(json_array_size(calls), sizeof *F->sites);
		json_array_foreach(calls, k, site) {
			struct ov_xsite *x = &F->sites[F->nsites];
			const char *name = json_string_value(json_object_get(site, "callee"));
			x->caller = F->kf;
			x->block = (uint32_t)json_integer_value(json_object_get(site, "block"));
			if (x->block >= F->kf->cfg.nblocks || !name)
				return "overlap_calls: a site without a callee or beyond cfg.blocks";
			const char *file = ov_site_callee_file(site, F->kf->file); /* NULL: not in overlap mode */
			for (size_t j = 0; j < E->nf && !x->callee && file; j++)
				if (!strcmp(E->f[j].kf->name, name) && !strcmp(E->f[j].kf->file, file))
					x->callee = E->f[j].kf;
			F->site_at[x->block] = (int32_t)F->nsites++;
		}
	}
	return NULL;
}

int ov_calls_exact_read(struct ov_calls_exact *E, const struct kp_profile *p, const char *trace, char *err,
                        size_t errlen)
{
	uint32_t maxb;
	memset(E, 0, sizeof *E);
	const char *why = setup(E, p, &maxb);
	if (why) {
		snprintf(err, errlen, "%s: the profile: %s", trace, why);
		return -1;
	}
	struct xstate s = {.E = E};
	s.blk = xcalloc(maxb + 2, sizeof *s.blk);
	s.kb = xcalloc(maxb + 2, sizeof *s.kb);
	s.pair = xcalloc(2 * (size_t)maxb + 5, sizeof *s.pair);
	s.on_k = xcalloc(maxb + 2, sizeof *s.on_k);
	s.on_site = xcalloc(maxb + 2, sizeof *s.on_site);
	struct wpp_trace t = {.path = trace, .event = on_event, .arg = &s};
	int rc = wpp_trace_read(&t, err, errlen);
	if (!rc && t.truncated) {
		snprintf(err, errlen, "%s: truncated at byte %zu (the program was cut short?): its exact counts would be "
		         "incomplete", trace, t.truncated_at);
		rc = -1;
	} else if (!rc && !s.matched) {
		snprintf(err, errlen, "%s: the trace holds none of the profile's --mode overlap functions (a trace of "
		         "another program?)", trace);
		rc = -1;
	}
	wpp_trace_free(&t);
	for (size_t i = 0; i < s.nth; i++)
		free(s.th[i].r);
	free(s.th);
	free(s.tmap);
	free(s.blk);
	free(s.kb);
	free(s.pair);
	free(s.on_k);
	free(s.on_site);
	free(s.kids);
	return rc;
}

const struct ov_xsite *ov_calls_exact_find(const struct ov_calls_exact *E, const struct kp_func *caller,
                                           uint32_t block)
{
	for (size_t i = 0; i < E->nf; i++)
		if (E->f[i].kf == caller)
			return block < caller->cfg.nblocks && E->f[i].site_at[block] >= 0
			           ? &E->f[i].sites[E->f[i].site_at[block]]
			           : NULL;
	return NULL;
}

void ov_calls_exact_release(struct ov_calls_exact *E)
{
	for (size_t i = 0; i < E->nf; i++) {
		struct ov_xfunc *F = &E->f[i];
		for (uint32_t k = 0; k < F->nsites; k++)
			for (int t = 0; t < 2; t++) {
				ov_seq_release(&F->sites[k].pairs[t]);
				free(F->sites[k].n[t]);
			}
		free(F->sites);
		free(F->site_at);
		ov_func_release(&F->of);
	}
	free(E->f);
	memset(E, 0, sizeof *E);
}
