/*
 * headers.c: instrumented copies of the headers under --include-dir
 * directories (headers.h).
 *
 * Invariant: the main file's output includes the copy of a header exactly
 * where the original included the header (the same directive, redirected by
 * insertions), and a copy is the original with insertions only, so the
 * program's tokens and lines are unchanged apart from the instrumentation.
 */
#define _XOPEN_SOURCE 700
#include "headers.h"
#include "array.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builds.h"
#include "frontend.h"
#include "xalloc.h"

static char *xprintf2(const char *a, const char *sep, const char *b)
{
	size_t n = strlen(a) + strlen(sep) + strlen(b) + 1;
	char *p = malloc(n);
	if (!p) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	snprintf(p, n, "%s%s%s", a, sep, b);
	return p;
}

struct collect {
	struct hdr_set *hs;
	const char *main_path;
	char **dirs; /* realpaths */
	int nd;
	const char *out_root;
};

struct hdr *hdr_find(struct hdr_set *hs, CXFile f)
{
	for (unsigned i = 0; f && i < hs->n; i++)
		if (clang_File_isEqual(hs->v[i].file, f))
			return &hs->v[i];
	return NULL;
}

static enum CXChildVisitResult collect_one(CXCursor c, CXCursor parent, CXClientData d)
{
	struct collect *cs = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_InclusionDirective)
		return CXChildVisit_Continue;
	CXFile inc = clang_getIncludedFile(c);
	if (!inc || hdr_find(cs->hs, inc))
		return CXChildVisit_Continue;
	CXString name = clang_getFileName(inc);
	const char *spelling = clang_getCString(name);
	char real[PATH_MAX];
	if (!spelling || !realpath(spelling, real)) {
		clang_disposeString(name);
		return CXChildVisit_Continue;
	}
	for (int k = 0; k < cs->nd; k++) {
		size_t n = strlen(cs->dirs[k]);
		if (strncmp(real, cs->dirs[k], n) || real[n] != '/')
			continue;
		struct hdr_set *hs = cs->hs;
		for (unsigned i = 0; i < hs->n; i++)
			if (!strcmp(hs->v[i].real, real)) /* the same file under another name */
				goto done;
		KP_RESERVE(hs->v, hs->cap, hs->n + 1);
		struct hdr *h = &hs->v[hs->n++];
		memset(h, 0, sizeof *h);
		h->file = inc;
		h->real = xstrdup(real);
		h->spelling = xstrdup(spelling);
		size_t dn = strlen(spelling) + strlen(cs->main_path) + 16;
		h->desc_name = malloc(dn);
		if (!h->desc_name)
			exit(1);
		snprintf(h->desc_name, dn, "%s (via %s)", spelling, cs->main_path);
		if (cs->nd > 1) { /* several directories: one subdirectory each, by position */
			char sub[32];
			snprintf(sub, sizeof sub, "/%d/", k);
			h->out_path = xprintf2(cs->out_root, sub, real + n + 1);
		} else {
			h->out_path = xprintf2(cs->out_root, "/", real + n + 1);
		}
		break;
	}
done:
	clang_disposeString(name);
	return CXChildVisit_Continue;
}

bool hdr_collect(CXTranslationUnit tu, const char *main_path, const char *const *dirs, int nd,
                 const char *out_root, struct hdr_set *hs, char *err, size_t errsz)
{
	memset(hs, 0, sizeof *hs);
	struct collect cs = {hs, main_path, calloc((size_t)nd + 1, sizeof(char *)), nd, NULL};
	bool ok = true;
	for (int k = 0; k < nd && ok; k++) {
		char real[PATH_MAX];
		struct stat st;
		if (!realpath(dirs[k], real) || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
			snprintf(err, errsz, "--include-dir %s: %s", dirs[k], errno ? strerror(errno) : "not a directory");
			ok = false;
		} else {
			cs.dirs[k] = xstrdup(real);
		}
	}
	char root[PATH_MAX];
	if (ok) {
		kp_mkdirs(out_root);
		if (!realpath(out_root, root)) {
			snprintf(err, errsz, "cannot create '%s': %s", out_root, strerror(errno));
			ok = false;
		}
	}
	if (ok) {
		cs.out_root = root;
		clang_visitChildren(clang_getTranslationUnitCursor(tu), collect_one, &cs);
		for (unsigned i = 0; i < hs->n; i++) {
			struct hdr *h = &hs->v[i];
			if (!strcmp(h->out_path, h->real)) {
				snprintf(err, errsz, "the copy of %s would overwrite it: choose another --include-out",
				         h->spelling);
				ok = false;
				break;
			}
			h->src.path = h->spelling;
			h->src.file = h->file;
			h->src.tu = tu;
			h->src.text = clang_getFileContents(tu, h->file, &h->src.len);
			if (!h->src.text || !src_index(&h->src)) {
				snprintf(err, errsz, "cannot read %s", h->spelling);
				ok = false;
				break;
			}
		}
	}
	for (int k = 0; k < nd; k++)
		free(cs.dirs[k]);
	free(cs.dirs);
	return ok;
}

