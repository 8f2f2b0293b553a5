/* Lexical traps: #if 0 regions with unbalanced braces and semicolons,
 * preprocessor lines inside bodies, digraphs, line splices, comments and
 * string literals containing braces, semicolons and keywords.
 * Digraph braces and keywords split by line splices are skipped (the
 * statement's keyword is not spelled at its location).
 * expect: instrumented=5 skipped=2 cut=0
 * expect-skip: digraphs splices */
#include <stdio.h>
#include <string.h>

static int if0(int x)
{
	int r = 0;
	if (x > 1)
#if 0
	{ r = -1;
#endif
		r += 1;
#ifdef NOT_DEFINED_ANYWHERE
	}
	while (1) {
#endif
	for (int i = 0; i < x; i++)
#if 0
		;
#endif
		r += 2;
	return r;
}

static int pp_in_body(int x)
{
	int r = 0;
#define LOCAL_TWO 2
	while (x-- > 0)
#pragma GCC diagnostic push
		r += LOCAL_TWO;
#pragma GCC diagnostic pop
#undef LOCAL_TWO
	return r;
}

static int digraphs(int x)
<%
	int a<:3:> = <%1, 2, 3%>;
	int r = 0;
	if (x > 0) <%
		r = a<:x % 3:>;
	%> else
		r = -1;
	for (int i = 0; i < x; i++) <% r++; %>
	return r;
%>

static int splices(int x)
{
	int r = 0;
	whi\
le (x-- > 0)
		r++;
	i\
f (r > 2) re\
turn r * 10;
	return r;
}

static int strings(const char *s)
{
	int n = 0; /* { ; } case 1: default: */
	if (strchr("{;}", *s)) // } else {
		n += 1;
	for (const char *p = s; *p != ';' && *p; p++) /* ) { */
		n += 10;
	switch (*s) {
	case '{': n += 100; /* case '}': */ break;
	case ';': n += 200; break;
	case '}':;
	}
	return n;
}

static int comments_after_parens(int x)
{
	int r = 0;
	while (x > 0) /* c */ { x--; r++; }
	for (;;) // c
		if (r++ > 5) break;
	do /* c */ r++; /* c */ while (r < 10) /* c */;
	switch (x) /* c */ { /* c */ case 0: /* c */ r++; /* c */ }
	return r;
}

int main(void)
{
	for (int i = 0; i < 5; i++)
		printf("%d: %d %d %d %d %d\n", i, if0(i), pp_in_body(i), digraphs(i), splices(i), comments_after_parens(i));
	printf("%d %d %d %d\n", strings("{a"), strings(";"), strings("}x;"), strings("ab;c"));
	return 0;
}
