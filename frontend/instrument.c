/*
 * instrument.c: `kpath instrument IN [-o OUT] [-- compile flags]`.
 *
 * The pipeline, one call per stage:
 *   parse (libclang, the user's flags)  -> diagnostics or a translation unit
 *   for each function definition in the main file:
 *     build_function   AST -> CFG + insertion sites
 *     stages_run       back edges, DAG and numbering (+ cuts), placement
 *                      (cfgbuild/stages.h; kpath cfg --stage dumps each)
 *     rw_function      path-register arithmetic, emits, descriptor
 *   rw_render           preamble + edited text + descriptors
 *   write               temporary file + rename: never a half-written output
 * A function that cannot be instrumented faithfully is left untouched and
 * reported with its reason.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <clang-c/Index.h>

#include "build.h"
#include "builds.h"
#include "cfg.h"
#include "expand.h"
#include "quiet.h"
#include "reparse.h"
#include "headers.h"
#include "kiter_pragma.h"
#include "frontend.h"
#include "ppp_interesting.h"
#include "rewrite.h"
#include "stages.h"

struct counts {
	unsigned instrumented, skipped, cut;
	unsigned lowered; /* --mode kiter: functions whose K ki_fit lowered */
};

static void usage(FILE *out)
{
	fprintf(out, "usage: kpath instrument INPUT.c [-o OUTPUT.c] [--quiet] [--check] [--no-expr-branches]\n"
	             "                        [--no-repeat] [--include-dir DIR]... [--include-out DIR]\n"
	             "                        [-- COMPILE-FLAGS...]\n"
	             "       kpath instrument -p BUILD_DIR [-o OUT_DIR] [--quiet]\n"
	             "  (every C file of BUILD_DIR/compile_commands.json, into a mirrored tree)\n"
	             "  Writes INPUT.c with Ball-Larus path tracing for kpath's runtime\n"
	             "  (default output: INPUT.kpath.c).  Flags after -- are passed to the parser\n"
	             "  (-I, -D, -std, ...).  Link the result with $(kpath config --libs).\n"
	             "  --no-expr-branches  treat conditions as atomic: &&, || and ?: do not\n"
	             "           split paths (by default they are branches like if/else)\n"
	             "  --no-repeat  emit every iteration of straight innermost loops at once\n"
	             "           (by default they count it in a register: same profile, faster)\n"
	             "  --include-dir DIR  also instrument functions defined in headers under DIR:\n"
	             "           instrumented copies go to --include-out (default: kpath-include/\n"
	             "           beside OUTPUT.c), mirroring their path under DIR, and the output\n"
	             "           includes them in place of the originals (repeatable)\n"
	             "  --mode kiter --kiter K  number Roy & Srikant's k-iteration paths instead\n"
	             "           (K >= 1 per innermost loop, docs/kiter-paths.md); --mode kipf,\n"
	             "           the default, streams Ball-Larus IDs into the k-IPF\n"
	             "  --kiter-loop FILE:LINE=K  with --mode kiter: K of the loop whose head\n"
	             "           starts on LINE (repeatable; 1 makes it acyclic); in the source,\n"
	             "           #pragma kpath kiter(K) before a loop statement (0: acyclic)\n"
	             "  --mode ppp --interesting PROFILE  preferential path profiling: the paths\n"
	             "           PROFILE recorded per function are numbered compactly and\n"
	             "           counted in an array, every other path by its Ball-Larus ID\n"
	             "           (residual paths, docs/ppp.md); exit status 3 when PROFILE\n"
	             "           cannot be read (kpath-cc then fails the build)\n"
	             "  --interesting-top P  with --mode ppp: only the hottest paths covering\n"
	             "           P%% of each function's flow are interesting\n"
	             "  --ppp-registers  testing aid: the two registers and the slot check in\n"
	             "           every ppp function (by default a function whose IDs fit 4096\n"
	             "           counters classifies its Ball-Larus ID by a table)\n"
	             "  --check  testing aid: also report every CFG edge taken, for kpath's\n"
	             "           checking runtime (tests/check), which verifies every path ID.\n");
}

/* Prints clang's errors as file:line:col: error: ...; returns their number. */
static unsigned report_diagnostics(CXTranslationUnit tu)
{
	unsigned n = clang_getNumDiagnostics(tu), errors = 0;
	for (unsigned i = 0; i < n; i++) {
		CXDiagnostic d = clang_getDiagnostic(tu, i);
		enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
		if (sev >= CXDiagnostic_Error) {
			CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
			fprintf(stderr, "%s\n", clang_getCString(s));
			clang_disposeString(s);
			errors++;
		}
		clang_disposeDiagnostic(d);
	}
	return errors;
}

/* --check: whether the instrumented text parses without error, read as
 * the input file itself (an unsaved file of that name, so that its quoted
 * includes resolve as the original's) with the same flags.  An error
 * here is kpath's: it is printed.  This costs a second parse of the whole
 * translation unit (about as long as the first), which is why only the
 * testing mode pays it. */
static bool output_parses(CXIndex index, const char *in, const char **flags, int nflags, const char *text)
{
	struct CXUnsavedFile uf = {in, text, (unsigned long)strlen(text)};
	CXTranslationUnit tu = NULL;
	enum CXErrorCode rc = clang_parseTranslationUnit2(index, in, flags, nflags, &uf, 1, CXTranslationUnit_None, &tu);
	if (rc != CXError_Success || !tu) {
		fprintf(stderr, "kpath: error: %s: libclang could not parse the instrumented text (error %d)\n", in, (int)rc);
		return false;
	}
	bool ok = report_diagnostics(tu) == 0;
	clang_disposeTranslationUnit(tu);
	return ok;
}

