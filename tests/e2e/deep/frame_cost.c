/* frame_cost.c: non-tail recursions that gcc -O2 cannot turn into loops:
 * walk and mix with the frame a real function has (a local buffer), walk
 * with loops (a cursor), mix acyclic (a count); deep, the small function
 * of frame.c (loops, two calls).  usage: frame_cost WHICH N (WHICH 0:
 * walk, 1: mix, 2: deep) prints a checksum and the stack bytes per
 * activation (the largest stack pointer distance over the depth). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *base;
static long maxgap;

static void gap(char *here)
{
	if (base - here > maxgap)
		maxgap = base - here;
}

static unsigned long walk(long n, unsigned char *up)
{
	unsigned char buf[200];
	unsigned long s = 0, t;
	int i;
	gap((char *)buf);
	for (i = 0; i < 200; i++)
		buf[i] = (unsigned char)(up[i] ^ (unsigned char)(n + i));
	if (n == 0)
		return buf[n & 7];
	t = walk(n - 1, buf);
	for (i = 0; i < 4; i++)
		s += buf[i * 50] * (unsigned long)(i + 1);
	return (s ^ t) + (t >> 3);
}

static unsigned long mix(long n, const unsigned char *up)
{
	unsigned char buf[200];
	unsigned long t;
	gap((char *)buf);
	memcpy(buf, up, sizeof buf);
	buf[n % 200] ^= (unsigned char)n;
	if (n == 0)
		return buf[7];
	t = mix(n - 1, buf);
	if (n % 3 == 0)
		return t * 3 + buf[n % 100];
	return (t ^ buf[(n * 7) % 200]) + 1;
}

/* frame.c's deep */
static unsigned long deep(long n, long k)
{
	char here;
	unsigned long s = 0, t;
	long i;
	if (base - &here > maxgap)
		maxgap = base - &here;
	for (i = 0; i < k; i++)
		s += (unsigned long)(i ^ n);
	if (n == 0)
		return s;
	if (n & 1)
		t = deep(n - 1, k);
	else
		t = deep(n - 2 < 0 ? 0 : n - 1, k + 1);
	return s * t + t / 7 + 1;
}

int main(int argc, char **argv)
{
	char top;
	static unsigned char seed[200];
	int which = argc > 1 ? atoi(argv[1]) : 0;
	long n = argc > 2 ? atol(argv[2]) : 1000;
	unsigned long r;
	base = &top;
	r = which == 0 ? walk(n, seed) : which == 1 ? mix(n, seed) : deep(n, 2);
	printf("%lu frame %ld\n", r & 0xffff, maxgap / (n + 1));
	return 0;
}
