/* A fall-through macro that is an attribute for gcc and "((void) 0)" for
 * libclang, as GNU sed 4.9's sed.h (and older gnulib) defines it:
 * "# if __GNUC__ < 7 / # define FALLTHROUGH ((void) 0) / # else / #
 * define FALLTHROUGH __attribute__ ((__fallthrough__))", libclang's
 * __GNUC__ being 4.  The code of the fall-through edge goes before the
 * macro, which must stay right before its label (gcc -Wextra warns
 * "attribute 'fallthrough' not preceding a case label" and "this statement
 * may fall through"), also after a call to a _Noreturn function in an if
 * and with a blank line before the label (sed's compile.c, compile_program).
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: ft=3 ft_if=5 */
#include <stdio.h>
#include <stdlib.h>

#if __GNUC__ < 7
#define FALLTHROUGH ((void) 0)
#else
#define FALLTHROUGH __attribute__ ((__fallthrough__))
#endif

static _Noreturn void die(int x)
{
	printf("die %d\n", x);
	exit(0);
}

static int ft(int x)
{
	int r = 0;
	switch (x) {
	case 1:
		r += 1;
		FALLTHROUGH;

	case 2:
		r += 2;
		break;
	default:
		r = -1;
	}
	return r;
}

static int ft_if(int x, int a2)
{
	int r = 0;
	switch (x) {
	case 'q':
		if (a2 > 9)
			die(a2);
		FALLTHROUGH;

	case 'l':
		r += a2;
		FALLTHROUGH;
	case 'L':
		r++;
		break;
	default:
		r = -1;
	}
	return r;
}

int main(void)
{
	for (int x = 0; x < 4; x++)
		printf("%d: %d %d %d %d\n", x, ft(x), ft_if('q', x), ft_if('l', x), ft_if(x, x));
	printf("%d\n", ft_if('L', 1));
	return ft_if('q', 10);
}
