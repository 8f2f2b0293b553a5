/* The per-frame cost of deep recursion: descends DEPTH frames (each frame
 * keeps a local that its child reads and that it reads again after the
 * call, so the compiler can neither turn the recursion into a loop nor drop
 * the frame), REPS times per unit of SCALE.  stdout: the checksum, as for
 * every benchmark.  stderr: "deeprec: depth D frame_bytes B ns_per_frame T",
 * the stack bytes per frame (address of the deepest frame's local against the
 * outermost one's) and the CPU time per frame (a call plus its return), which
 * bench/run compares between the native and the instrumented builds.
 * usage: deeprec [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DEPTH 8192
#define REPS 100

static uintptr_t deepest_local;

static uint64_t descend(unsigned depth, const uint64_t *parent)
{
	uint64_t mine[2];
	mine[0] = *parent * 6364136223846793005u + depth;
	mine[1] = mine[0] >> 29;
	if (depth == 0) {
		deepest_local = (uintptr_t)&mine[0];
		return mine[0] ^ mine[1];
	}
	uint64_t below = descend(depth - 1, mine);
	return (below ^ mine[1]) + (mine[0] & 0xFFu);
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t seed[1] = {1}, sum = 0;
	long reps = scale * REPS;

	clock_t start = clock();
	for (long r = 0; r < reps; r++) {
		seed[0] = (uint64_t)r;
		sum = sum * 31u + descend(DEPTH, seed);
	}
	clock_t end = clock();
	uintptr_t top = (uintptr_t)&seed[0];
	double frame_bytes = top > deepest_local ? (double)(top - deepest_local) / (DEPTH + 1) : 0.0;
	double ns = (double)(end - start) / CLOCKS_PER_SEC * 1e9 / ((double)reps * (DEPTH + 1));
	printf("checksum %016llx\n", (unsigned long long)sum);
	fprintf(stderr, "deeprec: depth %d frame_bytes %.1f ns_per_frame %.3f\n", DEPTH, frame_bytes, ns);
	return 0;
}
