/* A structure returned by value with a member never set (libffi's
 * testsuite, nested_struct10.c: B_fn fills y and x, not z).  Natively gcc
 * returns the local in place and says nothing; copied into kp_ret, gcc -O1
 * and -O2 -Wall warned "'result.z' is used uninitialized" once the callee
 * was inlined, so the instrumented file failed under -Werror.  A structure
 * or union value that calls nothing is returned after the exit event,
 * "return (leave, result);", as a tail call is (rewrite/place.c).  Each
 * shape: acyclic (tally), with a loop (leave), a const member (kp_ret
 * initialise-only), a union, a value that calls (kept in kp_ret) and one
 * read through a pointer after a branch.
 * expect: instrumented=9 skipped=0 cut=0
 * expect-paths: fill_partial=1 fill_loop=4 fill_const=2 fill_union=2 fill_call=2 fill_ptr=2 */
#include <stdio.h>

struct inner { unsigned long long a; unsigned char b; };
struct outer { unsigned char y; struct inner x; unsigned int z; };
struct konst { const int id; unsigned char tag; unsigned int unset; };
union either { struct outer o; unsigned long long w; };

static struct outer fill_partial(struct inner b2, struct outer b3)
{
	struct outer result;

	result.x.a = b2.a + b3.x.a + b3.z;
	result.x.b = b2.b + b3.x.b + b3.y;
	result.y = b2.b + b3.x.b;
	return result;
}

static struct outer fill_loop(const unsigned char *s, int n)
{
	struct outer result;

	result.y = 0;
	result.x.a = 0;
	result.x.b = 1;
	for (int i = 0; i < n; i++)
		result.x.a = result.x.a * 31 + s[i];
	return result;
}

static struct konst fill_const(int id, int tag)
{
	if (tag > 3) {
		struct konst k = {id, 3};
		return k;
	}
	struct konst k = {id, (unsigned char)tag};
	return k;
}

static union either fill_union(int n)
{
	union either u;

	if (n & 1) {
		u.o.y = (unsigned char)n;
		u.o.x.a = (unsigned long long)n * 3;
		u.o.x.b = 2;
		return u;
	}
	u.w = (unsigned long long)n << 3;
	return u;
}

static struct outer make(unsigned char y)
{
	struct outer o;

	o.y = y;
	o.x.a = y;
	o.x.b = y;
	return o;
}

static struct outer fill_call(int n)
{
	struct outer r = make((unsigned char)n);

	return n > 2 ? make((unsigned char)(n + 1)) : r;
}

static struct outer fill_ptr(const struct outer *p, const struct outer *q)
{
	if (p->y > q->y)
		return *p;
	return *q;
}

void put(void *resp, void **args);
void put(void *resp, void **args)
{
	*(struct outer *)resp = fill_partial(*(struct inner *)args[0], *(struct outer *)args[1]);
}

int main(void)
{
	struct inner a = {5, 6};
	struct outer b = {1, {2, 3}, 4}, r;
	void *args[2] = {&a, &b};
	put(&r, args);
	printf("%d %d %d\n", r.y, (int)r.x.a, r.x.b);
	r = fill_loop((const unsigned char *)"kpath", 5);
	printf("%d %llu %d\n", r.y, r.x.a, r.x.b);
	for (int i = 0; i < 6; i++) {
		struct konst k = fill_const(i, i);
		union either u = fill_union(i);
		struct outer c = fill_call(i), p = fill_ptr(&b, &c);
		if (i & 1)
			printf("%d %d | %d %llu |", k.id, k.tag, u.o.y, u.o.x.a);
		else
			printf("%d %d | %llu |", k.id, k.tag, u.w);
		printf(" %d %llu %d | %d\n", c.y, c.x.a, c.x.b, p.y);
	}
	return 0;
}
