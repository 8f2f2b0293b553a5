/*
 * pp_text.c: the text of clang -E output and of macro invocations, for
 * expand.c: preprocessing tokens (C11 6.4), comments, the one-line form
 * of an invocation, the comments an expansion keeps.  Pure functions of
 * their text.
 */
#include "pp_text.h"
#include "array.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static bool is_idc(char c)
{
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (unsigned char)c >= 0x80;
}

static const char *const punct[] = {"%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=",
                                    "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=",
                                    "##", "<:", ":>", "<%", "%>", "%:", NULL};

/* Length of the token at s (s < e, not whitespace). */
size_t pp_tok_len(const char *s, const char *e)
{
	const char *p = s;
	if (is_idc(*p) && !(*p >= '0' && *p <= '9')) {
		while (p < e && is_idc(*p))
			p++;
		/* encoding prefix of a literal: u8"...", L'x' */
		if (p < e && (*p == '"' || *p == '\'') && p - s <= 2)
			goto literal;
		return (size_t)(p - s);
	}
	if ((*p >= '0' && *p <= '9') || (*p == '.' && p + 1 < e && p[1] >= '0' && p[1] <= '9')) {
		p++;
		while (p < e) {
			if ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))
				p++;
			else if (is_idc(*p) || *p == '.')
				p++;
			else
				break;
		}
		return (size_t)(p - s);
	}
	if (*p == '"' || *p == '\'') {
	literal:;
		char q = *p++;
		while (p < e && *p != q && *p != '\n') {
			if (*p == '\\' && p + 1 < e)
				p++;
			p++;
		}
		return (size_t)(p < e && *p == q ? p + 1 - s : p - s);
	}
	/* the first character first: most punctuators are one character,
	 * and this loop ran strlen and memcmp on all 29 for each of them
	 * (14% of kpath instrument's own instructions on
	 * corpus/macro_heavy.c) */
	for (int i = 0; punct[i]; i++) {
		if (punct[i][0] != *s)
			continue;
		size_t n = strlen(punct[i]);
		if ((size_t)(e - s) >= n && !memcmp(s, punct[i], n))
			return n;
	}
	return 1;
}

/* The end of the comment at s (a block or a line comment), or s if none
 * starts there. */
static const char *comment_end(const char *s, const char *e)
{
	if (s + 1 >= e || s[0] != '/' || (s[1] != '*' && s[1] != '/'))
		return s;
	if (s[1] == '/') {
		while (s < e && *s != '\n')
			s++;
		return s;
	}
	for (s += 2; s + 1 < e; s++)
		if (s[0] == '*' && s[1] == '/')
			return s + 2;
	return e;
}

/* The preprocessor's output, comments skipped (the runs keep them, -CC). */
void pp_tokenize(const char *text, size_t len, struct ptoks *out)
{
	out->n = 0;
	const char *s = text, *e = text + len;
	while (s < e) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f' || *s == '\v') {
			s++;
			continue;
		}
		const char *c = comment_end(s, e);
		if (c != s) {
			s = c;
			continue;
		}
		size_t n = pp_tok_len(s, e);
		KP_RESERVE(out->t, out->cap, out->n + 1);
		out->t[out->n++] = (struct ptok){(uint32_t)(s - text), (uint32_t)n};
		s += n;
	}
}

bool pp_tok_eq(const char *a, struct ptok ta, const char *b, struct ptok tb)
{
	return ta.len == tb.len && !memcmp(a + ta.off, b + tb.off, ta.len);
}


/* The region's text on one line: comments and line splices removed,
 * newlines turned into spaces (string literals cannot hold a raw newline). */
