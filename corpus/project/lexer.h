/* lexer.h: tokens of the stk language. */
#ifndef STK_LEXER_H
#define STK_LEXER_H

enum tok {
	T_EOF, T_ERROR, T_INT, T_STRING, T_IDENT,
	/* keywords */
	T_FN, T_LET, T_IF, T_ELSE, T_WHILE, T_FOR, T_IN, T_BREAK, T_CONTINUE, T_RETURN, T_NIL,
	T_AND, T_OR, T_NOT,
	/* punctuation */
	T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LBRACKET, T_RBRACKET, T_COMMA, T_SEMI,
	T_DOTDOT, T_ASSIGN, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_EQ, T_NE, T_LT, T_LE,
	T_GT, T_GE, T_PLUSEQ, T_MINUSEQ
};

struct token {
	enum tok kind;
	const char *start;
	int len;
	int line;
	long long ival;
};

struct lexer {
	const char *src;
	const char *p;
	int line;
};

void lexer_init(struct lexer *lx, const char *src);
struct token lexer_next(struct lexer *lx);
const char *tok_name(enum tok k);

#endif
