/*
 * html_args.c: the command line of `kpath html`.
 *
 *   html PROFILE -o DIR [--source-dir DIR] [--top N] [--help]
 *
 * Options may come before or after PROFILE and take their value as the next
 * argument or after '=' (--top=5; -o DIR only as two arguments or -oDIR).
 * "--" ends the options.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "html_int.h"

void html_usage(FILE *out)
{
	fputs("usage: kpath html PROFILE -o DIR [--source-dir DIR] [--top N]\n"
	      "\n"
	      "Writes a static web site for a kpath-profile/1 file into DIR: an\n"
	      "index of files and functions sorted by flow, and one page per\n"
	      "function with its source (syntax-highlighted), per-line counts,\n"
	      "and its hottest Ball-Larus and multi-iteration paths; selecting a\n"
	      "path highlights its lines, iteration by iteration.  Open\n"
	      "DIR/index.html in a browser; no network is needed.\n"
	      "\n"
	      "  -o DIR             the site's directory (created or replaced; an\n"
	      "                     existing DIR must be empty or an earlier site)\n"
	      "  --source-dir DIR   resolve the profile's relative source file\n"
	      "                     names against DIR (default: current directory)\n"
	      "  --top N            rows per path table (default 25; 0 = all)\n"
	      "  --help             print this help\n",
	      out);
}

static int usage_error(FILE *err, const char *fmt, const char *arg)
{
	fputs("kpath html: ", err);
	fprintf(err, fmt, arg);
	fputc('\n', err);
	html_usage(err);
	return HTML_EXIT_USAGE;
}

static int parse_count(const char *s, size_t *n)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > SIZE_MAX)
		return -1;
	*n = (size_t)v;
	return 0;
}

/* If argv[*i] is option name (as "NAME", "NAME=VALUE" or, for a one-letter
 * option, "-xVALUE"), stores its value in *val, advancing *i past a separate
 * value, and returns 1; returns 0 if it is another argument, -1 if the
 * value is missing. */
static int take_value(int argc, char **argv, int *i, const char *name,
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
	if (n > 2 && a[n] == '=') {
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

int html_args_parse(int argc, char **argv, struct html_opts *o, FILE *err)
{
	int i, r, only_files = 0;
	const char *val;

	memset(o, 0, sizeof *o);
	o->top = HTML_TOP_DEFAULT;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (only_files || a[0] != '-' || a[1] == '\0') {
			if (o->profile)
				return usage_error(err, "more than one profile: '%s'", a);
			o->profile = a;
		} else if (strcmp(a, "--") == 0) {
			only_files = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			o->help = 1;
		} else if ((r = take_value(argc, argv, &i, "-o", &val)) != 0 ||
		           (r = take_value(argc, argv, &i, "--output", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a directory", a);
			if (!*val)
				return usage_error(err, "%s", "-o: empty directory name");
			o->out = val;
		} else if ((r = take_value(argc, argv, &i, "--source-dir", &val)) != 0 ||
		           (r = take_value(argc, argv, &i, "--source-root", &val)) != 0) { /* old name */
			if (r < 0 || !*val)
				return usage_error(err, "%s needs a directory", a);
			o->source_root = val;
		} else if ((r = take_value(argc, argv, &i, "--top", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			if (parse_count(val, &o->top) < 0)
				return usage_error(err, "--top: not a count: '%s'", val);
		} else {
			return usage_error(err, "unknown option '%s'", a);
		}
	}
	if (o->help)
		return HTML_EXIT_OK;
	if (!o->profile)
		return usage_error(err, "%s", "no profile given");
	if (!o->out)
		return usage_error(err, "%s", "no output directory given (-o DIR)");
	return HTML_EXIT_OK;
}
