/*
 * report.h: `kpath report`, the human- and machine-readable view of a
 * kpath profile (kpath-profile/2, or /1).  This is the component's whole public contract.
 *
 *   kpath report PROFILE [--top N] [--function RE] [--file RE]
 *                [--min-iterations I] [--sort count|length] [--prefixes]
 *                [--json]
 *
 * Exit status: 0 on success, 1 when the profile cannot be read or the
 * requested function is not in it, 2 on a command-line error.
 */
#ifndef KPATH_REPORT_H
#define KPATH_REPORT_H

#include <stdio.h>

/* argv[0] is "report" (the driver strips "kpath").  Writes the report to
 * stdout and diagnostics to stderr; returns the exit status. */
int kp_report_main(int argc, char **argv);

/* The same with explicit streams, for tests and embedders.  Never closes
 * out or err. */
int kp_report_run(int argc, char **argv, FILE *out, FILE *err);

/* The other profile commands, same conventions (argv[0] is the command
 * name; exit status 0 ok, 1 unreadable input or nothing to show, 2 usage):
 *   kpath merge A.json B.json ... -o OUT.json     (merge.c)
 *   kpath diff OLD.json NEW.json                  (diff.c)
 *   kpath show PROFILE [--function NAME]          (show.c) */
int kp_merge_main(int argc, char **argv);
int kp_merge_run(int argc, char **argv, FILE *out, FILE *err);
int kp_diff_main(int argc, char **argv);
int kp_diff_run(int argc, char **argv, FILE *out, FILE *err);
int kp_show_main(int argc, char **argv);
int kp_show_run(int argc, char **argv, FILE *out, FILE *err);

/* rep_term.c: s with every control character (C0 but tab, DEL, C1) as
 * \xHH, for names and text from a profile printed on a terminal.
 * kp_term returns one of 8 rotating static buffers (so up to 8 may appear
 * in one printf), truncated with "..." past 8 KiB; kp_term_puts has no
 * limit. */
const char *kp_term(const char *s);
void kp_term_puts(FILE *out, const char *s);

#endif
