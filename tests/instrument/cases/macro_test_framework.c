/* The unit-test framework pattern of libcheck and expat's minicheck: a
 * macro opens the function and its body (START_TEST), another closes both
 * (END_TEST, "} }"), and inside, multi-line invocations of a macro that
 * holds __LINE__ but no control flow.  Both framework macros are written
 * out (a closing brace counts as control flow), and the multi-line
 * invocations are left as they are (flattening them would change
 * __LINE__; they need not be written out), so every test function is
 * instrumented.  Before, expat's runtests.c had 98 of 170 functions skipped.
 * expect: instrumented=5 skipped=0 cut=0
 * expect-paths: test_a=2 test_b=6 */
#include <stdio.h>

static int failures, checks;

static void set_info(const char *name, int line)
{
	if (line < 0)
		printf("%s\n", name);
}

static void check_at(int ok, const char *what, int line)
{
	checks++;
	if (!ok) {
		failures++;
		printf("failed: %s (line %d)\n", what, line);
	}
}

#define START_TEST(name) static void name(void) { \
	set_info(#name, __LINE__); {
#define END_TEST } }
#define CHECK(ok, what) check_at((ok), (what), __LINE__)

START_TEST(test_a)
{
	int x = 3;
	CHECK(x == 3,
	      "x is three");
	if (x > 2)
		checks++;
}
END_TEST

START_TEST(test_b)
{
	for (int i = 0; i < 4; i++) {
		CHECK(i < 4,
		      "i in range");
		if (i == 2)
			CHECK(i * 2 == 5,
			      "deliberately false");
	}
}
END_TEST

int main(void)
{
	test_a();
	test_b();
	printf("%d checks, %d failures\n", checks, failures);
	return 0;
}
