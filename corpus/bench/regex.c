/* A regular-expression matcher by Thompson's construction: a recursive-descent
 * parser (alternation, concatenation, postfix * + ?, groups, '.', character
 * classes [a-z0-9] and [^...]) builds an NFA, which is simulated with two
 * state lists (no backtracking, linear in the text).  Counts the lines of a
 * generated text that contain a match of each pattern, and checks the
 * matcher against expected results on a few fixed strings first.
 * usage: regex [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_STATES 512
#define TEXT_SIZE 32768

enum { ST_CHAR, ST_ANY, ST_CLASS, ST_SPLIT, ST_MATCH };

struct state {
	int kind;
	unsigned char c;
	unsigned char set[32]; /* ST_CLASS: bit per byte */
	int out, out1;         /* next states, -1 = none (to be patched) */
};

struct nfa {
	struct state s[MAX_STATES];
	int n;
	const char *p; /* parser position */
	const char *err;
};

/* A fragment: start state and the list of dangling out slots, threaded
 * through the out fields themselves (Cox's "ptrlist" with indices: slot
 * 2*i is s[i].out, 2*i+1 is s[i].out1). */
struct frag {
	int start;
	int dangling; /* first slot of the list, -1 = empty */
};

static int *slot(struct nfa *m, int sl)
{
	return sl & 1 ? &m->s[sl >> 1].out1 : &m->s[sl >> 1].out;
}

/* Empty slots hold -2 - (next slot in the list), so -1 stays "none". */
static void patch(struct nfa *m, int list, int target)
{
	while (list >= 0) {
		int *p = slot(m, list);
		int next = -2 - *p;
		*p = target;
		list = next;
	}
}

static int append(struct nfa *m, int a, int b)
{
	if (a < 0)
		return b;
	int l = a;
	for (;;) {
		int *p = slot(m, l);
		int next = -2 - *p;
		if (next < 0) {
			*p = -2 - b;
			return a;
		}
		l = next;
	}
}

static int new_state(struct nfa *m, int kind)
{
	if (m->n == MAX_STATES) {
		m->err = "pattern too large";
		return -1;
	}
	struct state *s = &m->s[m->n];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->out = s->out1 = -1;
	return m->n++;
}

static struct frag parse_alt(struct nfa *m);

/* atom := char | '\\' char | '.' | '[' class ']' | '(' alt ')' */
static struct frag parse_atom(struct nfa *m)
{
	struct frag f = {-1, -1};
	char c = *m->p;
	int s;
	if (c == '(') {
		m->p++;
		f = parse_alt(m);
		if (*m->p != ')') {
			m->err = "missing )";
			return f;
		}
		m->p++;
		return f;
	}
	if (c == '\0' || c == ')' || c == '|' || c == '*' || c == '+' || c == '?') {
		m->err = "atom expected";
		return f;
	}
	if (c == '.') {
		s = new_state(m, ST_ANY);
		m->p++;
	} else if (c == '[') {
		int negate = 0;
		s = new_state(m, ST_CLASS);
		if (s < 0)
			return f;
		m->p++;
		if (*m->p == '^') {
			negate = 1;
			m->p++;
		}
		while (*m->p && *m->p != ']') {
			unsigned lo = (unsigned char)*m->p++, hi = lo;
			if (*m->p == '-' && m->p[1] && m->p[1] != ']') {
				hi = (unsigned char)m->p[1];
				m->p += 2;
			}
			for (unsigned x = lo; x <= hi; x++)
				m->s[s].set[x >> 3] |= (unsigned char)(1u << (x & 7));
		}
		if (*m->p != ']') {
			m->err = "missing ]";
			return f;
		}
		m->p++;
		if (negate)
			for (int i = 0; i < 32; i++)
				m->s[s].set[i] = (unsigned char)~m->s[s].set[i];
	} else {
		if (c == '\\') { /* an escaped character is literal */
			if (m->p[1] == '\0') {
				m->err = "trailing \\";
				return f;
			}
			c = *++m->p;
		}
		s = new_state(m, ST_CHAR);
		if (s >= 0)
			m->s[s].c = (unsigned char)c;
		m->p++;
	}
	if (s < 0)
		return f;
	m->s[s].out = -1; /* dangling: the end of the list (-2 - -1) */
	f.start = s;
	f.dangling = 2 * s;
	return f;
}

/* piece := atom ('*' | '+' | '?')* */
static struct frag parse_piece(struct nfa *m)
{
	struct frag f = parse_atom(m);
	while (!m->err && (*m->p == '*' || *m->p == '+' || *m->p == '?')) {
		char op = *m->p++;
		int s = new_state(m, ST_SPLIT);
		if (s < 0)
			return f;
		m->s[s].out = f.start;
		m->s[s].out1 = -1; /* dangling, end of list */
		if (op == '?') {
			f.dangling = append(m, f.dangling, 2 * s + 1);
			f.start = s;
		} else {
			patch(m, f.dangling, s);
			f.dangling = 2 * s + 1;
			if (op == '*')
				f.start = s;
		}
	}
	return f;
}

/* concat := piece+ */
static struct frag parse_concat(struct nfa *m)
{
	struct frag f = parse_piece(m);
	while (!m->err && *m->p && *m->p != '|' && *m->p != ')') {
		struct frag g = parse_piece(m);
		if (m->err)
			break;
		patch(m, f.dangling, g.start);
		f.dangling = g.dangling;
	}
	return f;
}

