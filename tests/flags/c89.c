/* c89.c: strict C90 code for the flag matrix (tests/flags/flag_matrix.py):
 * every shape of inserted code kpath writes, in a file that compiles
 * cleanly with -std=c89 -pedantic and every warning of the matrix.  Blocks
 * begin with declarations; names a careless preamble could shadow are
 * globals here. */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

int c, id, n, p, r, s, t, y, m, f;

enum colour { RED, GREEN, BLUE };

struct pair {
	const int a;
	int b;
};

static jmp_buf env;

static int sum_to(int k)
{
	int acc = 0;
	int i;
	for (i = 0; i < k; i++) {
		int sq = i * i;
		if (sq % 3 == 0) {
			int half = sq / 2;
			acc += half;
			continue;
		}
		acc += sq;
	}
	return acc;
}

/* acyclic, constant IDs only */
static enum colour pick(int v)
{
	enum colour col = RED;
	if (v > 0)
		col = GREEN;
	return col;
}

/* straight inner loop: repeat counting */
static unsigned checksum(const unsigned char *b, unsigned len)
{
	unsigned h = 5381u;
	unsigned i;
	for (i = 0; i < len; i++)
		h = h * 33u + b[i];
	return h;
}

/* fall-through and case blocks with declarations */
static int classify(const char *str)
{
	int score = 0;
	while (*str) {
		switch (*str++) {
		case 'a':
			score += 2;
			/* fall through */
		case 'b': {
			int w = 3;
			score += w;
			break;
		}
		case 'c':
			score--;
			break;
		default:
			break;
		}
	}
	return score;
}

/* 2^32 paths: constants above 2^31 - 1 */
static unsigned wide(unsigned v)
{
	unsigned x = 0;
	if (v & 1u) x++;
	if (v & 2u) x++;
	if (v & 4u) x++;
	if (v & 8u) x++;
	if (v & 16u) x++;
	if (v & 32u) x++;
	if (v & 64u) x++;
	if (v & 128u) x++;
	if (v & 256u) x++;
	if (v & 512u) x++;
	if (v & 1024u) x++;
	if (v & 2048u) x++;
	if (v & 4096u) x++;
	if (v & 8192u) x++;
	if (v & 16384u) x++;
	if (v & 32768u) x++;
	if (v & 65536u) x++;
	if (v & 131072u) x++;
	if (v & 262144u) x++;
	if (v & 524288u) x++;
	if (v & 1048576u) x++;
	if (v & 2097152u) x++;
	if (v & 4194304u) x++;
	if (v & 8388608u) x++;
	if (v & 16777216u) x++;
	if (v & 33554432u) x++;
	if (v & 67108864u) x++;
	if (v & 134217728u) x++;
	if (v & 268435456u) x++;
	if (v & 536870912u) x++;
	if (v & 1073741824u) x++;
	if (v & 2147483648u) x++;
	return x;
}

static void fail_if(int bad)
{
	if (bad)
		longjmp(env, 1);
}

/* setjmp: pinned cursor, restart block */
static int guarded(int v)
{
	volatile int tries = 0;
	if (setjmp(env) != 0) {
		tries++;
		if (tries > 2)
			return -1;
	}
	fail_if(v < 0 && tries < 5);
	return tries;
}

static int goto_loop(int k)
{
	int i = 0;
again:
	if (i < k) {
		i += 2;
		goto again;
	}
	return i;
}

static void report(const char *what, int v)
{
	if (v < 0) {
		printf("%s: negative\n", what);
		return;
	}
	printf("%s: %d\n", what, v);
}

/* a struct with a const member: returned through an initialised temporary */
static struct pair make_pair(int big)
{
	struct pair q = {1, 2};
	struct pair z = {0, 0};
	if (big)
		return q;
	return z;
}

static int sum_pair(struct pair q)
{
	return q.a + q.b;
}

int main(void)
{
	static const unsigned char text[] = "kpath";
	struct pair q = {1, 2};
	int k;
	c = id = n = p = r = s = t = y = m = f = 0;
	do {
		int odd = sum_to(7) % 2;
		k = odd;
	} while (k > 1);
	report("sum", sum_to(10));
	report("pick", (int)pick(3));
	report("sum", (int)(checksum(text, (unsigned)strlen((const char *)text)) % 1000u));
	report("classify", classify("abcab"));
	report("wide", (int)wide(0x8000000fu));
	report("guarded", guarded(1));
	report("guarded", guarded(-1));
	report("goto", goto_loop(5));
	report("pair", sum_pair(q));
	report("made", sum_pair(make_pair(1)) + sum_pair(make_pair(0)));
	return 0;
}
