/* GNU extensions around control flow: __builtin_expect in conditions,
 * __builtin_unreachable, local labels (__label__) with the same name in
 * two blocks, label attributes, _Pragma, cleanup attributes.
 * Local labels are skipped (labels are keyed by name in a function).
 * expect: instrumented=6 skipped=1 cut=0
 * expect-skip: local_labels
 * expect-paths: label_attr=2 expect=5 */
#include <stdio.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static int expect(int x)
{
	if (likely(x > 0))
		return 1;
	while (unlikely(x < -3))
		x++;
	return x;
}

static int unreach(int x)
{
	switch (x & 1) {
	case 0:
		return 0;
	case 1:
		return 1;
	default:
		__builtin_unreachable();
	}
}

static int local_labels(int x)
{
	int r = 0;
	{
		__label__ out;
		if (x & 1)
			goto out;
		r += 1;
	out:
		r += 10;
	}
	{
		__label__ out;
		if (x & 2)
			goto out;
		r += 100;
	out:
		r += 1000;
	}
	return r;
}

static int label_attr(int x)
{
	int r = 0;
	if (x)
		goto used;
unused: __attribute__((unused));
	r += 1;
used:
	r += 2;
	return r;
}

static int cleaned;
static void cleanup_int(int *p) { cleaned += *p; }

static int cleanup(int x)
{
	int v __attribute__((cleanup(cleanup_int))) = x;
	_Pragma("GCC diagnostic push")
	if (x > 2)
		return x;
	_Pragma("GCC diagnostic pop")
	return -x;
}

int main(void)
{
	for (int i = -5; i < 5; i++)
		printf("%d: %d %d %d %d %d\n", i, expect(i), unreach(i), local_labels(i), label_attr(i), cleanup(i));
	printf("cleaned %d\n", cleaned);
	return 0;
}
