/* duff.c: Duff's device (case labels inside a do-while nested in the
 * switch), a coroutine-style resumable generator built the same way
 * (switch into the middle of a loop, with static state), and a switch
 * on a char with a default label first. */
#include <stdio.h>

static void duff_copy(short *to, const short *from, int count)
{
	int n = (count + 7) / 8;
	if (count <= 0)
		return;
	switch (count % 8) {
	case 0: do { *to++ = *from++; /* fall through */
	case 7:      *to++ = *from++; /* fall through */
	case 6:      *to++ = *from++; /* fall through */
	case 5:      *to++ = *from++; /* fall through */
	case 4:      *to++ = *from++; /* fall through */
	case 3:      *to++ = *from++; /* fall through */
	case 2:      *to++ = *from++; /* fall through */
	case 1:      *to++ = *from++;
		} while (--n > 0);
	}
}

/* Returns successive squares of 0..limit-1, then -1 forever. */
static int next_square(int limit)
{
	static int state = 0, i;
	switch (state) {
	case 0: /* first call */
		for (i = 0; i < limit; i++) {
			state = 1;
			return i * i;
	case 1:
			;
		}
		state = 2;
		/* fall through */
	default:
		break;
	}
	return -1;
}

static int vowel_score(const char *s)
{
	int score = 0;
	for (; *s; s++) {
		switch (*s) {
		default:
			score += 1;
			break;
		case 'a': case 'e': case 'i':
			score += 5;
			/* fall through */
		case 'o': case 'u':
			score += 3;
			break;
		case ' ':
			continue;
		}
		score *= 1;
	}
	return score;
}

int main(void)
{
	short src[40], dst[40];
	for (int i = 0; i < 40; i++) {
		src[i] = (short)(i * 3 - 7);
		dst[i] = 0;
	}
	long check = 0;
	for (int count = 0; count <= 19; count++) {
		duff_copy(dst, src + count, count);
		for (int i = 0; i < count; i++)
			check += dst[i] * (i + 1);
	}
	printf("duff check = %ld\n", check);
	int s, sum = 0, n = 0;
	while ((s = next_square(9)) >= 0) {
		sum += s;
		n++;
	}
	printf("squares: n=%d sum=%d again=%d\n", n, sum, next_square(9));
	printf("vowel_score = %d\n", vowel_score("the quick brown fox jumps over"));
	return 0;
}