/* alt := concat ('|' concat)* */
static struct frag parse_alt(struct nfa *m)
{
	struct frag f = parse_concat(m);
	while (!m->err && *m->p == '|') {
		m->p++;
		struct frag g = parse_concat(m);
		if (m->err)
			break;
		int s = new_state(m, ST_SPLIT);
		if (s < 0)
			break;
		m->s[s].out = f.start;
		m->s[s].out1 = g.start;
		f.start = s;
		f.dangling = append(m, f.dangling, g.dangling);
	}
	return f;
}

/* Returns the start state, or -1 with m->err set. */
static int compile(struct nfa *m, const char *pattern)
{
	m->n = 0;
	m->p = pattern;
	m->err = NULL;
	struct frag f = parse_alt(m);
	if (!m->err && *m->p)
		m->err = "unbalanced )";
	if (m->err)
		return -1;
	int match = new_state(m, ST_MATCH);
	if (match < 0)
		return -1;
	patch(m, f.dangling, match);
	return f.start;
}

struct list {
	int n;
	int s[MAX_STATES];
};

static unsigned generation[MAX_STATES];
static unsigned current_gen;

/* Adds s and everything reachable through SPLITs (recursively). */
static void add_state(const struct nfa *m, struct list *l, int s)
{
	if (s < 0 || generation[s] == current_gen)
		return;
	generation[s] = current_gen;
	if (m->s[s].kind == ST_SPLIT) {
		add_state(m, l, m->s[s].out);
		add_state(m, l, m->s[s].out1);
		return;
	}
	l->s[l->n++] = s;
}

/* Does some substring of text[0..len) match? */
static int search(const struct nfa *m, int start, const char *text, size_t len)
{
	static struct list a, b;
	struct list *cur = &a, *next = &b;
	cur->n = 0;
	current_gen++;
	add_state(m, cur, start);
	for (size_t i = 0;; i++) {
		for (int j = 0; j < cur->n; j++)
			if (m->s[cur->s[j]].kind == ST_MATCH)
				return 1;
		if (i == len)
			return 0;
		unsigned char c = (unsigned char)text[i];
		next->n = 0;
		current_gen++;
		add_state(m, next, start); /* a match may start at every position */
		for (int j = 0; j < cur->n; j++) {
			const struct state *st = &m->s[cur->s[j]];
			switch (st->kind) {
			case ST_CHAR:
				if (st->c == c)
					add_state(m, next, st->out);
				break;
			case ST_ANY:
				add_state(m, next, st->out);
				break;
			case ST_CLASS:
				if (st->set[c >> 3] & (1u << (c & 7)))
					add_state(m, next, st->out);
				break;
			default:
				break;
			}
		}
		struct list *t = cur;
		cur = next;
		next = t;
	}
}

static uint64_t rng_state = 0xBF58476D1CE4E5B9u;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Du;
}

static size_t make_text(char *t, size_t n)
{
	static const char *const parts[] = {
		"GET ", "POST ", "/index.html", "/api/v2/items/", "?id=", "&page=", " HTTP/1.1",
		"error", "warning", "user", "admin", "42", "2026-11-22", "x", "-", "_", ".",
	};
	size_t i = 0;
	while (i + 32 < n) {
		uint64_t r = rng_next();
		const char *p = parts[r % (sizeof parts / sizeof parts[0])];
		while (*p)
			t[i++] = *p++;
		if ((r >> 32) % 9 == 0)
			t[i++] = '\n';
		else if ((r >> 40) % 5 == 0)
			t[i++] = (char)('0' + (r >> 48) % 10);
	}
	t[i] = '\0';
	return i;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	static const char *const patterns[] = {
		"/api/v[0-9]+/items/[0-9]*\\?id",
		"(error|warning)(user|admin)+",
		"[0-9][0-9][0-9][0-9]-[0-9]+-[0-9]+",
		"a(dmi|pi)n?",
		"x(-|_)+x",
		"(P|G)(OST|ET) .*HTTP",
		"[^a-z/ ]+\\.[a-z]+",
	};
	static const struct {
		const char *pattern, *text;
		int match;
	} checks[] = {
		{"ab*c", "xxabbbcx", 1}, {"ab*c", "xxabbbx", 0}, {"(a|b)+c", "aabac", 1},
		{"a?b", "cb", 1}, {"[^0-9]x", "9x", 0}, {"h.llo", "hallo", 1}, {"(ab|cd)(ef)?g", "cdg", 1},
		{"a\\.b", "axb", 0}, {"a\\.b", "a.b", 1},
	};
	static struct nfa m;
	static char text[TEXT_SIZE];
	uint64_t sum = 0;

	for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
		int s = compile(&m, checks[i].pattern);
		if (s < 0 || search(&m, s, checks[i].text, strlen(checks[i].text)) != checks[i].match) {
			fprintf(stderr, "regex: self-check %zu failed (%s)\n", i, m.err ? m.err : "wrong answer");
			return 1;
		}
	}
	for (long round = 0; round < scale; round++) {
		size_t n = make_text(text, sizeof text);
		for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
			int s = compile(&m, patterns[k]);
			if (s < 0) {
				fprintf(stderr, "regex: pattern %zu: %s\n", k, m.err);
				return 1;
			}
			uint64_t lines = 0, matching = 0;
			for (size_t i = 0; i < n;) {
				size_t j = i;
				while (j < n && text[j] != '\n')
					j++;
				lines++;
				if (search(&m, s, text + i, j - i))
					matching++;
				i = j + 1;
			}
			sum = sum * 1000003u + matching * 65536u + lines;
		}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