/* --- generated-identifier prefix ------------------------------------------ */

struct prefix_scan {
	const char *prefix;
	bool clash;
	bool reserved; /* the program declares kpath_rt_* itself */
	char reserved_name[128];
};

static void check_name(struct prefix_scan *ps, const char *n)
{
	if (!n)
		return;
	if (!strncmp(n, ps->prefix, strlen(ps->prefix)))
		ps->clash = true;
}

static enum CXChildVisitResult scan_decl(CXCursor c, CXCursor parent, CXClientData d)
{
	struct prefix_scan *ps = d;
	(void)parent;
	CXString s = clang_getCursorSpelling(c);
	const char *n = clang_getCString(s);
	check_name(ps, n);
	if (n && !strncmp(n, "kpath_rt_", 9) && !ps->reserved) {
		CXFile f;
		clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
		CXString fn = clang_getFileName(f);
		/* our own header is never included by user code, so any
		 * declaration of these names is the program's */
		ps->reserved = true;
		snprintf(ps->reserved_name, sizeof ps->reserved_name, "%s", n);
		clang_disposeString(fn);
	}
	clang_disposeString(s);
	return CXChildVisit_Continue;
}

/* A prefix no identifier of the program starts with: kp_, kp1_, kp2_...;
 * with src2 (the text with macros written out, reparse.h), no identifier
 * of either text, and the declarations are src2's. */
static const char *choose_prefix2(const struct src_file *src1, const struct src_file *src2, char *buf, size_t cap,
                                  const char **reserved)
{
	const struct src_file *src = src2 ? src2 : src1;
	static char reserved_name[128];
	*reserved = NULL;
	for (int attempt = 0; attempt < 100; attempt++) {
		if (attempt == 0)
			snprintf(buf, cap, "kp_");
		else
			snprintf(buf, cap, "kp%d_", attempt);
		struct prefix_scan ps = {buf, false, false, {0}};
		ps.clash = src_prefix_used(src, buf) || (src2 && src_prefix_used(src1, buf));
		clang_visitChildren(clang_getTranslationUnitCursor(src->tu), scan_decl, &ps);
		if (ps.reserved) {
			snprintf(reserved_name, sizeof reserved_name, "%s", ps.reserved_name);
			*reserved = reserved_name;
		}
		if (!ps.clash)
			return buf;
	}
	return NULL;
}

static const char *choose_prefix(const struct src_file *src, char *buf, size_t cap, const char **reserved)
{
	return choose_prefix2(src, NULL, buf, cap, reserved);
}

/* --- per function ---------------------------------------------------------- */

/* A function whose control flow is partly spelled by macros, and what
 * writing its invocations out gave (expand.h). */
struct macro_fn {
	char *name;
	uint32_t start, end; /* extent in the original file */
	char *reason;        /* why it could not be written out, NULL if it was */
	uint32_t group;      /* functions sharing an invocation are written out together:
	                        the group's first function (union-find parent) */
};

struct macro_fns {
	struct macro_fn *v;
	uint32_t n, cap;
};

struct walk {
	struct hdr_set *hdrs;    /* --include-dir: headers whose functions are instrumented too */
	struct macro_fns *macro; /* survey: collect macro failures here instead of instrumenting */
	const struct macro_fns *expanded; /* reasons from the expansion, for the messages */
	struct src_file *src;
	struct rw_file *rw;
	struct counts counts;
	bool quiet;
	bool expr_branches;
	FILE *dump;           /* kpath cfg: dump CFGs here instead of rewriting */
	const char *only;     /* kpath cfg --function */
	struct kp_paths_req *paths; /* kpath paths: list paths (frontend/paths.c) */
	/* First walk of `kpath instrument`: instrument, but also collect the
	 * main file's functions that fail only because of macros; messages go
	 * to msg, printed only if no second walk (after writing the macros
	 * out) replaces this one. */
	struct macro_fns *collect;
	FILE *msg;
	bool staged;          /* kpath cfg --stage: dump this stage's result */
	enum stage stage;
	unsigned kiter;       /* --mode kiter: K (rewrite/kiter_form.c); 0 in the default mode */
	struct rw_kiter_loop *kiter_loops; /* --kiter-loop FILE:LINE=K */
	unsigned nkiter_loops;
	struct kp_interesting *ppp; /* --mode ppp (frontend/ppp_interesting.c) */
	struct kp_kiter_pragmas *pragmas; /* the main file's #pragma kpath kiter(K) */
	const struct src_file *main_src;
	struct reparse *reparse; /* the functions written out come from its unit */
};

static const struct macro_fn *find_macro_fn(const struct macro_fns *m, const char *name)
{
	for (uint32_t i = 0; m && i < m->n; i++)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

/* Remembers fn, which fails only because a macro spells some of its
 * control flow. */
static void record_macro_fn(struct macro_fns *m, CXCursor fn, const struct fn_plan *plan)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;
		m->v = realloc(m->v, m->cap * sizeof *m->v);
		if (!m->v) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
	}
	CXSourceRange r = clang_getCursorExtent(fn);
	unsigned a, b;
	clang_getExpansionLocation(clang_getRangeStart(r), NULL, NULL, NULL, &a);
	clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &b);
	m->v[m->n] = (struct macro_fn){strdup(plan->name), a, b > a ? b : a + 1, NULL, m->n};
	m->n++;
}

/* Survey walk (kpath cfg, kpath paths): records fn if it fails only
 * because of macros. */
static void survey_function(struct walk *w, CXCursor fn)
{
	struct fn_plan plan;
	memset(&plan, 0, sizeof plan);
	plan.expr_branches = w->expr_branches;
	if (!build_function(w->src, fn, &plan) && plan.macro && plan.name)
		record_macro_fn(w->macro, fn, &plan);
	build_plan_free(&plan);
}

