/*
 * wpp_cmd.c: "kpath wpp": views of a whole program path file
 * (docs/wpp-format.md; the analysis is docs/wpp.md).
 *
 *   kpath wpp expand FILE      every thread's path stream, as kpath trace dump prints a trace
 *   kpath wpp stats FILE       per thread: length, rules, grammar size, compression ratio
 *   kpath wpp hot FILE --min-len A --max-len B --min-cost C [--cost blocks|unit] [--method exact|figure7] [--json]
 *                              minimal hot subpaths (WPP paper, section 4.2)
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "wpp.h"

static const char wpp_usage[] =
	"usage: kpath wpp expand FILE\n"
	"       kpath wpp stats FILE\n"
	"       kpath wpp hot FILE --min-len A --max-len B --min-cost C [--cost blocks|unit]\n"
	"                     [--method exact|figure7] [--json]\n";

static int usage(void)
{
	fputs(wpp_usage, stderr);
	return 2;
}

static int help(void)
{
	printf("%s\n"
	       "Reads a whole program path (WPP) that an instrumented program wrote with\n"
	       "KPATH_MODE=wpp (to KPATH_WPP, default kpath.wpp; docs/wpp-format.md).\n"
	       "\n"
	       "  expand  prints each thread's stream of paths: \"thread N\", then one\n"
	       "          \"FUNCTION FILE:LINE ID\" per path, exactly as kpath trace dump\n"
	       "          prints a KPATH_TRACE of the same run\n"
	       "  stats   trace length, rules, grammar size and compression ratio\n"
	       "  hot     the minimal hot subpaths: sequences of A..B consecutive paths\n"
	       "          whose frequency x sum of path costs is at least C; a path's\n"
	       "          cost is its number of blocks (--cost blocks, default) or 1\n"
	       "          (--cost unit); every such subpath with its exact frequency\n"
	       "          (--method exact, default) or the paper's Figure 7 traversal\n"
	       "          (--method figure7: a subset); --json for a machine-readable list\n"
	       "          (docs/wpp.md)\n",
	       wpp_usage);
	return 0;
}

static int load(const char *path, struct wpp_file *w)
{
	char err[1024];
	if (wpp_read(path, w, err, sizeof err) != 0) {
		fprintf(stderr, "kpath wpp: %s\n", err);
		return 1;
	}
	return 0;
}

void wpp_print_path(void *stdio_file, const struct wpp_func *f, uint64_t id)
{
	fprintf(stdio_file, "%s %s:%u %" PRIu64 "\n", f->name, f->file, f->line, id);
}

/* ---- expand ------------------------------------------------------------- */

struct expand_ctx {
	const struct wpp_file *w;
	const struct wpp_grammar *g;
};

static int print_term(void *arg, uint32_t t)
{
	struct expand_ctx *x = arg;
	const struct wpp_term *term = &x->g->terms[t];
	wpp_print_path(stdout, &x->w->funcs[term->func], term->id);
	return 0;
}

static int cmd_expand(const char *path)
{
	struct wpp_file w;
	if (load(path, &w))
		return 1;
	int rc = 0;
	for (uint32_t i = 0; i < w.ng && rc == 0; i++) {
		struct expand_ctx x = { &w, &w.g[i] };
		printf("thread %" PRIu64 "\n", w.g[i].thread);
		if (wpp_expand(&w.g[i], 0, print_term, &x) != 0) {
			fprintf(stderr, "kpath wpp: %s: out of memory\n", path);
			rc = 1;
		}
		if (w.g[i].dropped)
			fprintf(stderr, "kpath wpp: %s: thread %" PRIu64 ": %" PRIu64
				" paths were dropped at run time (out of memory); the stream stops early\n",
				path, w.g[i].thread, w.g[i].dropped);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "kpath wpp: writing the output failed\n");
		rc = 1;
	}
	wpp_free(&w);
	return rc;
}

/* ---- stats -------------------------------------------------------------- */

static int cmd_stats(const char *path)
{
	struct wpp_file w;
	if (load(path, &w))
		return 1;
	uint64_t tlen = 0, tsize = 0, trules = 0;
	printf("%s: %u thread(s), %u function(s)\n", path, w.ng, w.nfuncs);
	printf("  thread       length   distinct      rules    grammar      ratio\n");
	for (uint32_t i = 0; i < w.ng; i++) {
		const struct wpp_grammar *g = &w.g[i];
		uint64_t size = g->start[g->nrules];
		printf("  %6" PRIu64 " %12" PRIu64 " %10u %10u %10" PRIu64 " %9.1fx\n", g->thread, g->length, g->nterms,
		       g->nrules - 1, size, size ? (double)g->length / (double)size : 0.0);
		tlen += g->length;
		tsize += size;
		trules += g->nrules - 1;
	}
	printf("  total  %12" PRIu64 " %10s %10" PRIu64 " %10" PRIu64 " %9.1fx\n", tlen, "", trules, tsize,
	       tsize ? (double)tlen / (double)tsize : 0.0);
	printf("(length: paths in the stream; distinct: distinct (function, path) pairs; rules: besides S;\n"
	       " grammar: symbols on all right sides, S included; ratio: length / grammar)\n");
	wpp_free(&w);
	return 0;
}

