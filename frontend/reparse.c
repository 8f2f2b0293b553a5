/*
 * reparse.c: one walk over two translation units (reparse.h).
 */
#include "reparse.h"
#include "array.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t extent_start(CXCursor c, CXFile *f)
{
	unsigned off;
	clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(c)), f, NULL, NULL, &off);
	return off;
}

static enum CXChildVisitResult collect_fn(CXCursor c, CXCursor parent, CXClientData d)
{
	struct reparse *r = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	CXFile f;
	uint32_t s = extent_start(c, &f);
	if (!f || !clang_File_isEqual(f, r->src.file))
		return CXChildVisit_Continue;
	if (r->nfn && r->fn_start[r->nfn - 1] >= s) /* not in order (the file includes itself?): skipped */
		return CXChildVisit_Continue;
	if (r->nfn == r->capfn) { /* two arrays, one capacity */
		r->fn_start = kp_array_grow(r->fn_start, r->capfn, r->nfn + 1, sizeof *r->fn_start);
		r->fn = kp_array_grow(r->fn, r->capfn, r->nfn + 1, sizeof *r->fn);
		r->capfn = kp_array_cap(r->capfn, r->nfn + 1);
	}
	r->fn_start[r->nfn] = s;
	r->fn[r->nfn++] = c;
	return CXChildVisit_Continue;
}

void reparse_index(struct reparse *r)
{
	r->nfn = 0;
	clang_visitChildren(clang_getTranslationUnitCursor(r->src.tu), collect_fn, r);
}

/* The index of key in the sorted v[0, n), or n. */
static uint32_t find_sorted(const uint32_t *v, uint32_t n, uint32_t key)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo] == key ? lo : n;
}

bool reparse_find(const struct reparse *r, CXCursor c, CXCursor *c2)
{
	CXFile f;
	uint32_t s = extent_start(c, &f);
	uint32_t w = find_sorted(r->written, r->nwritten, s);
	if (w == r->nwritten)
		return false;
	/* the definition may start inside an invocation written out (a macro
	 * that defines functions): the second unit's definition of the same
	 * name within the function's extent, mapped */
	uint32_t a = xp_map(&r->map, s), e = xp_map(&r->map, r->written_end[w]);
	uint32_t lo = 0, hi = r->nfn;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (r->fn_start[mid] < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	CXString n1 = clang_getCursorSpelling(c);
	bool found = false;
	for (uint32_t k = lo; k < r->nfn && r->fn_start[k] <= e && !found; k++) {
		CXString n2 = clang_getCursorSpelling(r->fn[k]);
		found = !strcmp(clang_getCString(n1), clang_getCString(n2));
		clang_disposeString(n2);
		if (found)
			*c2 = r->fn[k];
	}
	clang_disposeString(n1);
	return found;
}

void reparse_own(struct reparse *r, uint32_t a, uint32_t b)
{
	if (a == b)
		return;
	KP_RESERVE(r->own, r->capown, 2 * r->nown + 2); /* pairs; capown counts elements */
	r->own[2 * r->nown] = a;
	r->own[2 * r->nown + 1] = b;
	r->nown++;
}

/* Whether offset off of the original text is strictly inside an
 * invocation written out: a function that begins or ends there (one
 * invocation ending one function and starting the next) gets no
 * file-scope bracket, which xp_map cannot place (it could land inside a
 * statement, where gcc rejects a _Pragma). */
static bool in_invocation(const struct reparse *r, uint32_t off)
{
	for (uint32_t i = 0; i < r->map.nshift; i++)
		if (r->map.shift_start[i] < off && off < r->map.shift_end[i])
			return true;
	return false;
}

void reparse_shift(const struct reparse *r, struct rw_file *rw)
{
	uint32_t k = 0; /* own is in increasing order */
	for (uint32_t i = 0; i < rw->nedits; i++) {
		while (k < r->nown && r->own[2 * k + 1] <= i)
			k++;
		if (k < r->nown && r->own[2 * k] <= i)
			continue;
		rw->edits[i].off = xp_map(&r->map, rw->edits[i].off);
	}
	/* every expansion written out compiled as its invocation was, as far
	 * as warnings go (kpath_rt.h, kpath_rt_xq_begin): clang's around each
	 * expansion, gcc's around each function written out (at file scope) */
	for (uint32_t i = 0; i < r->map.nshift; i++) {
		rw_insert(rw, r->map.xq[2 * i], "kpath_rt_xq_begin ");
		rw_insert(rw, r->map.xq[2 * i + 1], " kpath_rt_xq_end");
	}
	for (uint32_t i = 0; i < r->nwritten; i++) {
		if (!in_invocation(r, r->written[i]) && !in_invocation(r, r->written_end[i])) {
			rw_insert(rw, xp_map(&r->map, r->written[i]), "kpath_rt_xf_begin ");
			rw_insert(rw, xp_map(&r->map, r->written_end[i]), " kpath_rt_xf_end");
		}
	}
}

unsigned reparse_errors(const struct reparse *r, CXTranslationUnit tu)
{
	unsigned n = clang_getNumDiagnostics(tu), errors = 0;
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
			CXString opt = clang_getDiagnosticOption(d, NULL);
			const char *o = clang_getCString(opt);
			bool count = !r->parsed || !o || !*o;
			if (!count) { /* a warning made an error: only inside a function written out */
				CXFile f;
				unsigned off;
				clang_getExpansionLocation(clang_getDiagnosticLocation(d), &f, NULL, NULL, &off);
				count = !f || !clang_File_isEqual(f, r->src.file);
				for (uint32_t k = 0; k < r->nwritten && !count; k++)
					count = off >= xp_map(&r->map, r->written[k]) && off <= xp_map(&r->map, r->written_end[k]);
			}
			clang_disposeString(opt);
			errors += count;
		}
		clang_disposeDiagnostic(d);
	}
	return errors;
}

void reparse_free(struct reparse *r)
{
	src_free(&r->src);
	free(r->parsed);
	free(r->full);
	free(r->map.shift_end);
	free(r->map.shift_delta);
	free(r->map.xq);
	free(r->map.shift_start);
	free(r->written);
	free(r->written_end);
	free(r->fn_start);
	free(r->fn);
	free(r->own);
	memset(r, 0, sizeof *r);
}
