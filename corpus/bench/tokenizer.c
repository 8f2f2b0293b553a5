/* A tokenizer for C-like source text: identifiers and keywords (looked up in
 * a hash table), decimal/hex/float numbers, string and character literals
 * with escapes, line and block comments, one-, two- and three-character
 * operators; a switch on the first character inside a loop, with nested
 * scanning loops and early returns on malformed input.  The text is generated
 * from a small grammar of statements; a recursive brace-depth checker runs
 * over the token stream.  usage: tokenizer [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE 65536
#define MAX_TOKENS 32768

enum tok {
	T_EOF, T_IDENT, T_KEYWORD, T_INT, T_FLOAT, T_STRING, T_CHAR, T_OP, T_LBRACE, T_RBRACE, T_ERROR, T_KINDS
};

struct token {
	enum tok kind;
	uint32_t start, len;
};

static const char *const keywords[] = {
	"if", "else", "while", "for", "return", "int", "char", "unsigned", "static", "struct",
	"switch", "case", "break", "continue", "const", "void", "sizeof", "do", "goto", "default",
};

#define KW_SLOTS 64
static int kw_table[KW_SLOTS]; /* index + 1 into keywords, 0 = empty */

static unsigned hash_word(const char *s, size_t n)
{
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void kw_init(void)
{
	for (size_t k = 0; k < sizeof keywords / sizeof keywords[0]; k++) {
		unsigned h = hash_word(keywords[k], strlen(keywords[k])) % KW_SLOTS;
		while (kw_table[h])
			h = (h + 1) % KW_SLOTS;
		kw_table[h] = (int)k + 1;
	}
}

static int is_keyword(const char *s, size_t n)
{
	unsigned h = hash_word(s, n) % KW_SLOTS;
	while (kw_table[h]) {
		const char *k = keywords[kw_table[h] - 1];
		if (strlen(k) == n && memcmp(k, s, n) == 0)
			return 1;
		h = (h + 1) % KW_SLOTS;
	}
	return 0;
}

static int is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Scans a quoted literal starting at s[i] (the quote); returns the position
 * after the closing quote, or 0 if the line or text ends first. */
static size_t scan_quoted(const char *s, size_t i, size_t n)
{
	char q = s[i++];
	while (i < n) {
		char c = s[i++];
		if (c == q)
			return i;
		if (c == '\n')
			return 0;
		if (c == '\\') {
			if (i == n)
				return 0;
			i++;
		}
	}
	return 0;
}

/* One token from s[*pos..n), skipping blanks and comments. */
static struct token next_token(const char *s, size_t *pos, size_t n)
{
	size_t i = *pos;
	struct token t = {T_EOF, 0, 0};
	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n'))
			i++;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
			i += 2;
			while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
				i++;
			if (i + 1 >= n) {
				t.kind = T_ERROR; /* unterminated comment */
				*pos = n;
				return t;
			}
			i += 2;
			continue;
		}
		break;
	}
	t.start = (uint32_t)i;
	if (i >= n) {
		*pos = i;
		return t;
	}
	char c = s[i];
	switch (c) {
	case '{':
		t.kind = T_LBRACE;
		i++;
		break;
	case '}':
		t.kind = T_RBRACE;
		i++;
		break;
	case '"':
	case '\'': {
		size_t end = scan_quoted(s, i, n);
		if (end == 0) {
			t.kind = T_ERROR;
			while (i < n && s[i] != '\n')
				i++;
		} else {
			t.kind = c == '"' ? T_STRING : T_CHAR;
			i = end;
		}
		break;
	}
	case '0': case '1': case '2': case '3': case '4':
	case '5': case '6': case '7': case '8': case '9':
		t.kind = T_INT;
		if (c == '0' && i + 1 < n && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
			i += 2;
			while (i < n && is_hex(s[i]))
				i++;
			break;
		}
		while (i < n && is_digit(s[i]))
			i++;
		if (i < n && s[i] == '.') {
			t.kind = T_FLOAT;
			i++;
			while (i < n && is_digit(s[i]))
				i++;
		}
		if (i < n && (s[i] == 'e' || s[i] == 'E')) {
			t.kind = T_FLOAT;
			i++;
			if (i < n && (s[i] == '+' || s[i] == '-'))
				i++;
			if (i >= n || !is_digit(s[i])) {
				t.kind = T_ERROR;
				break;
			}
			while (i < n && is_digit(s[i]))
				i++;
		}
		break;
	case '<': case '>': /* <<= >>= << >> <= >= */
		i++;
		if (i < n && s[i] == c)
			i++;
		if (i < n && s[i] == '=')
			i++;
		t.kind = T_OP;
		break;
	case '+': case '-': case '&': case '|': /* ++ += -- -= -> && &= || |= */
		i++;
		if (i < n && (s[i] == c || s[i] == '=' || (c == '-' && s[i] == '>')))
			i++;
		t.kind = T_OP;
		break;
	case '=': case '!': case '*': case '/': case '%': case '^':
		i++;
		if (i < n && s[i] == '=')
			i++;
		t.kind = T_OP;
		break;
	case '(': case ')': case '[': case ']': case ';': case ',': case '.': case '?': case ':': case '~':
		i++;
		t.kind = T_OP;
		break;
	default:
		if (is_ident_start(c)) {
			while (i < n && (is_ident_start(s[i]) || is_digit(s[i])))
				i++;
			t.kind = is_keyword(s + t.start, i - t.start) ? T_KEYWORD : T_IDENT;
		} else {
			t.kind = T_ERROR;
			i++;
		}
		break;
	}
	t.len = (uint32_t)(i - t.start);
	*pos = i;
	return t;
}

