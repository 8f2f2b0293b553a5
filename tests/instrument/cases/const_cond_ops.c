/* A ?:, && or || whose first operand is an integer constant takes no
 * branch, and stays one atomic piece of its block (cfgbuild/expr.c,
 * unevaluated).  Wrapped as a branch, the constant stops being one, and
 * gcc -Wall warns on "if (K ? 32 : 0)" (-Wint-in-bool-context) where it
 * does not on the original: lmdb's "if (PGNO_TOPWORD)", three warnings in
 * mdb.c's instrumented file.  An arm of a constant ?: or the right operand
 * of a constant && is not split either (it may never run: top_bits' "x && y"
 * below).  Step 5 of run_cases.sh checks that no warning is new.
 * expect: instrumented=4 skipped=0 cut=0
 * expect-paths: set_page=12 top_bits=2 mixed=6 */
#include <stdio.h>

typedef unsigned long pgno_t;
#define PGNO_TOPWORD ((pgno_t)-1 > 0xffffffffu ? 32 : 0)
#define DEBUG 0

struct node { unsigned short lo, hi, flags; };

/* control flow: written out, so the ?: of PGNO_TOPWORD is the file's */
#define SETPGNO(node, pgno) do { \
	(node)->lo = (unsigned short)((pgno) & 0xffff); (node)->hi = (unsigned short)((pgno) >> 16); \
	if (PGNO_TOPWORD) (node)->flags = (unsigned short)((pgno) >> PGNO_TOPWORD); } while (0)

static void set_page(struct node *n, pgno_t pgno)
{
	SETPGNO(n, pgno);
	if ((pgno_t)-1 > 0xffffffffu ? 32 : 0)
		n->flags++;
}

static int top_bits(int x, int y)
{
	int r = sizeof(long) > 4 ? (x && y) : (x || y);
	if (DEBUG && x > y)
		printf("debug\n");
	return r + (1 || x > 3);
}

static int mixed(int x, int y)
{
	/* constant conditions and real ones: only the real ones branch */
	int a = (x > 0 ? 1 : 2) + (sizeof(int) == 4 ? 3 : 4);
	if (y > 2 && (DEBUG || a > 3))
		a++;
	return a;
}

int main(void)
{
	struct node n;
	set_page(&n, 0x123456789ul);
	printf("%u %u %u\n", n.lo, n.hi, n.flags);
	printf("%d %d %d\n", top_bits(1, 0), top_bits(2, 3), top_bits(0, 0));
	printf("%d %d %d\n", mixed(1, 3), mixed(-1, 3), mixed(0, 1));
	return 0;
}
