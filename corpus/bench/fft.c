/* Iterative radix-2 complex FFT (Cooley-Tukey, bit-reversal permutation) of
 * generated signals, forward then inverse; the inverse must give back the
 * input.  The checksum is over the spectrum rounded to 1e-3, so it does not
 * depend on the last bit of the floating-point results.
 * usage: fft [SCALE]   (work is proportional to SCALE) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LOG_N 12
#define N (1u << LOG_N)

static const double PI = 3.14159265358979323846;

static double re[N], im[N], in_re[N], tw_re[N / 2], tw_im[N / 2];

static void bit_reverse(double *x, double *y)
{
	for (unsigned i = 1, j = 0; i < N; i++) {
		unsigned bit = N >> 1;
		for (; j & bit; bit >>= 1)
			j ^= bit;
		j ^= bit;
		if (i < j) {
			double t = x[i];
			x[i] = x[j];
			x[j] = t;
			t = y[i];
			y[i] = y[j];
			y[j] = t;
		}
	}
}

/* sign -1: forward, +1: inverse (unscaled). */
static void fft(double *x, double *y, int sign)
{
	bit_reverse(x, y);
	for (unsigned len = 2; len <= N; len <<= 1) {
		unsigned half = len >> 1, step = N / len;
		for (unsigned i = 0; i < N; i += len) {
			for (unsigned k = 0; k < half; k++) {
				double wr = tw_re[k * step], wi = sign * tw_im[k * step];
				unsigned a = i + k, b = a + half;
				double tr = x[b] * wr - y[b] * wi;
				double ti = x[b] * wi + y[b] * wr;
				x[b] = x[a] - tr;
				y[b] = y[a] - ti;
				x[a] += tr;
				y[a] += ti;
			}
		}
	}
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0, seed = 12345;

	for (unsigned k = 0; k < N / 2; k++) {
		tw_re[k] = cos(2 * PI * k / N);
		tw_im[k] = -sin(2 * PI * k / N);
	}
	for (long round = 0; round < scale; round++) {
		for (unsigned i = 0; i < N; i++) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			double noise = (double)(seed >> 40) / (double)(1u << 24) - 0.5;
			in_re[i] = re[i] = sin(2 * PI * (double)((round % 50 + 3) * i) / N) + 0.5 * noise;
			im[i] = 0;
		}
		fft(re, im, -1);
		for (unsigned i = 0; i < N; i++)
			sum = sum * 31u + (uint64_t)(int64_t)llround(re[i] * 1e3) + (uint64_t)(int64_t)llround(im[i] * 1e3);
		fft(re, im, +1);
		for (unsigned i = 0; i < N; i++) {
			if (fabs(re[i] / N - in_re[i]) > 1e-9 || fabs(im[i] / N) > 1e-9) {
				fprintf(stderr, "fft: round %ld: inverse differs at %u\n", round, i);
				return 1;
			}
		}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
