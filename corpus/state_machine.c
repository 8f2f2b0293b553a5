/* state_machine.c: switch-driven state machines.  A tokenizer whose switch
 * has default in the middle, fall-through between cases, nested blocks and
 * a nested switch inside cases; a second switch without default; a
 * classifier whose case labels sit inside nested blocks of the switch. */
#include <stdio.h>

enum state { START, IDENT, NUMBER, OPER, DONE };

static int counts[4];

static void tokenize(const char *s)
{
	enum state st = START;
	int i = 0;
	while (st != DONE) {
		char ch = s[i];
		switch (st) {
		case START:
			if (ch == '\0') {
				st = DONE;
				break;
			}
			if (ch == ' ') {
				i++;
				break;
			}
			/* fall through */
		default:
			if ((ch >= 'a' && ch <= 'z') || ch == '_') {
				st = IDENT;
			} else if (ch >= '0' && ch <= '9') {
				st = NUMBER;
			} else {
				st = OPER;
			}
			break;
		case IDENT:
		case NUMBER: {
			int is_id = st == IDENT;
			while ((s[i] >= 'a' && s[i] <= 'z') || s[i] == '_' ||
			       (s[i] >= '0' && s[i] <= '9'))
				i++;
			counts[is_id ? 0 : 1]++;
			st = START;
			break;
		}
		case OPER:
			switch (ch) {
			case '+': case '-':
				counts[2]++;
				/* fall through */
			case '*':
				counts[3]++;
				break;
			default:
				break;
			}
			i++;
			st = START;
			break;
		}
	}
}

/* No default label: values 4..9 skip the switch entirely. */
static int weight(int v)
{
	int w = 1;
	switch (v % 10) {
	case 0:
		w += 10;
		/* fall through */
	case 1:
		w += 1;
		break;
	case 2: {
		int t = v / 10;
		w = t > 3 ? t : 3;
	}
		break;
	case 3:
		return -1;
	}
	return w;
}

/* Case labels inside nested blocks of the switch body (jumps into
 * the middle of an if-statement and of a loop). */
static int classify(int x)
{
	int r = 0, j = 1;
	switch (x & 3) {
	case 0:
		if (x > 8) {
		case 1:
			r += 5;
		}
		r += 1;
		break;
	default:
		for (j = 0; j < 3; j++) {
			r += j;
			/* fall through */
		case 2:
			r += 2;
		}
	}
	return r;
}

int main(void)
{
	tokenize("x1 = foo_bar + 42 * (y - 7) / zz9 +3");
	tokenize("");
	tokenize("   a");
	printf("ident=%d number=%d addsub=%d oper=%d\n",
	       counts[0], counts[1], counts[2], counts[3]);
	int sw = 0;
	for (int v = 0; v < 60; v++)
		sw += weight(v);
	printf("weights=%d\n", sw);
	unsigned cl = 0;
	for (int x = 0; x < 20; x++)
		cl = cl * 3u + (unsigned)classify(x);
	printf("classify=%u\n", cl);
	return 0;
}
