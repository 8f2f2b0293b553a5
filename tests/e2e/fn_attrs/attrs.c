/* Functions under which nothing may be inserted (cfgbuild/fn_attrs.c). */
#include <stdio.h>

#define NAKED __attribute__((naked))
#define IFUNC(r) __attribute__((ifunc(r)))

static int add_generic(int a, int b)
{
	int s = a;
	for (int i = 0; i < b; i++)
		s++;
	return s;
}

static int add_fast(int a, int b)
{
	return a + b;
}

/* the resolver: called by the dynamic linker while it relocates */
int (*resolve_add(void))(int, int);
int (*resolve_add(void))(int, int)
{
	__builtin_cpu_init();
	if (__builtin_cpu_supports("sse2"))
		return add_fast;
	return add_generic;
}

int lib_add(int a, int b) IFUNC("resolve_add");

int one(void) __attribute__((naked));
int one(void)
{
	__asm__("movl $1, %eax\n\tret");
}

NAKED int two(void)
{
	__asm__("movl $2, %eax\n\tret");
}

int three(void) NAKED;
int three(void)
{
	__asm__("movl $3, %eax\n\tret");
}

int lib_run(int n);
int lib_run(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i & 1 ? lib_add(i, 1) : one() + two() + three();
	return s;
}
