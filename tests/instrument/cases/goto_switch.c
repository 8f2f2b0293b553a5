/* goto into the middle of a switch body and out of it, labels after case
 * labels, switch as an unbraced loop body, loops as unbraced case bodies.
 * expect: instrumented=4 skipped=0 cut=0 */
#include <stdio.h>

static int into_switch(int x, int jump)
{
	int r = 0;
	if (jump)
		goto inside;
	switch (x) {
	case 1:
		r = 1;
	inside:
		r += 2;
		break;
	case 2:
		r = 20;
		goto out;
	default:
		r = 7;
	}
	r *= 3;
out:
	return r;
}

static int loop_switch(int n)
{
	int r = 0;
	for (int i = 0; i < n; i++)
		switch (i % 3)
		case 0: case 1:
			r += i;
	while (n-- > 0)
		switch (n) {
		case 2:
			for (int k = 0; k < 3; k++)
				if (k == 1)
					break;
				else
					r += 100;
			break;
		case 4:
			continue;
		default:
			r++;
		}
	return r;
}

static int case_label_label(int x)
{
	int r = 0;
	switch (x) {
	case 0:
	L1:
		r++;
		if (r < 3)
			goto L1;
	case 1: L2: r += 10;
		if (r < 25)
			goto L2;
		break;
	}
	return r;
}

int main(void)
{
	for (int i = 0; i < 6; i++)
		printf("%d: %d %d %d %d\n", i, into_switch(i, 0), into_switch(i, 1), loop_switch(i), case_label_label(i));
	return 0;
}