void pp_flatten(struct sb *b, const char *s, const char *e)
{
	while (s < e) {
		if (*s == '\\' && s + 1 < e && s[1] == '\n') {
			s += 2;
		} else if (*s == '/' && s + 1 < e && s[1] == '/') {
			while (s < e && *s != '\n')
				s++;
			sb_put(b, " ", 1);
		} else if (*s == '/' && s + 1 < e && s[1] == '*') {
			s += 2;
			while (s + 1 < e && !(s[0] == '*' && s[1] == '/'))
				s++;
			s = s + 2 <= e ? s + 2 : e;
			sb_put(b, " ", 1);
		} else if (*s == '"' || *s == '\'') {
			/* a literal's line splices go too (translation phase 2),
			 * since the caller adds the region's newlines after it:
			 * binutils' readelf.c, _("Key to Flags:\n\<newline>...") */
			const char *p = s + pp_tok_len(s, e);
			for (; s < p; s++)
				if (*s == '\\' && s + 1 < p && s[1] == '\n')
					s++;
				else
					sb_put(b, s, 1);
		} else {
			sb_put(b, *s == '\n' ? " " : s, 1);
			s++;
		}
	}
}

/* Text [s, e) of an expansion without its comments (each becomes a
 * space), but for those that may mark an intended fall-through: gcc's
 * -Wimplicit-fallthrough (level 3, its default) accepts a comment such as
 * "fall through" or "FALLTHRU" just before a case label, also inside a
 * macro's definition, and an expansion written out without it would
 * warn where the original does not (expat's DEFINE_UTF16_TO_UTF8).  Any
 * comment with "fall" in it, in any case, is kept, as a block comment
 * on the line (newlines become spaces). */
void pp_keep_fallthrough_comments(struct sb *b, const char *s, const char *e)
{
	while (s < e) {
		const char *c = comment_end(s, e);
		if (c == s) {
			const char *p = s + ((*s == '"' || *s == '\'') ? pp_tok_len(s, e) : 1);
			sb_put(b, s, (size_t)(p - s));
			s = p;
			continue;
		}
		bool fall = false;
		for (const char *p = s; p + 4 <= c && !fall; p++)
			fall = (p[0] | 0x20) == 'f' && (p[1] | 0x20) == 'a' && (p[2] | 0x20) == 'l' && (p[3] | 0x20) == 'l';
		const char *body = s + 2, *end = s[1] == '*' && c - s >= 4 ? c - 2 : c;
		for (const char *p = body; p + 1 < end && fall; p++)
			fall = !(p[0] == '*' && p[1] == '/'); /* a line comment holding the end of a block one */
		if (fall) {
			sb_put(b, " /*", 3);
			for (const char *p = body; p < end; p++)
				sb_put(b, *p == '\n' || *p == '\r' ? " " : p, 1);
			sb_put(b, "*/ ", 3);
		} else if (b->n && b->s[b->n - 1] != ' ' && b->s[b->n - 1] != '\t' && b->s[b->n - 1] != '\n') {
			sb_put(b, " ", 1); /* one space, as the preprocessor leaves for a comment */
		}
		s = c;
		if (!fall && (!b->n || b->s[b->n - 1] == ' ' || b->s[b->n - 1] == '\t'))
			while (s < e && (*s == ' ' || *s == '\t'))
				s++;
	}
}

unsigned pp_count_newlines(const char *s, const char *e)
{
	unsigned n = 0;
	for (; s < e; s++)
		n += *s == '\n';
	return n;
}

static const char *const control_words[] = {"if", "else", "for", "while", "do", "switch", "case", "default",
                                            "break", "continue", "return", "goto", "{", "}", ":", NULL};

bool pp_has_control(const char *text, size_t len)
{
	struct ptoks t = {0};
	pp_tokenize(text, len, &t);
	bool found = false;
	for (uint32_t i = 0; i < t.n && !found; i++)
		for (int k = 0; control_words[k] && !found; k++)
			found = t.t[i].len == strlen(control_words[k]) &&
			        !memcmp(text + t.t[i].off, control_words[k], t.t[i].len);
	free(t.t);
	return found;
}


/* Whether clang -E -CC output text, its tokens t (pp_tokenize), holds a
 * "*" token directly followed by a "/" that starts no comment: the rest
 * of a macro's line comment that held "*" "/" (clang writes a macro's line
 * comment as a block comment, which ends there).  No valid token sequence
 * prints that way. */
bool pp_comment_damage(const char *text, const struct ptoks *t)
{
	for (uint32_t i = 0; i + 1 < t->n; i++)
		if (t->t[i].len == 1 && text[t->t[i].off] == '*' && t->t[i + 1].off == t->t[i].off + 1 &&
		    text[t->t[i + 1].off] == '/')
			return true;
	return false;
}

