/*
 * overlap_cmd.c: `kpath overlap estimate PROFILE [--json]` and `kpath
 * overlap check PROFILE EXACT [TRACE] [--json]` (docs/overlap-mode.md).
 *
 * estimate: per loop of every --mode overlap function, the lower and upper
 * bound of every interesting path p ! q (equations 7 and 8 of Tallam,
 * Zhang & Gupta, iterated until stable: cfgbuild/overlap_est.c), and the
 * definite and potential flow (the sums of the bounds, section 2.2.2) per
 * loop and per program, next to the flow B (back edges taken).
 *
 * check: the same bounds against the exact count of every p ! q from
 * EXACT, a profile with k >= 2 of the same run (run the overlap binary
 * with KPATH_K=2 and pass its profile twice, or a default-mode run of the
 * same program and input).  It prints the imprecision of definite and
 * potential flow as the paper's tables do ((definite - real) / real, and
 * (potential - real) / real), and fails (exit status 1) when a bound is
 * unsound (L > exact or exact > U), when bounds at a loop's maximum overlap
 * are not exact, or when an OL count differs from the sum of the exact
 * counts of its interesting paths (equation 2: the instrumentation's
 * oracle).  EXACT may be a KPATH_TRACE of the run instead (its k-IPF with
 * k = 2 is replayed for the loops), and a trace (EXACT or TRACE) adds the
 * check of every call site's Type I / II bounds against the trace's exact
 * counts (overlap_trace.c, overlap_calls_check.c, overlap_calls_out.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kipf_tool.h"
#include "overlap_mode.h"
#include "overlap_calls_out.h"
#include "overlap_prof.h"

struct totals {
	uint64_t flow, definite, potential, pairs, exact_pairs;
	uint64_t unsound, not_exact, of_mismatch, unfinished;
};

/* One `kpath overlap` run. */
struct ov_run {
	const struct kp_profile *prof;
	const char *path;               /* PROFILE */
	bool check, json;
	const struct ov_calls_exact *E; /* check with a trace: the calls' exact counts */
	json_t *jfuncs;                 /* --json: the functions' objects */
	struct totals t;                /* the loops' */
	struct ov_call_totals ct;       /* the calls' */
};

static json_t *lines_json(const struct kp_func *kf, const struct ol_seqtab *t, uint32_t id)
{
	uint32_t n;
	const uint32_t *s = ol_seq(t, id, &n);
	json_t *a = json_array();
	for (uint32_t i = 0; i < n; i++)
		if (kf->cfg.line[s[i]])
			json_array_append_new(a, json_integer(kf->cfg.line[s[i]]));
	return a;
}

static void put_lines(FILE *out, const struct kp_func *kf, const struct ol_seqtab *t, uint32_t id)
{
	uint32_t n;
	const uint32_t *s = ol_seq(t, id, &n);
	const char *sep = "";
	for (uint32_t i = 0; i < n; i++)
		if (kf->cfg.line[s[i]]) {
			fprintf(out, "%s%u", sep, kf->cfg.line[s[i]]);
			sep = " ";
		}
}

static double pct(uint64_t v, uint64_t real)
{
	return real ? 100.0 * ((double)v - (double)real) / (double)real : 0.0;
}

/* Checks of one loop against its exact counts (check mode).  An OL path
 * is counted at its (theta + 1)-th predicate, before its second half
 * completes a Ball-Larus path: a run that ends (exit, a longjmp out) in
 * the middle of an iteration has OL counts above the exact ones, and
 * Ball-Larus counts that miss the iteration, so the bounds of that loop
 * are not held to the exact counts (counted as unfinished).  OL counts
 * below the exact ones are always an error. */
static void check_loop(const struct ov_loop *L, struct totals *t)
{
	uint32_t np = L->in.np, nq = L->in.nq;
	bool unfinished = false;
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t g = 0; g < L->ngroups; g++) { /* equation 2: OF(p, g) = sum of exact p ! q, q in g */
			uint64_t sum = 0, of = L->of_[(size_t)p * L->ngroups + g];
			for (uint32_t q = 0; q < nq; q++)
				if (L->group[q] == g)
					sum += L->exact[(size_t)p * nq + q];
			t->of_mismatch += of < sum;
			unfinished |= of > sum;
		}
	if (unfinished) {
		t->unfinished++;
		return;
	}
	t->unsound += L->exact_outside ? 1 : 0;
	for (uint32_t p = 0; p < np; p++)
		for (uint32_t q = 0; q < nq; q++) {
			size_t i = (size_t)p * nq + q;
			uint64_t x = L->exact[i];
			t->unsound += L->b.lower[i] > x || x > L->b.upper[i];
			if (L->of->theta >= L->max_degree)
				t->not_exact += L->b.lower[i] != x || L->b.upper[i] != x;
			t->exact_pairs += x && L->b.lower[i] == x && L->b.upper[i] == x;
		}
}

