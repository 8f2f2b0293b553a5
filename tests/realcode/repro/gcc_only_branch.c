/* The shape of SQLite's sqlite3AddInt64: a function whose body is chosen by
 * a compiler test.  libclang parses with __clang__ defined, so kpath
 * instruments the #else branch; gcc compiles the #if branch, where the
 * declarations kpath adds at the top (kp_r, kp_ret) are unused: gcc -Wall
 * warns "unused variable 'kp_ret'", so with -Werror the instrumented file
 * does not compile (kpath-cc falls back), and the function gcc builds
 * counts no path at all.  README documents the predefined-macro limit;
 * on SQLite 3.53.2 (-Wall) it gives 9 such warnings in 6 functions. */
#if defined(__GNUC__) && !defined(__clang__)
#define GCC_VERSION (__GNUC__ * 1000000 + __GNUC_MINOR__ * 1000 + __GNUC_PATCHLEVEL__)
#else
#define GCC_VERSION 0
#endif

int add_checked(long *a, long b)
{
#if GCC_VERSION >= 5004000
	return __builtin_add_overflow(*a, b, a);
#else
	if (b > 0 && *a > 100)
		return 1;
	*a += b;
	return 0;
#endif
}