/* The stages after the CFG (cfgbuild/stages.h), and what the walk wants
 * of them: a dump (kpath cfg), the paths (kpath paths) or the rewrite.
 * Returns the reason when the function cannot be instrumented. */
static const char *run_stages(struct walk *w, const struct fn_plan *plan, struct fn_stages *st, char *err,
                              size_t errlen)
{
	const struct num_ops *num = num_ops_of(NUM_BALL_LARUS);
	enum stage last = w->paths || (w->dump && !(w->staged && w->stage == STAGE_PLACEMENT)) ? STAGE_NUMBERING
	                                                                                       : STAGE_PLACEMENT;
	struct rw_place_input pi; /* the placement keeps pointers into it */
	rw_place_input(plan, &pi);
	if (!stages_run(plan->g, num, &pi.in, last, st, err, errlen)) {
		rw_place_input_free(&pi);
		return err;
	}
	if (w->paths) {
		kp_paths_function(w->paths, plan, st->dag);
	} else if (w->dump) {
		fprintf(w->dump, "function %s line %u checksum %016llx\n", plan->name, plan->line,
		        (unsigned long long)num->checksum(plan->g, st->dag));
		if (w->staged)
			stage_dump(w->dump, w->stage, plan->g, st);
		else
			num->dump(w->dump, plan->g, st->dag);
	} else if (w->ppp) {
		kp_interesting_function(w->ppp, w->rw, plan, st->dag, st->place, w->src->path, w->msg ? w->msg : stderr,
		                        w->quiet);
	} else if (w->kiter) {
		struct rw_kiter_result kr;
		const char *why = rw_kiter_function(w->rw, plan, st->dag, st->place,
		                                    &(struct rw_kiter_opts){.k = w->kiter, .loops = w->kiter_loops,
		                                                            .nloops = w->nkiter_loops,
		                                                            .pragmas = w->src == w->main_src ? w->pragmas->v : NULL,
		                                                            .npragmas = w->src == w->main_src ? w->pragmas->n : 0},
		                                    &kr, err, errlen);
		if (why) {
			rw_place_input_free(&pi);
			return why;
		}
		if (kr.lowered) {
			w->counts.lowered++;
			if (!w->quiet)
				fprintf(w->msg ? w->msg : stderr, "%s:%u: note: function '%s': %s\n", w->src->path, plan->line,
				        plan->name, kr.note);
		}
	} else {
		rw_function(w->rw, plan, st->dag, st->place);
	}
	rw_place_input_free(&pi);
	return NULL;
}

static void instrument_function(struct walk *w, CXCursor fn)
{
	struct fn_plan plan;
	char err[256];
	memset(&plan, 0, sizeof plan);
	plan.expr_branches = w->expr_branches;
	const char *why = NULL;
	unsigned line = 0;
	struct fn_stages st = {0};
	char macro_why[600];
	if (!build_function(w->src, fn, &plan)) {
		if (w->collect && plan.macro && plan.name)
			record_macro_fn(w->collect, fn, &plan);
		why = plan.reason;
		line = plan.reason_line;
		const struct macro_fn *mf = plan.macro && plan.name ? find_macro_fn(w->expanded, plan.name) : NULL;
		if (mf && mf->reason) {
			snprintf(macro_why, sizeof macro_why, "%s; it cannot be written out: %s", plan.reason, mf->reason);
			why = macro_why;
		}
	} else {
		why = run_stages(w, &plan, &st, err, sizeof err);
	}
	if (why) {
		/* the function's own line; the line the reason is about after it */
		char at[32] = "";
		if (line && plan.line && line != plan.line)
			snprintf(at, sizeof at, " (line %u)", line);
		fprintf(w->msg ? w->msg : stderr, "%s:%u: warning: function '%s' not instrumented: %s%s\n", w->src->path,
		        plan.line ? plan.line : line, plan.name, why, at);
		w->counts.skipped++;
	} else {
		w->counts.instrumented++;
		if (!w->kiter && st.dag->ncut) { /* kiter numbers the CFG itself, without cuts */
			w->counts.cut++;
			if (!w->quiet)
				fprintf(w->msg ? w->msg : stderr, "%s:%u: note: function '%s': %u edges cut to keep path IDs within 64 bits\n",
				        w->src->path, plan.line, plan.name, st.dag->ncut);
		}
	}
	stages_free(&st);
	build_plan_free(&plan);
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
	if (w->macro) {
		survey_function(w, c);
	} else if (h) { /* a header's function: its own text and edits */
		struct src_file *src = w->src;
		struct rw_file *rw = w->rw;
		w->src = &h->src;
		w->rw = &h->rw;
		struct macro_fns *collect = w->collect;
		w->collect = NULL; /* only the main file's invocations are written out */
		instrument_function(w, c);
		w->collect = collect;
		w->src = src;
		w->rw = rw;
	} else if (w->reparse && reparse_find(w->reparse, c, &c)) { /* written out: the second unit's */
		struct src_file *src = w->src;
		const struct src_file *main_src = w->main_src;
		w->src = &w->reparse->src;
		w->main_src = &w->reparse->src;
		uint32_t n0 = w->rw->nedits;
		instrument_function(w, c);
		reparse_own(w->reparse, n0, w->rw->nedits);
		w->src = src;
		w->main_src = main_src;
	} else {
		instrument_function(w, c);
	}
	return CXChildVisit_Continue;
}

/* --- output ---------------------------------------------------------------- */

/* Writes data to path through a temporary file in the same directory and a
 * rename, so that readers never see a partial file. */
