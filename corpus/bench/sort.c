/* Three sorts of generated arrays, checked against each other: recursive
 * quicksort (median of three, insertion sort below 16 elements, recursing on
 * the smaller half and looping on the larger), bottom-up merge sort, heap
 * sort.  Comparison branches are data-dependent; the inputs include random,
 * nearly sorted and few-distinct-values arrays.
 * usage: sort [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN 20000

static uint64_t rng_state = 0xD1B54A32D192ED03u;

static uint64_t rng_next(void)
{
	uint64_t x = rng_state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545F4914F6CDD1Du;
}

static void insertion_sort(uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		uint32_t x = v[i];
		size_t j = i;
		while (j > 0 && v[j - 1] > x) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

static void swap(uint32_t *a, uint32_t *b)
{
	uint32_t t = *a;
	*a = *b;
	*b = t;
}

static void quick_sort(uint32_t *v, size_t n)
{
	while (n > 16) {
		size_t mid = n / 2;
		if (v[mid] < v[0])
			swap(&v[mid], &v[0]);
		if (v[n - 1] < v[0])
			swap(&v[n - 1], &v[0]);
		if (v[n - 1] < v[mid])
			swap(&v[n - 1], &v[mid]);
		uint32_t pivot = v[mid];
		size_t i = 0, j = n - 1;
		for (;;) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i >= j)
				break;
			swap(&v[i], &v[j]);
			i++;
			j--;
		}
		/* v[0..j] <= pivot <= v[j+1..n) */
		size_t left = j + 1;
		if (left < n - left) {
			quick_sort(v, left);
			v += left;
			n -= left;
		} else {
			quick_sort(v + left, n - left);
			n = left;
		}
	}
	insertion_sort(v, n);
}

static void merge_sort(uint32_t *v, uint32_t *tmp, size_t n)
{
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi)
				tmp[k++] = v[j] < v[i] ? v[j++] : v[i++];
			while (i < mid)
				tmp[k++] = v[i++];
			while (j < hi)
				tmp[k++] = v[j++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
}

static void sift_down(uint32_t *v, size_t root, size_t n)
{
	for (;;) {
		size_t child = 2 * root + 1;
		if (child >= n)
			return;
		if (child + 1 < n && v[child + 1] > v[child])
			child++;
		if (v[root] >= v[child])
			return;
		swap(&v[root], &v[child]);
		root = child;
	}
}

static void heap_sort(uint32_t *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(v, i, n);
	for (size_t end = n; end-- > 1;) {
		swap(&v[0], &v[end]);
		sift_down(v, 0, end);
	}
}

static void generate(uint32_t *v, size_t n, int kind)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t r = (uint32_t)(rng_next() >> 32);
		switch (kind) {
		case 0:
			v[i] = r;
			break;
		case 1: /* nearly sorted */
			v[i] = (uint32_t)i * 16u + (r % 64u == 0 ? r % 4096u : 0u);
			break;
		default: /* few distinct values */
			v[i] = r % 17u;
			break;
		}
	}
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	static uint32_t a[LEN], b[LEN], c[LEN], tmp[LEN];
	uint64_t sum = 0;

	for (long round = 0; round < scale; round++) {
		generate(a, LEN, (int)(round % 3));
		memcpy(b, a, sizeof a);
		memcpy(c, a, sizeof a);
		quick_sort(a, LEN);
		merge_sort(b, tmp, LEN);
		heap_sort(c, LEN);
		for (size_t i = 0; i < LEN; i++) {
			if (a[i] != b[i] || a[i] != c[i] || (i > 0 && a[i - 1] > a[i])) {
				fprintf(stderr, "sort: round %ld: results differ at %zu\n", round, i);
				return 1;
			}
			sum = sum * 31u + a[i];
		}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