/* ---- hot ---------------------------------------------------------------- */

static json_t *path_json(const struct wpp_file *w, const struct wpp_term *t)
{
	const struct wpp_func *f = &w->funcs[t->func];
	json_t *o = json_object(), *ls = json_array();
	uint32_t *lines, n;
	if (kp_decode_path(&f->dag, t->id, &lines, &n) == 0) {
		for (uint32_t i = 0; i < n; i++)
			json_array_append_new(ls, json_integer(lines[i]));
		free(lines);
	}
	json_object_set_new(o, "function", json_string(f->name));
	json_object_set_new(o, "file", json_string(f->file));
	json_object_set_new(o, "line", json_integer(f->line));
	json_object_set_new(o, "id", json_integer((json_int_t)t->id));
	json_object_set_new(o, "lines", ls);
	return o;
}

static void print_path_lines(const struct wpp_file *w, const struct wpp_term *t)
{
	const struct wpp_func *f = &w->funcs[t->func];
	uint32_t *lines, n;
	printf("      %s %s:%u path %" PRIu64 ":", f->name, f->file, f->line, t->id);
	if (kp_decode_path(&f->dag, t->id, &lines, &n) == 0) {
		printf(" lines");
		for (uint32_t i = 0; i < n; i++)
			printf(" %u", lines[i]);
		free(lines);
	} else {
		printf(" (does not decode)");
	}
	printf("\n");
}