int kp_write_atomic(const char *path, const char *data, size_t len)
{
	size_t n = strlen(path) + 32;
	char *tmp = malloc(n);
	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "w");
	if (!f) {
		int e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	bool ok = fwrite(data, 1, len, f) == len;
	ok &= fflush(f) == 0;
	int e = errno;
	ok &= fclose(f) == 0;
	if (ok && rename(tmp, path) == 0) {
		free(tmp);
		return 0;
	}
	e = errno ? errno : e;
	remove(tmp);
	free(tmp);
	errno = e;
	return -1;
}

/* --include-out's default: kpath-include/ beside the output file. */
static char *default_include_out(const char *out)
{
	const char *slash = strrchr(out, '/');
	size_t n = slash ? (size_t)(slash - out + 1) : 0;
	char *p = malloc(n + 16);
	if (!p)
		exit(1);
	snprintf(p, n + 16, "%.*skpath-include", (int)n, out);
	return p;
}

/* Whether out may be written: not a directory, and not the input itself
 * (by any name: "./", "..", a symbolic or a hard link), which writing would
 * replace.  Says why on stderr when not. */
static bool output_path_ok(const char *in, const char *out)
{
	struct stat so, si;
	size_t n = strlen(out);
	bool is_dir = n > 0 && out[n - 1] == '/';
	if (stat(out, &so) == 0) {
		is_dir |= S_ISDIR(so.st_mode) != 0;
		if (!is_dir && stat(in, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
			fprintf(stderr, "kpath: error: the output '%s' is the input file '%s': writing it would replace the source; "
			        "give -o another file\n", out, in);
			return false;
		}
	}
	if (is_dir) {
		fprintf(stderr, "kpath: error: the output '%s' names a directory: give -o a file name\n", out);
		return false;
	}
	return true;
}

static char *default_output(const char *in)
{
	size_t n = strlen(in);
	char *out = malloc(n + 8);
	if (!out)
		exit(1);
	memcpy(out, in, n + 1);
	if (n > 2 && !strcmp(in + n - 2, ".c"))
		out[n - 2] = 0;
	strcat(out, ".kpath.c");
	return out;
}

/* --- macro invocations written out (expand.h) ------------------------------ */

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
		if (rs->n == rs->cap) {
			rs->cap = rs->cap ? 2 * rs->cap : 64;
			rs->v = realloc(rs->v, rs->cap * sizeof *rs->v);
			if (!rs->v) {
				fprintf(stderr, "kpath: out of memory\n");
				exit(1);
			}
		}
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

/* Writes out the macro invocations of the functions in fns (their reasons
 * go into fns) and parses the result as the main file, with the bodies of
 * the other functions blanked (reparse.h; rp gets the texts and the offset
 * map).  Returns the new translation unit, or NULL when nothing was
 * written out or the result does not parse (then every function keeps its
 * text, with a reason). */
static CXTranslationUnit expand_and_reparse(CXIndex index, const struct src_file *src, struct macro_fns *fns,
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
	struct xp_request rq = {src->path, src->text, src->len, flags, nflags, prefix, rs.v, kept, fns->n, quiet, nquiet};
	struct xp_result res;
	memset(&res, 0, sizeof res);
	xp_expand(&rq, &res);
	bool any = false;
	for (uint32_t i = 0; i < fns->n; i++) {
		uint32_t g = group_of(fns, i);
		if (res.reason[g])
			fns->v[i].reason = strdup(res.reason[g]);
		else if (!res.expanded[g])
			fns->v[i].reason = strdup("none of the invocations in its own text holds control flow (the "
			                          "file includes itself, or a macro's name comes from another file)");
		any |= res.expanded[i];
	}
	free(rs.v);
	free(quiet);
	CXTranslationUnit tu = NULL;
	unsigned long long reblanked = 0;
	memset(rp, 0, sizeof *rp);
	if (any) {
		rp->written = malloc((fns->n + 1) * sizeof *rp->written);
		rp->written_end = malloc((fns->n + 1) * sizeof *rp->written_end);
		if (!rp->written || !rp->written_end) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
		struct xp_span *w = malloc((fns->n + 1) * sizeof *w);
		uint32_t nw = 0;
		for (uint32_t i = 0; w && i < fns->n; i++)
			if (res.expanded[group_of(fns, i)])
				w[nw++] = (struct xp_span){fns->v[i].start, fns->v[i].end};
		if (!w) {
			fprintf(stderr, "kpath: out of memory\n");
			exit(1);
		}
		qsort(w, nw, sizeof *w, span_start_cmp);
		for (uint32_t i = 0; i < nw; i++) /* one entry per start: functions a macro defines share it */
			if (rp->nwritten && rp->written[rp->nwritten - 1] == w[i].start) {
				if (w[i].end > rp->written_end[rp->nwritten - 1])
					rp->written_end[rp->nwritten - 1] = w[i].end;
			} else {
				rp->written_end[rp->nwritten] = w[i].end;
				rp->written[rp->nwritten++] = w[i].start;
			}
		free(w);
		rp->parsed = quiet_reparse_text(src, &res, rp->written, rp->nwritten, flags, nflags, &reblanked);
		rp->map = (struct xp_result){.shift_end = res.shift_end, .shift_delta = res.shift_delta, .nshift = res.nshift};
		res.shift_end = NULL;
		res.shift_delta = NULL;
		struct CXUnsavedFile uf = {src->path, rp->parsed ? rp->parsed : res.text, (unsigned long)res.len};
		enum CXErrorCode rc = clang_parseTranslationUnit2(index, src->path, flags, nflags, &uf, 1,
		                                                  CXTranslationUnit_DetailedPreprocessingRecord, &tu);
		if (tu)
			rp->src.file = clang_getFile(tu, src->path);
		if (rc != CXError_Success || !tu || reparse_errors(rp, tu)) {
			if (tu)
				clang_disposeTranslationUnit(tu);
			tu = NULL;
			for (uint32_t i = 0; i < fns->n; i++)
				if (res.expanded[group_of(fns, i)] && !fns->v[i].reason)
					fns->v[i].reason = strdup("the file with its expansion does not parse");
		}
	}
	const char *stats = getenv("KPATH_STATS"); /* what the expansion cost: tests count the runs */
	if (stats && !strcmp(stats, "1"))
		fprintf(stderr, "kpath: stats: %s: %u functions with macro control flow, %u invocations, %u preprocessor "
		        "runs, %llu of %zu bytes blanked per run, %u parses again (%llu bytes blanked)\n", src->path,
		        fns->n, kept, xp_stats.runs, xp_stats.blanked, src->len, any ? 1u : 0u, reblanked);
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

/* Shared by instrument and cfg: parses in with flags and runs the pipeline;
 * with dump set, prints each function's CFG and numbering instead of
 * writing out. */
struct inc_opts {
	const char **dirs; /* --include-dir */
	int n;
	const char *out;   /* --include-out, NULL: beside the output, kpath-include/ */
};

/* What one run does; zero means instrument (with in and flags set). */
struct run_opts {
	const char *in, *out;         /* out NULL: beside in (default_output) */
	const char **flags;           /* compile flags for the parser */
	int nflags;
	bool quiet, check;            /* --quiet, --check */
	bool no_expr_branches;        /* --no-expr-branches */
	FILE *dump;                   /* kpath cfg: dump here instead of rewriting */
	bool staged;                  /* kpath cfg --stage: dump that stage's result */
	enum stage stage;
	const char *only;             /* kpath cfg/paths --function */
	const struct inc_opts *inc;   /* --include-dir, --include-out */
	struct kp_paths_req *paths;   /* kpath paths */
	unsigned kiter;               /* --mode kiter --kiter K; 0: the default mode (kipf) */
	struct rw_kiter_loop *kiter_loops; /* --kiter-loop FILE:LINE=K (used: set by the walk) */
	unsigned nkiter_loops;
	const char *interesting;      /* --mode ppp --interesting PROFILE */
	double interesting_top;       /* --interesting-top P, or < 0 */
};

static int run(const struct run_opts *o);

static const char cfg_usage[] = "usage: kpath cfg INPUT.c [--function NAME] [--stage S] [-- COMPILE-FLAGS...]\n";

int kp_cfg_main(int argc, char **argv)
{
	const char *in = NULL, *only = NULL;
	const char **flags = NULL;
	int nflags = 0;
	bool staged = false;
	enum stage stage = STAGE_NUMBERING;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			flags = (const char **)argv + i + 1;
			nflags = argc - i - 1;
			break;
		} else if (!strcmp(argv[i], "--function") && i + 1 < argc) {
			only = argv[++i];
		} else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
			if (!stage_by_name(argv[++i], &stage)) {
				fprintf(stderr, "kpath cfg: unknown stage '%s' (backedges, dag, numbering, placement)\n", argv[i]);
				return 2;
			}
			staged = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("%s\n"
			       "Prints, for each function defined in INPUT.c, what kpath instrument\n"
			       "builds: the CFG (blocks with their first source line, edges), the\n"
			       "back edges, the Ball-Larus DAG and its numbering (each edge's val,\n"
			       "each block's number of paths to EXIT).  Nothing is written or\n"
			       "compiled; the tests compare it with golden files (tests/cfg).\n"
			       "\n"
			       "  --function NAME  only the function NAME (an error if INPUT.c has\n"
			       "                   no function of that name kpath can build)\n"
			       "  --stage S        the result of one stage instead (cfgbuild/stages.h):\n"
			       "                   backedges (DFS orders, each edge's role), dag (the\n"
			       "                   DAG's edges), numbering (the default dump),\n"
			       "                   placement (potentials, spanning-forest edges and the\n"
			       "                   code of each edge and start site)\n"
			       "  -- FLAGS         compile flags for the parser (-I, -D, -std, ...)\n"
			       "  --help           print this help\n", cfg_usage);
			return 0;
		} else if (argv[i][0] == '-' || in) {
			fputs(cfg_usage, stderr);
			return 2;
		} else {
			in = argv[i];
		}
	}
	if (!in) {
		fputs(cfg_usage, stderr);
		return 2;
	}
	struct run_opts o = {.in = in, .flags = flags, .nflags = nflags, .quiet = true, .dump = stdout, .only = only,
	                     .staged = staged, .stage = stage};
	if (!only)
		return run(&o);
	/* --function: the dump is held back, so that a name no function has is
	 * an error rather than an empty output */
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem) {
		fprintf(stderr, "kpath cfg: out of memory\n");
		return 1;
	}
	o.dump = mem;
	int rc = run(&o);
	fclose(mem);
	fwrite(text, 1, len, stdout);
	if (rc == 0 && len == 0) {
		fprintf(stderr, "kpath cfg: %s: no function '%s' could be built (not defined in this file, or skipped: see above)\n", in, only);
		rc = 1;
	}
	free(text);
	return rc;
}

