int f(int n)
{
	while (n--)
		n = n;
	return 0;
}
