/* Return types whose temporary must not be const: typedefs of const types,
 * structs with const members, const pointers behind typedefs.
 * Structs with const members (or const structs) cannot be assigned to a
 * temporary: each return initialises its own, in a statement expression.
 * expect: instrumented=9 skipped=0 cut=0 */
#include <stdio.h>

typedef const int cint;
typedef int *const cptr;
typedef struct { const int id; int v; } rec;
typedef const struct { int a; } crec;
typedef volatile long vlong;

static int g = 5;

static cint r_cint(int x) { if (x) return x * 2; return 1; }
static cptr r_cptr(int x) { return x ? &g : 0; }
static rec r_rec(int x) { if (x > 1) return (rec){x, x * x}; rec r = {0, -1}; return r; }
static crec r_crec(int x) { crec c = {x}; return c; }
static vlong r_vlong(int x) { return x + 1L; }
static const rec *r_recp(const rec *p) { return p; }
static int *gp = &g;
static int *const *const r_cpcp(int x) { if (x) return &gp; return 0; }
struct nested { rec inner; int n; };
static struct nested r_nested(int x)
{
	struct nested a = {{x, 2}, 3}, b = {{-x, 4}, 5};
	for (int i = 0; i < x; i++)
		if (i == 2)
			return x > 2 && i ? a : b;
	return b;
}

int main(void)
{
	for (int i = 0; i < 4; i++) {
		rec r = r_rec(i);
		printf("%d: %d %d %d,%d %d %ld %d\n", i, r_cint(i), r_cptr(i) != 0, r.id, r.v, r_crec(i).a, r_vlong(i),
		       r_recp(&r)->v);
		printf("%d %d %d\n", r_nested(i).inner.id, r_nested(i + 2).n, r_cpcp(i) ? **r_cpcp(i) : -1);
	}
	return 0;
}
