/* Expression-level branches: &&, || and ?: in conditions, initialisers,
 * returns, arguments, loop headers, nested chains; and the contexts where
 * they must stay atomic (sizeof, _Generic, static initialisers, case labels,
 * enumerators, __builtin_choose_expr/__builtin_constant_p, macros).
 * expect: instrumented=7 skipped=0 cut=0
 * expect-paths: leaf=1 */
#include <stdio.h>

#define BOTH(a, b) ((a) && (b))
#define PICK(c, x, y) ((c) ? (x) : (y))

static int calls;
static int side(int v)
{
	calls++;
	return v;
}

static int leaf(int a)
{
	return a + 1;
}

static int conds(int a, int b)
{
	int r = 0;
	if (a > 1 && (b == 2 || b == 5))
		r += 10;
	if (!(a && b) || (a > b ? a - b > 2 : b - a > 3))
		r += 7;
	while (a-- > 0 && side(b))
		r += (int)sizeof(a && b);
	for (int i = 0; i < 3 && i != b; i++)
		r += i > 1 ? 2 : 1;
	do
		r++;
	while (r < 5 || ((r & 1) == 0 && r < 9));
	if (BOTH(a, b))
		r += 100;
	return r;
}

static int values(int a, int b)
{
	static const int table[2 && 1 ? 3 : 4] = {1, 2, 3};
	enum { E = 1 || 0 };
	int x = a > 2 && b < 3, y = a ? b : (b || a);
	int z = side(a) ? side(b) ? 1 : 2 : side(a + b) ? 3 : 4;
	int g = _Generic(a && b, int: 1, default: 2);
	int c = __builtin_choose_expr(1, a || b, a && b);
	int k = __builtin_constant_p(a && b);
	int p = PICK(a, 5, 6) + (a, b ? 1 : 2);
	switch (a && b) {
	case 1 && 1:
		x += 1;
		break;
	default:
		x += 2;
	}
	return x + y + z + g + c + k + p + table[E] + leaf(a || b);
}

static int ret(int a, int b)
{
	return a < 0 ? -1 : a == 0 ? (b ? 0 : 9) : a > 3 && b > 3 ? 2 : 1;
}

static void voidret(int a, int *out)
{
	*out = a && side(a);
}

int main(void)
{
	long s = 0;
	int o;
	for (int a = -2; a < 6; a++)
		for (int b = -1; b < 7; b++) {
			voidret(a, &o);
			s += conds(a, b) * 3 + values(a, b) * 5 + ret(a, b) * 7 + o;
		}
	printf("%ld %d\n", s, calls);
	return 0;
}
