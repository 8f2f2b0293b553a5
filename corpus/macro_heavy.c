/* Macro-heavy code in the style of real C libraries: error-checking macros
 * that return or jump to a cleanup label, iteration macros that spell a
 * loop header, a bytecode interpreter whose dispatch (case labels, break,
 * continue) comes from macros, generic vector macros, nested macros and
 * macros in macro arguments, multi-line invocations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond, code)                                                                                      \
	do {                                                                                                   \
		if (!(cond))                                                                                   \
			return (code);                                                                         \
	} while (0)
#define TRY(expr)                                                                                              \
	do {                                                                                                   \
		int rc_ = (expr);                                                                              \
		if (rc_ != 0) {                                                                                \
			err = rc_;                                                                             \
			goto cleanup;                                                                          \
		}                                                                                              \
	} while (0)
#define FOR_RANGE(i, lo, hi) for (int i = (lo); i < (hi); i++)
#define FOR_EACH(it, list) for ((it) = (list); (it) != NULL; (it) = (it)->next)
#define SKIP_IF(c) if (c) continue
#define STOP_IF(c) if (c) break
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CLAMP(x, lo, hi) MIN(MIN_ALT(x, lo), hi)
#define MIN_ALT(x, lo) ((x) > (lo) ? (x) : (lo))
#define RETURN_IF_NEG(x) if ((x) < 0) return -1
#define STR(x) #x
#define XSTR(x) STR(x)
#define EXPECT(cond) do { if (!(cond)) { printf("expect failed: %s\n", #cond); failures++; } } while (0)

/* --- generic vector ---------------------------------------------------- */
#define VEC(T) struct { T *data; int len, cap; }
#define VEC_PUSH(v, x)                                                                                         \
	do {                                                                                                   \
		if ((v).len == (v).cap) {                                                                      \
			int ncap_ = (v).cap ? 2 * (v).cap : 4;                                                 \
			void *nd_ = realloc((v).data, (size_t)ncap_ * sizeof *(v).data);                       \
			if (!nd_)                                                                              \
				return -1;                                                                     \
			(v).data = nd_;                                                                        \
			(v).cap = ncap_;                                                                       \
		}                                                                                              \
		(v).data[(v).len++] = (x);                                                                     \
	} while (0)
#define VEC_FOREACH(v, i) for (int i = 0; i < (v).len; i++)

typedef VEC(int) int_vec;

static int failures;

static int fill_primes(int_vec *v, int limit)
{
	FOR_RANGE(n, 2, limit) {
		int prime = 1;
		FOR_RANGE(d, 2, n) {
			STOP_IF(d * d > n);
			if (n % d == 0) {
				prime = 0;
				break;
			}
		}
		SKIP_IF(!prime);
		VEC_PUSH(*v, n);
	}
	return 0;
}

static long sum_vec(const int_vec *v, int skip_mod)
{
	long s = 0;
	VEC_FOREACH(*v, i) {
		SKIP_IF(skip_mod && v->data[i] % skip_mod == 1);
		s += v->data[i];
	}
	return s;
}

/* --- linked list with cleanup on error ------------------------------------- */
struct node {
	int value;
	struct node *next;
};

static int push_front(struct node **head, int value)
{
	CHECK(value >= 0, -2);
	struct node *n = malloc(sizeof *n);
	CHECK(n != NULL, -1);
	n->value = value;
	n->next = *head;
	*head = n;
	return 0;
}

static int build_list(struct node **head, const int *vals, int n)
{
	int err = 0;
	int added = 0;
	FOR_RANGE(i, 0, n) {
		TRY(push_front(head, vals[i]));
		added++;
	}
	return added;
cleanup:
	printf("build_list: error %d after %d values\n", err, added);
	return err;
}

static int list_max(struct node *head)
{
	struct node *it;
	int best = -1;
	FOR_EACH(it, head) {
		SKIP_IF(it->value % 2);
		if (it->value > best)
			best = it->value;
	}
	return best;
}

static void free_list(struct node *head)
{
	struct node *it = head, *next;
	while (it) {
		next = it->next;
		free(it);
		it = next;
	}
}

/* --- a bytecode interpreter with macro dispatch ----------------------------- */
enum op { OP_PUSH, OP_ADD, OP_MUL, OP_JNZ, OP_DEC, OP_DUP, OP_POP, OP_HALT };

#define OPCODE(name) case OP_##name:
#define NEXT break
#define PUSH(x) (stack[sp++] = (x))
#define POP() (stack[--sp])
#define NEED(n) if (sp < (n)) return -1

