/*
 * html_highlight.c: syntax highlighting with tree-sitter.
 *
 * The text is parsed with the C grammar of the npm package tree-sitter-c
 * (compiled into kpath, see CMakeLists.txt) and the grammar's own
 * queries/highlights.scm (embedded) is run over the tree.  Each capture
 * names a class (@keyword, @string, @function.special...).  Where captures
 * overlap, the innermost node wins, and for the same node the pattern that
 * comes later in the query (the more specific one: highlights.scm lists
 * (identifier) @variable before the function and constant rules): captures
 * are applied to a per-byte class array ordered by size descending, then by
 * pattern index ascending, each overwriting the last.
 *
 * Predicates: #match? / #not-match? (the regex translated to POSIX ERE:
 * \d \w \s become classes) and #eq? / #not-eq?.  A pattern with any other
 * predicate, or a regex that does not compile, is disabled.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <tree_sitter/api.h>

#include "html_int.h"

const TSLanguage *tree_sitter_c(void);
extern const unsigned char kp_html_asset_highlights_scm[];
extern const size_t kp_html_asset_highlights_scm_len;

enum pred_kind { PRED_MATCH, PRED_NOT_MATCH, PRED_EQ, PRED_NOT_EQ };

struct pred {
	enum pred_kind kind;
	uint32_t capture;     /* the capture tested */
	int other_is_capture; /* #eq? @a @b */
	uint32_t other;
	const char *str;      /* #eq? @a "str" */
	uint32_t strlen;
	regex_t re;           /* #match? */
};

struct pattern_preds {
	struct pred *p;
	uint32_t n;
};

/* The compiled query, shared by all files of a run. */
static struct {
	TSQuery *query;
	struct pattern_preds *preds; /* per pattern */
	uint32_t npatterns;
	char **classes; /* per capture id: "tok-" + name with '.' -> '-' */
	uint32_t ncaptures;
} Q;

/* Rust-style regex to POSIX ERE (only what queries use). */
static char *to_ere(const char *re, uint32_t n)
{
	char *out = malloc(8 * (size_t)n + 1), *o = out;
	int in_bracket = 0;
	uint32_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		char c = re[i];
		const char *cls = NULL;

		if (c == '\\' && i + 1 < n) {
			switch (re[i + 1]) {
			case 'd': cls = "0-9"; break;
			case 'w': cls = "A-Za-z0-9_"; break;
			case 's': cls = " \t\n\r\f\v"; break;
			default:
				*o++ = c;
				*o++ = re[++i];
				continue;
			}
			i++;
			o += sprintf(o, in_bracket ? "%s" : "[%s]", cls);
			continue;
		}
		if (c == '[')
			in_bracket = 1;
		else if (c == ']' && in_bracket)
			in_bracket = 0;
		*o++ = c;
	}
	*o = '\0';
	return out;
}

/* Compiles the predicates of pattern pi; returns 0, or -1 if the pattern
 * cannot be honoured (it is then disabled). */
static int compile_preds(uint32_t pi)
{
	uint32_t nsteps, i = 0;
	const TSQueryPredicateStep *st = ts_query_predicates_for_pattern(Q.query, pi, &nsteps);
	struct pattern_preds *pp = &Q.preds[pi];

	while (i < nsteps) {
		uint32_t j = i, len;
		const char *op;
		struct pred *p;
		struct pred *grown;

		while (j < nsteps && st[j].type != TSQueryPredicateStepTypeDone)
			j++;
		/* st[i..j): operator, capture, argument */
		if (j - i != 3 || st[i].type != TSQueryPredicateStepTypeString ||
		    st[i + 1].type != TSQueryPredicateStepTypeCapture)
			return -1;
		grown = realloc(pp->p, (pp->n + 1) * sizeof *pp->p);
		if (!grown)
			return -1;
		pp->p = grown;
		p = &pp->p[pp->n];
		memset(p, 0, sizeof *p);
		op = ts_query_string_value_for_id(Q.query, st[i].value_id, &len);
		p->capture = st[i + 1].value_id;
		if (!strcmp(op, "match?") || !strcmp(op, "not-match?")) {
			const char *re;
			char *ere;
			int rc;

			if (st[i + 2].type != TSQueryPredicateStepTypeString)
				return -1;
			re = ts_query_string_value_for_id(Q.query, st[i + 2].value_id, &len);
			if (!(ere = to_ere(re, len)))
				return -1;
			rc = regcomp(&p->re, ere, REG_EXTENDED | REG_NOSUB);
			free(ere);
			if (rc != 0)
				return -1;
			p->kind = op[0] == 'm' ? PRED_MATCH : PRED_NOT_MATCH;
		} else if (!strcmp(op, "eq?") || !strcmp(op, "not-eq?")) {
			p->kind = op[0] == 'e' ? PRED_EQ : PRED_NOT_EQ;
			if (st[i + 2].type == TSQueryPredicateStepTypeCapture) {
				p->other_is_capture = 1;
				p->other = st[i + 2].value_id;
			} else {
				p->str = ts_query_string_value_for_id(Q.query, st[i + 2].value_id, &p->strlen);
			}
		} else {
			return -1;
		}
		pp->n++;
		i = j + 1;
	}
	return 0;
}

