/* Block motion estimation over generated video frames: for every 8x8 block of
 * a frame, a full search over a +-4 window of the previous frame for the
 * smallest sum of absolute differences (SAD), then a clamped half-pel
 * refinement.  The hot loop calls small branchy helpers (iabs: x < 0 ? -x : x;
 * clamp_px; min_u) on every pixel: the shape where a compiler must inline a
 * helper with a branch for the loop to stay fast.  Self-check: the SAD of the
 * chosen vector is recomputed by a second, helper-free routine.
 * usage: motion [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define W 96
#define H 64
#define B 8
#define R 4

static unsigned char prev[H][W], cur[H][W];

static int iabs(int x)
{
	return x < 0 ? -x : x;
}

static int clamp_px(int v)
{
	if (v < 0)
		return 0;
	if (v > 255)
		return 255;
	return v;
}

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

static uint32_t rng = 12345u;

static unsigned next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* A smooth frame moved by (dx, dy) with noise, so searches find real minima. */
static void make_frames(int t)
{
	int dx = t % 5 - 2, dy = t % 3 - 1;
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int v = (x * 7 + y * 5 + t * 3) & 255;
			prev[y][x] = (unsigned char)clamp_px(v + (int)(next_rand() % 9) - 4);
		}
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			int sx = x + dx, sy = y + dy;
			int v = (sx >= 0 && sx < W && sy >= 0 && sy < H) ? prev[sy][sx] : 128;
			cur[y][x] = (unsigned char)clamp_px(v + (int)(next_rand() % 5) - 2);
		}
}

static unsigned sad(int bx, int by, int mx, int my, unsigned limit)
{
	unsigned s = 0;
	for (int y = 0; y < B; y++) {
		for (int x = 0; x < B; x++)
			s += (unsigned)iabs(cur[by + y][bx + x] - prev[by + y + my][bx + x + mx]);
		if (s >= limit)
			return s; /* early termination: cannot beat the best */
	}
	return s;
}

static unsigned sad_plain(int bx, int by, int mx, int my)
{
	unsigned s = 0;
	for (int y = 0; y < B; y++)
		for (int x = 0; x < B; x++) {
			int d = cur[by + y][bx + x] - prev[by + y + my][bx + x + mx];
			s += (unsigned)(d * d) / (unsigned)(d < 0 ? -d : (d ? d : 1));
		}
	return s;
}

/* Half-pel refinement: average of two neighbours, clamped. */
static unsigned halfpel(int bx, int by, int mx, int my)
{
	unsigned s = 0;
	for (int y = 0; y < B; y++)
		for (int x = 0; x < B; x++) {
			int a = prev[by + y + my][bx + x + mx];
			int b = prev[by + y + my][bx + x + mx + 1];
			s += (unsigned)iabs(cur[by + y][bx + x] - clamp_px((a + b + 1) >> 1));
		}
	return s;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0;
	for (long t = 0; t < scale; t++) {
		make_frames((int)t);
		for (int by = R; by + B + R <= H; by += B)
			for (int bx = R; bx + B + R + 1 <= W; bx += B) {
				unsigned best = ~0u;
				int bmx = 0, bmy = 0;
				for (int my = -R; my <= R; my++)
					for (int mx = -R; mx <= R; mx++) {
						unsigned s = sad(bx, by, mx, my, best);
						if (s < best) {
							best = s;
							bmx = mx;
							bmy = my;
						}
					}
				if (sad_plain(bx, by, bmx, bmy) != best) {
					fprintf(stderr, "motion: self-check failed at block %d,%d\n", bx, by);
					return 1;
				}
				unsigned h = halfpel(bx, by, bmx, bmy);
				sum = sum * 31 + min_u(best, h) + (unsigned)(bmx + R) * 16u + (unsigned)(bmy + R);
			}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
