/* if statements in unusual shapes: dangling else, unbraced bodies holding
 * loops, empty bodies, else-if chains, comments in every gap.
 * expect: instrumented=9 skipped=0 cut=0 */
#include <stdio.h>

static int dangling(int a, int b)
{
	int r = 0;
	if (a)
		if (b)
			r = 1;
		else
			r = 2;
	return r;
}

static int unbraced_loops(int n)
{
	int s = 0, i;
	if (n > 0)
		for (i = 0; i < n; i++)
			s += i;
	else if (n < -5)
		while (n < 0)
			n++, s--;
	else
		do
			s += 100;
		while (++n < 0);
	return s;
}

static int empty_bodies(int x)
{
	int c = 0;
	if (x > 1);
	if (x > 2) {} else {}
	if (x > 3)
		;
	else
		c++;
	if (x > 4) ; else ;
	return c + x;
}

static int comments(int x) /* after the declarator */
/* between declarator and body */
{ /* right after the brace */
	int r = 0; // line comment
	if (x > 0) /* between ) and body */ r += 1; /* after */
	if (x > 1) // line comment between ) and body
		r += 2;
	else /* after else */ r += 4;
	if (x > 2) {
		r += 8;
	} /* before else */ else /* between else and if */ if (x < -1) /* c */ {
		r += 16;
	}
	// before else on its own line
	else
		r += 32;
	return /* in return */ r /* before ; */;
	/* after the last statement */
}

static const char *chain(int x)
{
	if (x == 0) return "zero";
	else if (x == 1) return "one";
	else if (x == 2) return "two";
	else if (x < 0) return "neg";
	return "many";
}

static int nested_else_if_noelse(int a, int b, int c)
{
	int r = 0;
	if (a) {
		if (b) r |= 1;
	} else if (c)
		if (b) r |= 2; else r |= 4;
	if (a) if (b) if (c) r |= 8;
	return r;
}

static void side(int *p, int v)
{
	if (v & 1) (*p)++;
	else if (v & 2) (*p) += 2;
}

static int if_in_cond(int x)
{
	int r = 0;
	if ((x > 0 ? x : -x) > 3 && (x & 1 || x == -4))
		r = 1;
	if (!(x > 0) || (x < 10 && x > 5))
		r += 2;
	return r;
}

int main(void)
{
	int a, b, c, t = 0;
	for (a = 0; a < 2; a++)
		for (b = 0; b < 2; b++) {
			printf("dangling %d %d %d\n", a, b, dangling(a, b));
			for (c = 0; c < 2; c++)
				printf("nested %d %d %d %d\n", a, b, c, nested_else_if_noelse(a, b, c));
		}
	for (a = -8; a <= 4; a++)
		printf("loops %d %d / empty %d / comments %d / chain %s / cond %d\n", a, unbraced_loops(a),
		       empty_bodies(a), comments(a), chain(a), if_in_cond(a));
	for (a = 0; a < 4; a++)
		side(&t, a);
	printf("side %d\n", t);
	return 0;
}
