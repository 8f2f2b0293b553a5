/*
 * mode_ppp.c: --mode ppp --interesting PROFILE [--interesting-top P]
 * (modes.h; preferential path profiling, docs/ppp.md): the interesting set
 * is read before the parse (frontend/ppp_interesting.c), each function is
 * rewritten in the ppp form or, without interesting paths, plain.
 */
#include <stdio.h>
#include <stdlib.h>

#include "builds.h"
#include "modes.h"
#include "ppp_interesting.h"

struct ppp_state {
	const char *interesting;
	double top;                /* --interesting-top P, or < 0 */
	struct kp_interesting *s;  /* after load */
};

/* PROFILE with ppp and only then, P a number in 0..100. */
static bool ppp_args(const struct kp_mode_args *a, bool selected, void **state)
{
	if (!selected && (a->interesting || a->top)) {
		fprintf(stderr, "kpath instrument: %s needs --mode ppp\n", a->interesting ? "--interesting" : "--interesting-top");
		return false;
	}
	if (!selected)
		return true;
	if (!a->interesting) {
		fprintf(stderr, "kpath instrument: --mode ppp needs --interesting PROFILE.json (a profile of the same "
		        "program: its paths are the interesting ones)\n");
		return false;
	}
	if (a->check)
		return kp_mode_check_refused();
	double top = -1;
	if (a->top) {
		char *end;
		top = strtod(a->top, &end);
		if (!*a->top || *end || !(top >= 0 && top <= 100)) {
			fprintf(stderr, "kpath instrument: --interesting-top '%s': expected a percentage in 0..100\n", a->top);
			return false;
		}
	}
	struct ppp_state *st = calloc(1, sizeof *st);
	if (!st) {
		fprintf(stderr, "kpath: out of memory\n");
		return false;
	}
	st->interesting = a->interesting;
	st->top = top;
	*state = st;
	return true;
}

static int ppp_load(void *state)
{
	struct ppp_state *st = state;
	if (!(st->s = kp_interesting_load(st->interesting, st->top)))
		return KP_EXIT_INTERESTING; /* kpath-cc: a failed build, not a fallback */
	return 0;
}

static void ppp_walk_start(void *state)
{
	kp_interesting_reset(((struct ppp_state *)state)->s); /* a second walk counts again */
}

static const char *ppp_function(void *state, const struct kp_mode_fn *f, char *err, size_t errlen)
{
	struct ppp_state *st = state;
	(void)err;
	(void)errlen;
	kp_interesting_function(st->s, f->rw, f->plan, f->dag, f->place, f->src_path, f->msg, f->quiet);
	return NULL;
}

static void ppp_summary(void *state, const char *in, const struct kp_counts *c)
{
	struct ppp_state *st = state;
	const struct kp_ppp_counts *pc = kp_interesting_counts(st->s);
	kp_interesting_finish(st->s, in);
	fprintf(stderr, "kpath: %s: %u functions instrumented (ppp: %u, %llu interesting paths; plain "
	        "Ball-Larus: %u), %u skipped\n", in, c->instrumented, pc->ppp, pc->interesting, pc->plain, c->skipped);
}

static void ppp_free(void *state)
{
	struct ppp_state *st = state;
	if (!st)
		return;
	kp_interesting_free(st->s);
	free(st);
}

const struct kp_mode_ops kp_mode_ppp = {
	.name = "ppp",
	.args = ppp_args,
	.cuts = true,
	.load = ppp_load,
	.walk_start = ppp_walk_start,
	.function = ppp_function,
	.summary = ppp_summary,
	.free = ppp_free,
};
