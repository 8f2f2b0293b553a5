/* Fall-through attributes spelled by macros, as SQLite's
 * "#define deliberate_fall_through __attribute__((fallthrough));" (the
 * macro holds the ";") and a macro without the ";": the same as the
 * attribute written out.  The code of the fall-through edge goes before the
 * macro, which must stay right before its label (gcc -Wextra warns, clang
 * rejects an attribute that does not precede a label), also when it ends a
 * block, where no ";" of the file follows it before the "}".
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: ft_semi=10 ft_nosemi=4 ft_loop=10 */
#include <stdio.h>

#define deliberate_fall_through __attribute__((fallthrough));
#define FALLTHROUGH __attribute__((fallthrough))
#define ID(x) x

static int ft_semi(int x)
{
	int r = 0;
	switch (x) {
	case 1:
		r += 1;
		deliberate_fall_through
	case 2:
		r += ID(2);
		/* no break */ deliberate_fall_through
	case 3: {
		r += 3;
		if (r > 4)
			break;
		deliberate_fall_through
	}
	case 5:
		r += 3;
		break;
	case 4:
		if (x > r)
			r = 40;
		deliberate_fall_through
	default:
		r += 9;
	}
	return r;
}

static int ft_nosemi(int x)
{
	int r = 0;
	switch (x) {
	case 1:
		r += 1;
		FALLTHROUGH;
	case 2:
		r += 2;
		FALLTHROUGH ;
	case 3:
		r += 3;
		break;
	default:
		r = -1;
	}
	return r;
}

static int ft_loop(int n)
{
	int r = 0;
	for (int i = 0; i < n; i++) {
		switch (i % 4) {
		case 0:
			r += 1;
			deliberate_fall_through
		case 1:
			r *= 2;
			FALLTHROUGH;
		case 2:
			r -= 1;
			break;
		default:
			continue;
		}
		r += i;
	}
	return r;
}

int main(void)
{
	for (int x = 0; x < 7; x++)
		printf("%d: %d %d %d\n", x, ft_semi(x), ft_nosemi(x), ft_loop(x));
	return 0;
}
