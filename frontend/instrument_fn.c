/*
 * instrument_fn.c: one function definition through the pipeline (walk.h):
 *   build_function   AST -> CFG + insertion sites
 *   stages_run       back edges, DAG and numbering (+ cuts), placement
 *                    (cfgbuild/stages.h; kpath cfg --stage dumps each)
 *   then what the walk wants: a dump (kpath cfg), the paths (kpath paths),
 *   or the mode's rewrite (modes.h).
 * A function that cannot be instrumented faithfully is left untouched and
 * reported with its reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "headers.h"
#include "walk.h"
#include "xalloc.h"

void kp_plan_cache_free(struct plan_cache *c)
{
	for (uint32_t i = 0; i < c->n; i++)
		if (c->v[i]) {
			build_plan_free(c->v[i]);
			free(c->v[i]);
		}
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* Survey (kpath cfg, kpath paths; the rest of a first walk that will be
 * done again): records fn in into if it fails only because of macros.
 * With keep, a plan built is kept for the second walk (struct plan_cache)
 * as the main file's definition number visit. */
static void survey_function(struct walk *w, CXCursor fn, struct macro_fns *into, struct plan_cache *keep,
                            uint32_t visit)
{
	struct fn_plan plan;
	memset(&plan, 0, sizeof plan);
	plan.expr_branches = w->expr_branches;
	w->built++;
	if (!build_function(w->src, fn, &plan)) {
		if (plan.macro && plan.name)
			kp_macro_record(into, fn, &plan);
	} else if (keep) {
		if (visit >= keep->n) {
			uint32_t n = keep->n;
			KP_RESERVE(keep->v, keep->cap, visit + 1);
			memset(keep->v + n, 0, (visit + 1 - n) * sizeof *keep->v);
			keep->n = visit + 1;
		}
		keep->v[visit] = xcalloc(1, sizeof plan);
		*keep->v[visit] = plan; /* moved: its arrays are the kept plan's now */
		return;
	}
	build_plan_free(&plan);
}

/* The stages after the CFG (cfgbuild/stages.h), and what the walk wants
 * of them.  Returns the reason when the function cannot be instrumented. */
static const char *run_stages(struct walk *w, const struct fn_plan *plan, struct fn_stages *st, char *err,
                              size_t errlen)
{
	const struct num_ops *num = num_ops_of(NUM_BALL_LARUS);
	enum stage last = w->numbered || (w->dump && !(w->staged && w->stage == STAGE_PLACEMENT)) ? STAGE_NUMBERING
	                                                                                          : STAGE_PLACEMENT;
	struct rw_place_input pi; /* the placement keeps pointers into it */
	rw_place_input(plan, &pi);
	if (!stages_run(plan->g, num, &pi.in, last, st, err, errlen)) {
		rw_place_input_free(&pi);
		return err;
	}
	const char *why = NULL;
	if (w->numbered) {
		w->numbered(w->numbered_ctx, plan, st->dag);
	} else if (w->dump) {
		fprintf(w->dump, "function %s line %u checksum %016llx\n", plan->name, plan->line,
		        (unsigned long long)num->checksum(plan->g, st->dag));
		if (w->staged)
			stage_dump(w->dump, w->stage, plan->g, st);
		else
			num->dump(w->dump, plan->g, st->dag);
	} else {
		struct kp_mode_fn f = {w->rw, plan, st->dag, st->place, w->src->path, w->src == w->main_src,
		                       w->msg ? w->msg : stderr, w->quiet};
		why = w->mode->mode->function(w->mode->state, &f, err, errlen);
	}
	rw_place_input_free(&pi);
	return why;
}

