int f(int n)
{
	int s = 0;
	while (n-- > 0)
		s += n;
	return s;
}
