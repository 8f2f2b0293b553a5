/* LU decomposition with partial pivoting (Doolittle, row swaps) of generated
 * dense systems, forward and back substitution, and the residual of the
 * solution.  Pivot search is a compare-and-branch loop; the elimination is a
 * triply nested loop.  The checksum is over the solution rounded to 1e-6.
 * usage: lu [SCALE]   (work is proportional to SCALE) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 120

static double a[N][N], lu[N][N], b[N], x[N];
static int perm[N];

/* Returns 0, or -1 if the matrix is singular to working precision. */
static int decompose(void)
{
	for (int i = 0; i < N; i++) {
		perm[i] = i;
		for (int j = 0; j < N; j++)
			lu[i][j] = a[i][j];
	}
	for (int k = 0; k < N; k++) {
		int p = k;
		double best = fabs(lu[k][k]);
		for (int i = k + 1; i < N; i++) {
			if (fabs(lu[i][k]) > best) {
				best = fabs(lu[i][k]);
				p = i;
			}
		}
		if (best < 1e-12)
			return -1;
		if (p != k) {
			for (int j = 0; j < N; j++) {
				double t = lu[k][j];
				lu[k][j] = lu[p][j];
				lu[p][j] = t;
			}
			int t = perm[k];
			perm[k] = perm[p];
			perm[p] = t;
		}
		for (int i = k + 1; i < N; i++) {
			double l = lu[i][k] /= lu[k][k];
			if (l == 0)
				continue;
			for (int j = k + 1; j < N; j++)
				lu[i][j] -= l * lu[k][j];
		}
	}
	return 0;
}

static void solve(void)
{
	for (int i = 0; i < N; i++) {
		double s = b[perm[i]];
		for (int j = 0; j < i; j++)
			s -= lu[i][j] * x[j];
		x[i] = s;
	}
	for (int i = N - 1; i >= 0; i--) {
		double s = x[i];
		for (int j = i + 1; j < N; j++)
			s -= lu[i][j] * x[j];
		x[i] = s / lu[i][i];
	}
}

static double residual(void)
{
	double worst = 0;
	for (int i = 0; i < N; i++) {
		double s = -b[i];
		for (int j = 0; j < N; j++)
			s += a[i][j] * x[j];
		if (fabs(s) > worst)
			worst = fabs(s);
	}
	return worst;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0, seed = 42;

	for (long round = 0; round < scale; round++) {
		for (int i = 0; i < N; i++) {
			for (int j = 0; j < N; j++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				/* sparse-ish: a quarter of the entries are zero */
				a[i][j] = (seed >> 62) == 0 ? 0.0 : (double)(seed >> 40) / (double)(1u << 24) - 0.5;
			}
			a[i][i] += (round & 1) ? 0.0 : 2.0;
			b[i] = (double)(i % 7) - 3.0;
		}
		if (decompose() != 0) {
			sum += 1;
			continue;
		}
		solve();
		if (residual() > 1e-8) {
			fprintf(stderr, "lu: round %ld: residual %g\n", round, residual());
			return 1;
		}
		for (int i = 0; i < N; i++)
			sum = sum * 31u + (uint64_t)(int64_t)llround(x[i] * 1e6);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
