/*
 * residual.h: `kpath residual`, the paths a production profile ran that a
 * test profile never did (residual.c, docs/ppp.md).
 *
 *   kpath residual TESTS.json PROD.json [--top N] [--json] [--fail-under PCT]
 *
 * Exit status: 0 ok, 1 unreadable or foreign profile, 2 command-line
 * error, 3 the --fail-under gate failed.
 */
#ifndef KPATH_RESIDUAL_H
#define KPATH_RESIDUAL_H

#include <stdio.h>

/* argv[0] is "residual".  Writes to stdout, diagnostics to stderr. */
int kp_residual_main(int argc, char **argv);
/* The same with explicit streams, for tests and embedders. */
int kp_residual_run(int argc, char **argv, FILE *out, FILE *err);

#endif
