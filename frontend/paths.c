/*
 * paths.c: `kpath paths SOURCE.c --function NAME [-- FLAGS]`: a function's
 * static Ball-Larus paths, with their IDs and source lines, without running
 * anything (path regeneration, Ball & Larus 1996, section 3.4).
 *
 * The function goes through the same parse/build/number calls as
 * `kpath instrument` (pipeline.c, kp_run), so the IDs are the
 * ones an instrumented build records and the checksum is the one its
 * profile carries.  Each ID is decoded by cfgbuild's bl_decode (from ENTRY
 * take the out-edge with the largest val <= what remains); the lines are
 * the first lines of the blocks it visits, ENTRY, EXIT and line-less
 * blocks skipped, exactly the "lines" of a profile's "paths" entry.
 *
 * A path starts at the function's entry or at a loop header (the dummy edge
 * ENTRY->w standing for a back edge, or a cut edge, into w) and ends at a
 * return or at a back (or cut) edge (the dummy edge v->EXIT): columns
 * "start" (entry | header) and "end" (exit | back).  To tell a dummy edge
 * from a CFG edge between the same blocks, the decode's steps are replayed
 * on the DAG: at each step the edge taken is the one with the largest
 * val <= the remaining ID among the edges between those two blocks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "build.h"
#include "cfg.h"
#include "frontend.h"
#include "opts.h"
#include "pipeline.h"
#include "report.h" /* kp_term: names printed on a terminal */

#define PATHS_LIMIT_DEFAULT 1000

struct kp_paths_req {
	const char *file;
	uint64_t limit;   /* list at most this many */
	int limit_given;  /* --limit N was given: listing a prefix is fine */
	int json;
	int found;        /* the function was numbered */
	int failed;       /* too many paths without --limit, or out of memory */
	json_t *funcs;    /* --json: the functions listed */
};

static void usage(FILE *out)
{
	fputs("usage: kpath paths INPUT.c --function NAME [--limit N] [--json] [-- COMPILE-FLAGS...]\n"
	      "\n"
	      "Lists the static Ball-Larus paths of function NAME: each path ID\n"
	      "with where it starts (entry | header: a loop header, after a back\n"
	      "edge), where it ends (exit | back: at a back edge) and the first\n"
	      "source line of each block it goes through, as a profile's \"paths\"\n"
	      "show them.  Nothing is compiled or run.\n"
	      "\n"
	      "  --function NAME  the function (required)\n"
	      "  --limit N        list the first N IDs; required when the function\n"
	      "                   has more than " "1000 paths\n"
	      "  --json           print the paths as JSON (kpath-paths/1)\n"
	      "  --help           print this help\n",
	      out);
}

/* The DAG edge from u to v taken with `rest` of the ID left: the largest
 * val <= rest among the edges u->v (edges are grouped by src, increasing
 * val, so the last one that fits). */
static const struct bl_edge *step_edge(const struct bl_dag *d, uint32_t u, uint32_t v, uint64_t rest)
{
	const struct bl_edge *best = NULL;

	for (uint32_t i = 0; i < d->nedges; i++) {
		const struct bl_edge *e = &d->edges[i];

		if (e->src == u && e->dst == v && e->val <= rest && (!best || e->val >= best->val))
			best = e;
	}
	return best;
}

/* One path: its lines into *lines (n of them), its start and end kinds. */
static int describe(const struct fn_plan *plan, const struct bl_dag *d, uint64_t id, uint32_t *blocks,
                    uint32_t cap, uint32_t *lines, uint32_t *nlines, const char **start, const char **end)
{
	uint32_t n = bl_decode(d, id, blocks, cap);
	uint64_t rest = id;

	if (n < 2 || n > cap)
		return -1;
	*nlines = 0;
	*start = "entry";
	*end = "exit";
	for (uint32_t i = 0; i + 1 < n; i++) {
		const struct bl_edge *e = step_edge(d, blocks[i], blocks[i + 1], rest);

		if (!e)
			return -1;
		rest -= e->val;
		if (e->kind == BL_EDGE_DUMMY_ENTRY)
			*start = "header";
		if (e->kind == BL_EDGE_DUMMY_EXIT)
			*end = "back";
	}
	for (uint32_t i = 0; i < n; i++) {
		unsigned line = plan->g->blocks[blocks[i]].line;

		if (line)
			lines[(*nlines)++] = line;
	}
	return 0;
}