/* --kiter-loop FILE:LINE=K into *l; false when malformed. */
static bool kiter_loop_arg(const char *s, struct rw_kiter_loop *l)
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

static bool kiter_needs_mode(void)
{
	fprintf(stderr, "kpath instrument: --kiter-loop needs --mode kiter\n");
	return true;
}

/* --mode and --kiter (fixed spellings, issue 15): *k = 0 for the default
 * mode (kipf), K for --mode kiter.  False, with the reason on stderr, for a
 * mode kpath does not have, a K that is not an integer in 1..KI_MAX_K, or
 * one without the other. */
bool kp_kiter_args(const char *mode, const char *kiter, bool check, unsigned *k)
{
	*k = 0;
	if (mode && strcmp(mode, "kipf") && strcmp(mode, "kiter") && strcmp(mode, "ppp")) {
		fprintf(stderr, "kpath instrument: --mode '%s': expected kipf (the default), kiter or ppp\n", mode);
		return false;
	}
	bool is_kiter = mode && !strcmp(mode, "kiter");
	if (!is_kiter) {
		if (kiter) {
			fprintf(stderr, "kpath instrument: --kiter %s needs --mode kiter\n", kiter);
			return false;
		}
		return true;
	}
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
	if (check) {
		fprintf(stderr, "kpath instrument: --check is for the kipf mode only (its checking runtime replays "
		        "Ball-Larus IDs)\n");
		return false;
	}
	*k = (unsigned)v;
	return true;
}

