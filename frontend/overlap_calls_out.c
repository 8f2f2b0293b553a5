/*
 * overlap_calls_out.c: the call sites of `kpath overlap estimate` (text and
 * --json; docs/overlap-mode.md, "Calls"): per site and type, the bounds
 * of every interesting path that may have run (upper bound > 0) and the
 * definite and potential flow against the flow C (overlap_calls.c).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "overlap_calls_out.h"
#include "overlap_calls_check.h"

static double pct(uint64_t v, uint64_t real)
{
	return real ? 100.0 * ((double)v - (double)real) / (double)real : 0.0;
}

static json_t *seq_json(const struct kp_func *kf, const struct ol_seqtab *t, uint32_t id, bool lines)
{
	uint32_t n;
	const uint32_t *s = ol_seq(t, id, &n);
	json_t *a = json_array();
	for (uint32_t i = 0; i < n; i++)
		if (!lines || kf->cfg.line[s[i]])
			json_array_append_new(a, json_integer(lines ? kf->cfg.line[s[i]] : s[i]));
	return a;
}

static void put_lines(const struct kp_func *kf, const struct ol_seqtab *t, uint32_t id)
{
	uint32_t n;
	const uint32_t *s = ol_seq(t, id, &n);
	const char *sep = "";
	for (uint32_t i = 0; i < n; i++)
		if (kf->cfg.line[s[i]]) {
			printf("%s%u", sep, kf->cfg.line[s[i]]);
			sep = " ";
		}
}

/* The functions the halves of X are blocks of. */
static void sides(const struct ov_call *X, const struct kp_func **pf, const struct kp_func **qf)
{
	*pf = X->type == 1 ? X->caller->kf : X->callee->kf;
	*qf = X->type == 1 ? X->callee->kf : X->caller->kf;
}

static json_t *type_json(const struct ov_call *X, const struct ov_call_check *c)
{
	const struct kp_func *pf, *qf;
	sides(X, &pf, &qf);
	json_t *pairs = json_array();
	for (uint32_t p = 0; p < X->in.np; p++)
		for (uint32_t q = 0; q < X->in.nq; q++) {
			size_t i = (size_t)p * X->in.nq + q;
			if (!X->b.upper[i] && !(c && c->exact[i]))
				continue;
			json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:I, s:I}", "first", seq_json(pf, &X->ps, p, true),
			                      "second", seq_json(qf, &X->qs, q, true), "first_blocks",
			                      seq_json(pf, &X->ps, p, false), "second_blocks", seq_json(qf, &X->qs, q, false),
			                      "lower", (json_int_t)X->b.lower[i], "upper", (json_int_t)X->b.upper[i]);
			if (c)
				json_object_set_new(o, "exact", json_integer((json_int_t)c->exact[i]));
			json_array_append_new(pairs, o);
		}
	json_t *o = json_pack("{s:i, s:I, s:I, s:I, s:I, s:b, s:o}", "max_degree", (json_int_t)X->max_degree, "flow",
	                      (json_int_t)X->in.total, "definite", (json_int_t)X->b.definite, "potential",
	                      (json_int_t)X->b.potential, "unmatched", (json_int_t)X->unmatched, "unfinished",
	                      X->unfinished, "pairs", pairs);
	if (c)
		json_object_update_new(o, json_pack("{s:I, s:f, s:f, s:I, s:I, s:I, s:I}", "exact_flow",
		                                    (json_int_t)c->real, "definite_imprecision",
		                                    pct(X->b.definite, c->real), "potential_imprecision",
		                                    pct(X->b.potential, c->real), "exact_outside", (json_int_t)c->outside,
		                                    "pairs_checked", (json_int_t)c->pairs, "unsound",
		                                    (json_int_t)c->unsound, "not_exact_at_max", (json_int_t)c->not_exact));
	return o;
}

static void type_text(const struct ov_call *X, const struct ov_call_check *c)
{
	const struct kp_func *pf, *qf;
	sides(X, &pf, &qf);
	uint64_t real = c ? c->real : X->in.total;
	printf("    type %s (maximum overlap %u): flow %" PRIu64 ", definite %" PRIu64 " (%+.1f%%), potential %" PRIu64
	       " (%+.1f%%)%s\n", X->type == 1 ? "I" : "II", X->max_degree, real, X->b.definite,
	       pct(X->b.definite, real), X->b.potential, pct(X->b.potential, real),
	       X->unfinished ? ", left in mid-path by the run (not bounds)" : X->caller->theta >= X->max_degree ? ", exact" : "");
	if (c && c->real != X->in.total)
		printf("      the profile's flow is %" PRIu64 ", the trace's %" PRIu64 "  MISMATCH\n", X->in.total, c->real);
	if (c && c->outside)
		printf("      %" PRIu64 " of the trace's flow on pairs the estimate has no halves for  UNSOUND\n", c->outside);
	for (uint32_t p = 0; p < X->in.np; p++)
		for (uint32_t q = 0; q < X->in.nq; q++) {
			size_t i = (size_t)p * X->in.nq + q;
			if (!X->b.upper[i] && !(c && c->exact[i]))
				continue;
			printf("      [");
			put_lines(pf, &X->ps, p);
			printf(" ! ");
			put_lines(qf, &X->qs, q);
			printf("]  %" PRIu64 "..%" PRIu64, X->b.lower[i], X->b.upper[i]);
			if (c)
				printf("  exact %" PRIu64 "%s", c->exact[i],
				       X->b.lower[i] <= c->exact[i] && c->exact[i] <= X->b.upper[i] ? "" : "  UNSOUND");
			printf("\n");
		}
}

