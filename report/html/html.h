/*
 * html.h: `kpath html`, a static web site from a kpath profile.
 * This is the component's whole public contract.
 *
 *   kpath html PROFILE -o DIR [--source-root DIR] [--top N]
 *
 * Exit status: 0 on success (warnings, e.g. a missing source file, go to
 * stderr), 1 when the profile cannot be read or DIR cannot be written (DIR
 * is then left as it was), 2 on a command-line error.
 */
#ifndef KPATH_HTML_H
#define KPATH_HTML_H

#include <stdio.h>

/* argv[0] is "html" (the driver strips "kpath"). */
int kp_html_main(int argc, char **argv);

/* The same with explicit streams for usage and diagnostics (tests). */
int kp_html_run(int argc, char **argv, FILE *out, FILE *err);

#endif
