/*
 * rep_args.c: the command line of `kpath report`.
 *
 *   report PROFILE [--top N] [--function RE] [--file RE] [--min-iterations I]
 *          [--sort count|length] [--prefixes] [--json] [--force] [--help]
 *
 * Options may come before or after PROFILE, and take their value either as
 * the next argument or after '=' (--top=5).  "--" ends the options.  Exactly
 * one PROFILE is required unless --help is given.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rep.h"

void rep_usage(FILE *out)
{
	fputs("usage: kpath report PROFILE [--top N] [--function RE] [--file RE]\n"
	      "                    [--min-iterations I] [--sort count|length]\n"
	      "                    [--prefixes] [--json] [--force] [--source-dir DIR]\n"
	      "\n"
	      "Shows, per function (hottest first), the hottest Ball-Larus paths\n"
	      "and the hottest multi-iteration paths (2..k consecutive paths) of\n"
	      "a kpath profile, each with its share of the function's flow\n"
	      "(the number of Ball-Larus paths it completed).\n"
	      "\n"
	      "  --top N             rows per table (default 10; 0 = all)\n"
	      "  --function RE       only functions whose whole name matches the\n"
	      "                      POSIX extended regular expression RE\n"
	      "  --file RE           only functions whose file name contains a\n"
	      "                      match of RE\n"
	      "  --min-iterations I  multi-iteration rows of at least I paths\n"
	      "                      (default 2)\n"
	      "  --sort count|length order of the multi-iteration table: hottest\n"
	      "                      first (default), or longest first\n"
	      "  --prefixes          also list the sequences a longer listed one\n"
	      "                      starts with (by default only maximal ones)\n"
	      "  --json              print the tables as JSON (kpath-report/1)\n"
	      "  --source-dir DIR    where the profile's relative source names are\n"
	      "                      (default: the current directory): a file there\n"
	      "                      that differs from the one instrumented (its\n"
	      "                      source hash) is named in a warning\n"
	      "  --force             read a profile that breaks the format's\n"
	      "                      invariants (a child count above its parent's,\n"
	      "                      a count of 0, an ID >= num_paths, a line 0)\n"
	      "                      with a warning, instead of refusing it\n"
	      "  --help              print this help\n",
	      out);
}

static int usage_error(FILE *err, const char *fmt, const char *arg)
{
	fputs("kpath report: ", err);
	fprintf(err, fmt, arg);
	fputc('\n', err);
	rep_usage(err);
	return REP_EXIT_USAGE;
}

/* Parses a decimal N >= 0 with nothing after it. */
int rep_parse_count(const char *s, size_t *top)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > SIZE_MAX)
		return -1;
	*top = (size_t)v;
	return 0;
}

/* If argv[*i] is option name (as "NAME", "NAME=VALUE" or, for a one-letter
 * option, "-xVALUE"), stores its value in *val, advancing *i past a separate
 * value, and returns 1; returns 0 if it is another argument, -1 if the
 * value is missing. */
int rep_take_value(int argc, char **argv, int *i, const char *name,
                   const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n) != 0)
		return 0;
	if (n == 2 && a[n] != '\0') {
		*val = a + n;
		return 1;
	}
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	if (*i + 1 >= argc)
		return -1;
	*val = argv[++*i];
	return 1;
}

int rep_args_parse(int argc, char **argv, struct rep_opts *o, FILE *err)
{
	int i, r, only_files = 0;
	const char *val;

	memset(o, 0, sizeof *o);
	o->top = REP_TOP_DEFAULT;
	o->min_iter = 2;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (only_files || a[0] != '-' || a[1] == '\0') {
			if (o->profile)
				return usage_error(err, "more than one profile: '%s'", a);
			o->profile = a;
		} else if (strcmp(a, "--") == 0) {
			only_files = 1;
		} else if (strcmp(a, "--json") == 0) {
			o->json = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			o->help = 1;
		} else if ((r = rep_take_value(argc, argv, &i, "--top", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			if (rep_parse_count(val, &o->top) < 0)
				return usage_error(err, "--top: not a count: '%s'", val);
		} else if ((r = rep_take_value(argc, argv, &i, "--function", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			o->function = val;
		} else if ((r = rep_take_value(argc, argv, &i, "--file", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			o->file = val;
		} else if ((r = rep_take_value(argc, argv, &i, "--min-iterations", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			if (rep_parse_count(val, &o->min_iter) < 0 || o->min_iter == 0)
				return usage_error(err, "--min-iterations: not a count >= 1: '%s'", val);
		} else if ((r = rep_take_value(argc, argv, &i, "--sort", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			if (strcmp(val, "count") == 0)
				o->sort = REP_SORT_COUNT;
			else if (strcmp(val, "length") == 0)
				o->sort = REP_SORT_LENGTH;
			else
				return usage_error(err, "--sort: 'count' or 'length', not '%s'", val);
		} else if (strcmp(a, "--prefixes") == 0) {
			o->prefixes = 1;
		} else if ((r = rep_take_value(argc, argv, &i, "--source-dir", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			o->source_dir = val;
		} else if (strcmp(a, "--force") == 0) {
			o->force = 1;
		} else {
			return usage_error(err, "unknown option '%s'", a);
		}
	}
	if (!o->help && !o->profile)
		return usage_error(err, "%s", "no profile given");
	return REP_EXIT_OK;
}
