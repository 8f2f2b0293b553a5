/*
 * html_args.c: the command line of `kpath html`.
 *
 *   html PROFILE -o DIR [--source-dir DIR] [--top N] [--wpp FILE [--wpp-min-len A]
 *        [--wpp-max-len B] [--wpp-min-cost C]] [--help]
 *
 * Options may come before or after PROFILE and take their value as the next
 * argument, after '=' (--top=5) or attached to -o (-oDIR): util/opts.h.
 * "--" ends the options.
 */
#include <stdlib.h>
#include <string.h>

#include "html_int.h"
#include "opts.h"
#include "rep.h" /* rep_parse_count */

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

enum { HA_HELP = 1, HA_OUT, HA_SOURCE_DIR, HA_TOP, HA_WPP, HA_WPP_MIN_LEN, HA_WPP_MAX_LEN, HA_WPP_MIN_COST };

static const struct kp_opt html_opts_tab[] = {
	{"--help", HA_HELP, KP_OPT_FLAG},
	{"-h", HA_HELP, KP_OPT_FLAG},
	{"-o", HA_OUT, KP_OPT_NEEDS},
	{"--output", HA_OUT, KP_OPT_NEEDS},
	{"--source-dir", HA_SOURCE_DIR, KP_OPT_NEEDS},
	{"--source-root", HA_SOURCE_DIR, KP_OPT_NEEDS}, /* old name */
	{"--top", HA_TOP, KP_OPT_NEEDS},
	{"--wpp", HA_WPP, KP_OPT_NEEDS},
	{"--wpp-min-len", HA_WPP_MIN_LEN, KP_OPT_NEEDS},
	{"--wpp-max-len", HA_WPP_MAX_LEN, KP_OPT_NEEDS},
	{"--wpp-min-cost", HA_WPP_MIN_COST, KP_OPT_NEEDS},
	{NULL, 0, KP_OPT_FLAG},
};

struct html_args {
	struct html_opts *o;
	FILE *err;
};

/* --wpp-min-len, --wpp-max-len, --wpp-min-cost (id) with value v. */
static int wpp_count(struct html_opts *o, const struct kp_optstate *st, int id, const char *v, FILE *err)
{
	size_t n;

	if (st->missing || rep_parse_count(v, &n) < 0 || (id != HA_WPP_MIN_COST && (n < 1 || n > 4096)))
		return usage_error(err, "%s needs a count (lengths: 1..4096)", st->arg);
	if (id == HA_WPP_MIN_LEN)
		o->wpp_min_len = (unsigned)n;
	else if (id == HA_WPP_MAX_LEN)
		o->wpp_max_len = (unsigned)n;
	else
		o->wpp_min_cost = n, o->wpp_min_cost_set = 1;
	return 0;
}

/* One item of the command line (kp_opt_fn). */
static int html_item(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	struct html_opts *o = ((struct html_args *)ctx)->o;
	FILE *err = ((struct html_args *)ctx)->err;

	switch (id) {
	case KP_OPT_ARG:
		if (o->profile)
			return usage_error(err, "more than one profile: '%s'", v);
		o->profile = v;
		return 0;
	case KP_OPT_UNKNOWN:
		return usage_error(err, "unknown option '%s'", v);
	case HA_HELP:
		o->help = 1;
		return 0;
	case HA_OUT:
		if (st->missing)
			return usage_error(err, "%s needs a directory", st->arg);
		if (!*v)
			return usage_error(err, "%s", "-o: empty directory name");
		o->out = v;
		return 0;
	case HA_SOURCE_DIR:
		if (st->missing || !*v)
			return usage_error(err, "%s needs a directory", st->arg);
		o->source_root = v;
		return 0;
	case HA_TOP:
		if (st->missing)
			return usage_error(err, "%s needs a value", st->arg);
		if (rep_parse_count(v, &o->top) < 0)
			return usage_error(err, "--top: not a count: '%s'", v);
		return 0;
	case HA_WPP:
		if (st->missing || !*v)
			return usage_error(err, "%s needs a file", "--wpp");
		o->wpp = v;
		return 0;
	}
	return wpp_count(o, st, id, v, err);
}

int html_args_parse(int argc, char **argv, struct html_opts *o, FILE *err)
{
	struct html_args ha = { o, err };
	int r;

	memset(o, 0, sizeof *o);
	o->top = HTML_TOP_DEFAULT;
	if ((r = kp_opt_parse(argc, argv, html_opts_tab, html_item, &ha)) != 0)
		return r;
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