bool kp_ppp_args(const char *mode, const char *interesting, const char *top, bool check, double *topv)
{
	bool is_ppp = mode && !strcmp(mode, "ppp");
	if (!is_ppp && (interesting || top)) {
		fprintf(stderr, "kpath instrument: %s needs --mode ppp\n", interesting ? "--interesting" : "--interesting-top");
		return false;
	}
	if (is_ppp && !interesting) {
		fprintf(stderr, "kpath instrument: --mode ppp needs --interesting PROFILE.json (a profile of the same "
		        "program: its paths are the interesting ones)\n");
		return false;
	}
	if (is_ppp && check) {
		fprintf(stderr, "kpath instrument: --check is for the kipf mode only (its checking runtime replays "
		        "Ball-Larus IDs)\n");
		return false;
	}
	if (top) {
		char *end;
		*topv = strtod(top, &end);
		if (!*top || *end || !(*topv >= 0 && *topv <= 100)) {
			fprintf(stderr, "kpath instrument: --interesting-top '%s': expected a percentage in 0..100\n", top);
			return false;
		}
	}
	return true;
}

int kp_instrument_main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL;
	bool quiet = false, check = false, expr_branches = true;
	int i, nflags = 0, nincdirs = 0;
	const char **incdirs = NULL, *incout = NULL;
	const char **flags = NULL;
	const char *mode = NULL, *kiter = NULL, *interesting = NULL, *top = NULL;
	struct rw_kiter_loop *kloops = NULL;
	unsigned nkloops = 0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			flags = (const char **)argv + i + 1;
			nflags = argc - i - 1;
			break;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--quiet")) {
			quiet = true;
		} else if (!strcmp(argv[i], "--check")) {
			check = true;
		} else if (!strcmp(argv[i], "--mode") || !strcmp(argv[i], "--kiter")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "kpath instrument: %s needs a value\n", argv[i]);
				return 2;
			}
			*(argv[i][2] == 'm' ? &mode : &kiter) = argv[i + 1];
			i++;
		} else if (!strcmp(argv[i], "--interesting") || !strcmp(argv[i], "--interesting-top")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "kpath instrument: %s needs a value\n", argv[i]);
				return 2;
			}
			*(argv[i][13] ? &top : &interesting) = argv[i + 1];
			i++;
		} else if (!strcmp(argv[i], "--kiter-loop")) {
			kloops = realloc(kloops, (nkloops + 1) * sizeof *kloops);
			if (!kloops)
				return 1;
			if (i + 1 >= argc || !kiter_loop_arg(argv[i + 1], &kloops[nkloops])) {
				fprintf(stderr, "kpath instrument: --kiter-loop '%s': expected FILE:LINE=K with LINE >= 1 and K "
				        "in 1..%u\n", i + 1 < argc ? argv[i + 1] : "", RW_KITER_MAX_K);
				free(kloops);
				return 2;
			}
			nkloops++;
			i++;
		} else if (!strcmp(argv[i], "--no-expr-branches")) {
			expr_branches = false;
		} else if (!strcmp(argv[i], "--ppp-registers")) {
			rw_ppp_registers = true;
		} else if (!strcmp(argv[i], "--no-repeat")) {
			rw_repeat_loops = false;
		} else if (!strcmp(argv[i], "--include-dir") && i + 1 < argc) {
			incdirs = realloc(incdirs, (size_t)(nincdirs + 1) * sizeof *incdirs);
			if (!incdirs)
				return 1;
			incdirs[nincdirs++] = argv[++i];
		} else if (!strcmp(argv[i], "--include-out") && i + 1 < argc) {
			incout = argv[++i];
		} else if (!strncmp(argv[i], "-p", 2)) {
			return kp_compdb_main(argc, argv); /* -p BUILD_DIR: compile_commands.json */
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "kpath instrument: unknown option '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!in) {
			in = argv[i];
		} else {
			fprintf(stderr, "kpath instrument: more than one input file ('%s', '%s')\n", in, argv[i]);
			return 2;
		}
	}
	if (!in) {
		usage(stderr);
		return 2;
	}
	unsigned k = 0;
	if (!kp_kiter_args(mode, kiter, check, &k) || (nkloops && !k && kiter_needs_mode())) {
		free(incdirs);
		free(kloops);
		return 2;
	}
	double topv = -1;
	if (!kp_ppp_args(mode, interesting, top, check, &topv)) {
		free(incdirs);
		free(kloops);
		return 2;
	}
	struct inc_opts inc = {incdirs, nincdirs, incout};
	struct run_opts o = {.in = in, .out = out, .flags = flags, .nflags = nflags, .quiet = quiet, .check = check,
	                     .no_expr_branches = !expr_branches, .inc = &inc, .kiter = k, .kiter_loops = kloops,
	                     .nkiter_loops = nkloops, .interesting = interesting, .interesting_top = topv};
	int rc = run(&o);
	free(incdirs);
	free(kloops);
	return rc;
}

