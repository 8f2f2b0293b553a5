/*
 * wpp_read.c: the reader of WPP files (docs/wpp-format.md), the checks
 * that make every later walk safe, and the walks themselves (post order,
 * frequencies, expansion).
 *
 * Walks are iterative: a grammar's rules can nest as deep as it has rules,
 * which is no bound a C stack should meet.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "wpp.h"

unsigned char *wpp_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = malloc(cap);
	while (b) {
		n += fread(b + n, 1, cap - n, f);
		if (n < cap)
			break;
		unsigned char *c = realloc(b, cap * 2);
		if (!c) {
			free(b);
			b = NULL;
			errno = ENOMEM;
			break;
		}
		b = c;
		cap *= 2;
	}
	if (b && ferror(f)) {
		int e = errno;
		free(b);
		b = NULL;
		errno = e;
	}
	fclose(f);
	*len = n;
	return b;
}

void wpp_func_free(struct wpp_func *f)
{
	free(f->name);
	free(f->file);
	free(f->checksum);
	free(f->source_hash);
	free((void *)f->dag.block_line);
	free((void *)f->dag.block_last_line);
	free((void *)f->dag.edges);
	memset(f, 0, sizeof *f);
}

int wpp_parse_func(const unsigned char *p, const unsigned char *end, struct wpp_func *f, uint64_t *index)
{
	unsigned *lines = NULL, *last = NULL, nb, ne;
	struct kpath_rt_edge *edges = NULL;
	char *hash = NULL;
	memset(f, 0, sizeof *f);
	if (kp_varint_get(&p, end, index) || kp_varint_get_str(&p, end, &f->name) || kp_varint_get_str(&p, end, &f->file) ||
	    kp_varint_get_u32(&p, end, &f->line) || kp_varint_get_str(&p, end, &f->checksum) || kp_varint_get(&p, end, &f->num_paths) ||
	    kp_varint_get_u32(&p, end, &nb) || nb > (size_t)(end - p))
		goto bad;
	lines = calloc((size_t)nb + 1, sizeof *lines);
	if (!lines)
		goto bad;
	for (unsigned i = 0; i < nb; i++)
		if (kp_varint_get_u32(&p, end, &lines[i]))
			goto bad;
	if (kp_varint_get_u32(&p, end, &ne) || ne > (size_t)(end - p))
		goto bad;
	edges = calloc((size_t)ne + 1, sizeof *edges);
	if (!edges)
		goto bad;
	for (unsigned i = 0; i < ne; i++) {
		uint64_t val;
		if (kp_varint_get_u32(&p, end, &edges[i].src) || kp_varint_get_u32(&p, end, &edges[i].dst) || kp_varint_get(&p, end, &val))
			goto bad;
		edges[i].val = val;
	}
	if (p < end) { /* optional block_last_line, then optional source_hash */
		last = calloc((size_t)nb + 1, sizeof *last);
		if (!last)
			goto bad;
		for (unsigned i = 0; i < nb; i++)
			if (kp_varint_get_u32(&p, end, &last[i]))
				goto bad;
		if (p < end && (kp_varint_get_str(&p, end, &hash) || kp_rule_hex16(hash)))
			goto bad;
		if (p != end)
			goto bad;
	}
	f->source_hash = hash;
	f->dag = (struct kp_dag){ .num_blocks = nb, .block_line = lines, .num_edges = ne, .edges = edges,
				  .block_last_line = last };
	return 0;
bad:
	free(hash);
	free(lines);
	free(last);
	free(edges);
	wpp_func_free(f);
	return -1;
}

/* ---- grammars ----------------------------------------------------------- */

static void grammar_free(struct wpp_grammar *g)
{
	free(g->terms);
	free(g->start);
	free(g->syms);
	memset(g, 0, sizeof *g);
}

static const char *parse_grammar(const unsigned char *p, const unsigned char *end, struct wpp_grammar *g)
{
	uint64_t nterms, nrules;
	memset(g, 0, sizeof *g);
	if (kp_varint_get(&p, end, &g->thread) || kp_varint_get(&p, end, &g->length) ||
	    kp_varint_get(&p, end, &g->dropped) || kp_varint_get(&p, end, &nterms))
		return "corrupt grammar header";
	/* every terminal takes at least 2 bytes, every rule at least 1 */
	if (nterms > (uint64_t)(end - p) / 2)
		return "terminal count larger than the chunk";
	g->nterms = (uint32_t)nterms;
	g->terms = malloc(((size_t)nterms + 1) * sizeof *g->terms);
	if (!g->terms)
		return "out of memory";
	for (uint32_t t = 0; t < g->nterms; t++) {
		uint64_t func;
		if (kp_varint_get(&p, end, &func) || func > UINT32_MAX || kp_varint_get(&p, end, &g->terms[t].id))
			return "corrupt terminal table";
		g->terms[t].func = (uint32_t)func;
	}
	if (kp_varint_get(&p, end, &nrules) || nrules == 0 || nrules > (uint64_t)(end - p))
		return "corrupt rule count";
	g->nrules = (uint32_t)nrules;
	g->start = malloc(((size_t)nrules + 1) * sizeof *g->start);
	size_t cap = 1024, n = 0;
	g->syms = malloc(cap * sizeof *g->syms);
	if (!g->start || !g->syms)
		return "out of memory";
	for (uint32_t r = 0; r < g->nrules; r++) {
		uint64_t len;
		g->start[r] = n;
		if (kp_varint_get(&p, end, &len) || len > (uint64_t)(end - p))
			return "corrupt rule";
		if (n + len > cap) {
			while (cap < n + len)
				cap *= 2;
			uint32_t *s = realloc(g->syms, cap * sizeof *s);
			if (!s)
				return "out of memory";
			g->syms = s;
		}
		for (uint64_t i = 0; i < len; i++) {
			uint64_t sym;
			if (kp_varint_get(&p, end, &sym) || sym > UINT32_MAX)
				return "corrupt rule";
			g->syms[n++] = (uint32_t)sym;
		}
	}
	g->start[g->nrules] = n;
	if (p != end)
		return "trailing bytes after the rules";
	return NULL;
}