static int by_cost(const void *a, const void *b)
{
	const struct wpp_hot *x = a, *y = b;
	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return x < y ? -1 : x > y; /* stable: discovery order */
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *e;
	if (!s || !*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	*v = strtoull(s, &e, 10);
	return 0;
}

enum { HOT_MIN_LEN = 1, HOT_MAX_LEN, HOT_MIN_COST, HOT_COST, HOT_METHOD, HOT_JSON };

static const struct kp_opt hot_opts[] = {
	{"--min-len", HOT_MIN_LEN, KP_OPT_NEEDS},
	{"--max-len", HOT_MAX_LEN, KP_OPT_NEEDS},
	{"--min-cost", HOT_MIN_COST, KP_OPT_NEEDS},
	{"--cost", HOT_COST, KP_OPT_NEEDS},
	{"--method", HOT_METHOD, KP_OPT_NEEDS},
	{"--json", HOT_JSON, KP_OPT_FLAG},
	{NULL, 0, KP_OPT_FLAG},
};

static int cmd_hot(int argc, char **argv)
{
	const char *path = NULL, *v;
	uint64_t bound[3] = { 0, 0, 0 }; /* --min-len, --max-len, --min-cost */
	int json = 0, have = 0, id;
	enum wpp_cost_model model = WPP_COST_BLOCKS;
	enum wpp_hot_method method = WPP_HOT_EXACT;
	struct kp_optstate st;

	kp_opt_init(&st, argc, argv);
	while ((id = kp_opt_next(&st, hot_opts, &v)) != KP_OPT_DONE) {
		if (id >= HOT_MIN_LEN && id <= HOT_MIN_COST) {
			if (st.missing || parse_u64(v, &bound[id - HOT_MIN_LEN]) != 0) {
				fprintf(stderr, "kpath wpp hot: %s needs a non-negative integer\n", st.arg);
				return 2;
			}
			have |= 1 << (id - HOT_MIN_LEN);
		} else if (id == HOT_COST) {
			if (st.missing || (strcmp(v, "blocks") && strcmp(v, "unit"))) {
				fprintf(stderr, "kpath wpp hot: --cost takes blocks or unit\n");
				return 2;
			}
			model = strcmp(v, "unit") ? WPP_COST_BLOCKS : WPP_COST_UNIT;
		} else if (id == HOT_METHOD) {
			if (st.missing || (strcmp(v, "exact") && strcmp(v, "figure7"))) {
				fprintf(stderr, "kpath wpp hot: --method takes exact or figure7\n");
				return 2;
			}
			method = strcmp(v, "exact") ? WPP_HOT_FIGURE7 : WPP_HOT_EXACT;
		} else if (id == HOT_JSON) {
			json = 1;
		} else if (id != KP_OPT_ARG || path || !strcmp(v, "-")) {
			return usage();
		} else {
			path = v;
		}
	}
	uint64_t min_len = bound[0], max_len = bound[1], min_cost = bound[2];
	if (!path || have != 7)
		return usage();
	if (min_len < 1 || max_len < min_len || max_len > 4096) {
		fprintf(stderr, "kpath wpp hot: need 1 <= --min-len <= --max-len <= 4096\n");
		return 2;
	}
	struct wpp_file w;
	if (load(path, &w))
		return 1;
	int rc = 0;
	json_t *root = json ? json_object() : NULL, *threads = json ? json_array() : NULL;
	for (uint32_t i = 0; i < w.ng && rc == 0; i++) {
		const struct wpp_grammar *g = &w.g[i];
		uint64_t *cost = wpp_term_costs(&w, g, model);
		struct wpp_hot *hot = NULL;
		size_t n = 0;
		struct wpp_hot_opts o = { .min_len = (unsigned)min_len, .max_len = (unsigned)max_len,
					  .min_cost = min_cost, .term_cost = cost, .method = method };
		if (!cost || wpp_hot_find(g, &o, &hot, &n) != 0) {
			fprintf(stderr, "kpath wpp hot: %s: out of memory\n", path);
			free(cost);
			rc = 1;
			break;
		}
		if (n > 1)
			qsort(hot, n, sizeof *hot, by_cost);
		if (json) {
			json_t *t = json_object(), *list = json_array();
			for (size_t k = 0; k < n; k++) {
				json_t *h = json_object(), *paths = json_array();
				for (unsigned j = 0; j < hot[k].len; j++)
					json_array_append_new(paths, path_json(&w, &g->terms[hot[k].terms[j]]));
				json_object_set_new(h, "cost", json_integer((json_int_t)hot[k].cost));
				json_object_set_new(h, "frequency", json_integer((json_int_t)hot[k].freq));
				json_object_set_new(h, "rule", json_integer(hot[k].rule));
				json_object_set_new(h, "paths", paths);
				json_array_append_new(list, h);
			}
			json_object_set_new(t, "thread", json_integer((json_int_t)g->thread));
			json_object_set_new(t, "length", json_integer((json_int_t)g->length));
			json_object_set_new(t, "hot", list);
			json_array_append_new(threads, t);
		} else {
			printf("thread %" PRIu64 ": %zu minimal hot subpath(s) of %" PRIu64 "..%" PRIu64
			       " paths with cost >= %" PRIu64 " (path cost: %s; %s)\n",
			       g->thread, n, min_len, max_len, min_cost, model == WPP_COST_UNIT ? "1" : "blocks",
			       method == WPP_HOT_EXACT ? "exact" : "Figure 7");
			for (size_t k = 0; k < n; k++) {
				printf("  #%zu  cost %" PRIu64 " = frequency %" PRIu64 " x %" PRIu64 ", %u paths (rule %u)\n",
				       k + 1, hot[k].cost, hot[k].freq, hot[k].freq ? hot[k].cost / hot[k].freq : 0,
				       hot[k].len, hot[k].rule);
				for (unsigned j = 0; j < hot[k].len; j++)
					print_path_lines(&w, &g->terms[hot[k].terms[j]]);
			}
		}
		wpp_hot_free(hot, n);
		free(cost);
	}
	if (json && rc == 0) {
		json_object_set_new(root, "file", json_string(path));
		json_object_set_new(root, "min_len", json_integer((json_int_t)min_len));
		json_object_set_new(root, "max_len", json_integer((json_int_t)max_len));
		json_object_set_new(root, "min_cost", json_integer((json_int_t)min_cost));
		json_object_set_new(root, "path_cost", json_string(model == WPP_COST_UNIT ? "unit" : "blocks"));
		json_object_set_new(root, "method", json_string(method == WPP_HOT_EXACT ? "exact" : "figure7"));
		json_object_set_new(root, "threads", threads);
		threads = NULL;
		if (json_dumpf(root, stdout, JSON_INDENT(1)) != 0 || fputc('\n', stdout) == EOF)
			rc = 1;
	}
	json_decref(threads);
	json_decref(root);
	wpp_free(&w);
	return rc;
}

int wpp_main(int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return help();
	if (argc < 3)
		return usage();
	if (!strcmp(argv[1], "expand") && argc == 3)
		return cmd_expand(argv[2]);
	if (!strcmp(argv[1], "stats") && argc == 3)
		return cmd_stats(argv[2]);
	if (!strcmp(argv[1], "hot"))
		return cmd_hot(argc - 1, argv + 1);
	return usage();
}
