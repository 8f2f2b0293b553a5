/* Unreachable code after return, break, continue and goto.
 * expect: instrumented=6 skipped=0 cut=0 */
#include <stdio.h>

static int after_return(int x)
{
	return x + 1;
	x++;
	if (x)
		return 5;
	return x;
}

static int after_break(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (i == 3) {
			break;
			s = -100;
		}
		s += i;
		continue;
		s = -200;
	}
	while (1) {
		break;
		s++;
		for (;;)
			s++;
	}
	return s;
}

static int after_goto(int x)
{
	goto L;
	x = 0;
	while (x < 100)
		x++;
L:
	return x;
	{
		int y = x;
		switch (y) {
		case 1:
			return y;
		}
	}
}

static int dead_switch(int x)
{
	switch (x) {
		x = 42; /* before any label: unreachable */
	case 1:
		return 1;
	case 2:
		break;
		return -1;
	}
	return x;
}

static void dead_void(int *p)
{
	*p += 1;
	return;
	*p += 100;
}

int main(void)
{
	int v = 0;
	dead_void(&v);
	for (int i = 0; i < 6; i++)
		printf("%d: %d %d %d %d\n", i, after_return(i), after_break(i), after_goto(i), dead_switch(i));
	printf("v %d\n", v);
	return 0;
}