static int query_init(char *err, size_t errlen)
{
	uint32_t off, i;
	TSQueryError qe;

	if (Q.query)
		return 0;
	Q.query = ts_query_new(tree_sitter_c(), (const char *)kp_html_asset_highlights_scm,
	                       (uint32_t)kp_html_asset_highlights_scm_len, &off, &qe);
	if (!Q.query) {
		snprintf(err, errlen, "highlights.scm: query error %d at byte %u", (int)qe, off);
		return -1;
	}
	Q.npatterns = ts_query_pattern_count(Q.query);
	Q.ncaptures = ts_query_capture_count(Q.query);
	Q.preds = calloc(Q.npatterns ? Q.npatterns : 1, sizeof *Q.preds);
	Q.classes = calloc(Q.ncaptures ? Q.ncaptures : 1, sizeof *Q.classes);
	if (!Q.preds || !Q.classes) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < Q.npatterns; i++)
		if (compile_preds(i) < 0)
			ts_query_disable_pattern(Q.query, i);
	for (i = 0; i < Q.ncaptures; i++) {
		uint32_t len, j;
		const char *name = ts_query_capture_name_for_id(Q.query, i, &len);
		char *c = malloc(len + 5);

		if (!c) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memcpy(c, "tok-", 4);
		for (j = 0; j < len; j++) {
			char ch = name[j];
			int ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-';
			c[4 + j] = ok ? ch : (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : '-';
		}
		c[4 + len] = '\0';
		Q.classes[i] = c;
	}
	return 0;
}

void html_hl_cleanup(void)
{
	uint32_t i, j;

	if (!Q.query)
		return;
	for (i = 0; i < Q.npatterns; i++) {
		for (j = 0; j < Q.preds[i].n; j++)
			if (Q.preds[i].p[j].kind == PRED_MATCH || Q.preds[i].p[j].kind == PRED_NOT_MATCH)
				regfree(&Q.preds[i].p[j].re);
		free(Q.preds[i].p);
	}
	for (i = 0; i < Q.ncaptures; i++)
		free(Q.classes[i]);
	free(Q.preds);
	free(Q.classes);
	ts_query_delete(Q.query);
	memset(&Q, 0, sizeof Q);
}

const char *html_hl_class(int cls)
{
	return cls >= 0 && (uint32_t)cls < Q.ncaptures ? Q.classes[cls] : "";
}

/* The text of the capture of match m with id cap; NULL if absent. */
static const char *capture_text(const struct html_hl *h, const TSQueryMatch *m, uint32_t cap, uint32_t *len)
{
	uint16_t i;

	for (i = 0; i < m->capture_count; i++)
		if (m->captures[i].index == cap) {
			uint32_t s = ts_node_start_byte(m->captures[i].node);
			uint32_t e = ts_node_end_byte(m->captures[i].node);
			*len = e - s;
			return h->text + s;
		}
	return NULL;
}

static int preds_hold(const struct html_hl *h, const TSQueryMatch *m)
{
	const struct pattern_preds *pp = &Q.preds[m->pattern_index];
	uint32_t i;

	for (i = 0; i < pp->n; i++) {
		const struct pred *p = &pp->p[i];
		uint32_t len, olen = 0;
		const char *t = capture_text(h, m, p->capture, &len), *o;
		int ok;

		if (!t)
			return 0;
		switch (p->kind) {
		case PRED_MATCH:
		case PRED_NOT_MATCH: {
			char *z = malloc(len + 1);

			if (!z)
				return 0;
			memcpy(z, t, len);
			z[len] = '\0';
			ok = regexec(&p->re, z, 0, NULL, 0) == 0;
			free(z);
			if (p->kind == PRED_NOT_MATCH)
				ok = !ok;
			break;
		}
		default:
			o = p->other_is_capture ? capture_text(h, m, p->other, &olen) : p->str;
			if (!p->other_is_capture)
				olen = p->strlen;
			ok = o && olen == len && memcmp(o, t, len) == 0;
			if (p->kind == PRED_NOT_EQ)
				ok = !ok;
		}
		if (!ok)
			return 0;
	}
	return 1;
}

