/* A template header, without an include guard: src/tmpl.c includes it once
 * per TYPE, and each inclusion defines FN(max) for that type at the same
 * place of this file; tmpl_once only in the inclusion that asks for it. */
#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define FN(n) CAT(n, TYPE)

static TYPE FN(max)(const TYPE *v, int n)
{
	TYPE m = v[0];
	for (int i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

#ifdef TMPL_ONCE
static int tmpl_once(int x)
{
	return x > 0 ? x : -x;
}
#endif
