/* Control flow from macro expansions: those invocations are written out as
 * their expansion (frontend/expand.c) and every function is instrumented.
 * expect: instrumented=13 skipped=0 cut=0
 * expect-paths: m_check=3 m_case=2 m_ret_if=2 */
#include <stdio.h>

#define CHECK(x) if (!(x)) return -1
#define LOOP for (;;)
#define TWICE(s) do { s; s; } while (0)
#define BREAK break
#define CONTINUE continue
#define FAIL goto fail
#define CASE(n) case n:
#define RETURN_IF(c, v) if (c) return (v)
#define MAXS(a, b) ({ int _a = (a), _b = (b); _a > _b ? _a : _b; })

static int m_check(int x)
{
	CHECK(x > 0);
	CHECK(x < 10);
	return x * 2;
}

static int m_loop(int n)
{
	int s = 0;
	LOOP {
		if (n-- <= 0)
			break;
		s += n;
	}
	return s;
}

static int m_dowhile(int x)
{
	int r = 0;
	TWICE(r += x);
	return r;
}

static int m_break(int n)
{
	int i;
	for (i = 0; i < 100; i++)
		if (i * i > n)
			BREAK;
	return i;
}

static int m_continue(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (i & 1)
			CONTINUE;
		s += i;
	}
	return s;
}

static int m_goto(int x)
{
	if (x < 0)
		FAIL;
	return x;
fail:
	return 0;
}

static int m_case(int x)
{
	switch (x) {
	CASE(1)
		return 10;
	default:
		return 0;
	}
}

static int m_ret_if(int x)
{
	RETURN_IF(x == 3, 33);
	return x;
}

static int m_stmtexpr(int a, int b)
{
	if (a)
		return MAXS(a, b);
	return b;
}

/* these four have no control flow from macros */
static int plain(int x)
{
	if (x > 2)
		return x;
	return -x;
}

static int plain_uses_macro_name_in_string(int x)
{
	const char *s = "CHECK(x) LOOP BREAK";
	while (*s && x--)
		s++;
	return (int)*s;
}

static int plain_loop(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i;
	return s;
}

int main(void)
{
	for (int i = -1; i < 12; i++)
		printf("%d: %d %d %d %d %d %d %d %d %d %d %d %d\n", i, m_check(i), m_loop(i), m_dowhile(i), m_break(i),
		       m_continue(i), m_goto(i), m_case(i), m_ret_if(i), m_stmtexpr(i, 5), plain(i),
		       plain_uses_macro_name_in_string(i), plain_loop(i));
	return 0;
}
