/* Macros without control flow must not cause a skip: function-like macros
 * in conditions, statements, return values and case labels; a macro for a
 * whole expression statement; object-like macros for constants.
 * expect: instrumented=9 skipped=0 cut=0 */
#include <stdio.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define IS_EVEN(x) (((x) & 1) == 0)
#define LIMIT 10
#define K_ONE 1
#define K_TWO (K_ONE + 1)
#define INC(v) ((v)++)
#define SHOW(v) printf("show %s=%d\n", #v, (v))
#define LOGLINE printf("logline\n")
#define CALL(f, x) f(x)
#define NOTHING
#define ARR_LEN(a) (sizeof(a) / sizeof((a)[0]))

static int total;

static void add(int v) { total += v; }

static int conds(int x)
{
	int r = 0;
	if (IS_EVEN(x))
		r += 1;
	while (MAX(x, 0) > LIMIT / 2)
		x--, r += 2;
	for (int i = 0; i < MAX(x, 1); INC(i))
		r += 3;
	do
		INC(r);
	while (r < LIMIT && !IS_EVEN(r));
	return MAX(r, x);
}

static int stmts(int x)
{
	SHOW(x);
	if (x > 2)
		SHOW(x * 2);
	else
		LOGLINE;
	CALL(add, x);
	if (x)
		CALL(add, 1);
	NOTHING;
	INC(x);
	return x;
}

static int cases(int x)
{
	switch (x) {
	case K_ONE:
		return 100;
	case K_TWO:
		SHOW(x);
		break;
	case LIMIT:
		return LIMIT;
	}
	return 0;
}

static unsigned arr(void)
{
	int a[] = {1, 2, 3, 4};
	unsigned s = 0;
	for (unsigned i = 0; i < ARR_LEN(a); i++)
		s += (unsigned)a[i];
	return s + (unsigned)ARR_LEN(a);
}

static int macro_body_unbraced(int x)
{
	int r = 0;
	for (int i = 0; i < x; i++)
		INC(r);
	while (x-- > 0)
		CALL(add, x);
	if (r)
		SHOW(r);
	return r;
}

static int macro_ret(int a, int b)
{
	return MAX(a, b) + IS_EVEN(a);
}

static int macro_in_nested_cond(int a)
{
	if (MAX(a, 3) > 3 && (IS_EVEN(a) || a == K_ONE))
		return 1;
	return 0;
}

int main(void)
{
	for (int i = 0; i < 12; i++)
		printf("%d: %d %d %d %d %d %d\n", i, conds(i), stmts(i), cases(i), macro_body_unbraced(i), macro_ret(i, 5),
		       macro_in_nested_cond(i));
	printf("arr %u total %d\n", arr(), total);
	return 0;
}
