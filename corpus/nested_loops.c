/* nested_loops.c: nested loops, triangular loops, break/continue at
 * several nesting depths, a flag used to leave two loops at once. */
#include <stdio.h>

#define N 12

static void matmul(int a[N][N], int b[N][N], int c[N][N])
{
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			int s = 0;
			for (int k = 0; k < N; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

static int triangle(int n)
{
	int count = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j <= i; j++) {
			if ((i + j) % 3 == 0)
				continue;
			if (j > 6)
				break;
			count += j;
		}
	return count;
}

/* Find the first pair (i, j) with i*j == target, leaving both loops. */
static int find_pair(int target, int *pi, int *pj)
{
	int found = 0;
	for (int i = 1; i < 50 && !found; i++) {
		for (int j = i; j < 50; j++) {
			if (i * j > target)
				break;
			if (i * j != target)
				continue;
			*pi = i;
			*pj = j;
			found = 1;
			break;
		}
	}
	return found;
}

static unsigned bubble(int *v, int n)
{
	unsigned swaps = 0;
	int sorted;
	do {
		sorted = 1;
		for (int i = 1; i < n; i++) {
			if (v[i - 1] <= v[i])
				continue;
			int t = v[i];
			v[i] = v[i - 1];
			v[i - 1] = t;
			swaps++;
			sorted = 0;
		}
		n--;
	} while (!sorted && n > 1);
	return swaps;
}

int main(void)
{
	static int a[N][N], b[N][N], c[N][N];
	for (int i = 0; i < N; i++)
		for (int j = 0; j < N; j++) {
			a[i][j] = (i + 2 * j) % 7 - 3;
			b[i][j] = (3 * i + j) % 5 - 2;
		}
	matmul(a, b, c);
	long trace = 0;
	for (int i = 0; i < N; i++)
		trace += c[i][i];
	printf("trace = %ld, c[3][7] = %d\n", trace, c[3][7]);
	printf("triangle(20) = %d\n", triangle(20));
	int pi = 0, pj = 0;
	int f = find_pair(391, &pi, &pj);
	printf("find_pair(391) = %d (%d, %d)\n", f, pi, pj);
	f = find_pair(389, &pi, &pj);
	printf("find_pair(389) = %d\n", f);
	int v[30];
	for (int i = 0; i < 30; i++)
		v[i] = (i * 17) % 31;
	unsigned s = bubble(v, 30);
	printf("bubble swaps = %u, v[0] = %d, v[29] = %d\n", s, v[0], v[29]);
	return 0;
}
