/* Inline definitions under C99 rules (C99 6.7.4p7; e2e.inline_defs).
 * Skipped (inline definitions: every file-scope declaration says inline,
 * none extern; ext.c holds their external definitions): only_inline,
 * spelled (its "inline" comes from a macro), gnu_only (gnu_inline, extern
 * inline).  Instrumented: later_decl (a later declaration without inline),
 * extern_decl (an extern declaration), local (static inline), plain.
 * redefined: a gnu_inline extern inline definition (skipped: an inline
 * definition) followed by the file's own definition, as libquadmath's
 * quadmath.h and cimagq.c have it: that one is the external definition,
 * skipped only for -Wstatic-in-inline (clang takes it as inline). */
#include <stdio.h>

#define INLINE inline

inline int only_inline(int x)
{
	if (x < 0)
		return -x;
	return x;
}

INLINE int spelled(int x)
{
	return x > 3 ? 1 : 0;
}

__attribute__((gnu_inline)) extern inline int gnu_only(int x)
{
	return x & 1 ? x * 3 : x / 2;
}

inline int later_decl(int x)
{
	while (x > 10)
		x -= 7;
	return x;
}
int later_decl(int x);

extern inline int extern_decl(int x);
inline int extern_decl(int x)
{
	return x % 2 ? x + 1 : x - 1;
}

__attribute__((gnu_inline)) extern inline int redefined(int x)
{
	return x + 1;
}
int redefined(int x)
{
	if (x > 3)
		return x - 3;
	return x + 1;
}

static inline int local(int x)
{
	return x < 5 ? x : 5;
}

int plain(int x);
int plain(int x)
{
	int s = 0;
	for (int i = 0; i < x; i++)
		s += only_inline(i - 3) + spelled(i) + gnu_only(i) + later_decl(i * 5) + extern_decl(i) + local(i) + redefined(i);
	return s;
}

int main(void)
{
	int (*fp)(int) = only_inline; /* the external definition (ext.c) */
	printf("%d %d\n", plain(20), fp(-4));
	return 0;
}
