/*
 * mode_kiter.c: --mode kiter --kiter K [--kiter-loop FILE:LINE=K]
 * (modes.h; Roy & Srikant's k-iteration paths, docs/kiter-paths.md): the
 * main file's #pragma kpath kiter(K) are read once it is parsed, each
 * function is numbered by rewrite/kiter_form.c, and a --kiter-loop no loop
 * head matched fails the run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiter_pragma.h"
#include "modes.h"

struct kiter_state {
	unsigned k;
	struct rw_kiter_loop *loops; /* --kiter-loop (the caller's array) */
	unsigned nloops;
	struct kp_kiter_pragmas pragmas; /* the main file's #pragma kpath kiter(K) */
	unsigned lowered;            /* functions whose K ki_fit lowered */
};

/* --kiter-loop FILE:LINE=K into *l; false when malformed. */
bool kp_kiter_loop_arg(const char *s, struct rw_kiter_loop *l)
{
	const char *eq = strrchr(s, '='), *colon;
	char *end;
	if (!eq)
		return false;
	for (colon = eq; colon > s && colon[-1] != ':'; colon--)
		;
	if (colon <= s + 1 || colon == eq)
		return false;
	errno = 0;
	unsigned long line = strtoul(colon, &end, 10), k;
	if (end != eq || errno || line < 1 || line > UINT_MAX || *colon == '-' || *colon == '+')
		return false;
	k = strtoul(eq + 1, &end, 10);
	if (!eq[1] || *end || errno || k < 1 || k > RW_KITER_MAX_K || eq[1] == '-' || eq[1] == '+')
		return false;
	static char files[64][PATH_MAX]; /* the option's FILE, kept for the run */
	static unsigned nfiles;
	size_t n = (size_t)(colon - 1 - s);
	if (nfiles == 64 || n >= PATH_MAX)
		return false;
	memcpy(files[nfiles], s, n);
	files[nfiles][n] = 0;
	*l = (struct rw_kiter_loop){.file = files[nfiles++], .line = (unsigned)line, .k = (unsigned)k};
	return true;
}

/* --mode kiter and --kiter (fixed spellings, issue 15): K an integer in
 * 1..RW_KITER_MAX_K, given with the mode and only then. */
static bool kiter_args(const struct kp_mode_args *a, bool selected, void **state)
{
	if (!selected) {
		if (a->kiter) {
			fprintf(stderr, "kpath instrument: --kiter %s needs --mode kiter\n", a->kiter);
			return false;
		}
		if (a->nloops) {
			fprintf(stderr, "kpath instrument: --kiter-loop needs --mode kiter\n");
			return false;
		}
		return true;
	}
	const char *kiter = a->kiter;
	if (!kiter) {
		fprintf(stderr, "kpath instrument: --mode kiter needs --kiter K (an integer in 1..%u)\n", RW_KITER_MAX_K);
		return false;
	}
	char *end;
	errno = 0;
	unsigned long v = strtoul(kiter, &end, 10);
	if (!*kiter || *end || errno || kiter[0] == '-' || v < 1 || v > RW_KITER_MAX_K) {
		fprintf(stderr, "kpath instrument: --kiter '%s': expected an integer in 1..%u\n", kiter, RW_KITER_MAX_K);
		return false;
	}
	if (a->check)
		return kp_mode_check_refused();
	struct kiter_state *st = calloc(1, sizeof *st);
	if (!st) {
		fprintf(stderr, "kpath: out of memory\n");
		return false;
	}
	st->k = (unsigned)v;
	st->loops = a->loops;
	st->nloops = a->nloops;
	*state = st;
	return true;
}

/* #pragma kpath kiter(K) of the main file (the macro expansion keeps
 * every line). */
static bool kiter_source(void *state, const struct src_file *src)
{
	struct kiter_state *st = state;
	if (!kp_kiter_pragmas_read(src, &st->pragmas)) {
		fprintf(stderr, "kpath: error: %s: malformed #pragma kpath (above); nothing written\n", src->path);
		return false;
	}
	return true;
}

static void kiter_walk_start(void *state)
{
	((struct kiter_state *)state)->lowered = 0; /* a second walk counts again */
}

static const char *kiter_function(void *state, const struct kp_mode_fn *f, char *err, size_t errlen)
{
	struct kiter_state *st = state;
	struct rw_kiter_result kr;
	const char *why = rw_kiter_function(f->rw, f->plan, f->dag, f->place,
	                                    &(struct rw_kiter_opts){.k = st->k, .loops = st->loops,
	                                                            .nloops = st->nloops,
	                                                            .pragmas = f->main_file ? st->pragmas.v : NULL,
	                                                            .npragmas = f->main_file ? st->pragmas.n : 0},
	                                    &kr, err, errlen);
	if (why)
		return why;
	if (kr.lowered) {
		st->lowered++;
		if (!f->quiet)
			fprintf(f->msg, "%s:%u: note: function '%s': %s\n", f->src_path, f->plan->line, f->plan->name, kr.note);
	}
	return NULL;
}

/* A pragma or a --kiter-loop no loop head matched. */
static int kiter_finish(void *state, const char *in, const char *out)
{
	struct kiter_state *st = state;
	int status = 0;
	for (unsigned i = 0; i < st->pragmas.n; i++)
		if (!st->pragmas.v[i].used)
			fprintf(stderr, "%s:%u: warning: #pragma kpath kiter(%u): the loop on line %u is in no function "
			        "instrumented\n", in, st->pragmas.v[i].line, st->pragmas.v[i].k, st->pragmas.v[i].loop_line);
	for (unsigned i = 0; i < st->nloops; i++)
		if (!st->loops[i].used) {
			fprintf(stderr, "%s:%u: error: --kiter-loop %s:%u=%u: no loop head starts on this line (the heads' lines "
			        "are in the comment after each function's \"{\" in the output); %s not written\n",
			        st->loops[i].file, st->loops[i].line, st->loops[i].file, st->loops[i].line, st->loops[i].k, out);
			status = 1;
		}
	return status;
}

static void kiter_summary(void *state, const char *in, const struct kp_counts *c)
{
	struct kiter_state *st = state;
	fprintf(stderr, "kpath: %s: %u functions instrumented (kiter K=%u), %u skipped, %u with K lowered\n", in,
	        c->instrumented, st->k, c->skipped, st->lowered);
}

static void kiter_free(void *state)
{
	struct kiter_state *st = state;
	if (!st)
		return;
	kp_kiter_pragmas_free(&st->pragmas);
	free(st);
}

const struct kp_mode_ops kp_mode_kiter = {
	.name = "kiter",
	.args = kiter_args,
	.cuts = false, /* kiter numbers the CFG itself, without cuts */
	.source = kiter_source,
	.walk_start = kiter_walk_start,
	.function = kiter_function,
	.finish = kiter_finish,
	.summary = kiter_summary,
	.free = kiter_free,
};