/* Prints why the function was not instrumented, or its cut note. */
static void report_function(struct walk *w, const struct fn_plan *plan, const struct fn_stages *st,
                            const char *why, unsigned line)
{
	FILE *msg = w->msg ? w->msg : stderr;
	if (why) {
		/* the function's own line; the line the reason is about after it */
		char at[32] = "";
		if (line && plan->line && line != plan->line)
			snprintf(at, sizeof at, " (line %u)", line);
		fprintf(msg, "%s:%u: warning: function '%s' not instrumented: %s%s\n", w->src->path,
		        plan->line ? plan->line : line, plan->name, why, at);
		w->counts.skipped++;
		return;
	}
	w->counts.instrumented++;
	/* a dump or a listing numbers the CFG with cuts; of the modes, those
	 * whose numbering cuts (kiter numbers the CFG itself) */
	bool cuts = !w->mode || w->dump || w->numbered || w->mode->mode->cuts;
	if (cuts && st->dag->ncut) {
		w->counts.cut++;
		if (!w->quiet)
			fprintf(msg, "%s:%u: note: function '%s': %u edges cut to keep path IDs within 64 bits\n",
			        w->src->path, plan->line, plan->name, st->dag->ncut);
	}
}

static void instrument_function(struct walk *w, CXCursor fn, struct fn_plan *kept)
{
	struct fn_plan plan;
	char err[256];
	memset(&plan, 0, sizeof plan);
	plan.expr_branches = w->expr_branches;
	const char *why = NULL;
	unsigned line = 0;
	struct fn_stages st = {0};
	char macro_why[600];
	bool built = true;
	if (kept) { /* the first walk built it from this unit (struct plan_cache) */
		plan = *kept;
		memset(kept, 0, sizeof *kept);
	} else {
		w->built++;
		built = build_function(w->src, fn, &plan) != NULL;
	}
	if (!built) {
		if (w->collect && plan.macro && plan.name)
			kp_macro_record(w->collect, fn, &plan);
		why = plan.reason;
		line = plan.reason_line;
		const struct macro_fn *mf = plan.macro && plan.name ? kp_macro_find(w->expanded, plan.name) : NULL;
		if (mf && mf->reason) {
			snprintf(macro_why, sizeof macro_why, "%s; it cannot be written out: %s", plan.reason, mf->reason);
			why = macro_why;
			if (mf->reason_line) /* the invocation that cannot be written out, not the first one */
				line = mf->reason_line;
		} else if (plan.macro && w->in_header) {
			snprintf(macro_why, sizeof macro_why, "%s; macros are written out only in the file instrumented, "
			         "not in the headers it includes", plan.reason);
			why = macro_why;
		}
	} else {
		why = run_stages(w, &plan, &st, err, sizeof err);
	}
	report_function(w, &plan, &st, why, line);
	stages_free(&st);
	build_plan_free(&plan);
}

/* A function definition at offset off of a header's file. */
struct hdr_fn_at {
	CXFile file;
	unsigned off;
	unsigned n; /* definitions there */
};

/* The header (--include-dir) defining function definition c, or NULL;
 * *off is where its text ends (NULL too when that is a macro's text: a
 * function that a macro defines is the walk's to judge). */
