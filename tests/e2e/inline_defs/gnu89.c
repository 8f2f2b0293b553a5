/* Inline definitions under GNU89 rules (-std=gnu89; e2e.inline_defs).
 * Skipped: ext_only ("extern inline": used only for inlining; ext.c holds
 * its definition), ext_redecl (a later declaration says neither inline
 * nor static).  Instrumented: gnu_plain ("inline" alone is an external
 * definition in GNU89), ext_then_inline (a later declaration says inline
 * without extern), plain. */
#include <stdio.h>

extern inline int ext_only(int x)
{
	if (x < 0)
		return -x;
	return x;
}

extern inline int ext_redecl(int x)
{
	return x > 2 ? 2 : x;
}
int ext_redecl(int x);

inline int gnu_plain(int x)
{
	return x & 1 ? x * 3 : x / 2;
}

extern inline int ext_then_inline(int x)
{
	return x % 3 ? 1 : 0;
}
inline int ext_then_inline(int x);

int plain(int n);
int plain(int n)
{
	int s = 0, i;
	for (i = 0; i < n; i++)
		s += ext_only(i - 4) + ext_redecl(i) + gnu_plain(i) + ext_then_inline(i);
	return s;
}

int main(void)
{
	printf("%d\n", plain(20));
	return 0;
}