/* Lists one numbered function (kp_numbered_fn, walk.h). */
static void paths_function(void *ctx, const struct fn_plan *plan, const struct bl_dag *dag)
{
	struct kp_paths_req *req = ctx;
	uint64_t total = dag->num_paths[CFG_ENTRY];
	uint64_t shown = total < req->limit ? total : req->limit;
	uint32_t cap = dag->nblocks + 2;
	uint32_t *blocks = malloc(cap * sizeof *blocks), *lines = malloc(cap * sizeof *lines);
	unsigned long long sum = (unsigned long long)bl_checksum(plan->g, dag);
	json_t *fo = NULL, *pa = NULL;

	req->found = 1;
	if (!blocks || !lines) {
		fprintf(stderr, "kpath paths: out of memory\n");
		req->failed = 1;
		goto done;
	}
	if (total > req->limit && !req->limit_given) {
		fprintf(stderr,
		        "kpath paths: %s:%u: function '%s' has %" PRIu64 " paths, more than %" PRIu64
		        "; give --limit N to list the first N\n",
		        req->file, plan->line, plan->name, total, req->limit);
		req->failed = 1;
		goto done;
	}
	if (req->json) {
		char hex[17], num[24];

		/* num_paths as a string when above jansson's integer range,
		 * as profile.h writes large numbers */
		snprintf(hex, sizeof hex, "%016llx", sum);
		snprintf(num, sizeof num, "%" PRIu64, total);
		fo = json_pack("{s:s?, s:s, s:i, s:s, s:o, s:I}", "name", plan->name, "file", req->file, "line",
		               (json_int_t)plan->line, "checksum", hex, "num_paths",
		               total > INT64_MAX ? json_string(num) : json_integer((json_int_t)total), "listed",
		               (json_int_t)shown);
		if (!fo || json_object_set_new(fo, "paths", pa = json_array()) || json_array_append_new(req->funcs, fo)) {
			fprintf(stderr, "kpath paths: out of memory\n");
			req->failed = 1;
			goto done;
		}
	} else {
		printf("function %s  %s:%u  checksum %016llx  %" PRIu64 " paths\n", kp_term(plan->name), kp_term(req->file), plan->line,
		       sum, total);
		if (shown < total)
			printf("  listing the first %" PRIu64 " (--limit)\n", shown);
		printf("  %*s  %-6s  %-4s  lines\n", 4, "id", "start", "end");
	}
	for (uint64_t id = 0; id < shown; id++) {
		const char *start, *end;
		uint32_t n;

		if (describe(plan, dag, id, blocks, cap, lines, &n, &start, &end) < 0) {
			fprintf(stderr, "kpath paths: %s: function '%s': path %" PRIu64 " does not decode\n",
			        kp_term(req->file), kp_term(plan->name), id);
			req->failed = 1;
			break;
		}
		if (req->json) {
			json_t *la = json_array();
			for (uint32_t i = 0; la && i < n; i++)
				json_array_append_new(la, json_integer(lines[i]));
			if (json_array_append_new(pa, json_pack("{s:I, s:s, s:s, s:o}", "id", (json_int_t)id, "start",
			                                        start, "end", end, "lines", la))) {
				req->failed = 1;
				break;
			}
			continue;
		}
		printf("  %4" PRIu64 "  %-6s  %-4s ", id, start, end);
		for (uint32_t i = 0; i < n; i++)
			printf(" %u", lines[i]);
		putchar('\n');
	}
done:
	free(blocks);
	free(lines);
}

