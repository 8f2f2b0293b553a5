/* programs.h: the test programs built into stk (run when no file is given). */
#ifndef STK_PROGRAMS_H
#define STK_PROGRAMS_H

struct test_program {
	const char *name;
	const char *source;
};

extern const struct test_program test_programs[];
extern const int test_program_count;

/* The built-in program called name, NULL if none. */
const struct test_program *find_test_program(const char *name);

#endif
