/*
 * expand.c: macro invocations written out as their expansion (expand.h).
 *
 * Invariant: the text handed back preprocesses to exactly the token stream
 * of the original file (checked, not assumed), and every token outside the
 * written-out invocations keeps its line.  The proof obligations, each
 * checked by running the preprocessor:
 *   1. markers do not disturb the expansion: the marked, flattened file
 *      without its markers preprocesses to the original's tokens (this also
 *      rejects __LINE__ in a multi-line invocation, and an invocation whose
 *      extent does not cover all of its arguments);
 *   2. the edited file preprocesses to the original's tokens (this rejects a
 *      macro whose output is re-expanded differently when read again, e.g. a
 *      self-referential `#define x (x + 1)`, and __COUNTER__ shifts).
 * The copies the preprocessor reads have the quiet spans of the request
 * blanked (quiet.h: all but the directives and the functions whose
 * invocations may be written out): every byte but the newlines becomes a
 * space, so lines and offsets stay.  The proofs above then hold for these
 * copies, and quiet.c argues why their expansions are the whole file's.
 * Preprocessing runs on a temporary copy beside the source (so quoted
 * includes resolve as for the original) that starts with `#line 1 "PATH"`
 * (so __FILE__ is the original's).
 */
#define _GNU_SOURCE /* memmem */
#include "expand.h"
#include "pipeline.h"
#include "pp_text.h"
#include "array.h"
#include "xalloc.h"
#include "strbuf.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* --- running the preprocessor ----------------------------------------------- */

struct pp {
	const struct xp_request *rq;
	char *tmpdir;    /* a private directory under $TMPDIR */
	char *tmp;       /* the temporary copy in it */
	char *tmp2;      /* a second copy (pp_run_both) */
	char *tmp_base;  /* its last component (must not leak into expansions) */
	char *srcdir;    /* the source's directory: first for #include "..." */
	bool no_cc;      /* run without -CC (pp_marked: the comments damage the output) */
};

/* Flags for `clang -E`: the parser flags without those that write files or
 * change the action. */
static bool keep_flag(const char **f, int n, int *i)
{
	const char *a = f[*i];
	if (!strcmp(a, "-MF") || !strcmp(a, "-MT") || !strcmp(a, "-MQ") || !strcmp(a, "-o")) {
		(*i)++;
		return false;
	}
	(void)n;
	return !kp_parse_only_flag(a) && strncmp(a, "-M", 2) && strcmp(a, "-c") && strcmp(a, "-S") && strcmp(a, "-E") &&
	       strncmp(a, "-o", 2);
}

struct xp_stats xp_stats;

