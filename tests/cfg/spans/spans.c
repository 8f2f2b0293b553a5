/* Line spans of blocks (cfgbuild): multi-line statements and conditions,
 * &&, || and ?: over two lines, a multi-line for header, switch cases,
 * do-while, a label; tests/cfg/spans_check.py holds the expected spans. */
int g(int);
int tricky(int a, int b, int *v, int n)
{
	int s = a &&
		b;
	if (a ||
	    b)
		s++;
	s += a ? g(1)
	       : g(2);
	for (int i = 0;
	     i < n;
	     i++) {
		s += v[i];
	}
	switch (a) {
	case 1: s++; break;
	case 2:
		s--;
		/* fall through */
	default:
		s = g(s +
		      1);
	}
	do {
		s--;
	} while (s >
		 10);
lbl:
	if (s > 100) { s -= 7; goto lbl; }
	while (g(s)
	       && s < 50)
		s += 3;
	return s +
	       1;
}