int kp_paths_parse(const char *in, const char **flags, int nflags, const char *only, struct kp_paths_req *req)
{
	struct run_opts o = {.in = in, .flags = flags, .nflags = nflags, .quiet = true, .dump = stdout, .only = only,
	                     .paths = req};
	return run(&o);
}

static int run(const struct run_opts *o)
{
	const char *in = o->in, *out = o->out, **flags = o->flags, *only = o->only;
	int nflags = o->nflags;
	bool quiet = o->quiet, check = o->check, expr_branches = !o->no_expr_branches;
	FILE *dump = o->dump;
	const struct inc_opts *inc = o->inc;
	struct kp_paths_req *paths = o->paths;
	FILE *probe = fopen(in, "r");
	if (!probe) {
		fprintf(stderr, "kpath: error: cannot read '%s': %s\n", in, strerror(errno));
		return 1;
	}
	fclose(probe);
	struct kp_interesting *ppp = NULL;
	if (o->interesting && !(ppp = kp_interesting_load(o->interesting, o->interesting_top)))
		return KP_EXIT_INTERESTING; /* kpath-cc: a failed build, not a fallback */
	char *out_owned = out || dump ? NULL : default_output(in);
	if (!out)
		out = out_owned;
	if (out && !dump && !output_path_ok(in, out)) {
		free(out_owned);
		kp_interesting_free(ppp);
		return 1;
	}

	struct src_file src;
	memset(&src, 0, sizeof src);
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	struct macro_fns mfns = {0};
	struct hdr_set hdrs = {0};
	struct kp_kiter_pragmas pragmas = {0};
	struct reparse rp;
	memset(&rp, 0, sizeof rp);
	char src_hash[17] = "";
	enum CXErrorCode rc = clang_parseTranslationUnit2(index, in, flags, nflags, NULL, 0,
	                                                  CXTranslationUnit_DetailedPreprocessingRecord, &tu);
	int status = 0;
	if (rc != CXError_Success || !tu) {
		fprintf(stderr, "kpath: error: %s: libclang could not parse the file (error %d)\n", in, (int)rc);
		status = 1;
		goto done;
	}
	if (report_diagnostics(tu)) {
		fprintf(stderr, "kpath: error: %s does not compile; nothing written\n", in);
		status = 1;
		goto done;
	}
	src.path = in;
	src.file = clang_getFile(tu, in);
	src.tu = tu;
	src.text = clang_getFileContents(tu, src.file, &src.len);
	if (!src.text) {
		fprintf(stderr, "kpath: error: cannot read '%s'\n", in);
		status = 1;
		goto done;
	}
	rw_source_hash(src.text, src.len, src_hash); /* the bytes as read, before expansion */
	if (!src_index(&src)) {
		fprintf(stderr, "kpath: out of memory\n");
		status = 1;
		goto done;
	}
	char prefix[16];
	const char *reserved;
	if (!choose_prefix(&src, prefix, sizeof prefix, &reserved)) {
		fprintf(stderr, "kpath: error: %s: no free prefix for generated identifiers\n", in);
		status = 1;
		goto done;
	}
	if (reserved) {
		fprintf(stderr, "kpath: error: %s: declares '%s'; names starting with kpath_rt_ are reserved for kpath\n",
		        in, reserved);
		status = 1;
		goto done;
	}
	/* --mode kiter: #pragma kpath kiter(K) of the main file (expansion
	 * below keeps every line) */
	if (o->kiter && !dump && !paths && !kp_kiter_pragmas_read(&src, &pragmas)) {
		fprintf(stderr, "kpath: error: %s: malformed #pragma kpath (above); nothing written\n", in);
		status = 1;
		goto done;
	}
	/* Functions that fail only because macros spell some of their control
	 * flow get those invocations written out, and the file is parsed again
	 * (expand.h).  kpath instrument finds them during its first walk, which
	 * is kept when there are none (the common case: each function is built
	 * once); cfg and paths print as they go, so a survey walk finds them
	 * first. */
	bool collect = !dump && !paths, expanded = false;
	if (!collect) {
		struct walk survey = {.macro = &mfns, .src = &src, .quiet = quiet, .expr_branches = expr_branches,
		                      .only = only};
		clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &survey);
	}
	struct rw_file rw;
	struct walk w;
	for (;;) {
		if (mfns.n && !expanded) {
			expanded = true;
			CXTranslationUnit tu2 = expand_and_reparse(index, &src, &mfns, flags, nflags, prefix, &rp);
			if (tu2) { /* the first unit stays: functions not written out come from it */
				rp.src.path = in;
				rp.src.tu = tu2;
				rp.src.text = clang_getFileContents(tu2, rp.src.file, &rp.src.len);
				if (rp.src.text)
					reparse_index(&rp);
				if (!rp.src.text || !src_index(&rp.src) ||
				    !choose_prefix2(&src, &rp.src, prefix, sizeof prefix, &reserved) || reserved) {
					fprintf(stderr, "kpath: error: %s: cannot read back the file with macro expansions\n", in);
					status = 1;
					goto done;
				}
			}
		}
		rw_file_init(&rw, prefix, in, check);
		memcpy(rw.src_hash, src_hash, sizeof rw.src_hash);
		if (!dump && inc && inc->n) {
			char err[PATH_MAX + 128];
			char *root = inc->out ? strdup(inc->out) : default_include_out(out);
			bool ok = hdr_collect(tu, in, inc->dirs, inc->n, root, &hdrs, err, sizeof err);
			free(root);
			for (unsigned i = 0; ok && i < hdrs.n; i++)
				if (src_prefix_used(&hdrs.v[i].src, prefix)) {
					snprintf(err, sizeof err, "%s uses identifiers starting with %s, kpath's prefix for this file",
					         hdrs.v[i].spelling, prefix);
					ok = false;
				}
			if (!ok) {
				fprintf(stderr, "kpath: error: %s: %s; nothing written\n", in, err);
				rw_file_free(&rw);
				status = 1;
				goto done;
			}
			hdr_plan_edits(&hdrs, tu, src.file, src.text, src.len, &rw, prefix, check);
		}
		char *msgbuf = NULL;
		size_t msglen = 0;
		FILE *msg = collect && !expanded ? open_memstream(&msgbuf, &msglen) : NULL;
		if (collect && !expanded && !msg) {
			fprintf(stderr, "kpath: out of memory\n");
			rw_file_free(&rw);
			status = 1;
			goto done;
		}
		kp_interesting_reset(ppp); /* a second walk counts again */
		w = (struct walk){.hdrs = &hdrs, .expanded = &mfns, .src = &src, .rw = &rw, .quiet = quiet,
		                  .expr_branches = expr_branches, .dump = dump, .only = only, .paths = paths,
		                  .collect = msg ? &mfns : NULL, .msg = msg, .staged = o->staged, .stage = o->stage,
		                  .kiter = o->kiter, .kiter_loops = o->kiter_loops, .nkiter_loops = o->nkiter_loops,
		                  .ppp = ppp, .pragmas = &pragmas, .main_src = &src,
		                  .reparse = rp.src.tu ? &rp : NULL};
		clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &w);
		if (w.reparse)
			reparse_shift(&rp, &rw);
		if (!msg)
			break;
		fclose(msg);
		if (!mfns.n) { /* nothing to write out: this walk stands */
			fwrite(msgbuf, 1, msglen, stderr);
			free(msgbuf);
			break;
		}
		/* walk again on the file with the macros written out */
		free(msgbuf);
		rw_file_free(&rw);
		hdr_set_free(&hdrs);
		memset(&hdrs, 0, sizeof hdrs);
	}
	if (dump) {
		rw_file_free(&rw);
		goto done;
	}
	for (unsigned i = 0; i < pragmas.n; i++)
		if (!pragmas.v[i].used)
			fprintf(stderr, "%s:%u: warning: #pragma kpath kiter(%u): the loop on line %u is in no function "
			        "instrumented\n", in, pragmas.v[i].line, pragmas.v[i].k, pragmas.v[i].loop_line);
	for (unsigned i = 0; i < o->nkiter_loops; i++)
		if (!o->kiter_loops[i].used) {
			fprintf(stderr, "%s:%u: error: --kiter-loop %s:%u=%u: no loop head starts on this line (the heads' lines "
			        "are in the comment after each function's \"{\" in the output); %s not written\n",
			        o->kiter_loops[i].file, o->kiter_loops[i].line, o->kiter_loops[i].file, o->kiter_loops[i].line,
			        o->kiter_loops[i].k, out);
			status = 1;
		}
	if (status) {
		rw_file_free(&rw);
		goto done;
	}
	char herr[PATH_MAX + 128];
	if (!hdr_write(&hdrs, &rw, herr, sizeof herr)) {
		fprintf(stderr, "kpath: error: %s; %s not written\n", herr, out);
		rw_file_free(&rw);
		status = 1;
		goto done;
	}
	char *text = rp.full ? rw_render(&rw, rp.full, rp.full_len, out) : rw_render(&rw, src.text, src.len, out);
	if (check && !output_parses(index, in, flags, nflags, text)) {
		fprintf(stderr, "kpath: error: internal error: the instrumented text of %s does not compile (above; "
		        "please report it); %s not written\n", in, out);
		status = 1;
	} else if (kp_write_atomic(out, text, strlen(text)) != 0) {
		fprintf(stderr, "kpath: error: cannot write '%s': %s\n", out, strerror(errno));
		status = 1;
	} else {
		if (ppp) {
			const struct kp_ppp_counts *pc = kp_interesting_counts(ppp);
			kp_interesting_finish(ppp, in);
			fprintf(stderr, "kpath: %s: %u functions instrumented (ppp: %u, %llu interesting paths; plain "
			        "Ball-Larus: %u), %u skipped\n", in, w.counts.instrumented, pc->ppp, pc->interesting,
			        pc->plain, w.counts.skipped);
		} else if (o->kiter) /* the default mode's line stays as it was */
			fprintf(stderr, "kpath: %s: %u functions instrumented (kiter K=%u), %u skipped, %u with K lowered\n",
			        in, w.counts.instrumented, o->kiter, w.counts.skipped, w.counts.lowered);
		else
			fprintf(stderr, "kpath: %s: %u functions instrumented, %u skipped, %u cut\n", in,
			        w.counts.instrumented, w.counts.skipped, w.counts.cut);
	}
	free(text);
	rw_file_free(&rw);
done:
	kp_kiter_pragmas_free(&pragmas);
	hdr_set_free(&hdrs);
	for (uint32_t i = 0; i < mfns.n; i++) {
		free(mfns.v[i].name);
		free(mfns.v[i].reason);
	}
	free(mfns.v);
	if (rp.src.tu)
		clang_disposeTranslationUnit(rp.src.tu);
	reparse_free(&rp);
	src_free(&src);
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	free(out_owned);
	kp_interesting_free(ppp);
	return status;
}
