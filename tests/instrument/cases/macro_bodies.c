/* Every kind of brace-less statement body (if, else, else-if, while, do,
 * for, case and default bodies, labelled statements, nested bodies) whose
 * statement ends in a macro: a function-like macro whose last token is its
 * argument (ID: the statement's text ends at the invocation's ")", not
 * before the macro's name), nested invocations of it, a macro whose last
 * token is its own (SQ), a macro that expands to nothing (NOTHING), and one
 * that expands to a statement with its own ";" (BUMP).  The braces the tool
 * adds must enclose the whole invocation.  (The path counts are those of
 * the same file with its macros written out by the preprocessor.)
 * expect: instrumented=13 skipped=0 cut=0
 * expect-paths: b_if=4 b_ifelse=4 b_elseif=3 b_while=8 b_do=12 b_for=8 b_switch=5 b_label=6 b_nested=7 b_cond=3 b_empty=10 */
#include <stdio.h>

#define ID(x) x
#define ID2(x) ID(x)
#define SQ(x) ((x) * (x))
#define NOTHING
#define BUMP(v) (v) += 1;
#define CALL(f, x) f(x)

static int twice(int v)
{
	return 2 * v;
}

static int b_if(int s)
{
	int r = 0;
	if (s < 0) r += ID(1);
	if (s > 5)
		r += ID2(ID(s));
	return r;
}

static int b_ifelse(int s)
{
	int r = 0;
	if (s & 1) r += ID(s); else r -= ID(1);
	if (s & 2)
		r += SQ(s);
	else r = CALL(twice, ID(r));
	return r;
}

static int b_elseif(int s)
{
	int r = 0;
	if (s == 1) r = ID(10);
	else if (s == 2) r = ID(20);
	else r = ID(30) ;
	return r;
}

static int b_while(int s)
{
	int r = 0;
	while (s > 3) s -= ID(2);
	while (r < s)
		BUMP(r)
	return r + s;
}

static int b_do(int s)
{
	int r = 0;
	do r += ID(s); while (r < 10 && s > 0);
	do BUMP(s) while (s < 3);
	return r + s;
}

static int b_for(int s)
{
	int r = 0;
	for (int i = 0; i < s; i++) r += ID(i);
	for (int i = 0; i < ID(s); i += ID(1))
		r ^= ID(i)
		     ;
	return r;
}

static int b_switch(int s)
{
	int r = 0;
	switch (s) {
	case 0: r = ID(5); break;
	case 1: r = ID2(6);
	/* fall through */
	case 2: r += SQ(s); break;
	case 3: BUMP(r) break;
	default: r = ID(-1);
	}
	return r;
}

static int b_label(int s)
{
	int r = 0;
again:
	r += ID(s);
	if (r < 3 && s > 0)
		goto again;
	return r;
}

static int b_nested(int s)
{
	int r = 0;
	if (s > 0)
		while (r < s)
			if (r & 1) r += ID(2); else r += ID(1);
	return r;
}

static int b_cond(int s)
{
	int r = 0;
	if (ID(s) > 2 && ID(s) < 6) r = ID(1);
	return r;
}

static int b_empty(int s)
{
	int r = s;
	if (s > 4) NOTHING;
	if (s > 3) r += 1 NOTHING;
	while (r > 10) r -= 3 NOTHING;
	return r;
}

int main(void)
{
	for (int s = -1; s < 8; s++)
		printf("%d: %d %d %d %d %d %d %d %d %d %d %d\n", s, b_if(s), b_ifelse(s), b_elseif(s), b_while(s),
		       b_do(s), b_for(s), b_switch(s), b_label(s), b_nested(s), b_cond(s), b_empty(s + 9));
	return 0;
}