/* Whether clang -E -CC output text, its tokens t, holds an identifier, a
 * comment and then "(": a macro body that ends with a function-like
 * macro's name and a comment, invoked before its arguments ("#define
 * PRINTF if (v) printf / * ... * /" then PRINTF("...")), where -CC keeps
 * the comment as a token between the name and the "(" and the name is not
 * invoked.  Also a plain call with a comment before its "(". */
bool pp_comment_before_paren(const char *text, const struct ptoks *t)
{
	for (uint32_t i = 0; i + 1 < t->n; i++) {
		const char *a = text + t->t[i].off, *b = text + t->t[i + 1].off;
		if (*b != '(' || !(isalpha((unsigned char)*a) || *a == '_'))
			continue;
		for (const char *p = a + t->t[i].len; p + 1 < b; p++)
			if (p[0] == '/' && p[1] == '*')
				return true;
	}
	return false;
}

/* Whether text[i] starts a line splice ("\\" or the trigraph "??/", then
 * an optional "\r" and "\n") that splits a "//", "/" "*" or "*" "/". */
static bool spliced_slash_or_star(const char *text, size_t len, size_t i)
{
	size_t k = i;
	if (text[k] == '?' && k + 2 < len && text[k + 1] == '?' && text[k + 2] == '/')
		k += 2;
	else if (text[k] != '\\')
		return false;
	k++;
	if (k < len && text[k] == '\r')
		k++;
	if (k >= len || text[k] != '\n')
		return false;
	char before = i > 0 ? text[i - 1] : 0, after = k + 1 < len ? text[k + 1] : 0;
	if (before != '/' && before != '*')
		return false;
	return after == '\\' || after == '?' || /* another splice may follow */
	       (before == '/' && (after == '/' || after == '*')) || (before == '*' && after == '/');
}

bool pp_line_comment_may_end_block(const char *text, size_t len)
{
	if (!text)
		return false;
	enum { CODE, BLOCK, LINE, QUOTED } st = CODE;
	char quote = 0;
	for (size_t i = 0; i < len; i++) {
		char c = text[i], d = i + 1 < len ? text[i + 1] : 0;
		if (spliced_slash_or_star(text, len, i))
			return true; /* a "//", "/" "*" or "*" "/" split by a splice: not followed, assumed */
		switch (st) {
		case CODE:
			if (c == '/' && d == '*')
				st = BLOCK, i++;
			else if (c == '/' && d == '/')
				st = LINE, i++;
			else if (c == '"' || c == '\'')
				st = QUOTED, quote = c;
			break;
		case BLOCK:
			if (c == '*' && d == '/')
				st = CODE, i++;
			break;
		case LINE:
			if (c == '*' && d == '/')
				return true;
			if (c == '\n') { /* a splice ("\\", optional "\r") continues the comment */
				size_t k = i > 0 && text[i - 1] == '\r' ? i - 1 : i;
				if (!(k > 0 && text[k - 1] == '\\'))
					st = CODE;
			}
			break;
		case QUOTED:
			if (c == '\\')
				i++;
			else if (c == quote || c == '\n')
				st = CODE;
			break;
		}
	}
	return false;
}

bool pp_ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* Builtins that the macros of clang's own headers (its resource
 * directory: the intrinsics, stdatomic.h, tgmath.h) expand to, where gcc's
 * headers define the same macro otherwise (an inline function, another
 * builtin, or a builtin of the same name on other types: clang's
 * _mm_alignr_epi8 is __builtin_ia32_palignr128 on 16 byte elements and a
 * byte count, gcc's builtin of that name takes two 64-bit elements and a
 * bit count), or not at all (__builtin_shufflevector).  An expansion
 * written out holds clang's reading; compiled by gcc it fails, or might
 * compute something else. */
