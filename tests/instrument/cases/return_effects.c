/* Return expressions with side effects and calls (evaluated exactly once),
 * comma expressions, void returns, recursion.
 * expect: instrumented=12 skipped=0 cut=0 */
#include <stdio.h>

static int calls;

static int tick(int v) { calls++; return v; }
static int post(int *p) { return (*p)++; }
static int comma(int a) { return tick(a), tick(a + 1), a * 2; }
static int cond_ret(int a) { return a > 0 ? tick(a) : a < 0 ? tick(-a) : tick(100); }
static int sc(int a, int b) { return tick(a) && tick(b) || tick(7); }
static void vret(int a) { if (a) return (void)tick(a); tick(-1); }
static void vcall(int a) { if (a > 1) return vret(a - 1); return; }
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
static int is_odd(int n);
static int is_even(int n) { if (n == 0) return 1; return is_odd(n - 1); }
static int is_odd(int n) { if (n == 0) return 0; return is_even(n - 1); }
static int ack(int m, int n)
{
	if (m == 0)
		return n + 1;
	if (n == 0)
		return ack(m - 1, 1);
	return ack(m - 1, ack(m, n - 1));
}

int main(void)
{
	int x = 5;
	int a = post(&x), b = post(&x);
	printf("post %d %d %d\n", a, b, x);
	printf("comma %d calls %d\n", comma(3), calls);
	for (int i = -2; i <= 2; i++)
		printf("cond %d %d calls %d\n", i, cond_ret(i), calls);
	printf("sc %d %d %d calls %d\n", sc(0, 1), sc(1, 0), sc(1, 1), calls);
	vcall(3);
	vcall(0);
	printf("void calls %d\n", calls);
	printf("fib %d even %d %d ack %d\n", fib(15), is_even(10), is_even(7), ack(2, 3));
	return calls & 0x7f;
}
