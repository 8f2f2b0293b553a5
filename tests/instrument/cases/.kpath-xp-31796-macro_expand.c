#line 1 "macro_expand.c"
/* Macro invocations holding control flow are written out as their
 * expansion; the cases where that would not be the same program are
 * skipped with the reason (frontend/expand.c).
 * expect: instrumented=23 skipped=4 cut=0
 * expect-skip: x_line_multi x_selfref x_pragma x_counter
 * expect-paths: x_and=3 x_foreach=4 x_nested=8 x_args=10 x_def_fn=2 x_switchmac=4 x_label=2 x_bool=2 x_trace_case=2 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define TRY(e) do { int rc_ = (e); if (rc_ < 0) return rc_; } while (0)
#define AND_RET(a, b) if ((a) && (b)) return 1
#define FOREACH(i, n) for ((i) = 0; (i) < (n); (i)++)
#define UNTIL(c) while (!(c))
#define INNER(x) if ((x) > 5) return 5
#define OUTER(x) do { INNER(x); INNER((x) + 1); } while (0)
#define ID(x) x
#define CAT(a, b) a##b
#define STR(x) #x
#define LOG_RET(x) do { printf("%s=%d line %d\n", STR(x), (x), __LINE__); return (x); } while (0)
#define SWITCH_ON(v) switch (v) { case 0: return 10; case 1: return 11; default: break; }
#define DEF_FN(name, k) static int name(int x) { if (x > (k)) return 1; return 0; }
#define GOTO_IF(c, l) if (c) goto l
#define BREAK_IF(c) if (c) break
#define CONT_IF(c) if (c) continue
#define TERN_RET(c) return (c) ? 7 : 8
#define BODY { int t = 0; while (t < 3) t++; n += t; }

static int x_try(int v)
{
	TRY(v - 3);
	TRY(v - 5);
	return v;
}

static int x_and(int a, int b)
{
	AND_RET(a > 2, b > 2);
	return 0;
}

static int x_foreach(int n)
{
	int i, s = 0;
	FOREACH(i, n) s += i;
	return s;
}

static int x_until(int n)
{
	/* kpath: expansion of UNTIL */  while (!(n <= 0))   n -= 3;
	return n;
}

static int x_nested(int v)
{
	OUTER(v);
	return 0;
}

/* a macro in a macro's arguments, and the invocation spread over lines
 * with comments in it */
static int x_args(int v)
{
	TRY(ID(v) - /* a comment */ 4);
	AND_RET(ID(v) > 6, // a line comment inside the invocation
	        v < 100);
	return -v;
}

static int x_paste(int v)
{
	int CAT(va, lue) = v;
	GOTO_IF(CAT(val, ue) > 8, big);
	return value;
big:
	return 100;
}

static int x_str(int v)
{
	if (v & 1)
		LOG_RET(v   +   1);
	return 0;
}

static int x_switchmac(int v)
{
	SWITCH_ON(v)
	if (v > 5)
		return 2;
	return 3;
}

DEF_FN(x_def_fn, 4)

static int x_loops(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		BREAK_IF(i > 6);
		CONT_IF(i % 3 == 0);
		s += i;
	}
	return s;
}

static int x_tern(int v)
{
	TERN_RET(v > 3);
}

static int x_block(int n)
{
	if (n > 2)
		BODY
	return n;
}

/* __LINE__ in a single-line invocation is the same number everywhere */
static int x_line_single(int v)
{
	if (v > 100)
		LOG_RET(v);
	return __LINE__ > 0;
}

/* __LINE__ in a multi-line invocation: gcc and clang disagree on its
 * value, so this one is not written out */
static int x_line_multi(int v)
{
	if (v > 100)
		LOG_RET(v +
		        1);
	return 0;
}

/* a self-referential macro reads differently once written out */
static int selfref = 3;
#define selfref (selfref + 1)
#define RET_SELF() if (selfref > 3) return selfref
static int x_selfref(void)
{
	RET_SELF();
	return 0;
}
#undef selfref

/* _Pragma becomes a #pragma line: cannot be put on one line */
#define QUIET_RET(x) do { _Pragma("GCC diagnostic push") if (x) return 1; _Pragma("GCC diagnostic pop") } while (0)
static int x_pragma(int v)
{
	QUIET_RET(v > 4);
	return 0;
}

/* a macro redefined later: each invocation uses the definition in force */
#define STEP(x) if ((x) > 1) return 1
static int x_redef1(int v)
{
	STEP(v);
	return 0;
}
#undef STEP
#define STEP(x) if ((x) > 2) return 2
static int x_redef2(int v)
{
	STEP(v);
	return 0;
}

/* an invocation whose name comes from another macro */
#define PICK TRY
static int x_indirect(int v)
{
	PICK(v - 2);
	return v;
}

/* a string holding a macro name, and a macro without control flow */
#define TWICE_OF(x) ((x) * 2)
static int x_plain(int v)
{
	const char *s = "TRY(x) FOREACH";
	if (v > (int)strlen(s))
		return TWICE_OF(v);
	return v;
}

/* __COUNTER__ in the invocation: later uses keep their values only if the
 * expansion is not preprocessed again */
#define UNIQUE_RET(v) do { int u = __COUNTER__; if ((v) > u) return (v) - u; } while (0)
static int x_counter(int v)
{
	UNIQUE_RET(v);
	return __COUNTER__;
}

/* a label from a macro */
#define LABEL(n) lab_##n:
static int x_label(int v)
{
	if (v > 3)
		goto lab_1;
	v += 10;
LABEL(1)
	return v;
}

/* the return type is a macro from a header (bool): the function's extent
 * starts inside <stdbool.h> */
static bool x_bool(int v)
{
	if (v > 2)
		return true;
	return false;
}

/* a case label followed by a macro that expands to nothing */
#define TRACE(x)
static int x_trace_case(int v)
{
	switch (v) {
	case 1:
		TRACE(("one"));
		return 1;
	default:
		return 0;
	}
}

static int x_empty_if(int v)
{
	ID(if) (v > 2) ID(return) 9;
	return 1;
}

int main(void)
{
	for (int i = -1; i < 12; i++)
		printf("%d: %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", i, x_try(i),
		       x_and(i, 12 - i), x_foreach(i), x_until(i), x_nested(i), x_args(i), x_paste(i), x_str(i),
		       x_switchmac(i), x_def_fn(i), x_loops(i), x_tern(i), x_block(i), x_line_single(i),
		       x_line_multi(i), x_selfref(), x_pragma(i), x_redef1(i), x_redef2(i), x_indirect(i), x_plain(i),
		       x_counter(i), x_empty_if(i), selfref + x_label(i) + x_bool(i) + x_trace_case(i));
	return 0;
}
