/*
 * check.h: the assertion of the C unit tests.  CHECK(cond) prints a
 * condition that does not hold, with its file and line, and counts it in
 * the test's failure counter: `failures`, or the one CHECK_FAILURES names
 * (defined before this header is included).
 */
#ifndef KPATH_TEST_CHECK_H
#define KPATH_TEST_CHECK_H

#include <stdio.h>

#ifndef CHECK_FAILURES
#define CHECK_FAILURES failures
#endif

#define CHECK(cond)                                                                           \
	do {                                                                                  \
		if (!(cond)) {                                                                \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			CHECK_FAILURES++;                                                     \
		}                                                                             \
	} while (0)

#endif