/* Depth of the deepest brace nesting from tokens[*i] on, recursing at '{';
 * -1 if braces do not balance. */
static int brace_depth(const struct token *tok, size_t n, size_t *i, int depth)
{
	int deepest = depth;
	while (*i < n) {
		enum tok k = tok[(*i)++].kind;
		if (k == T_RBRACE)
			return depth == 0 ? -1 : deepest;
		if (k == T_LBRACE) {
			int d = brace_depth(tok, n, i, depth + 1);
			if (d < 0)
				return -1;
			if (d > deepest)
				deepest = d;
		}
	}
	return depth == 0 ? deepest : -1;
}

static uint64_t rng_state = 0x94D049BB133111EBu;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Du;
}

static size_t put(char *t, size_t i, const char *s)
{
	while (*s)
		t[i++] = *s++;
	return i;
}

/* Statements of a small C-like grammar, nested blocks up to depth 4. */
static size_t gen_block(char *t, size_t i, size_t n, int depth)
{
	static const char *const stmts[] = {
		"x = y + 0x1F;\n", "count += 3.25e-2 * rate;\n", "if (a <= b && c != d) ",
		"s = \"esc\\\"aped \\\\ string\";\n", "c = '\\n';\n", "/* block\n comment */\n",
		"// line comment\n", "p->next = q >> 2;\n", "for (i = 0; i < n; i++) ", "return 0;\n",
		"while (k-- > 0) ", "v[i] <<= 1;\n", "static unsigned int z9 = 1234567;\n",
	};
	i = put(t, i, "{\n");
	while (i + 128 < n) {
		uint64_t r = rng_next();
		size_t k = r % (sizeof stmts / sizeof stmts[0]);
		i = put(t, i, stmts[k]);
		if (stmts[k][strlen(stmts[k]) - 1] == ' ') { /* a statement with a body */
			if (depth < 4 && (r >> 32) % 2 == 0)
				i = gen_block(t, i, n, depth + 1);
			else
				i = put(t, i, "y--;\n");
		}
		if ((r >> 40) % 7 == 0)
			break;
	}
	return put(t, i, "}\n");
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	static char text[TEXT_SIZE];
	static struct token tokens[MAX_TOKENS];
	uint64_t sum = 0, kinds[T_KINDS] = {0};

	kw_init();
	for (long round = 0; round < scale; round++) {
		size_t n = 0;
		while (n + 1024 < sizeof text)
			n = gen_block(text, n, sizeof text - 512, 0);
		size_t pos = 0, ntok = 0;
		for (;;) {
			struct token t = next_token(text, &pos, n);
			if (t.kind == T_EOF)
				break;
			if (ntok == MAX_TOKENS) {
				fprintf(stderr, "tokenizer: too many tokens\n");
				return 1;
			}
			tokens[ntok++] = t;
			kinds[t.kind]++;
			sum = sum * 31u + t.kind * 1000u + t.len;
		}
		size_t at = 0;
		int depth = brace_depth(tokens, ntok, &at, 0);
		if (depth < 0 || kinds[T_ERROR] != 0) {
			fprintf(stderr, "tokenizer: round %ld: malformed text (depth %d)\n", round, depth);
			return 1;
		}
		sum += (uint64_t)depth;
	}
	for (int k = 0; k < T_KINDS; k++)
		sum = sum * 1000003u + kinds[k];
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
