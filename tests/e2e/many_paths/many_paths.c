/* Functions with more Ball-Larus paths than a counter array takes (2^26,
 * runtime/kp_internal.h, KP_COUNTS_SPARSE_MAX): 28 independent decisions,
 * 2^28 paths, in a loop body (wide) and in an acyclic function (flat).  At
 * k = 1 they are counted in the k-SF at k = 1 (runtime/consumer.c), whose
 * cached children the inline step and the trampolines' child tables serve;
 * the hash table they used before took a library call for every path.
 * tests/e2e/many_paths.sh checks the counts. */
#include <stdio.h>

static unsigned long wide(unsigned long x, int n)
{
	unsigned long s = 0;
	int i;
	for (i = 0; i < n; i++) {
		unsigned long v = (x + (unsigned long)i) % 16 * 0x9e3779b1ul;
		if (v & 0x1ul)
			s += 1;
		if (v & 0x2ul)
			s += 3;
		if (v & 0x4ul)
			s += 5;
		if (v & 0x8ul)
			s += 7;
		if (v & 0x10ul)
			s += 9;
		if (v & 0x20ul)
			s += 11;
		if (v & 0x40ul)
			s += 13;
		if (v & 0x80ul)
			s += 15;
		if (v & 0x100ul)
			s += 17;
		if (v & 0x200ul)
			s += 19;
		if (v & 0x400ul)
			s += 21;
		if (v & 0x800ul)
			s += 23;
		if (v & 0x1000ul)
			s += 25;
		if (v & 0x2000ul)
			s += 27;
		if (v & 0x4000ul)
			s += 29;
		if (v & 0x8000ul)
			s += 31;
		if (v & 0x10000ul)
			s += 33;
		if (v & 0x20000ul)
			s += 35;
		if (v & 0x40000ul)
			s += 37;
		if (v & 0x80000ul)
			s += 39;
		if (v & 0x100000ul)
			s += 41;
		if (v & 0x200000ul)
			s += 43;
		if (v & 0x400000ul)
			s += 45;
		if (v & 0x800000ul)
			s += 47;
		if (v & 0x1000000ul)
			s += 49;
		if (v & 0x2000000ul)
			s += 51;
		if (v & 0x4000000ul)
			s += 53;
		if (v & 0x8000000ul)
			s += 55;
	}
	return s;
}

static unsigned long flat(unsigned long v)
{
	unsigned long s = 0;
	if (v & 0x1ul)
		s += 1;
	if (v & 0x2ul)
		s += 3;
	if (v & 0x4ul)
		s += 5;
	if (v & 0x8ul)
		s += 7;
	if (v & 0x10ul)
		s += 9;
	if (v & 0x20ul)
		s += 11;
	if (v & 0x40ul)
		s += 13;
	if (v & 0x80ul)
		s += 15;
	if (v & 0x100ul)
		s += 17;
	if (v & 0x200ul)
		s += 19;
	if (v & 0x400ul)
		s += 21;
	if (v & 0x800ul)
		s += 23;
	if (v & 0x1000ul)
		s += 25;
	if (v & 0x2000ul)
		s += 27;
	if (v & 0x4000ul)
		s += 29;
	if (v & 0x8000ul)
		s += 31;
	if (v & 0x10000ul)
		s += 33;
	if (v & 0x20000ul)
		s += 35;
	if (v & 0x40000ul)
		s += 37;
	if (v & 0x80000ul)
		s += 39;
	if (v & 0x100000ul)
		s += 41;
	if (v & 0x200000ul)
		s += 43;
	if (v & 0x400000ul)
		s += 45;
	if (v & 0x800000ul)
		s += 47;
	if (v & 0x1000000ul)
		s += 49;
	if (v & 0x2000000ul)
		s += 51;
	if (v & 0x4000000ul)
		s += 53;
	if (v & 0x8000000ul)
		s += 55;
	return s;
}

int main(void)
{
	unsigned long t = 0;
	int r;
	for (r = 0; r < 3000; r++) {
		t += wide((unsigned long)r * 7919ul, 8);
		t += flat((unsigned long)r % 24 * 0x2545f491ul);
	}
	printf("%lu\n", t);
	return 0;
}
