/* Loops gcc -O2 turns into library calls or unrolls natively: with repeat
 * counting in its deferred form (the back edge only counts, ++n) the
 * instrumented loops must still be (tests/e2e/loop_idioms.sh). */
#include <stdio.h>

static unsigned char buf[4096], out[4096];

void fill(unsigned char *p, unsigned long n, unsigned char v)
{
	unsigned long i;
	for (i = 0; i < n; i++)
		p[i] = v;
}

void copy(unsigned char *d, const unsigned char *s, unsigned long n)
{
	unsigned long i;
	for (i = 0; i < n; i++)
		d[i] = s[i];
}

/* a mid-body exit: its path after the first iteration starts from the
 * value the back edge sets */
int find(const unsigned char *p, unsigned long n, unsigned char v)
{
	unsigned long i;
	for (i = 0; i < n; i++) {
		if (p[i] == v)
			return (int)i;
	}
	return -1;
}

void mul3(double r[3][3], double a[3][3], double b[3][3])
{
	int i, j, k;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++) {
			double s = 0;
			for (k = 0; k < 3; k++)
				s += a[i][k] * b[k][j];
			r[i][j] = s;
		}
}

int main(void)
{
	double a[3][3], b[3][3], r[3][3];
	unsigned long sum = 0;
	int t, i, j;
	for (t = 0; t < 200; t++) {
		fill(buf, (unsigned long)(t * 7 % 300), (unsigned char)t);
		copy(out, buf, (unsigned long)(t * 5 % 280));
		sum += out[t % 100] + (unsigned long)find(buf, 300, (unsigned char)(t % 3 ? t : 255)) + 1;
		for (i = 0; i < 3; i++)
			for (j = 0; j < 3; j++) {
				a[i][j] = i + j + t;
				b[i][j] = i * j - t;
			}
		mul3(r, a, b);
		sum += (unsigned long)(r[1][2] + r[2][0]);
	}
	printf("%lu\n", sum);
	return 0;
}
