/* expr_parser.c: a recursive-descent parser and evaluator: mutual
 * recursion through three functions (expr -> term -> factor -> expr),
 * error handling by early return of a sentinel, a loop per precedence
 * level, and a parser state passed by pointer. */
#include <stdio.h>

struct parser {
	const char *s;
	int error;
};

static long expr(struct parser *p);

static void skip_spaces(struct parser *p)
{
	while (*p->s == ' ')
		p->s++;
}

static long factor(struct parser *p)
{
	skip_spaces(p);
	if (p->error)
		return 0;
	if (*p->s == '(') {
		p->s++;
		long v = expr(p);
		skip_spaces(p);
		if (*p->s != ')') {
			p->error = 1;
			return 0;
		}
		p->s++;
		return v;
	}
	if (*p->s == '-') {
		p->s++;
		return -factor(p);
	}
	if (*p->s < '0' || *p->s > '9') {
		p->error = 2;
		return 0;
	}
	long v = 0;
	while (*p->s >= '0' && *p->s <= '9')
		v = v * 10 + (*p->s++ - '0');
	return v;
}

static long term(struct parser *p)
{
	long v = factor(p);
	for (;;) {
		skip_spaces(p);
		char op = *p->s;
		if (op != '*' && op != '/' && op != '%')
			return v;
		p->s++;
		long r = factor(p);
		if (p->error)
			return 0;
		if (r == 0 && op != '*') {
			p->error = 3;
			return 0;
		}
		v = op == '*' ? v * r : op == '/' ? v / r : v % r;
	}
}

static long expr(struct parser *p)
{
	long v = term(p);
	skip_spaces(p);
	while (!p->error && (*p->s == '+' || *p->s == '-')) {
		char op = *p->s++;
		long r = term(p);
		v = op == '+' ? v + r : v - r;
		skip_spaces(p);
	}
	return v;
}

int main(void)
{
	static const char *const inputs[] = {
		"1 + 2 * 3",
		"(1 + 2) * 3",
		"-(4 - 10) * (2 + 3) % 7",
		"((((7))))",
		"100 / (5 - 5)",
		"2 * (3 + 4",
		"2 + x",
		"12 * 12 - 44 / 4 + -3 * -(2 - 9)",
	};
	for (int i = 0; i < 8; i++) {
		struct parser p = {inputs[i], 0};
		long v = expr(&p);
		if (!p.error && *p.s != '\0')
			p.error = 4;
		if (p.error)
			printf("%-34s error %d\n", inputs[i], p.error);
		else
			printf("%-34s = %ld\n", inputs[i], v);
	}
	return 0;
}
