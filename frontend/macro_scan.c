/*
 * macro_scan.c: the macro invocations of functions whose control flow a
 * macro spells (walk.h): found in the preprocessing record, grouped when
 * one invocation spans several functions, written out by expand.c and the
 * result parsed again as the main file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expand.h"
#include "array.h"
#include "pp_text.h"
#include "quiet.h"
#include "reparse.h"
#include "walk.h"

const struct macro_fn *kp_macro_find(const struct macro_fns *m, const char *name)
{
	for (uint32_t i = 0; m && i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

/* Remembers fn, which fails only because a macro spells some of its
 * control flow. */
void kp_macro_record(struct macro_fns *m, CXCursor fn, const struct fn_plan *plan)
{
	KP_RESERVE(m->v, m->cap, m->n + 1);
	CXSourceRange r = clang_getCursorExtent(fn);
	unsigned a, b;
	clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &a);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &b);
	m->v[m->n] = (struct macro_fn){.name = strdup(plan->name), .start = a, .end = b > a ? b : a + 1, .group = m->n};
	m->n++;
}

void kp_macro_fns_free(struct macro_fns *m)
{
	for (uint32_t i = 0; i < m->n; i++) {
		free(m->v[i].name);
		free(m->v[i].reason);
	}
	free(m->v);
}

static uint32_t group_of(struct macro_fns *m, uint32_t i)
{
	while (m->v[i].group != i)
		i = m->v[i].group;
	return i;
}

struct region_scan {
	const struct src_file *src;
	struct macro_fns *fns;
	struct xp_region *v;
	uint32_t n, cap;
};

/* True when offset off is on a preprocessing directive's (logical) line. */
static bool on_directive_line(const struct src_file *src, uint32_t off)
{
	size_t s = off;
	for (;;) {
		while (s > 0 && src->text[s - 1] != '\n')
			s--;
		if (s >= 2 && src->text[s - 2] == '\\') { /* continued from the line above */
			s -= 2;
			continue;
		}
		break;
	}
	while (s < src->len && (src->text[s] == ' ' || src->text[s] == '\t'))
		s++;
	return s < src->len && src->text[s] == '#';
}

/* The offset after the ")" closing the "(" at off (comments and literals
 * skipped), or 0 if there is none. */
static uint32_t match_paren(const struct src_file *src, uint32_t off)
{
	int depth = 0;
	for (size_t i = off; i < src->len; i++) {
		char ch = src->text[i];
		if (ch == '/' && i + 1 < src->len && src->text[i + 1] == '*') {
			const char *e = strstr(src->text + i + 2, "*/");
			if (!e)
				return 0;
			i = (size_t)(e - src->text) + 1;
		} else if (ch == '/' && i + 1 < src->len && src->text[i + 1] == '/') {
			while (i < src->len && src->text[i] != '\n')
				i++;
		} else if (ch == '"' || ch == '\'') {
			for (i++; i < src->len && src->text[i] != ch && src->text[i] != '\n'; i++)
				if (src->text[i] == '\\')
					i++;
		} else if (ch == '(') {
			depth++;
		} else if (ch == ')' && --depth == 0) {
			return (uint32_t)i + 1;
		} else if (ch == '#' && (i == 0 || src->text[i - 1] == '\n')) {
			return 0; /* a directive inside: leave it */
		}
	}
	return 0;
}

/* An object-like macro whose expansion may be a function-like macro's name
 * ("#define PICK TRY", then "PICK(x)"): the invocation goes on to the ")"
 * after it.  Writing out a longer region is still checked token for token. */
static uint32_t invocation_end(const struct src_file *src, uint32_t a, uint32_t b)
{
	if (memchr(src->text + a, '(', b - a))
		return b;
	uint32_t i = b;
	while (i < src->len && (src->text[i] == ' ' || src->text[i] == '\t' || src->text[i] == '\n'))
		i++;
	if (i >= src->len || src->text[i] != '(')
		return b;
	uint32_t e = match_paren(src, i);
	return e ? e : b;
}

