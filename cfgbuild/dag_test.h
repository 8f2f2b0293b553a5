/*
 * dag_test.h: test-only hook of dag.c, not part of the cfgbuild interface.
 *
 * bl_build treats a path count above bl_test_path_limit as an overflow
 * (default UINT64_MAX).  Tests lower it to drive the cutting code on graphs
 * small enough for bl_check to enumerate.  Not thread safe; never set it
 * outside tests.
 */
#ifndef KPATH_DAG_TEST_H
#define KPATH_DAG_TEST_H

#include <stdint.h>

extern uint64_t bl_test_path_limit;

#endif
