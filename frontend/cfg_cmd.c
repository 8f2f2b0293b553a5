/*
 * cfg_cmd.c: `kpath cfg INPUT.c [--function NAME] [--stage S] [-- FLAGS]`:
 * the CFG and Ball-Larus numbering of each function, as kpath instrument
 * builds them (golden tests, tests/cfg).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "opts.h"
#include "pipeline.h"

static const char cfg_usage[] = "usage: kpath cfg INPUT.c [--function NAME] [--stage S] [-- COMPILE-FLAGS...]\n";

enum { CFG_FUNCTION = 1, CFG_STAGE, CFG_HELP };
static const struct kp_opt cfg_opts[] = {
	{"--function", CFG_FUNCTION, KP_OPT_VALUE},
	{"--stage", CFG_STAGE, KP_OPT_VALUE},
	{"--help", CFG_HELP, KP_OPT_FLAG},
	{"-h", CFG_HELP, KP_OPT_FLAG},
	{NULL, 0, KP_OPT_FLAG},
};

static void cfg_help(void)
{
	printf("%s\n"
	       "Prints, for each function defined in INPUT.c, what kpath instrument\n"
	       "builds: the CFG (blocks with their first source line, edges), the\n"
	       "back edges, the Ball-Larus DAG and its numbering (each edge's val,\n"
	       "each block's number of paths to EXIT).  Nothing is written or\n"
	       "compiled; the tests compare it with golden files (tests/cfg).\n"
	       "\n"
	       "  --function NAME  only the function NAME (an error if INPUT.c has\n"
	       "                   no function of that name kpath can build)\n"
	       "  --stage S        the result of one stage instead (cfgbuild/stages.h):\n"
	       "                   backedges (DFS orders, each edge's role), dag (the\n"
	       "                   DAG's edges), numbering (the default dump),\n"
	       "                   placement (potentials, spanning-forest edges and the\n"
	       "                   code of each edge and start site)\n"
	       "  -- FLAGS         compile flags for the parser (-I, -D, -std, ...)\n"
	       "  --help           print this help\n", cfg_usage);
}

int kp_cfg_main(int argc, char **argv)
{
	const char *in = NULL, *only = NULL;
	bool staged = false;
	enum stage stage = STAGE_NUMBERING;
	struct kp_optstate os;
	const char *v;
	int id;
	kp_opt_init(&os, argc, argv);
	while ((id = kp_opt_next(&os, cfg_opts, &v)) != KP_OPT_DONE) {
		switch (id) {
		case KP_OPT_REST:
			break;
		case CFG_FUNCTION:
			only = v;
			break;
		case CFG_STAGE:
			if (!stage_by_name(v, &stage)) {
				fprintf(stderr, "kpath cfg: unknown stage '%s' (backedges, dag, numbering, placement)\n", v);
				return 2;
			}
			staged = true;
			break;
		case CFG_HELP:
			cfg_help();
			return 0;
		default: /* an unknown option, a value missing, a second input */
			if (id != KP_OPT_ARG || v[0] == '-' || in) {
				fputs(cfg_usage, stderr);
				return 2;
			}
			in = v;
		}
	}
	const char **flags = os.rest;
	int nflags = os.nrest;
	if (!in) {
		fputs(cfg_usage, stderr);
		return 2;
	}
	struct kp_run_opts o = {.in = in, .flags = flags, .nflags = nflags, .quiet = true, .dump = stdout, .only = only,
	                     .staged = staged, .stage = stage};
	if (!only)
		return kp_run(&o);
	/* --function: the dump is held back, so that a name no function has is
	 * an error rather than an empty output */
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem) {
		fprintf(stderr, "kpath cfg: out of memory\n");
		return 1;
	}
	o.dump = mem;
	int rc = kp_run(&o);
	fclose(mem);
	fwrite(text, 1, len, stdout);
	if (rc == 0 && len == 0) {
		fprintf(stderr, "kpath cfg: %s: no function '%s' could be built (not defined in this file, or skipped: see above)\n", in, only);
		rc = 1;
	}
	free(text);
	return rc;
}