static enum CXChildVisitResult scan_expansion(CXCursor c, CXCursor parent, CXClientData d)
{
	struct region_scan *rs = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
		return CXChildVisit_Continue;
	CXSourceRange r = clang_getCursorExtent(c);
	CXFile f1, f2;
	unsigned a, b;
	clang_getSpellingLocation(clang_getRangeStart(r), &f1, NULL, NULL, &a);
	clang_getSpellingLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &b);
	if (!f1 || !f2 || !clang_File_isEqual(f1, rs->src->file) || !clang_File_isEqual(f2, rs->src->file) ||
	    b <= a || b > rs->src->len || on_directive_line(rs->src, a))
		return CXChildVisit_Continue;
	b = invocation_end(rs->src, a, b);
	uint32_t owner = UINT32_MAX;
	for (uint32_t i = 0; i < rs->fns->n; i++) {
		struct macro_fn *fn = &rs->fns->v[i];
		if (a > fn->end || b <= fn->start)
			continue;
		if (owner != UINT32_MAX) { /* one invocation, several functions */
			uint32_t r1 = group_of(rs->fns, owner), r2 = group_of(rs->fns, i);
			if (r1 != r2)
				rs->fns->v[r1 > r2 ? r1 : r2].group = r1 < r2 ? r1 : r2;
			continue;
		}
		owner = i;
		KP_RESERVE(rs->v, rs->cap, rs->n + 1);
		struct xp_region *x = &rs->v[rs->n++];
		x->start = a;
		x->end = b;
		x->fn = i;
		CXString n = clang_getCursorSpelling(c);
		snprintf(x->name, sizeof x->name, "%s", clang_getCString(n));
		clang_disposeString(n);
	}
	return CXChildVisit_Continue;
}

static int span_start_cmp(const void *a, const void *b)
{
	const struct xp_span *x = a, *y = b;
	return x->start != y->start ? (x->start < y->start ? -1 : 1) : 0;
}

static int region_cmp(const void *a, const void *b)
{
	const struct xp_region *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end > y->end ? -1 : x->end < y->end; /* outer first */
}

/* The extents (original offsets) of the functions written out, one entry
 * per start (functions a macro defines share it), sorted: rp->written,
 * rp->written_end (reparse.h). */
static void written_spans(struct macro_fns *fns, const bool *expanded, struct reparse *rp)
{
	rp->written = malloc((fns->n + 1) * sizeof *rp->written);
	rp->written_end = malloc((fns->n + 1) * sizeof *rp->written_end);
	struct xp_span *w = malloc((fns->n + 1) * sizeof *w);
	if (!rp->written || !rp->written_end || !w) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	uint32_t nw = 0;
	for (uint32_t i = 0; i < fns->n; i++)
		if (expanded[group_of(fns, i)])
			w[nw++] = (struct xp_span){fns->v[i].start, fns->v[i].end};
	qsort(w, nw, sizeof *w, span_start_cmp);
	for (uint32_t i = 0; i < nw; i++)
		if (rp->nwritten && rp->written[rp->nwritten - 1] == w[i].start) {
			if (w[i].end > rp->written_end[rp->nwritten - 1])
				rp->written_end[rp->nwritten - 1] = w[i].end;
		} else {
			rp->written_end[rp->nwritten] = w[i].end;
			rp->written[rp->nwritten++] = w[i].start;
		}
	free(w);
}

/* Whether a macro's line comment could hold a block comment's end: some
 * file of the unit (the main file is one) or a flag (a -D) has "*" "/" in
 * a line comment (expand.c, cc_damaged). */
static bool cc_risk(const struct src_file *src, const char **flags, int nflags)
{
	for (int i = 0; i < nflags; i++)
		if (strstr(flags[i], "*/"))
			return true;
	return quiet_any_file(src->tu, pp_line_comment_may_end_block);
}