static long run(const int *code, int len)
{
	long stack[64];
	int sp = 0, pc = 0, steps = 0;
	while (pc < len) {
		int op = code[pc++];
		steps++;
		switch (op) {
		OPCODE(PUSH)
			PUSH(code[pc++]);
			NEXT;
		OPCODE(ADD) {
			NEED(2);
			long b = POP(), a = POP();
			PUSH(a + b);
			NEXT;
		}
		OPCODE(MUL) {
			NEED(2);
			long b = POP(), a = POP();
			PUSH(a * b);
			NEXT;
		}
		OPCODE(JNZ) {
			NEED(1);
			int target = code[pc++];
			if (stack[sp - 1] != 0)
				pc = target;
			NEXT;
		}
		OPCODE(DEC)
			NEED(1);
			stack[sp - 1]--;
			NEXT;
		OPCODE(DUP)
			NEED(1);
			{
				long top = stack[sp - 1];
				PUSH(top);
			}
			NEXT;
		OPCODE(POP)
			NEED(1);
			(void)POP();
			NEXT;
		OPCODE(HALT)
			RETURN_IF_NEG(sp - 1);
			printf("run: %d steps\n", steps);
			return stack[sp - 1];
		default:
			return -2;
		}
	}
	return -3;
}

/* --- parsing with error macros ---------------------------------------------- */
static int parse_int(const char *s, int *out)
{
	int v = 0, sign = 1;
	CHECK(s && *s, -1);
	if (*s == '-') {
		sign = -1;
		s++;
	}
	CHECK(*s >= '0' && *s <= '9', -2);
	for (; *s; s++) {
		CHECK(*s >= '0' && *s <= '9',
		      -3);
		v = v * 10 + (*s - '0');
	}
	*out = sign * v;
	return 0;
}

static int sum_fields(const char *const *fields, int n, int *total)
{
	*total = 0;
	FOR_RANGE(i, 0, n) {
		int v;
		int rc = parse_int(fields[i], &v);
		SKIP_IF(rc == -1);
		RETURN_IF_NEG(rc);
		*total += CLAMP(v, -100, 100);
	}
	return 0;
}

int main(void)
{
	int_vec primes = {0};
	if (fill_primes(&primes, 60) != 0)
		return 1;
	printf("primes below 60: %d, sum %ld, sum without 1 mod 3: %ld\n", primes.len, sum_vec(&primes, 0),
	       sum_vec(&primes, 3));
	free(primes.data);

	struct node *head = NULL;
	const int good[] = {5, 8, 3, 12, 7, 10};
	const int bad[] = {4, 6, -1, 9};
	printf("added %d\n", build_list(&head, good, 6));
	printf("list max even: %d\n", list_max(head));
	printf("added %d\n", build_list(&head, bad, 4));
	printf("list max even: %d\n", list_max(head));
	free_list(head);

	/* a loop counting n down from 5 under an accumulator */
	const int fact[] = {OP_PUSH, 1, OP_PUSH, 5, /* 4: */ OP_DUP, OP_JNZ, 8, OP_HALT,
	                    /* 8: */ OP_DUP, OP_PUSH, 0, OP_ADD, OP_POP, OP_DEC, OP_DUP, OP_JNZ, 4, OP_HALT};
	printf("program 1: %ld\n", run(fact, (int)(sizeof fact / sizeof fact[0])));
	const int arith[] = {OP_PUSH, 6, OP_PUSH, 7, OP_MUL, OP_PUSH, 8, OP_ADD, OP_HALT};
	printf("program 2: %ld\n", run(arith, 9));
	const int under[] = {OP_ADD};
	printf("program 3: %ld\n", run(under, 1));
	const int badop[] = {42};
	printf("program 4: %ld\n", run(badop, 1));

	const char *const f1[] = {"12", "-7", "", "300", "5"};
	const char *const f2[] = {"1", "x2"};
	int total = 0;
	int rc = sum_fields(f1, 5, &total);
	printf("fields 1: rc %d total %d\n", rc, total);
	rc = sum_fields(f2, 2, &total);
	printf("fields 2: rc %d total %d\n", rc, total);

	EXPECT(MIN(3, 4) == 3);
	EXPECT(CLAMP(50, 0, 10) == 11);
	printf("%s %s, failures %d\n", STR(MIN(a, b)), XSTR(MIN(a, b)), failures);
	return failures == 1 ? 0 : 1;
}