/* --- include redirections ---------------------------------------------------- */

struct redirect {
	struct hdr_set *hs;
	CXFile main_file;
	const char *main_text;
	size_t main_len;
	struct rw_file *main_rw;
	/* the directives redirected so far: a header included more than once
	 * (iconv.c includes aliases2.h three times, each time with another
	 * macro S) shows its own #include directives once per inclusion */
	struct { const struct rw_file *rw; size_t off; } *done;
	size_t ndone, cap_done;
};

/* Whether the directive at off of rw's text was redirected already;
 * records it if not. */
static bool redirected_before(struct redirect *r, const struct rw_file *rw, size_t off)
{
	for (size_t i = 0; i < r->ndone; i++)
		if (r->done[i].rw == rw && r->done[i].off == off)
			return true;
	KP_RESERVE(r->done, r->cap_done, r->ndone + 1);
	r->done[r->ndone].rw = rw;
	r->done[r->ndone++].off = off;
	return false;
}

/* Offsets [*a, *b) of the header name ("x.h" or <x.h>) of the directive
 * starting at off; false if it is spelled by a macro or unusual. */
static bool header_name_span(const char *text, size_t len, size_t off, size_t *a, size_t *b)
{
	size_t i = off;
	while (i < len && text[i] != '\n' && text[i] != '"' && text[i] != '<')
		i++;
	if (i >= len || text[i] == '\n')
		return false;
	char close = text[i] == '"' ? '"' : '>';
	size_t j = i + 1;
	while (j < len && text[j] != close && text[j] != '\n')
		j++;
	if (j >= len || text[j] != close)
		return false;
	for (size_t k = i; k + 1 <= j; k++)
		if (text[k] == '*' && text[k + 1] == '/')
			return false;
	*a = i;
	*b = j + 1;
	return true;
}

static enum CXChildVisitResult redirect_one(CXCursor c, CXCursor parent, CXClientData d)
{
	struct redirect *r = d;
	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_InclusionDirective)
		return CXChildVisit_Continue;
	struct hdr *target = hdr_find(r->hs, clang_getIncludedFile(c));
	if (!target)
		return CXChildVisit_Continue;
	CXFile where;
	unsigned off;
	clang_getSpellingLocation(clang_getCursorLocation(c), &where, NULL, NULL, &off);
	const char *text;
	size_t len;
	struct rw_file *rw;
	struct hdr *in = hdr_find(r->hs, where);
	if (where && clang_File_isEqual(where, r->main_file)) {
		text = r->main_text;
		len = r->main_len;
		rw = r->main_rw;
	} else if (in) {
		text = in->src.text;
		len = in->src.len;
		rw = &in->rw;
	} else {
		return CXChildVisit_Continue; /* a header outside the directories includes it: left as is */
	}
	size_t a, b;
	if (!header_name_span(text, len, off, &a, &b) || redirected_before(r, rw, a))
		return CXChildVisit_Continue;
	char open[96];
	snprintf(open, sizeof open, "%s /*", target->macro);
	rw_insert(rw, (uint32_t)a, open);
	rw_insert(rw, (uint32_t)b, "*/");
	return CXChildVisit_Continue;
}

static uint32_t fnv32(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Appends s as a C string literal at pre + n (room checked by the caller). */
static size_t put_quoted(char *pre, size_t n, const char *s)
{
	pre[n++] = '"';
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			pre[n++] = '\\';
		pre[n++] = *s;
	}
	pre[n++] = '"';
	pre[n] = 0;
	return n;
}

