/* misc_features.c: constructs around control flow that a rewriter must
 * not break: short-circuit && / || and ?: in conditions, function
 * pointers and a dispatch table, a variadic function with a loop,
 * static inline functions, a function never called (it must still be
 * listed in the profile), compound literals, nested unbraced if/else,
 * statement expressions are avoided (not ISO C). */
#include <stdarg.h>
#include <stdio.h>

typedef int (*binop)(int, int);

static inline int add(int a, int b) { return a + b; }
static inline int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

static int never_called(int x)
{
	while (x > 0)
		x -= 2;
	return x;
}

static int sum_ints(int count, ...)
{
	va_list ap;
	int s = 0;
	va_start(ap, count);
	while (count-- > 0) {
		int v = va_arg(ap, int);
		if (v < 0 || v > 1000)
			continue;
		s += v;
	}
	va_end(ap);
	return s;
}

static int fold(const int *v, int n, binop f, int init)
{
	int acc = init;
	for (int i = 0; i < n; i++)
		acc = f(acc, v[i]);
	return acc;
}

static const char *grade(int score, int bonus)
{
	if (score > 90 || (bonus && score > 80))
		return "A";
	else if (score > 70 && !bonus)
		if (score > 75)
			return "B+";
		else
			return "B";
	else
		return score > 50 ? (bonus ? "C+" : "C") : "F";
}

int main(void)
{
	binop table[] = {add, sub, mul};
	const char *names[] = {"add", "sub", "mul"};
	int v[] = {3, 1, 4, 1, 5, 9, 2, 6};
	for (int k = 0; k < 3; k++)
		printf("fold %s = %d\n", names[k],
		       fold(v, 8, table[k], k == 2 ? 1 : 0));
	printf("sum_ints = %d\n", sum_ints(6, 10, -5, 20, 2000, 30, 1));
	printf("sum_ints() = %d\n", sum_ints(0));
	int *lit = (int[]){7, 8, 9};
	printf("compound = %d\n", fold(lit, 3, add, 0));
	static const int scores[] = {95, 85, 85, 78, 72, 72, 60, 60, 30};
	static const int bonus[] = {0, 1, 0, 0, 0, 1, 1, 0, 1};
	for (int i = 0; i < 9; i++)
		printf("grade(%d, %d) = %s\n", scores[i], bonus[i],
		       grade(scores[i], bonus[i]));
	if (v[0] < 0)
		printf("%d\n", never_called(v[0]));
	return 0;
}