/* The callee's entry of the profile (in overlap mode; in the caller's
 * file, or across files in the site's callee_file), or NULL. */
static const struct kp_func *find_callee(const struct kp_profile *p, const struct kp_func *caller, const json_t *site)
{
	const char *name = json_string_value(json_object_get(site, "callee")),
	           *file = ov_site_callee_file(site, caller->file);
	for (size_t i = 0; file && i < p->nfuncs; i++)
		if (p->funcs[i].overlap && !strcmp(p->funcs[i].name, name) && !strcmp(p->funcs[i].file, file))
			return &p->funcs[i];
	return NULL;
}

/* The site's verdict against the trace (check mode): both types' checks
 * in c, the totals in t.  "sound", "unsound", "not exact at maximum
 * overlap", "mismatch" (C or a flow differs from the trace's), or the
 * reason it is not checked (then c is left empty). */
static const char *verdict(const struct ov_call X[2], const struct ov_xsite *xs, struct ov_call_check c[2],
                           struct ov_call_totals *t)
{
	if (xs && xs->ambiguous) {
		t->ambiguous++;
		return "ambiguous";
	}
	if (X[0].unfinished || X[1].unfinished) {
		t->unfinished++;
		return "unfinished";
	}
	uint64_t unsound = 0, not_exact = 0, mismatch = (xs ? xs->calls : 0) != X[0].calls;
	for (int k = 0; k < 2; k++) {
		ov_call_check(&X[k], xs, &c[k]);
		mismatch += c[k].real != X[k].in.total;
		unsound += c[k].unsound;
		not_exact += c[k].not_exact;
		t->checked++;
		t->pairs += c[k].pairs;
		t->exact_pairs += c[k].exact_pairs;
		t->flow[k] += c[k].real;
		t->definite[k] += X[k].b.definite;
		t->potential[k] += X[k].b.potential;
	}
	t->unsound += unsound;
	t->not_exact += not_exact;
	t->mismatch += mismatch;
	return unsound ? "unsound" : mismatch ? "mismatch" : not_exact ? "not exact at maximum overlap" : "sound";
}

static void site_head(const json_t *site, const char *name, bool in_overlap, const struct ov_xsite *xs,
                      const char *v, bool check)
{
	const char *cf = json_string_value(json_object_get(site, "callee_file"));
	printf("  call line %" JSON_INTEGER_FORMAT " to %s%s%s%s: %" JSON_INTEGER_FORMAT " calls%s",
	       json_integer_value(json_object_get(site, "line")), name, cf ? " (" : "", cf ? cf : "", cf ? ")" : "",
	       json_integer_value(json_object_get(site, "calls")), in_overlap ? "" : " (callee not in overlap mode)");
	if (check && v && !strcmp(v, "ambiguous"))
		printf(", %" PRIu64 " in the trace on paths whose calls do not match the sites one to one: not checked",
		       xs->ambiguous);
	else if (check && v && !strcmp(v, "unfinished"))
		printf(": left in mid-path by the run, not checked");
	else if (check && v)
		printf(", %" PRIu64 " in the trace: %s", xs ? xs->calls : 0, v);
	printf("\n");
}