void hdr_plan_edits(struct hdr_set *hs, CXTranslationUnit tu, CXFile main_file, const char *main_text,
                    size_t main_len, struct rw_file *main_rw, const char *prefix, bool check)
{
	size_t cap = 64, n = 0;
	char *pre = malloc(cap);
	if (!pre)
		exit(1);
	pre[0] = 0;
	for (unsigned i = 0; i < hs->n; i++) {
		struct hdr *h = &hs->v[i];
		rw_file_init(&h->rw, prefix, h->desc_name, check);
		rw_source_hash(h->src.text, h->src.len, h->rw.src_hash); /* the header's own bytes */
		char m[64];
		snprintf(m, sizeof m, "%sinc_%08x", prefix, (unsigned)fnv32(h->out_path));
		h->macro = xstrdup(m);
		size_t need = n + strlen(m) + 2 * strlen(h->out_path) + 32;
		if (need > cap) {
			while (need > cap)
				cap *= 2;
			pre = realloc(pre, cap);
			if (!pre)
				exit(1);
		}
		size_t need2 = n + 2 * strlen(m) + 2 * strlen(h->spelling) + 2 * strlen(h->out_path) + 64;
		if (need2 > cap) {
			while (need2 > cap)
				cap *= 2;
			pre = realloc(pre, cap);
			if (!pre)
				exit(1);
		}
		n += (size_t)sprintf(pre + n, "#define %s ", m);
		n = put_quoted(pre, n, h->out_path);
		/* the name the copy's #line gives, as the original is named in this
		 * file: the copy itself is the same for every file including it */
		n += (size_t)sprintf(pre + n, "\n#define %sfile_%08x ", prefix, (unsigned)fnv32(h->out_path));
		n = put_quoted(pre, n, h->spelling);
		pre[n++] = '\n';
		pre[n] = 0;
	}
	free(main_rw->preamble_extra);
	main_rw->preamble_extra = pre;
	struct redirect r = {hs, main_file, main_text, main_len, main_rw, NULL, 0, 0};
	clang_visitChildren(clang_getTranslationUnitCursor(tu), redirect_one, &r);
	free(r.done);
}

bool hdr_write(struct hdr_set *hs, struct rw_file *main_rw, char *err, size_t errsz)
{
	for (unsigned i = 0; i < hs->n; i++) {
		struct hdr *h = &hs->v[i];
		rw_adopt_descriptors(main_rw, &h->rw);
		char name_macro[64];
		snprintf(name_macro, sizeof name_macro, "%sfile_%08x", main_rw->prefix, (unsigned)fnv32(h->out_path));
		char *body = rw_render_header(&h->rw, h->src.text, h->src.len, name_macro, NULL);
		/* the copy's signature: a file compiled with a copy that another
		 * file's instrumentation replaced meanwhile stops with #error */
		uint64_t sig = 14695981039346656037ull;
		for (const char *p = body; *p; p++)
			sig = (sig ^ (unsigned char)*p) * 1099511628211ull;
		sig &= 0x0fffffffffffffffull;
		char sig_macro[64];
		snprintf(sig_macro, sizeof sig_macro, "%ssig_%08x", main_rw->prefix, (unsigned)fnv32(h->out_path));
		size_t tn = strlen(body) + 128;
		char *text = malloc(tn);
		if (!text)
			exit(1);
		snprintf(text, tn, "#define %s 0x%015llx\n%s", sig_macro, (unsigned long long)sig, body);
		free(body);
		size_t en = (main_rw->tail_extra ? strlen(main_rw->tail_extra) : 0) + strlen(h->out_path) + 256;
		char *tail = malloc(en);
		if (!tail)
			exit(1);
		snprintf(tail, en,
		         "%s#if !defined(%s) || %s != 0x%015llx\n#error \"kpath: %s was rewritten for another file "
		         "since this one was instrumented: instrument this file again\"\n#endif\n",
		         main_rw->tail_extra ? main_rw->tail_extra : "", sig_macro, sig_macro, (unsigned long long)sig,
		         h->out_path);
		free(main_rw->tail_extra);
		main_rw->tail_extra = tail;
		char *dir = xstrdup(h->out_path);
		*strrchr(dir, '/') = 0;
		kp_mkdirs(dir);
		free(dir);
		int rc = kp_write_atomic(h->out_path, text, strlen(text), err, errsz);
		free(text);
		if (rc != 0)
			return false;
	}
	return true;
}

void hdr_set_free(struct hdr_set *hs)
{
	for (unsigned i = 0; i < hs->n; i++) {
		struct hdr *h = &hs->v[i];
		free(h->real);
		free(h->spelling);
		free(h->desc_name);
		free(h->out_path);
		free(h->macro);
		src_free(&h->src);
		rw_file_free(&h->rw);
	}
	free(hs->v);
	memset(hs, 0, sizeof *hs);
}
