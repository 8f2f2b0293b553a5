/* A program with its own malloc, calloc, realloc and free (a bump arena
 * that counts its calls), instrumented with the rest (tests/e2e/licm.sh):
 * the runtime takes its memory from the C library's allocator, never from
 * the program's, so the counts the program prints are native's at every k
 * and traced, and an instrumented allocator that the runtime would enter
 * from inside itself (its own emit's library half allocating) never sees
 * its state change under it. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

static unsigned char arena[1 << 24];
static size_t used;
static unsigned long n_malloc, n_free;

void *malloc(size_t n)
{
	size_t start = (used + 15) & ~(size_t)15;
	if (n > sizeof arena - start)
		return NULL;
	used = start + n + 16;
	memcpy(arena + start, &n, sizeof n);
	n_malloc++;
	return arena + start + 16;
}

void free(void *p)
{
	if (p)
		n_free++;
}

void *calloc(size_t n, size_t m)
{
	if (m && n > (size_t)-1 / m)
		return NULL;
	void *p = malloc(n * m);
	if (p)
		memset(p, 0, n * m);
	return p;
}

void *realloc(void *p, size_t n)
{
	void *q = malloc(n);
	if (q && p) {
		size_t old;
		memcpy(&old, (unsigned char *)p - 16, sizeof old);
		memcpy(q, p, old < n ? old : n);
	}
	free(p);
	return q;
}

struct node {
	struct node *next;
	unsigned v;
};

int main(void)
{
	struct node *list = NULL;
	unsigned long sum = 0;
	for (unsigned i = 0; i < 20000; i++) {
		struct node *x = malloc(sizeof *x);
		if (!x)
			return 1;
		x->v = i * 2654435761u >> 7;
		x->next = list;
		list = x;
		if (x->v % 3 == 0 && list->next) { /* drop the one before */
			struct node *y = list->next;
			list->next = y->next;
			free(y);
		}
	}
	for (struct node *x = list; x; x = x->next)
		sum += x->v % 7 == 0 ? x->v : x->v & 15;
	printf("sum %lu malloc %lu free %lu used %zu\n", sum, n_malloc, n_free, used);
	return 0;
}