static json_t *loop_json(const struct ov_loop *L, bool with_exact)
{
	const struct kp_func *kf = L->of->kf;
	json_t *pairs = json_array();
	for (uint32_t p = 0; p < L->in.np; p++)
		for (uint32_t q = 0; q < L->in.nq; q++) {
			size_t i = (size_t)p * L->in.nq + q;
			if (!L->b.upper[i] && !(with_exact && L->exact[i]))
				continue;
			json_t *o = json_pack("{s:o, s:o, s:I, s:I}", "first", lines_json(kf, &L->ps, p), "second",
			                      lines_json(kf, &L->qs, q), "lower", (json_int_t)L->b.lower[i], "upper",
			                      (json_int_t)L->b.upper[i]);
			if (with_exact)
				json_object_set_new(o, "exact", json_integer((json_int_t)L->exact[i]));
			json_array_append_new(pairs, o);
		}
	return json_pack("{s:i, s:i, s:i, s:I, s:I, s:I, s:o}", "line", (json_int_t)kf->cfg.line[L->head], "head",
	                 (json_int_t)L->head, "max_degree", (json_int_t)L->max_degree, "flow", (json_int_t)L->flow,
	                 "definite", (json_int_t)L->b.definite, "potential", (json_int_t)L->b.potential, "pairs", pairs);
}

static void loop_text(FILE *out, const struct ov_loop *L, bool with_exact)
{
	const struct kp_func *kf = L->of->kf;
	fprintf(out, "  loop line %u (maximum overlap %u): flow %" PRIu64 ", definite %" PRIu64 " (%+.1f%%), potential %" PRIu64
	        " (%+.1f%%)%s\n", kf->cfg.line[L->head], L->max_degree, L->flow, L->b.definite, pct(L->b.definite, L->flow),
	        L->b.potential, pct(L->b.potential, L->flow), L->of->theta >= L->max_degree ? ", exact" : "");
	for (uint32_t p = 0; p < L->in.np; p++)
		for (uint32_t q = 0; q < L->in.nq; q++) {
			size_t i = (size_t)p * L->in.nq + q;
			if (!L->b.upper[i] && !(with_exact && L->exact[i]))
				continue;
			fprintf(out, "    [");
			put_lines(out, kf, &L->ps, p);
			fprintf(out, " ! ");
			put_lines(out, kf, &L->qs, q);
			fprintf(out, "]  %" PRIu64 "..%" PRIu64, L->b.lower[i], L->b.upper[i]);
			if (with_exact)
				fprintf(out, "  exact %" PRIu64 "%s", L->exact[i],
				        L->b.lower[i] <= L->exact[i] && L->exact[i] <= L->b.upper[i] ? "" : "  UNSOUND");
			fprintf(out, "\n");
		}
}

static int read_profile(const char *path, struct kp_profile *p)
{
	char err[1024];
	kp_profile_init(p, 1);
	if (kp_profile_read(path, p, err, sizeof err) != 0) {
		fprintf(stderr, "kpath overlap: %s\n", err);
		return 1;
	}
	return 0;
}

/* One function: every loop estimated (and checked against ex when given;
 * in check mode without ex, the function never ran in the exact run: no
 * loop is checked), every call site estimated (and checked against E when
 * given; in check mode without E, not shown). */