static struct hdr *fn_header(struct walk *w, CXCursor c, unsigned *off)
{
	if (!w->hdrs || !w->hdrs->n || clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return NULL;
	CXFile f;
	clang_getExpansionLocation(clang_getRangeEnd(clang_getCursorExtent(c)), &f, NULL, NULL, off);
	struct hdr *h = f && !clang_File_isEqual(f, w->src->file) ? hdr_find(w->hdrs, f) : NULL;
	/* the body's closing brace, in the file's own text */
	return h && h->src.text && *off > 0 && *off <= h->src.len && h->src.text[*off - 1] == '}' ? h : NULL;
}

static struct hdr_fn_at *hdr_fn_find(struct walk *w, CXFile f, unsigned off)
{
	for (uint32_t i = 0; i < w->nhdr_at; i++)
		if (w->hdr_at[i].off == off && clang_File_isEqual(w->hdr_at[i].file, f))
			return &w->hdr_at[i];
	return NULL;
}

static enum CXChildVisitResult count_header_fn(CXCursor c, CXCursor parent, CXClientData d)
{
	struct walk *w = d;
	unsigned off;
	struct hdr *h = fn_header(w, c, &off);
	(void)parent;
	if (!h)
		return CXChildVisit_Continue;
	struct hdr_fn_at *a = hdr_fn_find(w, h->file, off);
	if (!a) {
		KP_RESERVE(w->hdr_at, w->cap_hdr_at, w->nhdr_at + 1);
		a = &w->hdr_at[w->nhdr_at++];
		*a = (struct hdr_fn_at){h->file, off, 0};
	}
	a->n++;
	return CXChildVisit_Continue;
}

/* Whether header function c is one of several definitions a header makes
 * at the same place: a header included more than once, each time with
 * other macros, as a template (brotli's hash_longest_match_quickly_inc.h
 * defines FN(FindLongestMatch) for each HASHER(); keccak's
 * KeccakSponge.inc, JOIN(prefix, _Sponge) for two prefixes).  Its one
 * copy cannot hold the code of each: instrumenting every one put their
 * declarations side by side ("redefinition of 'kp_r'"), and the whole
 * file compiled unprofiled.  Such functions are skipped, with a reason. */
static bool repeated_in_header(struct walk *w, CXCursor c, struct hdr *h)
{
	unsigned off, line;
	if (fn_header(w, c, &off) != h)
		return false;
	const struct hdr_fn_at *a = hdr_fn_find(w, h->file, off);
	if (!a || a->n < 2)
		return false;
	clang_getExpansionLocation(clang_getCursorLocation(c), NULL, &line, NULL, NULL);
	CXString n = clang_getCursorSpelling(c);
	fprintf(w->msg ? w->msg : stderr,
	        "%s:%u: warning: function '%s' not instrumented: its header defines %u functions here (included "
	        "more than once, with other macros each time)\n",
	        h->src.path, line, clang_getCString(n), a->n);
	clang_disposeString(n);
	w->counts.skipped++;
	return true;
}

static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData d)
{
	struct walk *w = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	CXFile f;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	struct hdr *h = NULL;
	if (!f || (!clang_File_isEqual(f, w->src->file) && (w->macro || !(h = hdr_find(w->hdrs, f)))))
		return CXChildVisit_Continue;
	if (w->only) {
		CXString n = clang_getCursorSpelling(c);
		bool match = !strcmp(clang_getCString(n), w->only);
		clang_disposeString(n);
		if (!match)
			return CXChildVisit_Continue;
	}
	uint32_t visit = h ? 0 : w->visit++;
	if (w->macro) {
		survey_function(w, c, w->macro, NULL, 0);
	} else if (w->collect && w->collect->n) {
		/* a function to write out is found: this walk is done again on
		 * the edited text (pipeline.c), so the rest of it only looks for
		 * more: building the CFG (kept for the second walk), not its
		 * stages and rewrite */
		if (!h)
			survey_function(w, c, w->collect, w->plans, visit);
	} else if (h && repeated_in_header(w, c, h)) {
		/* skipped */
	} else if (h) { /* a header's function: its own text and edits */
		struct src_file *src = w->src;
		struct rw_file *rw = w->rw;
		w->src = &h->src;
		w->rw = &h->rw;
		struct macro_fns *collect = w->collect;
		w->collect = NULL; /* only the main file's invocations are written out */
		w->in_header = true;
		instrument_function(w, c, NULL);
		w->in_header = false;
		w->collect = collect;
		w->src = src;
		w->rw = rw;
	} else if (w->reparse && reparse_find(w->reparse, c, &c)) { /* written out: the second unit's */
		struct src_file *src = w->src;
		const struct src_file *main_src = w->main_src;
		w->src = &w->reparse->src;
		w->main_src = &w->reparse->src;
		uint32_t n0 = w->rw->nedits;
		instrument_function(w, c, NULL);
		reparse_own(w->reparse, n0, w->rw->nedits);
		w->src = src;
		w->main_src = main_src;
	} else {
		struct plan_cache *pc = w->collect ? NULL : w->plans; /* the second walk takes */
		instrument_function(w, c, pc && visit < pc->n ? pc->v[visit] : NULL);
	}
	return CXChildVisit_Continue;
}

void kp_walk(struct walk *w, CXTranslationUnit tu)
{
	if (w->hdrs && w->hdrs->n && !w->macro)
		clang_visitChildren(clang_getTranslationUnitCursor(tu), count_header_fn, w);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, w);
	free(w->hdr_at);
	w->hdr_at = NULL;
	w->nhdr_at = w->cap_hdr_at = 0;
}
