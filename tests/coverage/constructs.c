/* tests/coverage/constructs.c: one of each construct coverage counts,
 * run as "constructs A" and "constructs B" (tests/coverage/run.sh). */
#include <stdio.h>
#include <string.h>

static int classify(int c)
{
	switch (c) {
	case 'a':
		c += 1;
		/* fall through */
	case 'b':
		return c;
	case 'z':
		return -1;
	default:
		break;
	}
	return 0;
}

static int logic(int x, int y)
{
	if (x > 0 && y > 0)
		return 1;
	if (x < 0 || y < 0)
		return 2;
	return x == y ? 3 : 4;
}

static int find(const char *s, char c)
{
	int i = 0;
again:
	if (s[i] == c)
		return i;
	if (!s[i])
		return -1;
	i++;
	goto again;
}

static int sum_to(int n)
{
	int s = 0, i = 0;
	while (i < n)
		s += i++;
	do
		s--;
	while (s > 100);
	return s;
}

static int never_called(int x)
{
	if (x)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : "";
	int r;

	if (argc > 9)
		return never_called(argc);
	if (!strcmp(arg, "A")) {
		r = classify('a') + logic(1, 1) + find("xyz", 'z');
	} else {
		r = classify('q') + logic(-1, 0) + logic(0, 0);
		r += sum_to(3);
	}
	printf("%d\n", r);
	return 0;
}
