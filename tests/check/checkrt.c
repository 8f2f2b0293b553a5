/*
 * checkrt.c: a checking runtime for `kpath instrument --check` output.
 *
 * It implements the runtime ABI (kpath_rt.h) without profiling anything:
 * instead, the instrumented code reports every CFG edge it takes
 * (kpath_chk_edge) and every entry into a case block (kpath_chk_block), and
 * this runtime replays the Ball-Larus arithmetic on those edges, from the
 * numbering alone:
 *   entry edge / forward edge e   r += val(e)
 *   back or cut edge v->w         expect emit(r + val(v->EXIT)); r = val(ENTRY->w)
 *   edge into EXIT                expect leave(r + val(e))
 * and checks that (1) the edges form a walk of the CFG (each edge leaves the
 * block control is in, bridging only through site-less edges such as a
 * switch dispatch), and (2) every ID the instrumented code emits equals the
 * replayed one.  This verifies the placement (sites, compensation, resets)
 * independently of how the code was placed.
 *
 * An acyclic function (no cursor: kpath_rt_count at its exits, kpath_rt.h)
 * gets a cursor in check mode only, for the edge reports, from
 * kpath_chk_acyclic, which also pushes the activation on a per-thread
 * stack: kpath_rt_count(f, id, n) belongs to the innermost live activation
 * of f there (any above it were abandoned by a longjmp), and n must be
 * f->num_paths.
 *
 * Summary: "kpath-check: E edges, P paths, M mismatches" on stderr, or into
 * the file named by KPATH_CHECK_OUT.  Mismatch details go to stderr.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* this runtime implements kpath_rt_emit/leave itself, as calls */
#define KPATH_RT_NO_INLINE 1
#include "kpath_rt.h"

struct kpath_chk_edge {
	unsigned src, dst;
	unsigned char role, siteless, restart;
	kpath_rt_u64 val, dexit, dentry;
};

enum { ROLE_FORWARD, ROLE_BACK, ROLE_CUT, ROLE_DEAD }; /* cfgbuild/cfg.h */

struct act {
	const struct kpath_rt_func *f;
	const struct kpath_chk_edge *t;
	unsigned n;
	unsigned cur;          /* block control is in */
	kpath_rt_u64 r;        /* replayed path register */
	int pending;           /* an emit or leave is expected */
	kpath_rt_u64 expect;
	struct act *next;      /* all_acts */
	struct act *below;     /* acyclic: the stack entry below this one */
};

/* Live activations of acyclic functions in this thread, innermost first. */
static _Thread_local struct act *acyclic_top;

/* Every activation stays reachable (and is never freed): one that a longjmp
 * abandons never leaves, and must not look like a leak to LeakSanitizer. */
static struct act *_Atomic all_acts;

static atomic_ullong n_edges, n_paths, n_bad;

static void bad(struct act *a, const char *fmt, unsigned x, unsigned y)
{
	atomic_fetch_add(&n_bad, 1);
	if (atomic_load(&n_bad) <= 20) {
		fprintf(stderr, "kpath-check: %s: ", a && a->f ? a->f->name : "?");
		fprintf(stderr, fmt, x, y);
		fputc('\n', stderr);
	}
}

void kpath_rt_register(struct kpath_rt_func *f)
{
	(void)f;
}

void kpath_dump(void)
{
}

static struct act *new_act(struct kpath_rt_func *f)
{
	struct act *a = calloc(1, sizeof *a);
	if (!a)
		abort();
	a->next = atomic_load(&all_acts);
	while (!atomic_compare_exchange_weak(&all_acts, &a->next, a))
		;
	a->f = f;
	return a;
}

/* The cursor's state word holds the checker's activation (kpath_rt.h:
 * runtime-owned; this runtime is the checker). */
static struct act *act_of(const struct kpath_rt_cursor *c)
{
	return (struct act *)c->s.x;
}

static void set_act(struct kpath_rt_cursor *c, struct act *a)
{
	c->s.x = a;
}

void kpath_rt_enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c)
{
	set_act(c, new_act(f));
}

static void take(struct act *a, unsigned e)
{
	const struct kpath_chk_edge *x = &a->t[e];
	atomic_fetch_add(&n_edges, 1);
	if (a->pending)
		bad(a, "edge %u taken while a path ID is still expected (block %u)", e, a->cur);
	switch (x->role) {
	case ROLE_FORWARD:
		if (x->restart) /* out of a setjmp block: the path started there */
			a->r = x->dentry;
		a->r += x->val;
		if (x->dst == 1) {
			a->pending = 1;
			a->expect = a->r;
		}
		break;
	case ROLE_BACK:
	case ROLE_CUT:
		a->pending = 1;
		a->expect = a->r + x->dexit;
		a->r = x->dentry;
		break;
	default:
		bad(a, "dead edge %u taken (block %u)", e, a->cur);
	}
	a->cur = x->dst;
}