static int do_func(struct ov_run *R, const struct kp_func *kf, const struct kp_func *ex)
{
	bool json = R->json;
	struct totals *t = &R->t;
	json_t *jcalls = json_array();
	struct ov_func of;
	const char *why = ov_func_init(&of, kf);
	size_t i;
	json_t *lp, *jloops = json_array();
	int rc = 0;
	if (!why && !json)
		printf("%s (%s:%u), degree %u\n", kf->name, kf->file, kf->line, of.theta);
	json_array_foreach(why || (R->check && !ex) ? NULL : json_object_get(kf->overlap, "overlap_loops"), i, lp) {
		struct ov_loop L;
		why = ov_loop_init(&L, &of, (uint32_t)json_integer_value(json_object_get(lp, "head")),
		                   (uint64_t)json_integer_value(json_object_get(lp, "ids")));
		if (!why && ex)
			why = ov_loop_exact(&L, ex);
		if (!why) {
			t->flow += L.flow;
			t->definite += L.b.definite;
			t->potential += L.b.potential;
			t->pairs += (uint64_t)L.in.np * L.in.nq;
			if (ex)
				check_loop(&L, t);
			if (json)
				json_array_append_new(jloops, loop_json(&L, ex != NULL));
			else
				loop_text(stdout, &L, ex != NULL);
		}
		ov_loop_release(&L);
		if (why)
			break;
	}
	if (!why && (!R->check || R->E)) /* the calls' exact counts come from a trace (overlap_trace.c) */
		why = ov_calls_func(R->prof, &of, R->E, json, jcalls, &R->ct);
	if (why) {
		fprintf(stderr, "kpath overlap: %s: function '%s' (%s): %s\n", R->path, kf->name, kf->file, why);
		rc = 1;
	} else if (json) {
		json_array_append_new(R->jfuncs, json_pack("{s:s, s:s, s:i, s:i, s:o, s:o}", "name", kf->name, "file", kf->file,
		                                        "line", (json_int_t)kf->line, "degree", (json_int_t)of.theta,
		                                        "loops", jloops, "calls", jcalls));
		jloops = jcalls = NULL;
	}
	json_decref(jloops);
	json_decref(jcalls);
	ov_func_release(&of);
	return rc;
}

/* 1 when path starts with the trace magic, 0 when not, -1 (message) when unreadable. */
static int is_trace(const char *path)
{
	char head[8] = {0};
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "kpath overlap: %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t n = fread(head, 1, sizeof head, f);
	fclose(f);
	return n == sizeof head && !memcmp(head, "KPTRACE1", sizeof head);
}

/* The exact counts of check mode from its one or two EXACT arguments: a
 * k >= 2 profile into e, a trace's calls into E (*with_trace), and the
 * trace's k-IPF (k = 2) into e when no profile is given. */
static int read_exact(const struct kp_profile *p, const char **args, int n, struct kp_profile *e,
                      struct ov_calls_exact *E, bool *with_trace)
{
	const char *trace = NULL, *prof = NULL;
	for (int i = 0; i < n; i++) {
		int tr = is_trace(args[i]);
		if (tr < 0)
			return 1;
		if (tr ? trace != NULL : prof != NULL) {
			fprintf(stderr, "kpath overlap: %s: a second %s; give at most one k >= 2 profile and one trace\n",
			        args[i], tr ? "trace" : "profile");
			return 2;
		}
		*(tr ? &trace : &prof) = args[i];
	}
	if (prof && read_profile(prof, e))
		return 1;
	if (!prof && kp_kipf_replay(trace, 2, true, "kpath overlap", e)) /* the loops' exact counts */
		return 1;
	if (e->k < 2) {
		fprintf(stderr, "kpath overlap: %s: k is %u: the exact two-iteration counts need a profile with k >= 2 "
		        "(run with KPATH_K=2, or give a trace of the run)\n", prof, e->k);
		return 1;
	}
	if (trace && p->runs > 1) {
		fprintf(stderr, "kpath overlap: %s: the profile holds %" PRIu64 " runs, a trace one: check the profile of "
		        "the traced run alone\n", trace, p->runs);
		return 1;
	}
	if (trace) {
		char err[1024];
		if (ov_calls_exact_read(E, p, trace, err, sizeof err)) {
			fprintf(stderr, "kpath overlap: %s\n", err);
			return 1;
		}
		*with_trace = true;
	}
	return 0;
}

static const char usage[] = "usage: kpath overlap estimate PROFILE [--json]\n"
                            "       kpath overlap check PROFILE EXACT [TRACE] [--json]\n"
                            "PROFILE: a profile of a program instrumented with --mode overlap --degree N;\n"
                            "EXACT: a profile with k >= 2 (KPATH_K=2) of the same run (PROFILE itself when\n"
                            "the overlap binary ran with KPATH_K=2), or a trace of it (KPATH_TRACE=FILE);\n"
                            "TRACE: a trace of the same run, when EXACT is a profile.  Loops are checked\n"
                            "against the two-iteration counts of the profile (of the trace, replayed at\n"
                            "k = 2, when only a trace is given), calls (Type I / II) against the trace.\n"
                            "docs/overlap-mode.md\n";

/* The program's totals (text or JSON), and check's verdict: 1 when a
 * bound is unsound, not exact at a maximum overlap, or a count differs
 * from the exact ones.  Takes R->jfuncs. */
