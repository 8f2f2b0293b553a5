/* Functions a macro defines in a header (include_dir.sh, 9), as
 * cpu_features' define_introspection.inl defines set_##ENUM and
 * get_##ENUM per LINE: their bodies are the macro's, no control flow in
 * them; kpath writes out only the main file's invocations, so they are
 * skipped, and the reason says so; plain_gen is instrumented. */
#define GEN(N) \
	static void set_##N(int *f, int v) { f[N] = v; } \
	static int get_##N(const int *f) { return f[N]; }
GEN(0)
GEN(1)
#undef GEN

static int plain_gen(int x)
{
	return x > 0 ? x : -x;
}