uint32_t *wpp_postorder(const struct wpp_grammar *g)
{
	/* iterative DFS from S; state[r]: 0 new, 1 open, 2 done */
	uint32_t *order = malloc(((size_t)g->nrules + 1) * sizeof *order);
	unsigned char *state = calloc((size_t)g->nrules + 1, 1);
	struct frame {
		uint32_t rule;
		uint64_t at;
	} *stack = malloc(((size_t)g->nrules + 1) * sizeof *stack);
	uint32_t n = 0, depth = 0;
	if (!order || !state || !stack) {
		free(order);
		order = NULL;
		goto out;
	}
	stack[depth++] = (struct frame){ 0, g->start[0] };
	state[0] = 1;
	while (depth) {
		struct frame *f = &stack[depth - 1];
		if (f->at == g->start[f->rule + 1]) {
			state[f->rule] = 2;
			order[n++] = f->rule;
			depth--;
			continue;
		}
		uint32_t s = g->syms[f->at++];
		if (!WPP_SYM_IS_RULE(s))
			continue;
		uint32_t r = WPP_SYM_VAL(s);
		if (state[r] == 1) { /* a cycle: only wpp_grammar_check sees this */
			free(order);
			order = NULL;
			goto out;
		}
		if (state[r] == 0) {
			state[r] = 1;
			stack[depth++] = (struct frame){ r, g->start[r] };
		}
	}
	/* rules unreachable from S go first (they expand nowhere) */
	if (n < g->nrules) {
		memmove(order + (g->nrules - n), order, n * sizeof *order);
		uint32_t k = 0;
		for (uint32_t r = 0; r < g->nrules; r++)
			if (state[r] != 2)
				order[k++] = r;
	}
out:
	free(state);
	free(stack);
	return order;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t *wpp_frequencies(const struct wpp_grammar *g)
{
	uint32_t *order = wpp_postorder(g);
	uint64_t *freq = calloc((size_t)g->nrules + 1, sizeof *freq);
	if (!order || !freq) {
		free(order);
		free(freq);
		return NULL;
	}
	freq[0] = 1;
	/* reverse post order: every rule before the rules it refers to */
	for (uint32_t i = g->nrules; i-- > 0;) {
		uint32_t r = order[i];
		for (uint64_t k = g->start[r]; k < g->start[r + 1]; k++)
			if (WPP_SYM_IS_RULE(g->syms[k]))
				freq[WPP_SYM_VAL(g->syms[k])] = add_sat(freq[WPP_SYM_VAL(g->syms[k])], freq[r]);
	}
	free(order);
	return freq;
}

const char *wpp_grammar_check(const struct wpp_grammar *g, uint32_t nfuncs)
{
	for (uint32_t t = 0; t < g->nterms; t++)
		if (g->terms[t].func >= nfuncs)
			return "a terminal names an unknown function";
	for (uint64_t k = 0; k < g->start[g->nrules]; k++) {
		uint32_t s = g->syms[k], v = WPP_SYM_VAL(s);
		if (WPP_SYM_IS_RULE(s) ? v == 0 || v >= g->nrules : v >= g->nterms)
			return "a symbol refers to an unknown terminal or rule";
	}
	for (uint32_t r = 1; r < g->nrules; r++)
		if (g->start[r] == g->start[r + 1])
			return "an empty rule";
	uint32_t *order = wpp_postorder(g);
	if (!order)
		return "the rules form a cycle (or out of memory)";
	/* expansion lengths, children first */
	uint64_t *len = calloc((size_t)g->nrules + 1, sizeof *len);
	const char *why = NULL;
	if (!len) {
		why = "out of memory";
	} else {
		for (uint32_t i = 0; i < g->nrules; i++) {
			uint32_t r = order[i];
			for (uint64_t k = g->start[r]; k < g->start[r + 1]; k++)
				len[r] = add_sat(len[r], WPP_SYM_IS_RULE(g->syms[k]) ? len[WPP_SYM_VAL(g->syms[k])] : 1);
		}
		if (len[0] != g->length)
			why = "the grammar does not expand to the recorded length";
	}
	free(len);
	free(order);
	return why;
}

int wpp_expand(const struct wpp_grammar *g, uint32_t r, int (*fn)(void *arg, uint32_t term), void *arg)
{
	struct frame {
		uint64_t at, end;
	} *stack = malloc(((size_t)g->nrules + 1) * sizeof *stack);
	if (!stack)
		return -1;
	uint32_t depth = 0;
	int rc = 0;
	stack[depth++] = (struct frame){ g->start[r], g->start[r + 1] };
	while (depth && rc == 0) {
		struct frame *f = &stack[depth - 1];
		if (f->at == f->end) {
			depth--;
			continue;
		}
		uint32_t s = g->syms[f->at++];
		if (WPP_SYM_IS_RULE(s))
			stack[depth++] = (struct frame){ g->start[WPP_SYM_VAL(s)], g->start[WPP_SYM_VAL(s) + 1] };
		else
			rc = fn(arg, WPP_SYM_VAL(s));
	}
	free(stack);
	return rc;
}

/* ---- the file ----------------------------------------------------------- */

void wpp_free(struct wpp_file *w)
{
	for (uint32_t i = 0; i < w->nfuncs; i++)
		wpp_func_free(&w->funcs[i]);
	for (uint32_t i = 0; i < w->ng; i++)
		grammar_free(&w->g[i]);
	free(w->funcs);
	free(w->g);
	free(w->path);
	memset(w, 0, sizeof *w);
}

static int fail(struct wpp_file *w, char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s: ", w->path ? w->path : "?");
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	wpp_free(w);
	return -1;
}

int wpp_read(const char *path, struct wpp_file *w, char *err, size_t errlen)
{
	memset(w, 0, sizeof *w);
	w->path = strdup(path);
	size_t size;
	unsigned char *buf = wpp_slurp(path, &size);
	if (!buf || !w->path) {
		int e = w->path ? errno : ENOMEM;
		free(buf);
		wpp_free(w);
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -1;
	}
	const unsigned char *p = buf, *end = buf + size;
	int rc = 0, ended = 0;
	if (size < 9 || memcmp(p, KP_WPP_MAGIC, 8) != 0) {
		rc = fail(w, err, errlen, "not a kpath WPP file (bad magic; KPATH_MODE=wpp writes one)");
		goto out;
	}
	if (p[8] != 1) {
		rc = fail(w, err, errlen, "WPP format version %u, this kpath reads version 1", p[8]);
		goto out;
	}
	p += 9;
	while (p < end && rc == 0) {
		size_t at = (size_t)(p - buf);
		int type = *p++;
		uint64_t len;
		if (ended) {
			rc = fail(w, err, errlen, "byte %zu: data after the end chunk", at);
			break;
		}
		if (kp_varint_get(&p, end, &len) || len > (uint64_t)(end - p)) {
			rc = fail(w, err, errlen, "byte %zu: truncated (chunk '%c' runs past the end of the file)", at,
				  type >= 32 && type < 127 ? type : '?');
			break;
		}
		const unsigned char *q = p + len;
		if (type == 'F') {
			uint64_t index = 0;
			struct wpp_func f;
			struct wpp_func *a = realloc(w->funcs, ((size_t)w->nfuncs + 1) * sizeof *a);
			if (!a) {
				rc = fail(w, err, errlen, "out of memory");
				break;
			}
			w->funcs = a;
			int ok = !w->ng && wpp_parse_func(p, q, &f, &index) == 0;
			if (ok && index != w->nfuncs) {
				wpp_func_free(&f);
				ok = 0;
			}
			if (!ok) {
				rc = fail(w, err, errlen, "byte %zu: corrupt function entry %u", at, w->nfuncs);
				break;
			}
			w->funcs[w->nfuncs++] = f;
		} else if (type == 'G') {
			struct wpp_grammar *a = realloc(w->g, ((size_t)w->ng + 1) * sizeof *a);
			if (!a) {
				rc = fail(w, err, errlen, "out of memory");
				break;
			}
			w->g = a;
			struct wpp_grammar *g = &w->g[w->ng++];
			const char *why = parse_grammar(p, q, g);
			if (!why)
				why = wpp_grammar_check(g, w->nfuncs);
			if (!why && w->ng > 1 && g->thread <= w->g[w->ng - 2].thread)
				why = "threads out of order";
			if (why) {
				rc = fail(w, err, errlen, "byte %zu: grammar %u: %s", at, w->ng - 1, why);
				break;
			}
		} else if (type == 'E') {
			if (len != 0) {
				rc = fail(w, err, errlen, "byte %zu: corrupt end chunk", at);
				break;
			}
			ended = 1;
		} else {
			rc = fail(w, err, errlen, "byte %zu: unknown chunk type 0x%02x", at, (unsigned)type);
			break;
		}
		p = q;
	}
	if (rc == 0 && !ended)
		rc = fail(w, err, errlen, "truncated (no end chunk after byte %zu)", size);
out:
	free(buf);
	return rc;
}
