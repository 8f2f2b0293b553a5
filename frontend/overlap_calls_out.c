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

static json_t *type_json(const struct ov_call *X)
{
	const struct kp_func *pf, *qf;
	sides(X, &pf, &qf);
	json_t *pairs = json_array();
	for (uint32_t p = 0; p < X->in.np; p++)
		for (uint32_t q = 0; q < X->in.nq; q++) {
			size_t i = (size_t)p * X->in.nq + q;
			if (!X->b.upper[i])
				continue;
			json_array_append_new(pairs, json_pack("{s:o, s:o, s:o, s:o, s:I, s:I}", "first",
			                                       seq_json(pf, &X->ps, p, true), "second",
			                                       seq_json(qf, &X->qs, q, true), "first_blocks",
			                                       seq_json(pf, &X->ps, p, false), "second_blocks",
			                                       seq_json(qf, &X->qs, q, false), "lower",
			                                       (json_int_t)X->b.lower[i], "upper", (json_int_t)X->b.upper[i]));
		}
	return json_pack("{s:i, s:I, s:I, s:I, s:I, s:b, s:o}", "max_degree", (json_int_t)X->max_degree, "flow",
	                 (json_int_t)X->in.total, "definite", (json_int_t)X->b.definite, "potential",
	                 (json_int_t)X->b.potential, "unmatched", (json_int_t)X->unmatched, "unfinished", X->unfinished,
	                 "pairs", pairs);
}

static void type_text(const struct ov_call *X)
{
	const struct kp_func *pf, *qf;
	sides(X, &pf, &qf);
	printf("    type %s (maximum overlap %u): flow %" PRIu64 ", definite %" PRIu64 " (%+.1f%%), potential %" PRIu64
	       " (%+.1f%%)%s\n", X->type == 1 ? "I" : "II", X->max_degree, X->in.total, X->b.definite,
	       pct(X->b.definite, X->in.total), X->b.potential, pct(X->b.potential, X->in.total),
	       X->unfinished ? ", left in mid-path by the run (not bounds)" : X->caller->theta >= X->max_degree ? ", exact" : "");
	for (uint32_t p = 0; p < X->in.np; p++)
		for (uint32_t q = 0; q < X->in.nq; q++) {
			size_t i = (size_t)p * X->in.nq + q;
			if (!X->b.upper[i])
				continue;
			printf("      [");
			put_lines(pf, &X->ps, p);
			printf(" ! ");
			put_lines(qf, &X->qs, q);
			printf("]  %" PRIu64 "..%" PRIu64 "\n", X->b.lower[i], X->b.upper[i]);
		}
}

/* The callee's entry of the profile (same file, in overlap mode), or NULL. */
static const struct kp_func *find_callee(const struct kp_profile *p, const struct kp_func *caller, const char *name)
{
	for (size_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].overlap && !strcmp(p->funcs[i].name, name) && !strcmp(p->funcs[i].file, caller->file))
			return &p->funcs[i];
	return NULL;
}

static const char *one_site(const struct kp_profile *p, const struct ov_func *of, const json_t *site, bool json,
                            json_t *jcalls, struct ov_call_totals *t)
{
	const char *name = json_string_value(json_object_get(site, "callee"));
	const struct kp_func *kg = find_callee(p, of->kf, name);
	struct ov_func og;
	const char *why = kg ? ov_func_init(&og, kg) : NULL;
	json_t *js = json ? json_pack("{s:I, s:I, s:s, s:I}", "line", json_integer_value(json_object_get(site, "line")),
	                              "block", json_integer_value(json_object_get(site, "block")), "callee", name,
	                              "calls", json_integer_value(json_object_get(site, "calls")))
	                  : NULL;
	if (!json)
		printf("  call line %" JSON_INTEGER_FORMAT " to %s: %" JSON_INTEGER_FORMAT " calls%s\n",
		       json_integer_value(json_object_get(site, "line")), name,
		       json_integer_value(json_object_get(site, "calls")), kg ? "" : " (callee not in overlap mode)");
	for (int type = 1; type <= 2 && !why && kg; type++) {
		struct ov_call X;
		why = ov_call_init(&X, of, &og, site, type);
		if (!why) {
			t->unfinished += X.unfinished;
			if (X.unfinished) /* not summed: its "bounds" bound nothing */
				t->flow[type - 1] -= X.in.total, t->definite[type - 1] -= X.b.definite,
				    t->potential[type - 1] -= X.b.potential;
			t->flow[type - 1] += X.in.total;
			t->definite[type - 1] += X.b.definite;
			t->potential[type - 1] += X.b.potential;
			if (json)
				json_object_set_new(js, type == 1 ? "type1" : "type2", type_json(&X));
			else
				type_text(&X);
		}
		ov_call_release(&X);
	}
	if (kg)
		ov_func_release(&og);
	if (json && !why)
		json_array_append(jcalls, js);
	json_decref(js);
	return why;
}

const char *ov_calls_func(const struct kp_profile *p, const struct ov_func *of, bool json, json_t *jcalls,
                          struct ov_call_totals *t)
{
	size_t i;
	json_t *site;
	json_array_foreach(json_object_get(of->kf->overlap, "overlap_calls"), i, site) {
		const char *why = one_site(p, of, site, json, jcalls, t);
		if (why)
			return why;
	}
	return NULL;
}

void ov_calls_totals(const struct ov_call_totals *t, bool json, json_t *out)
{
	for (int k = 0; k < 2; k++) {
		if (json)
			json_object_set_new(out, k ? "calls_type2" : "calls_type1",
			                    json_pack("{s:I, s:I, s:I}", "flow", (json_int_t)t->flow[k], "definite",
			                              (json_int_t)t->definite[k], "potential", (json_int_t)t->potential[k]));
		else
			printf("program, calls type %s: flow %" PRIu64 ", definite %" PRIu64 " (%+.1f%%), potential %" PRIu64
			       " (%+.1f%%)\n", k ? "II" : "I", t->flow[k], t->definite[k], pct(t->definite[k], t->flow[k]),
			       t->potential[k], pct(t->potential[k], t->flow[k]));
	if (t->unfinished && !json)
		printf("program, calls: %u site types left in mid-path by the run, not summed\n", t->unfinished);
	else if (json)
		json_object_set_new(out, "calls_unfinished", json_integer(t->unfinished));
	}
}
