/* One function per statement form of C11 6.8, for the CFG golden file. */
int if_else(int a)
{
	if (a > 0)
		a = 1;
	else if (a < 0)
		a = -1;
	return a;
}

int loops(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++) {
		if (i == 3)
			continue;
		if (i == 7)
			break;
		s += i;
	}
	while (s > 10)
		s -= 3;
	do
		s++;
	while (s < 5);
	return s;
}

int sw(int c)
{
	int r = 0;
	switch (c) {
	case 0:
		r = 1;
		/* fall through */
	case 1:
	case 2:
		r += 2;
		break;
	default:
		r = -1;
	}
	return r;
}

int gotos(int n)
{
	int i = 0;
again:
	if (i < n) {
		i += 2;
		goto again;
	}
	if (i & 1)
		goto odd;
	return i;
odd:
	return -i;
}

void nothing(void)
{
}