struct cap {
	uint32_t start, end, pattern;
	int16_t cls;
};

static int cmp_cap(const void *a, const void *b)
{
	const struct cap *x = a, *y = b;
	uint32_t lx = x->end - x->start, ly = y->end - y->start;

	if (lx != ly)
		return lx > ly ? -1 : 1;
	return (x->pattern > y->pattern) - (x->pattern < y->pattern);
}

int html_hl_run(struct html_hl *h, const char *text, size_t len, char *err, size_t errlen)
{
	TSParser *parser = NULL;
	TSQueryCursor *cur = NULL;
	TSQueryMatch m;
	struct cap *caps = NULL;
	size_t ncaps = 0, capcap = 0, i;
	int rc = -1;

	memset(h, 0, sizeof *h);
	h->text = text;
	h->len = len;
	if (len > UINT32_MAX) {
		snprintf(err, errlen, "file too large to highlight");
		return -1;
	}
	if (query_init(err, errlen) < 0)
		return -1;
	h->cls = malloc((len ? len : 1) * sizeof *h->cls);
	parser = ts_parser_new();
	if (!h->cls || !parser || !ts_parser_set_language(parser, tree_sitter_c())) {
		snprintf(err, errlen, "cannot set up the tree-sitter parser");
		goto out;
	}
	for (i = 0; i < len; i++)
		h->cls[i] = -1;
	h->tree = ts_parser_parse_string(parser, NULL, text, (uint32_t)len);
	cur = ts_query_cursor_new();
	if (!h->tree || !cur) {
		snprintf(err, errlen, "tree-sitter could not parse the file");
		goto out;
	}
	ts_query_cursor_exec(cur, Q.query, ts_tree_root_node(h->tree));
	while (ts_query_cursor_next_match(cur, &m)) {
		uint16_t c;

		if (!preds_hold(h, &m))
			continue;
		for (c = 0; c < m.capture_count; c++) {
			if (ncaps == capcap) {
				size_t nc = capcap ? 2 * capcap : 1024;
				struct cap *g = realloc(caps, nc * sizeof *caps);
				if (!g) {
					snprintf(err, errlen, "out of memory");
					goto out;
				}
				caps = g;
				capcap = nc;
			}
			caps[ncaps].start = ts_node_start_byte(m.captures[c].node);
			caps[ncaps].end = ts_node_end_byte(m.captures[c].node);
			caps[ncaps].pattern = m.pattern_index;
			caps[ncaps++].cls = (int16_t)m.captures[c].index;
		}
	}
	qsort(caps, ncaps, sizeof *caps, cmp_cap);
	for (i = 0; i < ncaps; i++) {
		uint32_t b;

		for (b = caps[i].start; b < caps[i].end && b < len; b++)
			h->cls[b] = caps[i].cls;
	}
	rc = 0;
out:
	free(caps);
	if (cur)
		ts_query_cursor_delete(cur);
	if (parser)
		ts_parser_delete(parser);
	if (rc < 0)
		html_hl_free(h);
	return rc;
}

void html_hl_free(struct html_hl *h)
{
	free(h->cls);
	if (h->tree)
		ts_tree_delete(h->tree);
	h->cls = NULL;
	h->tree = NULL;
}

int html_hl_function_lines(const struct html_hl *h, uint32_t line, uint32_t *first, uint32_t *last)
{
	TSPoint p = { line ? line - 1 : 0, 0 };
	TSNode n;
	size_t i = 0;
	uint32_t l = 1;

	if (!h->tree || line == 0)
		return 0;
	/* The first named node at the first non-blank column of the line, then
	 * up to the function definition around it. */
	for (; i < h->len && l < line; i++)
		l += h->text[i] == '\n';
	for (; i < h->len && (h->text[i] == ' ' || h->text[i] == '\t'); i++)
		p.column++;
	n = ts_node_named_descendant_for_point_range(ts_tree_root_node(h->tree), p, p);
	for (; !ts_node_is_null(n); n = ts_node_parent(n))
		if (!strcmp(ts_node_type(n), "function_definition")) {
			*first = ts_node_start_point(n).row + 1;
			*last = ts_node_end_point(n).row + 1;
			return 1;
		}
	return 0;
}
