/* Fall-through into a case label from an empty compound statement
 * ("case 2: {} case 3:"): the original has no statement that falls through
 * and gcc does not warn; the edge's code goes before the label with the
 * marker, so gcc stays quiet on the instrumented file too (without it,
 * -Wimplicit-fallthrough warned there, a failed build under -Werror).  An
 * if with an empty body before a label ("if (y) {} case 1:") is a
 * statement that falls through: gcc warns on both files (step 5 of
 * run_cases.sh compares the warnings).
 * expect: instrumented=2 skipped=0 cut=0
 * expect-paths: f=8 */
#include <stdio.h>

static int f(int x, int y)
{
	int r = 0;
	switch (x) {
	case 0:
		if (y) {
		}
	case 1:
		r += 2;
		break;
	case 2:
		{}
	case 3:
		r += 3;
		break;
	case 4:
		{ ; {} }
	case 5:
		r++;
		break;
	default:
		r--;
	}
	return r;
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 8; i++)
		s += f(i, i & 1);
	printf("%d\n", s);
	return 0;
}
