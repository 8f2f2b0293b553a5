/* tests/test_scale.h: the size of a test's fixed random sample.
 *
 * KPATH_TEST_SCALE=N (an integer >= 1; scripts/test sets it for the
 * sanitizer pass, where every program runs several times slower) makes a
 * test that checks a fixed sample of N0 seeded cases check only the first
 * N0 / N of them: the same cases in the same order, never a random choice.
 * Invariant: the result is at least 1, so the sample is never empty (and
 * each test still fails when it compared too little).  Unset, empty or
 * not a number >= 1: the full sample. */
#ifndef KPATH_TEST_SCALE_H
#define KPATH_TEST_SCALE_H

#include <stdlib.h>

static inline unsigned long kp_test_scaled(unsigned long full)
{
	const char *s = getenv("KPATH_TEST_SCALE");
	char *end;
	unsigned long div = s && *s ? strtoul(s, &end, 10) : 1;
	if (!s || !*s || *end != '\0' || div < 1)
		div = 1;
	full /= div;
	return full ? full : 1;
}

#endif