/* walk.h */
CXTranslationUnit kp_expand_and_reparse(CXIndex index, const struct src_file *src, struct macro_fns *fns,
                                        const char **flags, int nflags, const char *prefix, struct reparse *rp)
{
	struct region_scan rs = {src, fns, NULL, 0, 0};
	clang_visitChildren(clang_getTranslationUnitCursor(src->tu), scan_expansion, &rs);
	for (uint32_t i = 0; i < rs.n; i++) /* a group is written out as one function */
		rs.v[i].fn = group_of(fns, rs.v[i].fn);
	if (rs.n)
		qsort(rs.v, rs.n, sizeof *rs.v, region_cmp);
	uint32_t kept = 0; /* outermost invocations only: an argument's own invocation is inside */
	for (uint32_t i = 0; i < rs.n; i++)
		if (!kept || rs.v[i].start >= rs.v[kept - 1].end)
			rs.v[kept++] = rs.v[i];
	/* the preprocessor reads the functions written out and the directives (quiet.h) */
	struct xp_span *keep = malloc((fns->n + kept + 1) * sizeof *keep);
	for (uint32_t i = 0; keep && i < fns->n + kept; i++)
		keep[i] = i < fns->n ? (struct xp_span){fns->v[i].start, fns->v[i].end}
		                     : (struct xp_span){rs.v[i - fns->n].start, rs.v[i - fns->n].end};
	uint32_t nquiet = 0;
	struct xp_span *quiet = keep ? quiet_spans(src, keep, fns->n + kept, flags, nflags, &nquiet) : NULL;
	free(keep);
	struct xp_request rq = {src->path, src->text, src->len, flags, nflags, prefix, rs.v, kept, fns->n, quiet, nquiet,
	                        cc_risk(src, flags, nflags)};
	struct xp_result res;
	memset(&res, 0, sizeof res);
	xp_expand(&rq, &res);
	bool any = false;
	for (uint32_t i = 0; i < fns->n; i++) {
		uint32_t g = group_of(fns, i);
		if (res.reason[g]) {
			fns->v[i].reason = strdup(res.reason[g]);
			fns->v[i].reason_line = res.reason_line[g];
		}
		else if (!res.expanded[g])
			fns->v[i].reason = strdup("none of the invocations in its own text holds control flow (the "
			                          "file includes itself, or a macro's name comes from another file)");
		any |= res.expanded[i];
	}
	free(rs.v);
	free(quiet);
	CXTranslationUnit tu = NULL;
	unsigned long long reblanked = 0;
	unsigned parses = 0;
	memset(rp, 0, sizeof *rp);
	if (any) {
		written_spans(fns, res.expanded, rp);
		rp->map = (struct xp_result){.shift_end = res.shift_end, .shift_delta = res.shift_delta, .nshift = res.nshift,
		                             .xq = res.xq, .shift_start = res.shift_start};
		/* with the initialisers blanked, then (should that fail: quiet.c,
		 * init_span) without */
		for (int inits = 1; inits >= 0 && !tu; inits--) {
			free(rp->parsed);
			rp->parsed = quiet_reparse_text(src, &res, rp->written, rp->nwritten, inits, flags, nflags,
			                                &reblanked);
			struct CXUnsavedFile uf = {src->path, rp->parsed ? rp->parsed : res.text, (unsigned long)res.len};
			parses++;
			enum CXErrorCode rc = clang_parseTranslationUnit2(index, src->path, flags, nflags, &uf, 1,
			                                                  CXTranslationUnit_DetailedPreprocessingRecord, &tu);
			if (tu)
				rp->src.file = clang_getFile(tu, src->path);
			if (rc != CXError_Success || !tu || reparse_errors(rp, tu)) {
				if (tu)
					clang_disposeTranslationUnit(tu);
				tu = NULL;
			}
			if (!rp->parsed)
				break; /* blanking is off: the whole text was parsed */
		}
		res.shift_end = NULL; /* rp->map's now */
		res.shift_delta = NULL;
		res.xq = NULL;
		res.shift_start = NULL;
		if (!tu) {
			for (uint32_t i = 0; i < fns->n; i++)
				if (res.expanded[group_of(fns, i)] && !fns->v[i].reason)
					fns->v[i].reason = strdup("the file with its expansion does not parse");
		}
	}
	const char *stats = getenv("KPATH_STATS"); /* what the expansion cost: tests count the runs */
	if (stats && !strcmp(stats, "1"))
		fprintf(stderr, "kpath: stats: %s: %u functions with macro control flow, %u invocations, %u preprocessor "
		        "runs, %llu of %zu bytes blanked per run, %u parses again (%llu bytes blanked)\n", src->path,
		        fns->n, kept, xp_stats.runs, xp_stats.blanked, src->len, parses, reblanked);
	if (tu) {
		rp->full = res.text; /* the unsaved file must outlive the translation unit */
		rp->full_len = res.len;
		res.text = NULL;
	} else {
		reparse_free(rp);
	}
	xp_result_free(&res, fns->n);
	return tu;
}