/* Writes the copy the preprocessor reads to path: "#line 1 PATH" and text. */
static bool pp_write(const struct pp *pp, const char *path, const char *text, size_t len, char *err, size_t errsz)
{
	FILE *f = fopen(path, "w");
	if (!f) {
		snprintf(err, errsz, "cannot write %s: %s", path, strerror(errno));
		return false;
	}
	fputs("#line 1 \"", f);
	for (const char *s = pp->rq->path; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputs("\"\n", f);
	bool ok = fwrite(text, 1, len, f) == len;
	ok &= fclose(f) == 0;
	if (!ok) {
		snprintf(err, errsz, "cannot write %s", path);
		return false;
	}
	return true;
}

/* Runs `clang -E -P` on the copy at path; its output in *out.  One input
 * per run: with two, clang's driver cannot run its compiler in its own
 * process and starts one more clang for each input (three start-ups for
 * two files, each about as costly as preprocessing a large file whose
 * functions are blanked; two single-input runs start two). */
static bool pp_spawn(struct pp *pp, const char *path, struct sb *out, char *err, size_t errsz)
{
	xp_stats.runs++;
	const struct xp_request *rq = pp->rq;
	const char *clang = getenv("KPATH_CLANG");
	const char **argv = malloc((size_t)(rq->nflags + 12) * sizeof *argv);
	if (!argv) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	int argc = 0;
	argv[argc++] = clang && *clang ? clang : KPATH_CLANG_DEFAULT;
	/* #include "..." looks first beside the including file: the copy's
	 * directory holds nothing else, and the source's directory comes next,
	 * before any -iquote or -I of the user's, as it would for the source. */
	argv[argc++] = "-iquote";
	argv[argc++] = pp->srcdir;
	for (int i = 0; i < rq->nflags; i++)
		if (keep_flag(rq->flags, rq->nflags, &i))
			argv[argc++] = rq->flags[i];
	argv[argc++] = "-E";
	argv[argc++] = "-P";
	/* comments, also those of macro definitions: an expansion written out
	 * keeps its fall-through comments (pp_keep_fallthrough_comments) */
	if (!pp->no_cc)
		argv[argc++] = "-CC";
	argv[argc++] = "-w";
	argv[argc++] = "-x";
	argv[argc++] = "c";
	argv[argc++] = path;
	argv[argc] = NULL;
	int fds[2];
	if (pipe(fds) != 0) {
		free(argv);
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		return false;
	}
	/* posix_spawn, not fork: the parent holds a whole translation unit,
	 * and copying its page tables (and faulting its pages back) cost more
	 * than the preprocessor itself */
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc = posix_spawn_file_actions_init(&fa);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (!rc)
		rc = posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	if (!rc)
		rc = posix_spawn_file_actions_addclose(&fa, fds[0]);
	if (!rc)
		rc = posix_spawn_file_actions_addclose(&fa, fds[1]);
	fflush(NULL);
	if (!rc)
		rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		close(fds[0]);
		close(fds[1]);
		if (rc == ENOENT || rc == EACCES)
			snprintf(err, errsz, "cannot run %s (set KPATH_CLANG)", argv[0]);
		else
			snprintf(err, errsz, "cannot run %s: %s", argv[0], strerror(rc));
		free(argv);
		return false;
	}
	free(argv);
	close(fds[1]);
	out->n = 0;
	sb_put(out, "", 0);
	char buf[65536];
	ssize_t r;
	while ((r = read(fds[0], buf, sizeof buf)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		sb_put(out, buf, (size_t)r);
	}
	close(fds[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			snprintf(err, errsz, "cannot run %s (set KPATH_CLANG)", clang && *clang ? clang : KPATH_CLANG_DEFAULT);
		else
			snprintf(err, errsz, "the preprocessor failed on the expanded text");
		return false;
	}
	return true;
}

/* Preprocesses text, and text2 when given (then out2 gets its output,
 * and text2 is read from the second copy's name, as the marked copy of
 * the first try always was). */
static bool pp_run_both(struct pp *pp, const char *text, size_t len, struct sb *out, const char *text2,
                        size_t len2, struct sb *out2, char *err, size_t errsz)
{
	if (!pp_write(pp, pp->tmp, text, len, err, errsz) || !pp_spawn(pp, pp->tmp, out, err, errsz))
		return false;
	return !text2 ||
	       (pp_write(pp, pp->tmp2, text2, len2, err, errsz) && pp_spawn(pp, pp->tmp2, out2, err, errsz));
}

/* Preprocesses text with `clang -E -P`; the output in *out (malloc'd).
 * false with a reason in err when clang cannot run or fails. */
static bool pp_run(struct pp *pp, const char *text, size_t len, struct sb *out, char *err, size_t errsz)
{
	return pp_run_both(pp, text, len, out, NULL, 0, NULL, err, errsz);
}

struct job {
	struct pp pp;
	const char *text;     /* what the preprocessor reads: rq->text with the quiet spans blanked */
	struct ptoks orig;    /* tokens of the original, preprocessed */
	bool orig_pending;    /* the original is preprocessed with the first marked copy */
	bool both_failed;     /* that run failed */
	struct sb orig_pp;
	char **expansion;     /* per region: its expansion on one line, NULL if not written out */
	bool *keep;           /* per region: left as it is, neither marked nor flattened (try_set) */
	char **reason;        /* per function */
	unsigned *reason_line; /* per function: the line of the invocation its reason is about, 0 if none */
};

static void set_reason(struct job *j, uint32_t fn, unsigned line, const char *fmt, ...)
{
	char tmp[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (!j->reason[fn]) {
		j->reason[fn] = xstrdup(tmp);
		j->reason_line[fn] = line;
	}
}

/* The line of byte off of the original text. */
static unsigned text_line(const struct xp_request *rq, uint32_t off)
{
	unsigned line = 1;
	for (uint32_t i = 0; i < off && i < rq->len; i++)
		line += rq->text[i] == '\n';
	return line;
}

/* Compares a preprocessed text with the original's tokens from t's token
 * *pi and the original's *pk on, ignoring the marker tokens (prefix
 * "Pxp") when marker is set.  On a difference, *pi and *pk are the first
 * tokens that differ (*pi == t->n when t ends early). */
static bool tokens_match(struct job *j, const char *text, const struct ptoks *t, const char *marker, uint32_t *pi,
                         uint32_t *pk)
{
	size_t ml = marker ? strlen(marker) : 0;
	uint32_t i = *pi, k = *pk;
	for (; i < t->n; i++) {
		if (marker && t->t[i].len > ml && !memcmp(text + t->t[i].off, marker, ml))
			continue;
		if (k >= j->orig.n || !pp_tok_eq(text, t->t[i], j->orig_pp.s, j->orig.t[k]))
			break;
		k++;
	}
	*pi = i;
	*pk = k;
	return i == t->n && k == j->orig.n;
}

/* The whole of t against the original's tokens; *at as tokens_match's *pi. */
static bool same_tokens(struct job *j, const char *text, const struct ptoks *t, const char *marker, uint32_t *at)
{
	uint32_t i = 0, k = 0;
	bool same = tokens_match(j, text, t, marker, &i, &k);
	if (at)
		*at = i;
	return same;
}

/* The region (between the markers "<marker>b<i>" and "<marker>e<i>")
 * that holds token at of the marked copy's output t, or UINT32_MAX when
 * none does; *begin (if given) is the index of its begin marker. */
static uint32_t region_at(const struct xp_request *rq, const char *text, const struct ptoks *t, const char *marker,
                          uint32_t at, uint32_t *begin)
{
	size_t ml = strlen(marker);
	for (uint32_t i = at < t->n ? at + 1 : t->n; i-- > 0;) {
		const char *s = text + t->t[i].off;
		if (t->t[i].len <= ml + 1 || memcmp(s, marker, ml))
			continue;
		unsigned idx = (unsigned)strtoul(s + ml + 1, NULL, 10);
		if (begin)
			*begin = i;
		return s[ml] == 'b' && idx < rq->nregions ? idx : UINT32_MAX; /* after an end: in none */
	}
	return UINT32_MAX;
}

/* The edited text: regions of the functions in sel with an expansion are
 * replaced by it, on their first line, followed by their newlines. */
static void build_edit(const struct xp_request *rq, struct job *j, const bool *sel, const char *text,
                       struct sb *b, struct xp_result *res)
{
	size_t pos = 0;
	b->n = 0;
	if (res)
		res->nshift = 0;
	for (uint32_t i = 0; i < rq->nregions; i++) {
		const struct xp_region *r = &rq->regions[i];
		if (!sel[r->fn] || !j->expansion[i])
			continue;
		sb_put(b, text + pos, r->start - pos);
		/* after a '/' the comment would open with "//" ("1.f/IMIN(25, n)",
		 * opus's analysis.c): a line comment taking the rest of the line */
		if (b->n && b->s[b->n - 1] == '/')
			sb_put(b, " ", 1);
		sb_printf(b, "/* kpath: expansion of %s */ ", r->name);
		if (res)
			res->xq[2 * res->nshift] = (uint32_t)b->n;
		sb_str(b, j->expansion[i]);
		if (res)
			res->xq[2 * res->nshift + 1] = (uint32_t)b->n;
		sb_put(b, " ", 1);
		for (unsigned k = pp_count_newlines(text + r->start, text + r->end); k; k--)
			sb_put(b, "\n", 1);
		pos = r->end;
		if (res) { /* the offset map (xp_map) */
			res->shift_start[res->nshift] = r->start;
			res->shift_end[res->nshift] = r->end;
			res->shift_delta[res->nshift++] = (int64_t)b->n - (int64_t)r->end;
		}
	}
	sb_put(b, text + pos, rq->len - pos);
}

/* The identifiers of the invocations written out (the macros' names, their
 * arguments and, transitively, what their definitions in this file name),
 * in a "#if defined(A) + defined(B)" at the end of the file: -Wunused-macros
 * counts that as a use (a sum: clang does not count the operands || and &&
 * skip), so a macro whose only invocations were written out is not
 * reported unused.  Directives add no token, and lines at the end shift no
 * other line.  (A macro #undef'd before the end is still reported.) */
static void append_macro_uses(const struct xp_request *rq, const struct job *j, const bool *sel, struct sb *b)
{
	struct pp_idents ids = {0};
	for (uint32_t i = 0; i < rq->nregions; i++)
		if (sel[rq->regions[i].fn] && j->expansion[i])
			pp_scan_idents(rq->text, rq->regions[i].start, rq->regions[i].end, &ids);
	struct pp_idents defs = {0};
	if (ids.n)
		pp_find_defines(rq->text, rq->len, &defs);
	for (size_t i = 0; i < ids.n; i++) /* ids grows while it is walked */
		for (size_t d = 0; d < defs.n; d++) {
			const char *name = ids.v[i].s, *t = defs.v[d].s;
			size_t n = ids.v[i].n;
			if (defs.v[d].n >= n && !memcmp(t, name, n) && (defs.v[d].n == n || !pp_ident_char(t[n])))
				pp_scan_idents(t, n, defs.v[d].n, &ids);
		}
	free(defs.v);
	/* names a #if may not hold: "defined", and the parameters of a
	 * variadic macro's definition (gcc and clang -pedantic warn on them
	 * anywhere else; duktape's DUK_DPRINT) */
	static const char *const not_macros[] = {"defined", "__VA_ARGS__", "__VA_OPT__"};
	size_t used = 0;
	for (size_t i = 0; i < ids.n; i++) {
		bool skip = false;
		for (size_t k = 0; k < sizeof not_macros / sizeof *not_macros && !skip; k++)
			skip = ids.v[i].n == strlen(not_macros[k]) && !memcmp(ids.v[i].s, not_macros[k], ids.v[i].n);
		if (!skip)
			sb_printf(b, "%sdefined(%.*s)", used++ ? " + " : "\n#if ", (int)ids.v[i].n, ids.v[i].s);
	}
	if (used)
		sb_str(b, "\n#endif\n");
	free(ids.v);
}

/* Whether the original's tokens with comments (j->orig, -CC) differ from
 * those of a run without: clang -E -CC writes a macro's line comment as a
 * block comment, and one that holds "*" "/" then ends early and leaves
 * tokens that are not the file's (they may even parse); and a comment that
 * ends a macro's body stays a token before a "(" that followed the
 * invocation, so that a function-like macro's name ending the body is not
 * invoked (PCRE2 10.42's pcre2posix_test.c: "#define PRINTF if (v) printf
 * / * Shorthand for testing output * /", printf a macro under
 * _FORTIFY_SOURCE; main was skipped, "printf expands once more").  One
 * more run per file with invocations to write out, only when some file of
 * the unit or a flag has a line comment holding "*" "/" (rq->cc_risk) or
 * the output has a comment before a "(" (pp_comment_before_paren); the
 * cheap scan of the output (pp_comment_damage) saves it where the damage
 * shows. */
static bool cc_damaged(struct job *j)
{
	if (pp_comment_damage(j->orig_pp.s, &j->orig))
		return true;
	if (!j->pp.rq->cc_risk && !pp_comment_before_paren(j->orig_pp.s, &j->orig))
		return false; /* no comment that could do it (pp_line_comment_may_end_block) */
	struct sb plain = {0};
	struct ptoks pt = {0};
	char err[256];
	j->pp.no_cc = true;
	bool damaged = !pp_run(&j->pp, j->text, j->pp.rq->len, &plain, err, sizeof err);
	j->pp.no_cc = false;
	if (!damaged) {
		pp_tokenize(plain.s, plain.n, &pt);
		damaged = pt.n != j->orig.n;
		for (uint32_t i = 0; i < pt.n && !damaged; i++)
			damaged = !pp_tok_eq(plain.s, pt.t[i], j->orig_pp.s, j->orig.t[i]);
	}
	free(plain.s);
	free(pt.t);
	return damaged;
}

/* The original alone into j->orig (after a failed shared run of
 * pp_marked), without comments when they damage it (cc_damaged). */
static bool pp_original(struct job *j, char *err, size_t errsz)
{
	bool ok = pp_run(&j->pp, j->text, j->pp.rq->len, &j->orig_pp, err, errsz);
	if (!ok && !j->pp.no_cc) { /* comments clang -E -CC rejects (pp_marked) */
		j->pp.no_cc = true;
		ok = j->pp.no_cc = pp_run(&j->pp, j->text, j->pp.rq->len, &j->orig_pp, err, errsz);
	}
	if (!ok)
		return false;
	pp_tokenize(j->orig_pp.s, j->orig_pp.n, &j->orig);
	if (j->pp.no_cc || !cc_damaged(j))
		return true;
	j->pp.no_cc = true; /* as in pp_marked */
	if (!pp_run(&j->pp, j->text, j->pp.rq->len, &j->orig_pp, err, errsz))
		return false;
	pp_tokenize(j->orig_pp.s, j->orig_pp.n, &j->orig);
	return true;
}

/* The original (its tokens into j->orig) and the marked copy m (into out)
 * through one preprocessor run. */
static bool run_both(const struct xp_request *rq, struct job *j, const struct sb *m, struct sb *out, char *err,
                     size_t errsz)
{
	if (!pp_run_both(&j->pp, j->text, rq->len, &j->orig_pp, m->s, m->n, out, err, errsz))
		return false;
	pp_tokenize(j->orig_pp.s, j->orig_pp.n, &j->orig);
	return true;
}

/* Preprocesses the marked copy m into out; the first time, after the
 * original (xp_expand), whose tokens go to j->orig (a failure of either
 * sets j->both_failed).  A file whose comments clang -E -CC rejects (it
 * keeps a macro definition's comments as tokens, and one in a parameter
 * list is "invalid token in macro parameter list": zopfli's
 * ZOPFLI_APPEND_DATA(/ * T * / value, ...), which compiles) or damage
 * (cc_damaged) is preprocessed without comments. */
static bool pp_marked(const struct xp_request *rq, struct job *j, const struct sb *m, struct sb *out, char *err,
                      size_t errsz)
{
	if (!j->orig_pending)
		return pp_run(&j->pp, m->s, m->n, out, err, errsz);
	j->orig_pending = false;
	bool ok = run_both(rq, j, m, out, err, errsz);
	if (!ok && !j->pp.no_cc) {
		/* When this run fails too, the failure may be the marked copy's,
		 * not the comments': no_cc goes back to false, so that
		 * pp_original tries the original alone with comments again. */
		j->pp.no_cc = true;
		ok = j->pp.no_cc = run_both(rq, j, m, out, err, errsz);
	}
	if (ok && !j->pp.no_cc && cc_damaged(j)) {
		/* a macro's line comment holding a block comment's end, which
		 * -CC turns into a block comment that ends early */
		j->pp.no_cc = true;
		ok = run_both(rq, j, m, out, err, errsz);
	}
	j->both_failed = !ok;
	return ok;
}

/* The expansion [from, to) of a region into clean (comments dropped but
 * those that mark a fall-through); whether it is written out: when it holds
 * control flow, or is empty (a statement after it, as in "case 0:
 * Trace((...)); x = 1;", then starts in the file). */
static bool clean_expansion(struct sb *clean, const char *from, const char *to)
{
	sb_put(clean, "", 0);
	pp_keep_fallthrough_comments(clean, from, to);
	bool blank = true;
	for (size_t k = 0; k < clean->n && blank; k++)
		blank = clean->s[k] == ' ' || clean->s[k] == '\t' || clean->s[k] == '\n';
	return blank || pp_has_control(clean->s, clean->n);
}

/* Whether the region whose begin marker is token b of the marked copy's
 * output would be written out (clean_expansion of the text up to its end
 * marker); *end is the index of that marker.  A region without its end
 * marker counts as needed. */
static bool region_needed(const char *text, const struct ptoks *t, const char *marker, uint32_t b, uint32_t *end)
{
	size_t ml = strlen(marker);
	const char *bs = text + t->t[b].off;
	uint32_t e = b + 1;
	for (; e < t->n; e++) {
		const char *s = text + t->t[e].off;
		if (t->t[e].len > ml + 1 && !memcmp(s, marker, ml))
			break;
	}
	*end = e;
	if (e == t->n || text[t->t[e].off + ml] != 'e' || t->t[e].len != t->t[b].len ||
	    memcmp(text + t->t[e].off + ml + 1, bs + ml + 1, t->t[b].len - ml - 1))
		return true;
	struct sb clean = {0};
	bool needed = clean_expansion(&clean, bs + t->t[b].len, text + t->t[e].off);
	free(clean.s);
	return needed;
}

/* After a difference at token *at of the marked copy's output: the regions
 * that hold a difference and would not be written out (no control flow:
 * expat's run_character_check(...) over two lines, with __LINE__, in a
 * function whose braces a macro spells) get j->keep, to be left as they
 * are, unflattened, in the next run.  Each such region is taken to expand
 * to as many tokens as the original's (a __LINE__ differs, not the length)
 * and the comparison goes on after it, so that one run finds them all
 * (duktape.c: 33 DUK_ERROR invocations, a run of clang each before).  A
 * wrong guess only costs a run: the next one compares again.  How many
 * were kept; 0 with *at the first difference that is no such region's. */
static uint32_t keep_layout_regions(const struct xp_request *rq, struct job *j, const char *text,
                                    const struct ptoks *t, const char *marker, uint32_t *at)
{
	uint32_t i = 0, k = 0, kept = 0;
	tokens_match(j, text, t, marker, &i, &k);
	*at = i;
	while (i < t->n) {
		uint32_t b, e, ri = region_at(rq, text, t, marker, i, &b);
		if (ri == UINT32_MAX || j->keep[ri] || region_needed(text, t, marker, b, &e))
			break;
		j->keep[ri] = true;
		kept++;
		k += (e - b - 1) - (i - b - 1); /* the region's tokens in t, from its start */
		i = e + 1;
		if (k > j->orig.n || tokens_match(j, text, t, marker, &i, &k))
			break;
	}
	return kept;
}

/* Step 2 of try_set: the expansion between each region's markers in the
 * marked copy's output (out, its tokens t) goes to j->expansion when it is
 * empty or holds control flow (the others are not written out).  false
 * with err when one cannot be written out. */
static bool take_expansions(const struct xp_request *rq, struct job *j, const struct sb *out, const struct ptoks *t,
                            const char *marker, char *err, size_t errsz)
{
	size_t ml = strlen(marker);
	for (uint32_t i = 0, open = UINT32_MAX; i < t->n; i++) {
		const char *s = out->s + t->t[i].off;
		if (t->t[i].len <= ml + 1 || memcmp(s, marker, ml))
			continue;
		unsigned idx = (unsigned)strtoul(s + ml + 1, NULL, 10);
		if (s[ml] == 'b') {
			open = i;
			continue;
		}
		if (idx >= rq->nregions || open == UINT32_MAX ||
		    (unsigned)strtoul(out->s + t->t[open].off + ml + 1, NULL, 10) != idx) {
			snprintf(err, errsz, "a macro invocation whose expansion is not contiguous");
			return false;
		}
		const struct xp_region *r = &rq->regions[idx];
		struct sb clean = {0};
		bool needed = clean_expansion(&clean, out->s + t->t[open].off + t->t[open].len, s);
		const char *a = clean.s, *e = clean.s + clean.n;
		open = UINT32_MAX;
		if (!needed) {
			free(clean.s);
			continue;
		}
		for (const char *p = a; p < e; p++)
			if (*p == '\n') {
				const char *q = p + 1;
				while (q < e && (*q == ' ' || *q == '\t'))
					q++;
				if (q < e && *q == '#') {
					free(clean.s);
					snprintf(err, errsz, "the expansion of %s holds a _Pragma", r->name);
					return false;
				}
			}
		struct sb x = {0};
		sb_put(&x, "", 0);
		for (const char *p = a; p < e; p++)
			sb_put(&x, *p == '\n' ? " " : p, 1);
		free(clean.s);
		const char *bi;
		size_t bn;
		if (pp_find_header_builtin(x.s, x.n, rq->text + r->start, r->end - r->start, &bi, &bn)) {
			snprintf(err, errsz,
			         "the expansion of %s holds %.*s, from a macro of clang's own headers (gcc's headers "
			         "define that intrinsic otherwise)",
			         r->name, (int)bn, bi);
			free(x.s);
			return false;
		}
		if (strstr(x.s, j->pp.tmp_base)) {
			free(x.s);
			snprintf(err, errsz, "the expansion of %s names the file being compiled (__BASE_FILE__)",
			         r->name);
			return false;
		}
		free(j->expansion[idx]);
		j->expansion[idx] = x.s;
	}
	return true;
}

/* Tries to write out the invocations of the functions in sel; on success
 * j->expansion holds them, otherwise each function of sel gets a reason
 * (when sel holds a single function) or false is returned for a retry one
 * by one. */
static bool try_set(const struct xp_request *rq, struct job *j, const bool *sel, bool single, uint32_t *culprit)
{
	char err[256];
	unsigned err_line = 0; /* the invocation err is about, when known */
	struct sb m = {0}, out = {0}, out1 = {0};
	struct ptoks t = {0}, t1 = {0};
	char marker[48];
	snprintf(marker, sizeof marker, "%sxp", rq->prefix);
	if (culprit)
		*culprit = UINT32_MAX;
again:;
	/* 1. marked and flattened copy */
	size_t pos = 0;
	uint32_t nsel = 0;
	m.n = 0;
	for (uint32_t i = 0; i < rq->nregions; i++) {
		const struct xp_region *r = &rq->regions[i];
		if (!sel[r->fn] || j->keep[i])
			continue;
		nsel++;
		sb_put(&m, j->text + pos, r->start - pos);
		sb_printf(&m, " %sb%u ", marker, i);
		pp_flatten(&m, rq->text + r->start, rq->text + r->end);
		sb_printf(&m, " %se%u ", marker, i);
		for (unsigned k = pp_count_newlines(rq->text + r->start, rq->text + r->end); k; k--)
			sb_put(&m, "\n", 1);
		pos = r->end;
	}
	sb_put(&m, j->text + pos, rq->len - pos);
	bool ok = false;
	if (!nsel) {
		ok = true;
		goto out;
	}
	if (!pp_marked(rq, j, &m, &out, err, sizeof err)) {
		if (j->both_failed)
			goto out; /* xp_expand tells which copy failed */
		goto fail;
	}
	pp_tokenize(out.s, out.n, &t);
	uint32_t at;
	if (!same_tokens(j, out.s, &t, marker, &at)) {
		if (keep_layout_regions(rq, j, out.s, &t, marker, &at))
			goto again; /* those regions left as they are */
		uint32_t ri = region_at(rq, out.s, &t, marker, at, NULL);
		if (culprit)
			*culprit = ri == UINT32_MAX ? UINT32_MAX : rq->regions[ri].fn;
		if (ri != UINT32_MAX) /* the region holding the first token that differs */
			err_line = text_line(rq, rq->regions[ri].start);
		snprintf(err, sizeof err, "its expansion depends on the invocation's layout (__LINE__ in a "
		                          "multi-line invocation?) or on tokens after it");
		goto fail;
	}
	/* 2. the expansions between the markers */
	if (!take_expansions(rq, j, &out, &t, marker, err, sizeof err))
		goto fail;
	/* 3. the edited file must preprocess to the same tokens (out1); the
	 * marked copy's (out) tells the region of a difference */
	build_edit(rq, j, sel, j->text, &m, NULL);
	if (!pp_run(&j->pp, m.s, m.n, &out1, err, sizeof err))
		goto fail;
	pp_tokenize(out1.s, out1.n, &t1);
	uint32_t di = 0, dk = 0;
	if (!tokens_match(j, out1.s, &t1, NULL, &di, &dk)) {
		/* the region of the original's token dk, the marked copy's
		 * non-marker token dk (same_tokens above): the invocation that
		 * reads differently, not the function's first (PCRE2 10.42's
		 * pcre2test.c, process_pattern: toupper at line 5336, glibc's
		 * self-referential macro at -O2, was reported at 5190, a
		 * PATCTXCPY(...) written out well) */
		size_t ml = strlen(marker);
		uint32_t at = 0;
		for (uint32_t k = 0; at < t.n; at++)
			if ((t.t[at].len <= ml || memcmp(out.s + t.t[at].off, marker, ml)) && k++ == dk)
				break;
		uint32_t ri = region_at(rq, out.s, &t, marker, at, NULL);
		if (ri != UINT32_MAX)
			err_line = text_line(rq, rq->regions[ri].start);
		/* and set aside as in step 1, not found by halving
		 * (pcre2test.c: 33 preprocessor runs, 3.5 s CPU) */
		if (culprit)
			*culprit = ri == UINT32_MAX ? UINT32_MAX : rq->regions[ri].fn;
		/* the original's token where the edited file first differs: an
		 * identifier there is a macro name that the expansion kept (a
		 * self-referential macro: tcc's "#define symtab_section
		 * TCC_STATE_VAR(symtab_section)") and that expands once more */
		const char *id = dk < j->orig.n ? j->orig_pp.s + j->orig.t[dk].off : "";
		uint32_t n = dk < j->orig.n ? j->orig.t[dk].len : 0, c = 0;
		while (c < n && (id[c] == '_' || isalpha((unsigned char)id[c]) || (c && isdigit((unsigned char)id[c]))))
			c++;
		if (n && c == n && n <= 64)
			snprintf(err, sizeof err, "its expansion reads differently when preprocessed again (%.*s "
			                          "expands once more: a self-referential macro?)", (int)n, id);
		else
			snprintf(err, sizeof err, "its expansion reads differently when preprocessed again "
			                          "(a self-referential macro, __COUNTER__?)");
		goto fail;
	}
	ok = true;
	goto out;
fail:
	for (uint32_t i = 0; i < rq->nregions; i++)
		if (sel[rq->regions[i].fn]) {
			free(j->expansion[i]);
			j->expansion[i] = NULL;
		}
	if (single)
		for (uint32_t f = 0; f < rq->nfns; f++)
			if (sel[f])
				set_reason(j, f, err_line, "%s", err);
out:
	free(m.s);
	free(out.s);
	free(out1.s);
	free(t.t);
	free(t1.t);
	return ok;
}

/* Tries the functions fns[0..n) together; where that fails, each half on
 * its own, down to single functions, which get their reason.  A set with
 * f functions that cannot be written out costs O(f log n) preprocessor
 * runs instead of two per function.  xp_expand first sets aside, a run
 * each, the functions whose marked region holds the first token that
 * differs (in the marked copy, or in the edited file), and halves only
 * when a difference is in no region.  duktape.c (80,000 lines, 801 functions with
 * macro control flow, 6 that cannot be written out): one function at a
 * time made 1,600 runs of clang, 271 s of CPU; the halving alone 83 runs,
 * 16 s; with the setting aside 17 runs, 4 s; the same output each time
 * (tests/instrument/expand_retry.sh). */
static void try_halves(const struct xp_request *rq, struct job *j, bool *sel, const uint32_t *fns, uint32_t n)
{
	if (!n)
		return;
	memset(sel, 0, rq->nfns * sizeof *sel);
	for (uint32_t i = 0; i < n; i++)
		sel[fns[i]] = true;
	if (try_set(rq, j, sel, n == 1, NULL) || n == 1)
		return;
	try_halves(rq, j, sel, fns, n / 2);
	try_halves(rq, j, sel, fns + n / 2, n - n / 2);
}

/* The copy clang -E reads goes into a fresh directory under $TMPDIR (or
 * /tmp), never beside the source: source trees may be read-only, and a
 * build that globs its sources must not see it.  Its name differs from the
 * source's so that an expansion naming it (__BASE_FILE__) can be told from
 * one naming the source (__FILE__, which the #line gives). */
static bool make_tmp_name(struct pp *pp, const char *path, char *err, size_t errsz)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *td = getenv("TMPDIR");
	if (!td || !*td)
		td = "/tmp";
	size_t dn = strlen(td) + 32, n = dn + strlen(base) + 64;
	pp->tmpdir = malloc(dn);
	pp->tmp = malloc(n);
	pp->srcdir = slash ? malloc((size_t)(slash - path) + 2) : xstrdup(".");
	if (!pp->tmpdir || !pp->tmp || !pp->srcdir) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	if (slash) {
		size_t sl = slash == path ? 1 : (size_t)(slash - path);
		memcpy(pp->srcdir, path, sl);
		pp->srcdir[sl] = 0;
	}
	snprintf(pp->tmpdir, dn, "%s/kpath-xp-XXXXXX", td);
	if (!mkdtemp(pp->tmpdir)) {
		snprintf(err, errsz, "cannot create a temporary directory %s: %s", pp->tmpdir, strerror(errno));
		free(pp->tmpdir);
		pp->tmpdir = NULL;
		return false;
	}
	snprintf(pp->tmp, n, "%s/.kpath-xp-%ld-%s", pp->tmpdir, (long)getpid(), base);
	pp->tmp_base = strrchr(pp->tmp, '/') + 1;
	/* the second copy's name holds the first's: __BASE_FILE__ is found in either */
	pp->tmp2 = malloc(n + 8);
	if (!pp->tmp2) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	snprintf(pp->tmp2, n + 8, "%s.2", pp->tmp);
	return true;
}

/* rq's text with its quiet spans blanked (malloc'd). */
static char *blank_spans(const struct xp_request *rq)
{
	char *t = malloc(rq->len + 1);
	if (!t) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	memcpy(t, rq->text, rq->len);
	t[rq->len] = 0;
	for (uint32_t i = 0; i < rq->nquiet; i++) {
		assert(rq->quiet[i].start <= rq->quiet[i].end && rq->quiet[i].end <= rq->len);
		assert(!i || rq->quiet[i - 1].end <= rq->quiet[i].start);
		for (uint32_t k = rq->quiet[i].start; k < rq->quiet[i].end; k++)
			if (t[k] != '\n' && t[k] != '\r') /* both end a line */
				t[k] = ' ';
	}
	return t;
}

void xp_expand(const struct xp_request *rq, struct xp_result *res)
{
	struct job j;
	memset(&j, 0, sizeof j);
	j.pp.rq = rq;
	j.expansion = calloc(rq->nregions + 1, sizeof *j.expansion);
	j.reason = calloc(rq->nfns + 1, sizeof *j.reason);
	j.reason_line = calloc(rq->nfns + 1, sizeof *j.reason_line);
	j.keep = calloc(rq->nregions + 1, sizeof *j.keep);
	bool *sel = calloc(rq->nfns + 1, sizeof *sel);
	res->expanded = calloc(rq->nfns + 1, sizeof *res->expanded);
	if (!j.expansion || !j.reason || !j.reason_line || !j.keep || !sel || !res->expanded) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	char *quiet = rq->nregions && rq->nquiet ? blank_spans(rq) : NULL;
	j.text = quiet ? quiet : rq->text;
	for (uint32_t i = 0; i < rq->nquiet; i++)
		xp_stats.blanked += rq->quiet[i].end - rq->quiet[i].start;
	char err[256];
	if (rq->nregions && !make_tmp_name(&j.pp, rq->path, err, sizeof err)) {
		for (uint32_t f = 0; f < rq->nfns; f++)
			set_reason(&j, f, 0, "%s", err);
	} else if (rq->nregions) {
		for (uint32_t f = 0; f < rq->nfns; f++)
			sel[f] = true;
		j.orig_pending = true;
		uint32_t culprit;
		bool all = try_set(rq, &j, sel, rq->nfns == 1, &culprit);
		bool orig_ok = true;
		if (j.both_failed) { /* the original alone: if it fails, every function says so */
			orig_ok = pp_original(&j, err, sizeof err);
			if (orig_ok) {
				all = try_set(rq, &j, sel, rq->nfns == 1, &culprit);
			} else {
				for (uint32_t f = 0; f < rq->nfns; f++)
					set_reason(&j, f, 0, "%s", err);
			}
		}
		if (orig_ok && !all && rq->nfns > 1) {
			/* Set aside the function whose region the first differing
			 * token is in (a run each) while there is one; each half of
			 * the rest on its own, down to the functions that fail, when
			 * there is none; those set aside alone (each gets its own
			 * reason, or is written out after all); then once more all
			 * that worked together. */
			bool *aside = calloc(rq->nfns, sizeof *aside);
			uint32_t *fns = malloc(rq->nfns * sizeof *fns), n = 0;
			if (!aside || !fns) {
				fprintf(stderr, "kpath: out of memory\n");
				exit(1);
			}
			while (!all && culprit != UINT32_MAX && !aside[culprit]) {
				aside[culprit] = true;
				sel[culprit] = false;
				all = try_set(rq, &j, sel, false, &culprit);
			}
			for (uint32_t f = 0; f < rq->nfns; f++)
				if (!aside[f])
					fns[n++] = f;
			if (!all) {
				try_halves(rq, &j, sel, fns, n / 2);
				try_halves(rq, &j, sel, fns + n / 2, n - n / 2);
			}
			for (uint32_t f = 0; f < rq->nfns; f++)
				if (aside[f]) {
					memset(sel, 0, rq->nfns * sizeof *sel);
					sel[f] = true;
					try_set(rq, &j, sel, true, NULL);
				}
			free(fns);
			free(aside);
			for (uint32_t f = 0; f < rq->nfns; f++)
				sel[f] = !j.reason[f];
			if (!try_set(rq, &j, sel, false, NULL))
				for (uint32_t f = 0; f < rq->nfns; f++)
					if (sel[f])
						set_reason(&j, f, 0, "its expansion interferes with another function's (__COUNTER__?)");
		}
	}
	if (j.pp.tmpdir) {
		remove(j.pp.tmp);
		remove(j.pp.tmp2);
		rmdir(j.pp.tmpdir);
	}
	for (uint32_t f = 0; f < rq->nfns; f++)
		sel[f] = !j.reason[f];
	struct sb b = {0};
	res->shift_end = malloc((rq->nregions + 1) * sizeof *res->shift_end);
	res->shift_delta = malloc((rq->nregions + 1) * sizeof *res->shift_delta);
	res->xq = malloc(2 * (rq->nregions + 1) * sizeof *res->xq);
	res->shift_start = malloc((rq->nregions + 1) * sizeof *res->shift_start);
	if (!res->shift_end || !res->shift_delta || !res->xq || !res->shift_start) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	build_edit(rq, &j, sel, rq->text, &b, res);
	append_macro_uses(rq, &j, sel, &b);
	res->text = b.s;
	res->len = b.n;
	for (uint32_t i = 0; i < rq->nregions; i++) {
		if (j.expansion[i] && sel[rq->regions[i].fn])
			res->expanded[rq->regions[i].fn] = true;
		free(j.expansion[i]);
	}
	res->reason = j.reason;
	res->reason_line = j.reason_line;
	free(quiet);
	free(j.expansion);
	free(j.keep);
	free(sel);
	free(j.pp.tmp);
	free(j.pp.tmp2);
	free(j.pp.tmpdir);
	free(j.pp.srcdir);
	free(j.orig_pp.s);
	free(j.orig.t);
}

uint32_t xp_map(const struct xp_result *res, uint32_t off)
{
	uint32_t lo = 0, hi = res->nshift;
	while (lo < hi) { /* the first region written out ending after off */
		uint32_t mid = lo + (hi - lo) / 2;
		if (res->shift_end[mid] <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (uint32_t)((int64_t)off + res->shift_delta[lo - 1]) : off;
}

void xp_result_free(struct xp_result *res, uint32_t nfns)
{
	free(res->shift_start);
	free(res->shift_end);
	free(res->shift_delta);
	free(res->xq);
	for (uint32_t f = 0; f < nfns; f++)
		free(res->reason ? res->reason[f] : NULL);
	free(res->reason);
	free(res->reason_line);
	free(res->expanded);
	free(res->text);
	memset(res, 0, sizeof *res);
}
