/*
 * kiter_pragma.c: `#pragma kpath kiter(K)` on a loop statement (issue 15,
 * docs/kiter-mode.md), read off the file's raw tokens (src_index: comments
 * and directives included, so a pragma inside a comment or a string is no
 * pragma, and one in a range the preprocessor skipped is ignored).
 *
 * Grammar, one directive line:  # pragma kpath kiter ( K )  with K a
 * decimal integer in 0..RW_KITER_MAX_K (0: acyclic).  The first code token
 * after the line (comments and blank lines between are allowed) must be the
 * keyword for, while or do that starts the loop statement; the pragma names
 * that statement by its keyword's line (fn_plan.loop_stmts).  Any other
 * `#pragma kpath ...` is an error: FILE:LINE: error: and the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiter_pragma.h"
#include "array.h"

/* The 1-based line of offset off (a binary search over line starts). */
static unsigned line_of(const struct src_file *src, uint32_t off)
{
	uint32_t lo = 0, hi = src->nlines;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (src->line_start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1;
}

static bool is(const struct src_tok *t, const char *sp)
{
	return t->len == strlen(sp) && !strcmp(t->sp, sp);
}

/* The next non-comment token after i, or ntoks. */
static uint32_t next_code(const struct src_file *src, uint32_t i)
{
	for (i++; i < src->ntoks && src->toks[i].kind == CXToken_Comment; i++)
		;
	return i;
}

/* Parses the directive whose "kpath" token is at i (line line): the K into
 * *k and the index of the directive's last token into *last.  Returns NULL
 * or the reason it is malformed. */
static const char *parse(const struct src_file *src, uint32_t i, unsigned line, unsigned *k, uint32_t *last)
{
	const struct src_tok *t = src->toks;
	uint32_t n = src->ntoks, j[4];
	j[0] = next_code(src, i);
	for (unsigned x = 1; x < 4; x++)
		j[x] = j[x - 1] < n ? next_code(src, j[x - 1]) : n;
	for (unsigned x = 0; x < 4; x++)
		if (j[x] >= n || line_of(src, t[j[x]].off) != line)
			return "expected kiter(K) after '#pragma kpath'";
	if (!is(&t[j[0]], "kiter"))
		return "unknown '#pragma kpath' directive (the one kpath knows is kiter(K))";
	if (!is(&t[j[1]], "(") || !is(&t[j[3]], ")"))
		return "expected kiter(K), K an integer";
	const char *sp = t[j[2]].sp;
	unsigned long v = 0;
	size_t len = t[j[2]].len;
	if (t[j[2]].kind != CXToken_Literal || len == 0 || len > 3 || strspn(sp, "0123456789") != len)
		return "K of kiter(K) must be a decimal integer";
	v = strtoul(sp, NULL, 10);
	if (v > RW_KITER_MAX_K)
		return "K of kiter(K) must be in 0..16 (0: acyclic)";
	uint32_t after = next_code(src, j[3]);
	if (after < n && line_of(src, t[after].off) == line)
		return "unexpected text after kiter(K)";
	*k = (unsigned)v;
	*last = j[3];
	return NULL;
}

static void push(struct kp_kiter_pragmas *p, struct rw_kiter_pragma v)
{
	KP_RESERVE(p->v, p->cap, p->n + 1);
	p->v[p->n++] = v;
}

bool kp_kiter_pragmas_read(const struct src_file *src, struct kp_kiter_pragmas *out)
{
	const struct src_tok *t = src->toks;
	bool ok = true;
	memset(out, 0, sizeof *out);
	for (uint32_t i = 0; i + 2 < src->ntoks; i++) {
		if (!is(&t[i], "#") || src_skipped(src, t[i].off))
			continue;
		unsigned line = line_of(src, t[i].off);
		uint32_t p = next_code(src, i), q = p < src->ntoks ? next_code(src, p) : src->ntoks;
		if (q >= src->ntoks || !is(&t[p], "pragma") || !is(&t[q], "kpath") || line_of(src, t[q].off) != line)
			continue;
		/* a directive: '#' first on its line */
		if (i > 0 && t[i - 1].kind != CXToken_Comment && line_of(src, t[i - 1].off + t[i - 1].len) == line)
			continue;
		unsigned k = 0;
		uint32_t last = q;
		const char *why = parse(src, q, line, &k, &last);
		uint32_t loop = why ? src->ntoks : next_code(src, last);
		if (!why && (loop >= src->ntoks || t[loop].kind != CXToken_Keyword ||
		             !(is(&t[loop], "for") || is(&t[loop], "while") || is(&t[loop], "do"))))
			why = "#pragma kpath kiter(K) must come just before a loop statement (for, while or do)";
		if (why) {
			fprintf(stderr, "%s:%u: error: %s\n", src->path, line, why);
			ok = false;
			continue;
		}
		push(out, (struct rw_kiter_pragma){.line = line, .loop_line = line_of(src, t[loop].off), .k = k});
		i = last;
	}
	return ok;
}

void kp_kiter_pragmas_free(struct kp_kiter_pragmas *p)
{
	free(p->v);
	memset(p, 0, sizeof *p);
}