static const char *one_site(const struct kp_profile *p, const struct ov_func *of, const json_t *site,
                            const struct ov_calls_exact *E, bool json, json_t *jcalls, struct ov_call_totals *t)
{
	const char *name = json_string_value(json_object_get(site, "callee"));
	const struct kp_func *kg = find_callee(p, of->kf, site);
	const struct ov_xsite *xs = E && kg ? ov_calls_exact_find(E, of->kf, (uint32_t)json_integer_value(
	                                                                           json_object_get(site, "block")))
	                                    : NULL;
	struct ov_func og;
	struct ov_call X[2];
	struct ov_call_check c[2];
	memset(X, 0, sizeof X);
	memset(c, 0, sizeof c);
	const char *why = kg ? ov_func_init(&og, kg) : NULL, *v = NULL;
	for (int type = 1; type <= 2 && !why && kg; type++)
		why = ov_call_init(&X[type - 1], of, &og, site, type);
	if (!why && kg && E)
		v = verdict(X, xs, c, t);
	else if (!why && kg)
		for (int k = 0; k < 2; k++) {
			t->unfinished += X[k].unfinished;
			if (!X[k].unfinished) { /* else not summed: its "bounds" bound nothing */
				t->flow[k] += X[k].in.total;
				t->definite[k] += X[k].b.definite;
				t->potential[k] += X[k].b.potential;
			}
		}
	bool checked = c[0].exact != NULL;
	if (!why && json) {
		json_t *js = json_pack("{s:I, s:I, s:s, s:I}", "line", json_integer_value(json_object_get(site, "line")),
		                       "block", json_integer_value(json_object_get(site, "block")), "callee", name, "calls",
		                       json_integer_value(json_object_get(site, "calls")));
		if (json_is_true(json_object_get(site, "across")))
			json_object_set_new(js, "across", json_true());
		if (json_object_get(site, "callee_file"))
			json_object_set(js, "callee_file", json_object_get(site, "callee_file"));
		for (int k = 0; k < 2 && kg; k++)
			json_object_set_new(js, k ? "type2" : "type1", type_json(&X[k], checked ? &c[k] : NULL));
		if (v)
			json_object_update_new(js, json_pack("{s:s, s:I, s:I}", "verdict", v, "trace_calls",
			                                     (json_int_t)(xs ? xs->calls : 0), "trace_ambiguous",
			                                     (json_int_t)(xs ? xs->ambiguous : 0)));
		json_array_append_new(jcalls, js);
	} else if (!why) {
		site_head(site, name, kg != NULL, xs, v, E != NULL);
		for (int k = 0; k < 2 && kg; k++)
			type_text(&X[k], checked ? &c[k] : NULL);
	}
	for (int k = 0; k < 2; k++) {
		ov_call_check_release(&c[k]);
		ov_call_release(&X[k]);
	}
	if (kg)
		ov_func_release(&og);
	return why;
}

const char *ov_calls_func(const struct kp_profile *p, const struct ov_func *of, const struct ov_calls_exact *E,
                          bool json, json_t *jcalls, struct ov_call_totals *t)
{
	size_t i;
	json_t *site;
	json_array_foreach(json_object_get(of->kf->overlap, "overlap_calls"), i, site) {
		const char *why = one_site(p, of, site, E, json, jcalls, t);
		if (why)
			return why;
	}
	return NULL;
}

void ov_calls_totals(const struct ov_call_totals *t, bool check, bool json, json_t *out)
{
	for (int k = 0; k < 2; k++) {
		if (json)
			json_object_set_new(out, k ? "calls_type2" : "calls_type1",
			                    json_pack("{s:I, s:I, s:I, s:f, s:f}", "flow", (json_int_t)t->flow[k], "definite",
			                              (json_int_t)t->definite[k], "potential", (json_int_t)t->potential[k],
			                              "definite_imprecision", pct(t->definite[k], t->flow[k]),
			                              "potential_imprecision", pct(t->potential[k], t->flow[k])));
		else
			printf("program, calls type %s: flow %" PRIu64 ", definite %" PRIu64 " (%+.1f%%), potential %" PRIu64
			       " (%+.1f%%)\n", k ? "II" : "I", t->flow[k], t->definite[k], pct(t->definite[k], t->flow[k]),
			       t->potential[k], pct(t->potential[k], t->flow[k]));
	}
	if (json && check)
		json_object_set_new(out, "calls_check",
		                    json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "site_types", (json_int_t)t->checked,
		                              "pairs", (json_int_t)t->pairs, "exact_pairs", (json_int_t)t->exact_pairs,
		                              "unsound", (json_int_t)t->unsound, "not_exact_at_max", (json_int_t)t->not_exact,
		                              "mismatch", (json_int_t)t->mismatch, "ambiguous_sites",
		                              (json_int_t)t->ambiguous, "unfinished_sites", (json_int_t)t->unfinished));
	else if (json)
		json_object_set_new(out, "calls_unfinished", json_integer(t->unfinished));
	else if (check)
		printf("check, calls: %" PRIu64 " site types and %" PRIu64 " pairs checked against the trace: %" PRIu64
		       " unsound, %" PRIu64 " not exact at maximum overlap, %" PRIu64 " counts differ from the trace's; %"
		       PRIu64 " ambiguous sites, %" PRIu64 " left in mid-path (not checked)\n", t->checked, t->pairs,
		       t->unsound, t->not_exact, t->mismatch, t->ambiguous, t->unfinished);
	else if (t->unfinished)
		printf("program, calls: %" PRIu64 " site types left in mid-path by the run, not summed\n", t->unfinished);
}