/* Finds a walk of at most depth site-less edges from block u to block b
 * (e.g. a switch's no-match edge into a second switch and its dispatch);
 * stores it backwards in path and returns its length, 0 if none. */
static unsigned siteless_walk(const struct act *a, unsigned u, unsigned b, unsigned depth, unsigned *path)
{
	if (depth == 0)
		return 0;
	for (unsigned e = 0; e < a->n; e++) {
		if (!a->t[e].siteless || a->t[e].src != u)
			continue;
		if (a->t[e].dst == b) {
			path[0] = e;
			return 1;
		}
		unsigned n = siteless_walk(a, a->t[e].dst, b, depth - 1, path);
		if (n) {
			path[n] = e;
			return n + 1;
		}
	}
	return 0;
}

/* Takes the site-less edges from the current block to b, if they exist. */
static int bridge(struct act *a, unsigned b)
{
	unsigned path[8];
	unsigned n = siteless_walk(a, a->cur, b, 8, path);
	while (n > 0)
		take(a, path[--n]);
	return n == 0 && a->cur == b;
}

void kpath_chk_enter(struct kpath_rt_cursor *c, const struct kpath_chk_edge *t, unsigned n, unsigned entry)
{
	struct act *a = act_of(c);
	a->t = t;
	a->n = n;
	a->cur = 0;
	a->r = 0;
	take(a, entry);
}

void kpath_chk_acyclic(struct kpath_rt_func *f, struct kpath_rt_cursor *c, const struct kpath_chk_edge *t, unsigned n,
                       unsigned entry)
{
	struct act *a = new_act(f);
	for (unsigned e = 0; e < n; e++)
		if (t[e].role == ROLE_BACK || t[e].role == ROLE_CUT || t[e].restart)
			bad(a, "edge %u of an acyclic function is a back or cut edge or leaves a setjmp block%.0u", e, 0);
	a->below = acyclic_top;
	acyclic_top = a;
	set_act(c, a);
	kpath_chk_enter(c, t, n, entry);
}

void kpath_chk_edge(struct kpath_rt_cursor *c, unsigned e)
{
	struct act *a = act_of(c);
	if (e >= a->n) {
		bad(a, "edge %u out of range (%u)", e, a->n);
		return;
	}
	/* a setjmp block is re-entered by longjmp from anywhere */
	if (a->t[e].src != a->cur && !a->t[e].restart && !bridge(a, a->t[e].src))
		bad(a, "edge %u leaves a block control is not in (block %u)", e, a->cur);
	take(a, e);
}

void kpath_chk_block(struct kpath_rt_cursor *c, unsigned b)
{
	struct act *a = act_of(c);
	if (a->cur != b && !bridge(a, b))
		bad(a, "block %u entered from block %u without an edge", b, a->cur);
}

static void got(struct act *a, kpath_rt_u64 id, int leave)
{
	atomic_fetch_add(&n_paths, 1);
	if (!a->pending)
		bad(a, "path ID emitted without a back, cut or exit edge (block %u)%.0u", a->cur, 0);
	else if (id != a->expect)
		bad(a, "emitted path ID differs from the replayed one (block %u, leave %u)", a->cur,
		    (unsigned)leave);
	if (id >= a->f->num_paths)
		bad(a, "path ID out of range (block %u)%.0u", a->cur, 0);
	a->pending = 0;
	if (leave && a->cur != 1)
		bad(a, "leave outside EXIT (block %u)%.0u", a->cur, 0);
}

void kpath_rt_emit(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	got(act_of(c), id, 0);
}

void kpath_rt_leave(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	got(act_of(c), id, 1);
	set_act(c, NULL);
}

void kpath_rt_count(struct kpath_rt_func *f, kpath_rt_u64 id, kpath_rt_u64 num_paths)
{
	struct act *a = acyclic_top;
	while (a && a->f != f)
		a = a->below;
	if (!a) {
		bad(NULL, "kpath_rt_count without a live activation of its function%.0u%.0u", 0, 0);
		return;
	}
	acyclic_top = a->below;
	if (num_paths != f->num_paths)
		bad(a, "kpath_rt_count with num_paths %u, descriptor %u", (unsigned)num_paths, (unsigned)f->num_paths);
	got(a, id, 1);
}

__attribute__((destructor)) static void summary(void)
{
	const char *out = getenv("KPATH_CHECK_OUT");
	FILE *f = out ? fopen(out, "a") : stderr;
	if (!f)
		f = stderr;
	fprintf(f, "kpath-check: %llu edges, %llu paths, %llu mismatches\n", (unsigned long long)n_edges,
	        (unsigned long long)n_paths, (unsigned long long)n_bad);
	if (f != stderr)
		fclose(f);
}
