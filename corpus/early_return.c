/* early_return.c: early returns with and without a value, returning
 * struct and pointer types (including NULL and a struct built in a
 * branch), returns from inside loops and switches, and void functions
 * that fall off the end of their body. */
#include <stdio.h>
#include <stddef.h>

struct point { int x, y; };
struct node { int key; struct node *next; };

static int log_lines;

static void note(int v)
{
	if (v < 0)
		return;                 /* early return without a value */
	log_lines += v;
	if (v > 100)
		log_lines -= 100;
}                                   /* falls off the end */

static struct point clamp(struct point p, int lo, int hi)
{
	if (p.x >= lo && p.x <= hi && p.y >= lo && p.y <= hi)
		return p;
	struct point q = p;
	if (q.x < lo) q.x = lo;
	if (q.x > hi) q.x = hi;
	if (q.y < lo) q.y = lo;
	if (q.y > hi) q.y = hi;
	return q;
}

static struct point origin_or(int which)
{
	switch (which) {
	case 0:
		return (struct point){0, 0};
	case 1: {
		struct point p = {which, -which};
		return p;
	}
	}
	return clamp((struct point){which * 10, -which * 10}, -25, 25);
}

static struct node *find(struct node *head, int key)
{
	for (struct node *n = head; n; n = n->next) {
		if (n->key == key)
			return n;
		if (n->key > key)
			return NULL;
	}
	return NULL;
}

static const char *name_of(int v)
{
	static const char *const names[] = {"zero", "one", "two", "three"};
	if (v < 0)
		return "negative";
	else if (v < 4)
		return names[v];
	while (v > 9) {
		if (v % 7 == 0)
			return "multiple of seven";
		v /= 10;
	}
	return "other";
}

static void visit(struct node *head, int *sum)
{
	while (head) {
		*sum += head->key;
		head = head->next;
	}
}

int main(void)
{
	struct node nodes[10];
	for (int i = 0; i < 10; i++) {
		nodes[i].key = i * 3;
		nodes[i].next = i < 9 ? &nodes[i + 1] : NULL;
	}
	int hits = 0;
	for (int k = 0; k < 30; k++)
		if (find(&nodes[0], k) != NULL)
			hits++;
	printf("hits = %d\n", hits);
	int sum = 0;
	visit(&nodes[0], &sum);
	visit(NULL, &sum);
	printf("sum = %d\n", sum);
	for (int i = -2; i < 5; i++) {
		struct point p = origin_or(i);
		printf("origin_or(%d) = (%d, %d)\n", i, p.x, p.y);
	}
	int vals[] = {-3, 0, 2, 5, 77, 143, 1234, 50};
	for (int i = 0; i < 8; i++) {
		note(vals[i]);
		printf("%d: %s\n", vals[i], name_of(vals[i]));
	}
	printf("log_lines = %d\n", log_lines);
	return 0;
}
