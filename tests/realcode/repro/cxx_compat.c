/* A function of a program built with gcc -Wc++-compat (libiberty's flags).
 * The original compiles without a warning; kpath's output declares each
 * descriptor twice (a tentative `static struct kpath_rt_func kp_fn_twice;`
 * and later its initialised definition), which gcc -Wc++-compat reports as
 * "duplicate declaration of 'kp_fn_twice' is invalid in C++", so with
 * -Werror the instrumented file does not compile (kpath-cc falls back). */
int twice(int x)
{
	return x > 0 ? 2 * x : 0;
}