static int finish(struct ov_run *R)
{
	const struct totals *t = &R->t;
	const struct ov_call_totals *ct = &R->ct;
	bool check = R->check, json = R->json, calls = !check || R->E;
	json_t *jfuncs = R->jfuncs;
	R->jfuncs = NULL;
	if (json) {
		json_t *o = json_pack("{s:o, s:I, s:I, s:I}", "functions", jfuncs, "flow", (json_int_t)t->flow, "definite",
		                      (json_int_t)t->definite, "potential", (json_int_t)t->potential);
		if (calls)
			ov_calls_totals(ct, check, true, o);
		if (check)
			json_object_update_new(o, json_pack("{s:f, s:f, s:I, s:I, s:I, s:I}", "definite_imprecision",
			                                    pct(t->definite, t->flow), "potential_imprecision",
			                                    pct(t->potential, t->flow), "unsound", (json_int_t)t->unsound,
			                                    "not_exact_at_max", (json_int_t)t->not_exact, "of_mismatch",
			                                    (json_int_t)t->of_mismatch, "unfinished_loops",
			                                    (json_int_t)t->unfinished));
		json_dumpf(o, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(o);
	} else {
		json_decref(jfuncs);
		printf("program: flow %" PRIu64 ", definite %" PRIu64 " (%+.1f%%), potential %" PRIu64 " (%+.1f%%)\n",
		       t->flow, t->definite, pct(t->definite, t->flow), t->potential, pct(t->potential, t->flow));
		if (calls)
			ov_calls_totals(ct, check, false, NULL);
		if (check)
			printf("check: %" PRIu64 " unsound bounds, %" PRIu64 " not exact at maximum overlap, %" PRIu64
			       " OL counts below the exact counts, %" PRIu64 " loops left in mid-iteration (not "
			       "checked)\n", t->unsound, t->not_exact, t->of_mismatch, t->unfinished);
	}
	if (check && (t->unsound || t->not_exact || t->of_mismatch)) {
		fprintf(stderr, "kpath overlap: check FAILED: %" PRIu64 " unsound, %" PRIu64 " not exact, %" PRIu64
		        " OL count mismatches\n", t->unsound, t->not_exact, t->of_mismatch);
		return 1;
	}
	if (check && (ct->unsound || ct->not_exact || ct->mismatch)) {
		fprintf(stderr, "kpath overlap: check FAILED (calls): %" PRIu64 " unsound, %" PRIu64 " not exact, %" PRIu64
		        " counts differ from the trace's\n", ct->unsound, ct->not_exact, ct->mismatch);
		return 1;
	}
	return 0;
}

int kp_overlap_main(int argc, char **argv)
{
	bool json = false, with_trace = false;
	const char *args[4];
	int nargs = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return 0;
		} else if (nargs < 4)
			args[nargs++] = argv[i];
		else
			nargs = 5;
	}
	bool check = nargs >= 1 && !strcmp(args[0], "check");
	if (nargs < 1 || (strcmp(args[0], "estimate") && !check) || (check ? nargs < 3 || nargs > 4 : nargs != 2)) {
		fputs(usage, stderr);
		return 2;
	}
	struct kp_profile p, e;
	struct ov_calls_exact E = {0};
	kp_profile_init(&e, 1);
	int rc = read_profile(args[1], &p);
	if (!rc && check)
		rc = read_exact(&p, args + 2, nargs - 2, &e, &E, &with_trace);
	struct ov_run R = {.prof = &p, .path = args[1], .check = check, .json = json, .E = with_trace ? &E : NULL,
	                   .jfuncs = json_array()};
	uint32_t nov = 0, nex = 0;
	for (size_t i = 0; i < p.nfuncs && !rc; i++) {
		const struct kp_func *kf = &p.funcs[i], *ex = NULL;
		if (!kf->overlap)
			continue;
		nov++;
		if (check && !(ex = kp_profile_find(&e, kf->name, kf->file, kf->checksum))) {
			if (kp_profile_find(&e, kf->name, kf->file, NULL)) {
				fprintf(stderr, "kpath overlap: %s: function '%s' (%s) has another checksum there (another "
				        "program or numbering)\n", args[2], kf->name, kf->file);
				rc = 1;
				break;
			}
			if (!with_trace)
				continue; /* never ran in the exact run: nothing to compare */
		}
		nex += ex != NULL;
		rc = do_func(&R, kf, ex);
	}
	if (!rc && !nov) {
		fprintf(stderr, "kpath overlap: %s: no function instrumented with --mode overlap\n", args[1]);
		rc = 1;
	} else if (!rc && check && !nex) {
		fprintf(stderr, "kpath overlap: %s: none of the profile's --mode overlap functions is in the exact counts "
		        "(a profile of another program?)\n", args[2]);
		rc = 1;
	}
	if (!rc)
		rc = finish(&R);
	json_decref(R.jfuncs);
	ov_calls_exact_release(&E);
	kp_profile_free(&p);
	kp_profile_free(&e);
	return rc;
}
