/*
 * html_args.c: the command line of `kpath html`.
 *
 *   html PROFILE -o DIR [--source-dir DIR] [--top N] [--wpp FILE [--wpp-min-len A]
 *        [--wpp-max-len B] [--wpp-min-cost C]] [--help]
 *
 * Options may come before or after PROFILE and take their value as the next
 * argument or after '=' (--top=5; -o DIR only as two arguments or -oDIR).
 * "--" ends the options.
 */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "rep.h" /* rep_take_value, rep_parse_count */

void html_usage(FILE *out)
{
	fputs("usage: kpath html PROFILE -o DIR [--source-dir DIR] [--top N]\n"
	      "\n"
	      "Writes a static web site for a kpath profile into DIR: an\n"
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
	      "  --top N            rows per path table, maximal and prefix rows each\n"
	      "                     (default 25; 0 = all)\n"
	      "  --wpp FILE         a whole program path of the same build (KPATH_MODE=wpp):\n"
	      "                     adds wpp.html, its minimal hot subpaths, linked from\n"
	      "                     the index and the functions they run through\n"
	      "  --wpp-min-len A, --wpp-max-len B\n"
	      "                     subpath lengths in paths (default 2..8)\n"
	      "  --wpp-min-cost C   minimum cost (default: 1% of each thread's whole cost)\n"
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

/* The --wpp options: 1 taken, 0 not one of them, -1 a usage error
 * (printed). */
static int html_args_wpp(int argc, char **argv, int *i, struct html_opts *o, FILE *err)
{
	static const char *const names[] = { "--wpp-min-len", "--wpp-max-len", "--wpp-min-cost" };
	const char *val;
	size_t v;
	int r, k;

	if ((r = rep_take_value(argc, argv, i, "--wpp", &val)) != 0) {
		if (r < 0 || !*val)
			return usage_error(err, "%s needs a file", "--wpp"), -1;
		o->wpp = val;
		return 1;
	}
	for (k = 0; k < 3; k++)
		if ((r = rep_take_value(argc, argv, i, names[k], &val)) != 0)
			break;
	if (k == 3)
		return 0;
	if (r < 0 || rep_parse_count(val, &v) < 0 || (k < 2 && (v < 1 || v > 4096)))
		return usage_error(err, "%s needs a count (lengths: 1..4096)", names[k]), -1;
	if (k == 0)
		o->wpp_min_len = (unsigned)v;
	else if (k == 1)
		o->wpp_max_len = (unsigned)v;
	else
		o->wpp_min_cost = v, o->wpp_min_cost_set = 1;
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
		} else if ((r = rep_take_value(argc, argv, &i, "-o", &val)) != 0 ||
		           (r = rep_take_value(argc, argv, &i, "--output", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a directory", a);
			if (!*val)
				return usage_error(err, "%s", "-o: empty directory name");
			o->out = val;
		} else if ((r = rep_take_value(argc, argv, &i, "--source-dir", &val)) != 0 ||
		           (r = rep_take_value(argc, argv, &i, "--source-root", &val)) != 0) { /* old name */
			if (r < 0 || !*val)
				return usage_error(err, "%s needs a directory", a);
			o->source_root = val;
		} else if ((r = rep_take_value(argc, argv, &i, "--top", &val)) != 0) {
			if (r < 0)
				return usage_error(err, "%s needs a value", a);
			if (rep_parse_count(val, &o->top) < 0)
				return usage_error(err, "--top: not a count: '%s'", val);
		} else if ((r = html_args_wpp(argc, argv, &i, o, err)) != 0) {
			if (r < 0)
				return HTML_EXIT_USAGE;
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
	if (!o->wpp && (o->wpp_min_len || o->wpp_max_len || o->wpp_min_cost_set))
		return usage_error(err, "%s", "--wpp-min-len, --wpp-max-len and --wpp-min-cost need --wpp FILE");
	return HTML_EXIT_OK;
}
