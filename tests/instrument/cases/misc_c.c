/* K&R definitions, variadic functions, static inline, VLAs, compound
 * literals, _Generic, _Static_assert, asm, empty functions, main falling
 * off its end, identifiers that look like the tool's own.
 * expect: instrumented=16 skipped=0 cut=0 */
#include <stdarg.h>
#include <stdio.h>

int knr_add(a, b)
	int a;
	int b;
{
	if (a > b)
		return a - b;
	return a + b;
}

static long knr_promote(c, d, s)
	char c;
	double d;
	char *s;
{
	while (*s)
		c += *s++;
	return c + (long)d;
}

static int sum(int n, ...)
{
	va_list ap;
	int s = 0;
	va_start(ap, n);
	while (n-- > 0) {
		int v = va_arg(ap, int);
		if (v < 0)
			continue;
		s += v;
	}
	va_end(ap);
	return s;
}

static void vlog(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (*fmt)
		vprintf(fmt, ap);
	va_end(ap);
}

static inline int sq(int x) { return x * x; }
static inline __attribute__((always_inline)) int cube(int x) { return x < 0 ? -sq(x) * -x : sq(x) * x; }

static int vla(int n)
{
	int a[n + 1], m[n + 1][n + 2];
	for (int i = 0; i <= n; i++) {
		a[i] = i * i;
		for (int j = 0; j < n + 2; j++)
			m[i][j] = i + j;
	}
	int s = (int)sizeof a;
	for (int i = 0; i <= n; i++)
		s += a[i] + m[i][n];
	return s;
}

static int vla_param(int n, int m[n][n])
{
	int s = 0;
	for (int i = 0; i < n; i++)
		if (m[i][i] > 0)
			s += m[i][i];
	return s;
}

static int compound_lit(int i)
{
	if ((int[]){0, 1, 0, 1}[i & 3])
		return ((struct { int a, b; }){i, i * 2}).b;
	int *p = (int[3]){i, i + 1, i + 2};
	while (*p < i + 2)
		p++;
	return *p;
}

#define TYPENAME(x) _Generic((x), int: "int", double: "double", default: "other")

static const char *generic(int i)
{
	_Static_assert(sizeof(int) >= 2, "int too small");
	if (_Generic(i, int: i > 0, default: 0))
		return TYPENAME(i);
	return TYPENAME(1.0 * i);
}

static int with_asm(int x)
{
	__asm__ volatile("" ::: "memory");
	if (x)
		__asm__("");
	return x + 1;
}

static void nothing(void) {}
static void nothing2(void) { ; }
static void nothing3(void) { {} { ; } }

static int shadow(int kp_r)
{
	int kp_c = kp_r * 2, kp_ret = 1, r = 3, ret = 4;
	if (kp_c > 4)
		return kp_ret + r + ret;
	return kp_c;
}

int main(void)
{
	int m[3][3] = {{1, 2, 3}, {4, -5, 6}, {7, 8, 9}};
	nothing();
	nothing2();
	nothing3();
	printf("knr %d %d %ld\n", knr_add(5, 3), knr_add(1, 2), knr_promote('a', 2.5, "xyz"));
	printf("sum %d %d\n", sum(0), sum(5, 1, -2, 3, -4, 5));
	vlog("vlog %d %s\n", 42, "ok");
	vlog("");
	for (int i = -2; i < 5; i++)
		printf("%d: %d %d %d %d %s %d %d\n", i, sq(i), cube(i), i >= 0 ? vla(i) : 0, compound_lit(i), generic(i),
		       with_asm(i), shadow(i));
	printf("vla_param %d\n", vla_param(3, m));
}
