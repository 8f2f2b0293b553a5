/* Small fixed-size linear algebra, as in graphics and control code: 3x3
 * inversion by Gauss-Jordan elimination with partial pivoting, 4x4 transform
 * composition and point transforms.  Every loop runs 3 or 4 times, so a
 * compiler unrolls or vectorises them, and every function is a short
 * activation called millions of times.  Self-check: M * inv(M) is the
 * identity to 1e-6, and inv(inv(M)) is M.
 * usage: mat3 [SCALE]   (work is proportional to SCALE) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t rng = 88172645u;

static double next_unit(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return (double)(rng % 20001u) / 10000.0 - 1.0;
}

static void mul3(double a[3][3], double b[3][3], double c[3][3])
{
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			double s = 0;
			for (int k = 0; k < 3; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

/* Gauss-Jordan on [a | I]; returns 0 when a pivot is (nearly) zero. */
static int inv3(double a[3][3], double r[3][3])
{
	double m[3][6];
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++) {
			m[i][j] = a[i][j];
			m[i][j + 3] = i == j;
		}
	for (int c = 0; c < 3; c++) {
		int p = c;
		for (int i = c + 1; i < 3; i++)
			if (fabs(m[i][c]) > fabs(m[p][c]))
				p = i;
		if (fabs(m[p][c]) < 1e-9)
			return 0;
		if (p != c)
			for (int j = 0; j < 6; j++) {
				double t = m[c][j];
				m[c][j] = m[p][j];
				m[p][j] = t;
			}
		double d = m[c][c];
		for (int j = 0; j < 6; j++)
			m[c][j] /= d;
		for (int i = 0; i < 3; i++) {
			if (i == c)
				continue;
			double f = m[i][c];
			for (int j = 0; j < 6; j++)
				m[i][j] -= f * m[c][j];
		}
	}
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			r[i][j] = m[i][j + 3];
	return 1;
}

static void mul4(double a[4][4], double b[4][4], double c[4][4])
{
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			double s = 0;
			for (int k = 0; k < 4; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

static void xform(double m[4][4], const double p[4], double q[4])
{
	for (int i = 0; i < 4; i++) {
		double s = 0;
		for (int k = 0; k < 4; k++)
			s += m[i][k] * p[k];
		q[i] = s;
	}
}

static int near_identity(double a[3][3])
{
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 3; j++)
			if (fabs(a[i][j] - (i == j)) > 1e-6)
				return 0;
	return 1;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0;
	double acc[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
	for (long t = 0; t < scale * 1000; t++) {
		double a[3][3], r[3][3], rr[3][3], p[3][3];
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 3; j++)
				a[i][j] = next_unit() + (i == j ? 2.0 : 0.0);
		if (!inv3(a, r)) {
			sum += 1;
			continue;
		}
		mul3(a, r, p);
		if (!near_identity(p) || !inv3(r, rr)) {
			fprintf(stderr, "mat3: self-check failed at %ld\n", t);
			return 1;
		}
		double m[4][4], n[4][4];
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				m[i][j] = i < 3 && j < 3 ? r[i][j] / 4 : (i == j);
		mul4(acc, m, n);
		double pt[4] = {next_unit(), next_unit(), next_unit(), 1.0}, q[4];
		xform(n, pt, q);
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				acc[i][j] = fabs(n[i][j]) > 1e3 ? (i == j) : n[i][j];
		sum = sum * 31 + (uint64_t)(int64_t)llround((q[0] + q[1] + q[2]) * 1e3) +
		      (uint64_t)(int64_t)llround((rr[0][0] - a[0][0]) * 1e6);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
