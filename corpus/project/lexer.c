/* lexer.c: hand-written scanner: integers, strings with escapes, comments
 * (# to end of line), keywords and one- or two-character operators. */
#include <string.h>

#include "lexer.h"

static const struct {
	const char *word;
	enum tok kind;
} keywords[] = {
	{"fn", T_FN}, {"let", T_LET}, {"if", T_IF}, {"else", T_ELSE}, {"while", T_WHILE},
	{"for", T_FOR}, {"in", T_IN}, {"break", T_BREAK}, {"continue", T_CONTINUE},
	{"return", T_RETURN}, {"nil", T_NIL}, {"and", T_AND}, {"or", T_OR}, {"not", T_NOT},
};

void lexer_init(struct lexer *lx, const char *src)
{
	lx->src = src;
	lx->p = src;
	lx->line = 1;
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static void skip_space(struct lexer *lx)
{
	for (;;) {
		char c = *lx->p;
		if (c == '\n') {
			lx->line++;
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r') {
			lx->p++;
		} else if (c == '#') {
			while (*lx->p && *lx->p != '\n')
				lx->p++;
		} else {
			return;
		}
	}
}

static struct token make(struct lexer *lx, enum tok kind, const char *start)
{
	struct token t;
	t.kind = kind;
	t.start = start;
	t.len = (int)(lx->p - start);
	t.line = lx->line;
	t.ival = 0;
	return t;
}

static struct token error(struct lexer *lx, const char *msg)
{
	struct token t;
	t.kind = T_ERROR;
	t.start = msg;
	t.len = (int)strlen(msg);
	t.line = lx->line;
	t.ival = 0;
	return t;
}

static struct token number(struct lexer *lx, const char *start)
{
	long long v = 0;
	lx->p = start;
	if (start[0] == '0' && (start[1] == 'x' || start[1] == 'X')) {
		lx->p = start + 2;
		for (;;) {
			char c = *lx->p;
			int d;
			if (is_digit(c))
				d = c - '0';
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				break;
			v = v * 16 + d;
			lx->p++;
		}
	} else {
		while (is_digit(*lx->p)) {
			v = v * 10 + (*lx->p - '0');
			lx->p++;
		}
	}
	if (is_alpha(*lx->p))
		return error(lx, "malformed number");
	struct token t = make(lx, T_INT, start);
	t.ival = v;
	return t;
}

static struct token string(struct lexer *lx, const char *start)
{
	while (*lx->p != '"') {
		if (*lx->p == 0 || *lx->p == '\n')
			return error(lx, "unterminated string");
		if (*lx->p == '\\' && lx->p[1])
			lx->p++;
		lx->p++;
	}
	lx->p++;
	return make(lx, T_STRING, start);
}

static struct token word(struct lexer *lx, const char *start)
{
	while (is_alpha(*lx->p) || is_digit(*lx->p))
		lx->p++;
	int len = (int)(lx->p - start);
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
		if ((int)strlen(keywords[i].word) == len && !memcmp(keywords[i].word, start, (size_t)len))
			return make(lx, keywords[i].kind, start);
	}
	return make(lx, T_IDENT, start);
}

/* The kind of a two-character operator starting with c followed by d,
 * T_EOF when there is none. */
static enum tok two_char(char c, char d)
{
	switch (c) {
	case '=':
		return d == '=' ? T_EQ : T_EOF;
	case '!':
		return d == '=' ? T_NE : T_EOF;
	case '<':
		return d == '=' ? T_LE : T_EOF;
	case '>':
		return d == '=' ? T_GE : T_EOF;
	case '+':
		return d == '=' ? T_PLUSEQ : T_EOF;
	case '-':
		return d == '=' ? T_MINUSEQ : T_EOF;
	case '.':
		return d == '.' ? T_DOTDOT : T_EOF;
	case '&':
		return d == '&' ? T_AND : T_EOF;
	case '|':
		return d == '|' ? T_OR : T_EOF;
	default:
		return T_EOF;
	}
}

struct token lexer_next(struct lexer *lx)
{
	skip_space(lx);
	const char *start = lx->p;
	char c = *lx->p;
	if (c == 0)
		return make(lx, T_EOF, start);
	lx->p++;
	if (is_digit(c))
		return number(lx, start);
	if (is_alpha(c))
		return word(lx, start);
	if (c == '"')
		return string(lx, start);
	enum tok two = two_char(c, *lx->p);
	if (two != T_EOF) {
		lx->p++;
		return make(lx, two, start);
	}
	switch (c) {
	case '(': return make(lx, T_LPAREN, start);
	case ')': return make(lx, T_RPAREN, start);
	case '{': return make(lx, T_LBRACE, start);
	case '}': return make(lx, T_RBRACE, start);
	case '[': return make(lx, T_LBRACKET, start);
	case ']': return make(lx, T_RBRACKET, start);
	case ',': return make(lx, T_COMMA, start);
	case ';': return make(lx, T_SEMI, start);
	case '=': return make(lx, T_ASSIGN, start);
	case '+': return make(lx, T_PLUS, start);
	case '-': return make(lx, T_MINUS, start);
	case '*': return make(lx, T_STAR, start);
	case '/': return make(lx, T_SLASH, start);
	case '%': return make(lx, T_PERCENT, start);
	case '<': return make(lx, T_LT, start);
	case '>': return make(lx, T_GT, start);
	case '!': return make(lx, T_NOT, start);
	default: return error(lx, "unexpected character");
	}
}

const char *tok_name(enum tok k)
{
	static const char *const names[] = {
		"end of input", "error", "integer", "string", "identifier", "'fn'", "'let'", "'if'",
		"'else'", "'while'", "'for'", "'in'", "'break'", "'continue'", "'return'", "'nil'",
		"'and'", "'or'", "'not'", "'('", "')'", "'{'", "'}'", "'['", "']'", "','", "';'",
		"'..'", "'='", "'+'", "'-'", "'*'", "'/'", "'%'", "'=='", "'!='", "'<'", "'<='",
		"'>'", "'>='", "'+='", "'-='",
	};
	return names[k];
}