enum { P_FUNCTION = 1, P_LIMIT, P_JSON, P_HELP };
static const struct kp_opt paths_opts[] = {
	{"--function", P_FUNCTION, KP_OPT_VALUE},
	{"--limit", P_LIMIT, KP_OPT_VALUE},
	{"--json", P_JSON, KP_OPT_FLAG},
	{"--help", P_HELP, KP_OPT_FLAG},
	{"-h", P_HELP, KP_OPT_FLAG},
	{NULL, 0, KP_OPT_FLAG},
};

int kp_paths_main(int argc, char **argv)
{
	struct kp_paths_req req;
	const char *in = NULL, *only = NULL;
	const char **flags = NULL;
	int nflags = 0;

	memset(&req, 0, sizeof req);
	req.limit = PATHS_LIMIT_DEFAULT;
	struct kp_optstate os;
	const char *a;
	int id;
	kp_opt_init(&os, argc, argv);
	while ((id = kp_opt_next(&os, paths_opts, &a)) != KP_OPT_DONE) {
		if (id == P_FUNCTION) {
			only = a;
		} else if (id == P_LIMIT) {
			char *endp;
			errno = 0;
			unsigned long long v = strtoull(a, &endp, 10);
			if (errno || *endp || a[0] < '0' || a[0] > '9') {
				fprintf(stderr, "kpath paths: --limit: not a count: '%s'\n", a);
				return 2;
			}
			req.limit = v;
			req.limit_given = 1;
		} else if (id == P_JSON) {
			req.json = 1;
		} else if (id == P_HELP) {
			usage(stdout);
			return 0;
		} else if (id == KP_OPT_UNKNOWN) {
			fprintf(stderr, "kpath paths: unknown option or missing value: '%s'\n", a);
			usage(stderr);
			return 2;
		} else if (id == KP_OPT_ARG && in) {
			fprintf(stderr, "kpath paths: more than one input file ('%s', '%s')\n", in, a);
			return 2;
		} else if (id == KP_OPT_ARG) {
			in = a;
		}
	}
	flags = os.rest;
	nflags = os.nrest;
	if (!in || !only) {
		fprintf(stderr, "kpath paths: %s\n", !in ? "no input file" : "--function NAME is required");
		usage(stderr);
		return 2;
	}
	req.file = in;
	if (req.json && !(req.funcs = json_array())) {
		fprintf(stderr, "kpath paths: out of memory\n");
		return 1;
	}
	/* a FIFO or device would block libclang's read (or never end) */
	struct stat st;
	if (stat(in, &st) == 0 && !S_ISREG(st.st_mode)) {
		fprintf(stderr, "kpath paths: %s: not a regular file\n", kp_term(in));
		json_decref(req.funcs);
		return 1;
	}
	struct kp_run_opts o = {.in = in, .flags = flags, .nflags = nflags, .quiet = true, .dump = stdout, .only = only,
	                        .numbered = paths_function, .numbered_ctx = &req};
	int rc = kp_run(&o);
	if (rc == 0 && !req.found) {
		fprintf(stderr, "kpath paths: %s: no function '%s' could be numbered (not defined in this file, or "
		                "skipped: see above)\n", kp_term(in), kp_term(only));
		rc = 1;
	}
	if (rc == 0 && req.failed)
		rc = 1;
	if (rc == 0 && req.json) {
		json_t *root = json_pack("{s:s, s:s, s:O}", "schema", "kpath-paths/1", "file", in, "functions", req.funcs);
		if (!root || json_dumpf(root, stdout, JSON_INDENT(2)) < 0 || putchar('\n') == EOF)
			rc = 1;
		json_decref(root);
	}
	json_decref(req.funcs);
	if (fflush(stdout) == EOF) {
		fprintf(stderr, "kpath paths: cannot write the output\n");
		rc = 1;
	}
	return rc;
}
