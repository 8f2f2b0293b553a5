/* switch in unusual shapes: default first/middle/last, empty cases,
 * no braces, fall-through markers, GNU case ranges, nested switches,
 * break/continue inside a switch inside a loop.
 * expect: instrumented=13 skipped=0 cut=0 */
#include <stdio.h>

static int default_first(int x)
{
	int r = 0;
	switch (x) {
	default:
		r = -1;
		break;
	case 1:
		r = 1;
		break;
	case 2:
	case 3:
		r = 23;
	}
	return r;
}

static int default_middle(int x)
{
	int r = 0;
	switch (x) {
	case 0:
		r += 1;
		/* fall through */
	default:
		r += 10;
		// fall through
	case 5:
		r += 100;
		break;
	case 6:;
	}
	return r;
}

static int default_last_empty(int x)
{
	switch (x) {
	case 1:
	case 2:
	case 3:
		return 123;
	case 4:
		break;
	default:
		;
	}
	return x * 2;
}

static int no_braces(int x)
{
	int r = 7;
	switch (x)
		case 3:
			r = 3;
	switch (x) default: r++;
	switch (x) ;
	switch (x) { }
	switch (x) r = 99; /* never executed: no label */
	return r;
}

static int attr_fallthrough(int x)
{
	int r = 0;
	switch (x) {
	case 0:
		r += 1;
		__attribute__((fallthrough));
	case 1:
		r += 2;
		__attribute__((__fallthrough__));
	case 2:
		if (r)
			r += 4;
		__attribute__((fallthrough));
	default:
		r += 8;
	}
	return r;
}

static int ranges(int x)
{
	switch (x) {
	case 0 ... 3:
		return 1;
	case 4 ... 9:
		return 2;
	case 'a' ... 'z':
		return 3;
	}
	return 0;
}

static int nested(int a, int b)
{
	int r = 0;
	switch (a) {
	case 0:
		switch (b) {
		case 0:
			r = 1;
			break;
		case 1:
			r = 2;
			/* fall through */
		default:
			r += 3;
		}
		/* falls into the outer case 1 */
	case 1:
		r += 10;
		switch (b) case 1: switch (a) case 1: r += 1000;
		break;
	default:
		switch (b) {
		default:
			r = -1;
		}
	}
	return r;
}

static int in_loop(int n)
{
	int i, r = 0;
	for (i = 0; i < n; i++) {
		switch (i % 4) {
		case 0:
			continue;
		case 1:
			r += 1;
			break;
		case 2:
			if (i > 8)
				goto out;
			r += 2;
			continue;
		default:
			while (r % 3)
				r++;
		}
		r *= 2;
	}
out:
	return r;
}

static int while_switch(const char *s)
{
	int words = 0, in = 0;
	while (*s) {
		switch (*s++) {
		case ' ':
		case '\t':
			in = 0;
			continue;
		case '\0':
			break;
		default:
			if (!in)
				words++;
			in = 1;
			break;
		}
	}
	return words;
}

static int do_switch(int x)
{
	int r = 0;
	do {
		switch (x & 3) {
		case 0:
			r++;
			continue; /* to the do's condition */
		case 3:
			break;
		}
		r += 10;
	} while (--x > 0);
	return r;
}

static int case_on_loop(int x)
{
	int r = 0;
	switch (x) {
	case 0:
		while (r < 3)
			r++;
	case 1:
		for (int i = 0; i < 2; i++)
			r += 5;
		break;
	case 2:
		do r += 7; while (r < 20);
	}
	return r;
}

enum color { RED, GREEN, BLUE };

static const char *enum_switch(enum color c)
{
	switch (c) {
	case RED: return "red";
	case GREEN: return "green";
	case BLUE: return "blue";
	}
	return "?";
}

int main(void)
{
	int i, j;
	for (i = -1; i < 8; i++)
		printf("%d: %d %d %d %d %d %d %d\n", i, default_first(i), default_middle(i), default_last_empty(i),
		       no_braces(i), attr_fallthrough(i), ranges(i), case_on_loop(i));
	printf("range %d\n", ranges('q'));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			printf("nested %d %d %d\n", i, j, nested(i, j));
	for (i = 0; i < 14; i++)
		printf("in_loop %d %d / do %d\n", i, in_loop(i), do_switch(i));
	printf("words %d\n", while_switch("  the quick\tbrown  fox "));
	printf("%s %s %s %s\n", enum_switch(RED), enum_switch(GREEN), enum_switch(BLUE), enum_switch((enum color)7));
	return 0;
}
