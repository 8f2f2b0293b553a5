/* Short activations in a deep call tree: random expression trees (an arena
 * of nodes) evaluated by a recursive interpreter whose every step is a small
 * function (node kind tests, operand fetch, a checked operator), then
 * simplified by a recursive rewriter and evaluated again.  Most activations
 * run a handful of instructions and one or two branches, the shape where the
 * fixed cost of entering and leaving an instrumented function dominates.
 * Self-check: the simplified tree evaluates to the same value.
 * usage: calltree [SCALE]   (work is proportional to SCALE) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum kind { NUM, VAR, ADD, SUB, MUL, NEG, MIN };

struct node {
	enum kind kind;
	int64_t val;
	int l, r;
};

#define MAXN 4096
static struct node pool[MAXN];
static int used;
static uint32_t rng = 362436069u;

static unsigned next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

static int new_node(enum kind k, int64_t v, int l, int r)
{
	struct node *n = &pool[used];
	n->kind = k;
	n->val = v;
	n->l = l;
	n->r = r;
	return used++;
}

static int gen(int depth)
{
	unsigned x = next_rand();
	if (depth == 0 || used + 3 >= MAXN || x % 8 == 0)
		return x % 3 ? new_node(NUM, (int64_t)(x >> 8) % 7 - 3, -1, -1) : new_node(VAR, 0, -1, -1);
	if (x % 8 == 1)
		return new_node(NEG, 0, gen(depth - 1), -1);
	int l = gen(depth - 1);
	int r = gen(depth - 1);
	return new_node((enum kind)(ADD + (int)(x >> 4) % 4), 0, l, r);
}

static int is_leaf(int i)
{
	return pool[i].kind == NUM || pool[i].kind == VAR;
}

static int64_t leaf_value(int i, int64_t var)
{
	return pool[i].kind == NUM ? pool[i].val : var;
}

static int64_t wrap(int64_t v)
{
	/* keep values small so that no operation overflows */
	if (v > 1000000 || v < -1000000)
		return v % 1000003;
	return v;
}

static int64_t apply(enum kind k, int64_t a, int64_t b)
{
	switch (k) {
	case ADD:
		return wrap(a + b);
	case SUB:
		return wrap(a - b);
	case MUL:
		return wrap(a * b);
	case MIN:
		return a < b ? a : b;
	default:
		return 0;
	}
}

static int64_t eval(int i, int64_t var)
{
	if (is_leaf(i))
		return leaf_value(i, var);
	if (pool[i].kind == NEG)
		return -eval(pool[i].l, var);
	return apply(pool[i].kind, eval(pool[i].l, var), eval(pool[i].r, var));
}

static int is_const(int i, int64_t c)
{
	return pool[i].kind == NUM && pool[i].val == c;
}

/* x+0, 0+x, x*1, 1*x, x-0 -> x; x*0, 0*x -> 0; --x -> x; constant folding */
static int simplify(int i)
{
	if (is_leaf(i))
		return i;
	int l = simplify(pool[i].l);
	if (pool[i].kind == NEG) {
		if (pool[l].kind == NEG)
			return pool[l].l;
		return l == pool[i].l ? i : new_node(NEG, 0, l, -1);
	}
	int r = simplify(pool[i].r);
	enum kind k = pool[i].kind;
	if ((k == ADD && is_const(r, 0)) || (k == SUB && is_const(r, 0)) || (k == MUL && is_const(r, 1)))
		return l;
	if ((k == ADD && is_const(l, 0)) || (k == MUL && is_const(l, 1)))
		return r;
	if (k == MUL && (is_const(l, 0) || is_const(r, 0)))
		return new_node(NUM, 0, -1, -1);
	if (pool[l].kind == NUM && pool[r].kind == NUM)
		return new_node(NUM, apply(k, pool[l].val, pool[r].val), -1, -1);
	return l == pool[i].l && r == pool[i].r ? i : new_node(k, 0, l, r);
}

static int depth_of(int i)
{
	if (is_leaf(i))
		return 1;
	int a = depth_of(pool[i].l);
	int b = pool[i].kind == NEG ? 0 : depth_of(pool[i].r);
	return 1 + (a > b ? a : b);
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	uint64_t sum = 0;
	for (long t = 0; t < scale * 10; t++) {
		used = 0;
		int root = gen(11);
		int before = used;
		int s = before < MAXN / 2 ? simplify(root) : root;
		for (int64_t v = -20; v <= 20; v++) {
			int64_t a = eval(root, v), b = eval(s, v);
			if (a != b) {
				fprintf(stderr, "calltree: simplify changed the value (tree %ld, x = %lld)\n", t,
					(long long)v);
				return 1;
			}
			sum = sum * 1000003u + (uint64_t)a;
		}
		sum += (uint64_t)depth_of(root) * 131u + (uint64_t)(used - before);
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	return 0;
}
