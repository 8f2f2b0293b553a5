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

#include "opts.h"
#include "rep.h"

void rep_usage(FILE *out)
{
	fputs("usage: kpath report PROFILE [--top N] [--function RE] [--file RE]\n"
	      "                    [--min-iterations I] [--sort count|length]\n"
	      "                    [--prefixes] [--json] [--force] [--source-dir DIR]\n"
	      "\n"
	      "Shows, per function (hottest first), the hottest Ball-Larus paths\n"
	      "and the hottest multi-iteration paths (2..k consecutive paths) of\n"
	      "a kpath-profile/1 file, each with its share of the function's flow\n"
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

enum {
	RA_JSON = 1, RA_HELP, RA_TOP, RA_FUNCTION, RA_FILE, RA_MIN_ITER, RA_SORT, RA_PREFIXES,
	RA_SOURCE_DIR, RA_FORCE,
};

static const struct kp_opt report_opts[] = {
	{"--json", RA_JSON, KP_OPT_FLAG},
	{"--help", RA_HELP, KP_OPT_FLAG},
	{"-h", RA_HELP, KP_OPT_FLAG},
	{"--top", RA_TOP, KP_OPT_NEEDS},
	{"--function", RA_FUNCTION, KP_OPT_NEEDS},
	{"--file", RA_FILE, KP_OPT_NEEDS},
	{"--min-iterations", RA_MIN_ITER, KP_OPT_NEEDS},
	{"--sort", RA_SORT, KP_OPT_NEEDS},
	{"--prefixes", RA_PREFIXES, KP_OPT_FLAG},
	{"--source-dir", RA_SOURCE_DIR, KP_OPT_NEEDS},
	{"--force", RA_FORCE, KP_OPT_FLAG},
	{NULL, 0, KP_OPT_FLAG},
};

struct report_args {
	struct rep_opts *o;
	FILE *err;
};

/* One item of the command line (kp_opt_fn). */
static int report_item(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	struct rep_opts *o = ((struct report_args *)ctx)->o;
	FILE *err = ((struct report_args *)ctx)->err;

	if (st->missing)
		return usage_error(err, "%s needs a value", st->arg);
	switch (id) {
	case KP_OPT_ARG:
		if (o->profile)
			return usage_error(err, "more than one profile: '%s'", v);
		o->profile = v;
		break;
	case KP_OPT_UNKNOWN:
		return usage_error(err, "unknown option '%s'", v);
	case RA_JSON: o->json = 1; break;
	case RA_HELP: o->help = 1; break;
	case RA_PREFIXES: o->prefixes = 1; break;
	case RA_FORCE: o->force = 1; break;
	case RA_FUNCTION: o->function = v; break;
	case RA_FILE: o->file = v; break;
	case RA_SOURCE_DIR: o->source_dir = v; break;
	case RA_TOP:
		if (rep_parse_count(v, &o->top) < 0)
			return usage_error(err, "--top: not a count: '%s'", v);
		break;
	case RA_MIN_ITER:
		if (rep_parse_count(v, &o->min_iter) < 0 || o->min_iter == 0)
			return usage_error(err, "--min-iterations: not a count >= 1: '%s'", v);
		break;
	case RA_SORT:
		if (strcmp(v, "count") == 0)
			o->sort = REP_SORT_COUNT;
		else if (strcmp(v, "length") == 0)
			o->sort = REP_SORT_LENGTH;
		else
			return usage_error(err, "--sort: 'count' or 'length', not '%s'", v);
		break;
	}
	return REP_EXIT_OK;
}

int rep_args_parse(int argc, char **argv, struct rep_opts *o, FILE *err)
{
	struct report_args ra = { o, err };
	int r;

	memset(o, 0, sizeof *o);
	o->top = REP_TOP_DEFAULT;
	o->min_iter = 2;
	r = kp_opt_parse(argc, argv, report_opts, report_item, &ra);
	if (r != REP_EXIT_OK)
		return r;
	if (!o->help && !o->profile)
		return usage_error(err, "%s", "no profile given");
	return REP_EXIT_OK;
}
