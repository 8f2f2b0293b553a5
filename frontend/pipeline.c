/*
 * pipeline.c: one run of kpath instrument, cfg or paths (pipeline.h).
 *
 *   parse (libclang, the user's flags)  -> diagnostics or a translation unit
 *   for each function definition in the main file (instrument_fn.c):
 *     build, stages, and a dump, a listing or the mode's rewrite (modes.h)
 *   functions that fail only because macros spell their control flow:
 *     invocations written out and the file parsed again (macro_scan.c)
 *   rw_render           preamble + edited text + descriptors
 *   write               temporary file + rename: never a half-written output
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include <clang-c/Index.h>

#include "frontend.h"
#include "pipeline.h"
#include "xalloc.h"

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

/* Whether out may be written: not a directory, not a device, FIFO or
 * socket (the rename of the temporary file would replace it: "-o
 * /dev/null" run as root replaced the machine's /dev/null with a regular
 * file), and not the input itself (by any name: "./", "..", a symbolic or
 * a hard link), which writing would replace.  Says why on stderr when
 * not. */
static bool output_path_ok(const char *in, const char *out)
{
	struct stat so, si;
	size_t n = strlen(out);
	bool is_dir = n > 0 && out[n - 1] == '/';
	if (stat(out, &so) == 0) {
		is_dir |= S_ISDIR(so.st_mode) != 0;
		if (!is_dir && !S_ISREG(so.st_mode)) {
			fprintf(stderr, "kpath: error: the output '%s' is not a regular file (a device, FIFO or socket): "
			        "writing it would replace it; give -o a file name\n", out);
			return false;
		}
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

/* The state of one run. */
/* The phases whose CPU time KPATH_STATS=1 prints; the preprocessor's
 * runs (children) are counted apart. */
enum { PH_PARSE, PH_WALK, PH_EXPAND, PH_WALK2, PH_WRITE, PH_N };

struct run {
	const struct kp_run_opts *o;
	const struct kp_mode_ops *mode;   /* NULL: kpath cfg or paths */
	const char *out;
	char *out_owned;
	CXIndex index;
	CXTranslationUnit tu;
	struct src_file src;
	struct macro_fns mfns;
	struct plan_cache plans; /* the first walk's CFGs for the second (walk.h) */
	uint32_t built;          /* CFGs the walks built (KPATH_STATS) */
	struct hdr_set hdrs;
	struct reparse rp; /* the unit with the macros written out (reparse.h) */
	char src_hash[17];
	char prefix[16];
	struct rw_file rw;
	struct walk w;
	double cpu[PH_N];        /* CPU seconds of each phase (KPATH_STATS=1) */
	double cpu_mark;
	int phase;
};

static double cpu_self(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The phase that ends here gets the CPU time since the last mark; next
 * is the phase that starts. */
static void phase_mark(struct run *r, int next)
{
	double now = cpu_self();
	r->cpu[r->phase] += now - r->cpu_mark;
	r->cpu_mark = now;
	r->phase = next;
}

/* KPATH_STATS=1: where the CPU time went (the preprocessor's runs are
 * child processes: the macros written out, expand.c). */
static void print_phases(const struct run *r)
{
	const char *stats = getenv("KPATH_STATS");
	if (!stats || strcmp(stats, "1"))
		return;
	struct rusage ch;
	double pp = 0;
	if (getrusage(RUSAGE_CHILDREN, &ch) == 0)
		pp = (double)ch.ru_utime.tv_sec + (double)ch.ru_stime.tv_sec +
		     ((double)ch.ru_utime.tv_usec + (double)ch.ru_stime.tv_usec) * 1e-6;
	fprintf(stderr, "kpath: stats: %s: CPU s: parse %.2f, walk %.2f, macros written out %.2f (preprocessor %.2f), "
	        "walk again %.2f, write %.2f; %u CFGs built\n", r->o->in, r->cpu[PH_PARSE], r->cpu[PH_WALK],
	        r->cpu[PH_EXPAND], pp, r->cpu[PH_WALK2], r->cpu[PH_WRITE], r->built);
}

/* Parses the main file and indexes it; chooses the prefix.  0 or the
 * exit status. */
static int parse_main(struct run *r)
{
	const struct kp_run_opts *o = r->o;
	const char *in = o->in;
	enum CXErrorCode rc = clang_parseTranslationUnit2(r->index, in, o->flags, o->nflags, NULL, 0,
	                                                  CXTranslationUnit_DetailedPreprocessingRecord, &r->tu);
	if (rc != CXError_Success || !r->tu) {
		fprintf(stderr, "kpath: error: %s: libclang could not parse the file (error %d)\n", in, (int)rc);
		return 1;
	}
	if (report_diagnostics(r->tu)) {
		fprintf(stderr, "kpath: error: %s does not compile; nothing written\n", in);
		return 1;
	}
	r->src.path = in;
	r->src.file = clang_getFile(r->tu, in);
	r->src.tu = r->tu;
	r->src.text = clang_getFileContents(r->tu, r->src.file, &r->src.len);
	if (!r->src.text) {
		fprintf(stderr, "kpath: error: cannot read '%s'\n", in);
		return 1;
	}
	rw_source_hash(r->src.text, r->src.len, r->src_hash); /* the bytes as read, before expansion */
	if (!src_index(&r->src)) {
		fprintf(stderr, "kpath: out of memory\n");
		return 1;
	}
	const char *reserved;
	if (!choose_prefix(&r->src, r->prefix, sizeof r->prefix, &reserved)) {
		fprintf(stderr, "kpath: error: %s: no free prefix for generated identifiers\n", in);
		return 1;
	}
	if (reserved) {
		fprintf(stderr, "kpath: error: %s: declares '%s'; names starting with kpath_rt_ are reserved for kpath\n",
		        in, reserved);
		return 1;
	}
	if (r->mode && r->mode->source && !r->mode->source(o->mode->state, &r->src))
		return 1;
	return 0;
}

/* The file with the macro invocations written out is parsed again (when
 * it parses) into r->rp; the first unit stays: functions not written out
 * come from it (reparse.h).  0 or the exit status. */
static int expand_macros(struct run *r)
{
	const struct kp_run_opts *o = r->o;
	CXTranslationUnit tu2 = kp_expand_and_reparse(r->index, &r->src, &r->mfns, o->flags, o->nflags, r->prefix,
	                                              &r->rp);
	if (!tu2)
		return 0;
	r->rp.src.path = o->in;
	r->rp.src.tu = tu2;
	r->rp.src.text = clang_getFileContents(tu2, r->rp.src.file, &r->rp.src.len);
	if (r->rp.src.text)
		reparse_index(&r->rp);
	const char *reserved;
	if (!r->rp.src.text || !src_index(&r->rp.src) ||
	    !choose_prefix2(&r->src, &r->rp.src, r->prefix, sizeof r->prefix, &reserved) || reserved) {
		fprintf(stderr, "kpath: error: %s: cannot read back the file with macro expansions\n", o->in);
		return 1;
	}
	return 0;
}

/* --include-dir: the headers whose functions are instrumented too, and
 * the main file's includes redirected to their copies.  0 or 1. */
static int plan_headers(struct run *r)
{
	const struct kp_run_opts *o = r->o;
	const struct kp_inc_opts *inc = o->inc;
	char err[PATH_MAX + 128];
	char *root = inc->out ? strdup(inc->out) : default_include_out(r->out);
	bool ok = hdr_collect(r->tu, o->in, inc->dirs, inc->n, root, &r->hdrs, err, sizeof err);
	free(root);
	for (unsigned i = 0; ok && i < r->hdrs.n; i++)
		if (src_prefix_used(&r->hdrs.v[i].src, r->prefix)) {
			snprintf(err, sizeof err, "%s uses identifiers starting with %s, kpath's prefix for this file",
			         r->hdrs.v[i].spelling, r->prefix);
			ok = false;
		}
	if (!ok) {
		fprintf(stderr, "kpath: error: %s: %s; nothing written\n", o->in, err);
		return 1;
	}
	hdr_plan_edits(&r->hdrs, r->tu, r->src.file, r->src.text, r->src.len, &r->rw, r->prefix, o->check);
	return 0;
}

/* Functions that fail only because macros spell some of their control
 * flow get those invocations written out, and the file is parsed again
 * (expand.h).  kpath instrument finds them during its first walk, which
 * is kept when there are none (the common case: each function is built
 * once); cfg and paths print as they go, so a survey walk finds them
 * first.  On success (0) r->rw holds the rewrite; else the exit status,
 * r->rw freed. */
static int walk_all(struct run *r)
{
	const struct kp_run_opts *o = r->o;
	bool expr_branches = !o->no_expr_branches;
	bool collect = !o->dump && !o->numbered, expanded = false;
	if (!collect) {
		struct walk survey = {.macro = &r->mfns, .src = &r->src, .quiet = o->quiet, .expr_branches = expr_branches,
		                      .only = o->only};
		kp_walk(&survey, r->tu);
	}
	for (;;) {
		if (r->mfns.n && !expanded) {
			expanded = true;
			phase_mark(r, PH_EXPAND);
			if (expand_macros(r))
				return 1;
			phase_mark(r, PH_WALK2);
		}
		rw_file_init(&r->rw, r->prefix, o->in, o->check);
		memcpy(r->rw.src_hash, r->src_hash, sizeof r->rw.src_hash);
		if (!o->dump && o->inc && o->inc->n && plan_headers(r)) {
			rw_file_free(&r->rw);
			return 1;
		}
		char *msgbuf = NULL;
		size_t msglen = 0;
		FILE *msg = collect && !expanded ? open_memstream(&msgbuf, &msglen) : NULL;
		if (collect && !expanded && !msg) {
			fprintf(stderr, "kpath: out of memory\n");
			rw_file_free(&r->rw);
			return 1;
		}
		if (r->mode && r->mode->walk_start)
			r->mode->walk_start(o->mode->state);
		r->w = (struct walk){.hdrs = &r->hdrs, .expanded = &r->mfns, .src = &r->src, .rw = &r->rw,
		                     .quiet = o->quiet, .expr_branches = expr_branches, .dump = o->dump, .only = o->only,
		                     .numbered = o->numbered, .numbered_ctx = o->numbered_ctx,
		                     .collect = msg ? &r->mfns : NULL, .msg = msg, .staged = o->staged, .stage = o->stage,
		                     .mode = o->mode, .main_src = &r->src, .reparse = r->rp.src.tu ? &r->rp : NULL,
		                     .plans = &r->plans};
		kp_walk(&r->w, r->tu);
		r->built += r->w.built;
		if (r->w.reparse)
			reparse_shift(&r->rp, &r->rw);
		if (!msg) {
			kp_plan_cache_free(&r->plans);
			return 0;
		}
		fclose(msg);
		if (!r->mfns.n) { /* nothing to write out: this walk stands */
			fwrite(msgbuf, 1, msglen, stderr);
			free(msgbuf);
			return 0;
		}
		/* walk again on the file with the macros written out */
		free(msgbuf);
		rw_file_free(&r->rw);
		hdr_set_free(&r->hdrs);
		memset(&r->hdrs, 0, sizeof r->hdrs);
	}
}

/* The instrumented text and headers written, and the summary line.
 * Returns the exit status; r->rw freed. */
static int write_output(struct run *r)
{
	const struct kp_run_opts *o = r->o;
	const char *in = o->in, *out = r->out;
	int status = r->mode->finish ? r->mode->finish(o->mode->state, in, out) : 0;
	if (status) {
		rw_file_free(&r->rw);
		return status;
	}
	char herr[PATH_MAX + 128], why[2 * PATH_MAX + 512];
	if (!hdr_write(&r->hdrs, &r->rw, herr, sizeof herr)) {
		fprintf(stderr, "kpath: error: %s; %s not written\n", herr, out);
		rw_file_free(&r->rw);
		return 1;
	}
	char *text = r->rp.full ? rw_render(&r->rw, r->rp.full, r->rp.full_len, out)
	                        : rw_render(&r->rw, r->src.text, r->src.len, out);
	if (o->check && !output_parses(r->index, in, o->flags, o->nflags, text)) {
		fprintf(stderr, "kpath: error: internal error: the instrumented text of %s does not compile (above; "
		        "please report it); %s not written\n", in, out);
		status = 1;
	} else if (kp_write_atomic(out, text, strlen(text), why, sizeof why) != 0) {
		fprintf(stderr, "kpath: error: cannot write %s\n", why);
		status = 1;
	} else {
		r->mode->summary(o->mode->state, in, &r->w.counts);
	}
	free(text);
	rw_file_free(&r->rw);
	return status;
}

/* The input readable, the mode's data loaded, the output a file that is
 * not the input.  0 or the exit status. */
static int check_files(struct run *r)
{
	const struct kp_run_opts *o = r->o;
	FILE *probe = fopen(o->in, "r");
	if (!probe) {
		fprintf(stderr, "kpath: error: cannot read '%s': %s\n", o->in, strerror(errno));
		return 1;
	}
	fclose(probe);
	int rc = r->mode && r->mode->load ? r->mode->load(o->mode->state) : 0;
	if (rc)
		return rc;
	r->out_owned = o->out || o->dump ? NULL : default_output(o->in);
	r->out = o->out ? o->out : r->out_owned;
	if (r->out && !o->dump && !output_path_ok(o->in, r->out))
		return 1;
	return 0;
}

/* Whether the flags ask for GNU89 inline semantics, as clang decides it
 * (LangOptions::GNUInline): a C standard before C99, or -fgnu89-inline;
 * the last of each kind wins.  clang 14's default, gnu17, has C99's. */
static bool gnu89_inline(const char **flags, int n)
{
	bool old_std = false;
	int forced = -1; /* -f[no-]gnu89-inline: 1 or 0 */
	static const char *const pre_c99[] = {"c89", "c90", "gnu89", "gnu90", "iso9899:1990", "iso9899:199409"};
	for (int i = 0; i < n; i++) {
		const char *f = flags[i], *std = NULL;
		if (!strncmp(f, "-std=", 5))
			std = f + 5;
		else if (!strncmp(f, "--std=", 6))
			std = f + 6;
		else if ((!strcmp(f, "-std") || !strcmp(f, "--std")) && i + 1 < n)
			std = flags[++i];
		else if (!strcmp(f, "-ansi"))
			std = "c89";
		else if (!strcmp(f, "-fgnu89-inline"))
			forced = 1;
		else if (!strcmp(f, "-fno-gnu89-inline"))
			forced = 0;
		if (std) {
			old_std = false;
			for (size_t j = 0; j < sizeof pre_c99 / sizeof *pre_c99; j++)
				old_std |= !strcmp(std, pre_c99[j]);
		}
	}
	return forced >= 0 ? forced == 1 : old_std;
}

/* What gcc accepts and clang does not unless told, for every parse and
 * preprocessor run (before the user's flags, which may undo them): an
 * asm operand that casts an lvalue (longlong.h's umul_ppmm, in GMP,
 * glibc and libquadmath), and gcc's x86 builtins of __float128, named by
 * their _Float128 twins, which clang has (libquadmath's complex
 * functions return __builtin_huge_valq ()).  Only the parse sees these:
 * the instrumented text is the original's, for the user's compiler (the
 * write-out's preprocessor runs leave the macros out). */
static const char *const gcc_compat[] = {
	"-fheinous-gnu-extensions",
	"-D__builtin_huge_valq=__builtin_huge_valf128",
	"-D__builtin_infq=__builtin_inff128",
	"-D__builtin_nanq=__builtin_nanf128",
	"-D__builtin_nansq=__builtin_nansf128",
	"-D__builtin_fabsq=__builtin_fabsf128",
	"-D__builtin_copysignq=__builtin_copysignf128",
};
enum { NCOMPAT = sizeof gcc_compat / sizeof *gcc_compat };

bool kp_parse_only_flag(const char *f)
{
	for (size_t i = 0; i < NCOMPAT; i++)
		if (f == gcc_compat[i])
			return !strncmp(f, "-D", 2);
	return false;
}

static const char **with_gcc_compat(const struct kp_run_opts *o, struct kp_run_opts *copy)
{
	const char **f = xrealloc(NULL, (NCOMPAT + (size_t)o->nflags + 1) * sizeof *f);
	memcpy(f, gcc_compat, sizeof gcc_compat);
	if (o->nflags)
		memcpy(f + NCOMPAT, o->flags, (size_t)o->nflags * sizeof *f);
	f[NCOMPAT + o->nflags] = NULL;
	*copy = *o;
	copy->flags = f;
	copy->nflags = NCOMPAT + o->nflags;
	return f;
}

int kp_run(const struct kp_run_opts *user)
{
	struct run r;
	struct kp_run_opts copy;
	const char **flags = with_gcc_compat(user, &copy);
	const struct kp_run_opts *o = &copy;
	memset(&r, 0, sizeof r);
	r.o = o;
	r.mode = !o->dump && !o->numbered && o->mode ? o->mode->mode : NULL;
	int status = check_files(&r);
	if (status) {
		free(r.out_owned);
		free(flags);
		return status;
	}
	r.index = clang_createIndex(0, 0);
	build_gnu89_inline = gnu89_inline(o->flags, o->nflags);
	r.cpu_mark = cpu_self();
	r.phase = PH_PARSE;
	status = parse_main(&r);
	phase_mark(&r, PH_WALK);
	if (!status)
		status = walk_all(&r);
	phase_mark(&r, PH_WRITE);
	if (!status) {
		if (o->dump || o->numbered)
			rw_file_free(&r.rw);
		else
			status = write_output(&r);
	}
	phase_mark(&r, PH_WRITE);
	if (!status)
		print_phases(&r);
	hdr_set_free(&r.hdrs);
	kp_macro_fns_free(&r.mfns);
	kp_plan_cache_free(&r.plans);
	if (r.rp.src.tu)
		clang_disposeTranslationUnit(r.rp.src.tu);
	reparse_free(&r.rp);
	src_free(&r.src);
	if (r.tu)
		clang_disposeTranslationUnit(r.tu);
	clang_disposeIndex(r.index);
	free(r.out_owned);
	free(flags);
	return status;
}