static bool clang_header_builtin(const char *s, size_t n)
{
	static const char *const prefix[] = {
	    "__builtin_ia32_",       "__builtin_shufflevector", "__builtin_convertvector", "__builtin_nontemporal_",
	    "__builtin_elementwise_", "__builtin_reduce_",      "__builtin_neon_",         "__builtin_arm_",
	    "__builtin_sve_",        "__builtin_altivec_",      "__builtin_vsx_",          "__c11_atomic_",
	    "__tg_",
	};
	for (size_t i = 0; i < sizeof prefix / sizeof *prefix; i++) {
		size_t pn = strlen(prefix[i]);
		if (n >= pn && !memcmp(s, prefix[i], pn))
			return true;
	}
	return false;
}

bool pp_find_header_builtin(const char *text, size_t len, const char *src, size_t srclen, const char **at,
                            size_t *n)
{
	struct pp_idents ids = {0}, named = {0};
	pp_scan_idents(text, 0, len, &ids);
	bool found = false;
	for (size_t i = 0; i < ids.n && !found; i++) {
		if (!clang_header_builtin(ids.v[i].s, ids.v[i].n))
			continue;
		if (!named.v)
			pp_scan_idents(src, 0, srclen, &named);
		found = true;
		for (size_t k = 0; k < named.n && found; k++)
			found = !(named.v[k].n == ids.v[i].n && !memcmp(named.v[k].s, ids.v[i].s, ids.v[i].n));
		if (found) {
			*at = ids.v[i].s;
			*n = ids.v[i].n;
		}
	}
	free(ids.v);
	free(named.v);
	return found;
}

/* Adds the identifiers of t[k, end) to ids (each once), skipping string
 * and character literals, comments and numbers. */
void pp_scan_idents(const char *t, size_t k, size_t end, struct pp_idents *ids)
{
	while (k < end) {
		char c = t[k];
		if (c == '"' || c == '\'') {
			for (k++; k < end && t[k] != c; k++)
				k += t[k] == '\\';
			k++;
		} else if (c == '/' && k + 1 < end && t[k + 1] == '*') {
			for (k += 2; k + 1 < end && !(t[k] == '*' && t[k + 1] == '/'); k++)
				;
			k += 2;
		} else if (c == '/' && k + 1 < end && t[k + 1] == '/') { /* a line comment ending a #define */
			while (k < end && t[k] != '\n')
				k++;
		} else if (c >= '0' && c <= '9') { /* a number, suffix included */
			while (k < end && (pp_ident_char(t[k]) || t[k] == '.'))
				k++;
		} else if (pp_ident_char(c)) {
			size_t e = k, i;
			while (e < end && pp_ident_char(t[e]))
				e++;
			for (i = 0; i < ids->n && !(ids->v[i].n == e - k && !memcmp(ids->v[i].s, t + k, e - k)); i++)
				;
			if (i == ids->n) {
				KP_RESERVE(ids->v, ids->cap, ids->n + 1);
				ids->v[ids->n].s = t + k;
				ids->v[ids->n++].n = e - k;
			}
			k = e;
		} else {
			k++;
		}
	}
}

/* The "#define NAME ..." directives of text[0, len), as ids: each NAME
 * with n spanning the name and the rest of its logical line (backslash-
 * newlines continue it). */
void pp_find_defines(const char *t, size_t len, struct pp_idents *defs)
{
	for (size_t k = 0; k < len; k++) {
		if (k && t[k - 1] != '\n')
			continue;
		size_t i = k;
		while (i < len && (t[i] == ' ' || t[i] == '\t'))
			i++;
		if (i >= len || t[i] != '#')
			continue;
		for (i++; i < len && (t[i] == ' ' || t[i] == '\t'); i++)
			;
		if (len - i < 7 || memcmp(t + i, "define", 6) || (t[i + 6] != ' ' && t[i + 6] != '\t'))
			continue;
		for (i += 6; i < len && (t[i] == ' ' || t[i] == '\t'); i++)
			;
		size_t e = i;
		while (e < len && t[e] != '\n')
			e += t[e] == '\\' && e + 1 < len && t[e + 1] == '\n' ? 2 : 1;
		KP_RESERVE(defs->v, defs->cap, defs->n + 1);
		defs->v[defs->n].s = t + i;
		defs->v[defs->n++].n = e - i;
		k = e;
	}
}
