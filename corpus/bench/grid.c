/* Shortest paths on a grid: Dijkstra with a binary heap (lazy deletion, stops
 * as soon as the target is settled) on a generated weighted grid with walls,
 * and breadth-first search for the unweighted hop count; several
 * source/target pairs per grid.
 * usage: grid [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define W 256
#define H 256
#define CELLS (W * H)
#define WALL 0u
#define INF UINT32_MAX

static unsigned char cost[CELLS];
static uint32_t dist[CELLS];
static uint32_t queue[CELLS];

struct entry {
	uint32_t d, cell;
};
static struct entry heap[4 * CELLS + 1];
static size_t heap_len;

static uint64_t rng_state = 0xA0761D6478BD642Fu;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Du;
}

static void heap_push(uint32_t d, uint32_t cell)
{
	size_t i = heap_len++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (heap[parent].d <= d)
			break;
		heap[i] = heap[parent];
		i = parent;
	}
	heap[i].d = d;
	heap[i].cell = cell;
}

static struct entry heap_pop(void)
{
	struct entry top = heap[0], last = heap[--heap_len];
	size_t i = 0;
	for (;;) {
		size_t child = 2 * i + 1;
		if (child >= heap_len)
			break;
		if (child + 1 < heap_len && heap[child + 1].d < heap[child].d)
			child++;
		if (last.d <= heap[child].d)
			break;
		heap[i] = heap[child];
		i = child;
	}
	heap[i] = last;
	return top;
}

/* Neighbour of cell in direction dir (0..3), or INF at the border. */
static uint32_t neighbour(uint32_t cell, int dir)
{
	uint32_t x = cell % W, y = cell / W;
	switch (dir) {
	case 0:
		return x + 1 < W ? cell + 1 : INF;
	case 1:
		return x > 0 ? cell - 1 : INF;
	case 2:
		return y + 1 < H ? cell + W : INF;
	default:
		return y > 0 ? cell - W : INF;
	}
}

static uint32_t dijkstra(uint32_t src, uint32_t dst)
{
	for (size_t i = 0; i < CELLS; i++)
		dist[i] = INF;
	heap_len = 0;
	dist[src] = 0;
	heap_push(0, src);
	while (heap_len > 0) {
		struct entry e = heap_pop();
		if (e.d != dist[e.cell])
			continue; /* stale */
		if (e.cell == dst)
			return e.d;
		for (int dir = 0; dir < 4; dir++) {
			uint32_t n = neighbour(e.cell, dir);
			if (n == INF || cost[n] == WALL)
				continue;
			uint32_t nd = e.d + cost[n];
			if (nd < dist[n]) {
				dist[n] = nd;
				heap_push(nd, n);
			}
		}
	}
	return INF;
}

static uint32_t bfs(uint32_t src, uint32_t dst)
{
	size_t head = 0, tail = 0;
	for (size_t i = 0; i < CELLS; i++)
		dist[i] = INF;
	dist[src] = 0;
	queue[tail++] = src;
	while (head < tail) {
		uint32_t c = queue[head++];
		if (c == dst)
			return dist[c];
		for (int dir = 0; dir < 4; dir++) {
			uint32_t n = neighbour(c, dir);
			if (n != INF && cost[n] != WALL && dist[n] == INF) {
				dist[n] = dist[c] + 1;
				queue[tail++] = n;
			}
		}
	}
	return INF;
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0;

	for (long round = 0; round < scale; round++) {
		for (size_t i = 0; i < CELLS; i++) {
			uint64_t r = rng_next();
			cost[i] = r % 100u < 22u ? WALL : (unsigned char)(1u + (r >> 32) % 9u);
		}
		for (int pair = 0; pair < 4; pair++) {
			uint32_t src = (uint32_t)(rng_next() % CELLS), dst = (uint32_t)(rng_next() % CELLS);
			cost[src] = cost[dst] = 1;
			uint32_t d = dijkstra(src, dst), hops = bfs(src, dst);
			if ((d == INF) != (hops == INF) || (d != INF && d < hops)) {
				fprintf(stderr, "grid: round %ld: dijkstra %lu, bfs %lu\n", round, (unsigned long)d,
				        (unsigned long)hops);
				return 1;
			}
			sum = sum * 1000003u + d + ((uint64_t)hops << 32);
		}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
