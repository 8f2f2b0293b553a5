/*
 * instrument_cmd.c: `kpath instrument IN [-o OUT] [-- compile flags]`
 * (and -p BUILD_DIR, compdb.c): the options into a struct kp_run_opts and
 * the mode (modes.h), then one run of the pipeline (pipeline.c).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builds.h"
#include "frontend.h"
#include "opts.h"
#include "pipeline.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kpath instrument INPUT.c [-o OUTPUT.c] [--quiet] [--check] [--no-expr-branches]\n"
	             "                        [--no-repeat] [--include-dir DIR]... [--include-out DIR]\n"
	             "                        [-- COMPILE-FLAGS...]\n"
	             "       kpath instrument -p BUILD_DIR [-o OUT_DIR] [--quiet]\n"
	             "  (every C file of BUILD_DIR/compile_commands.json, into a mirrored tree)\n"
	             "  Writes INPUT.c with Ball-Larus path tracing for kpath's runtime\n"
	             "  (default output: INPUT.kpath.c).  Flags after -- are passed to the parser\n"
	             "  (-I, -D, -std, ...).  Link the result with $(kpath config --libs).\n"
	             "  --no-expr-branches  treat conditions as atomic: &&, || and ?: do not\n"
	             "           split paths (by default they are branches like if/else)\n"
	             "  --no-repeat  emit every iteration of straight innermost loops at once\n"
	             "           (by default they count it in a register: same profile, faster)\n"
	             "  --include-dir DIR  also instrument functions defined in headers under DIR:\n"
	             "           instrumented copies go to --include-out (default: kpath-include/\n"
	             "           beside OUTPUT.c), mirroring their path under DIR, and the output\n"
	             "           includes them in place of the originals (repeatable)\n"
	             "  --mode kiter --kiter K  number Roy & Srikant's k-iteration paths instead\n"
	             "           (K >= 1 per innermost loop, docs/kiter-paths.md); --mode kipf,\n"
	             "           the default, streams Ball-Larus IDs into the k-IPF\n"
	             "  --kiter-loop FILE:LINE=K  with --mode kiter: K of the loop whose head\n"
	             "           starts on LINE (repeatable; 1 makes it acyclic); in the source,\n"
	             "           #pragma kpath kiter(K) before a loop statement (0: acyclic)\n"
	             "  --mode overlap --degree N  overlapping paths (Tallam, Zhang & Gupta):\n"
	             "           Ball-Larus paths extended past each back edge to the\n"
	             "           (N+1)-th predicate, N in 0..64 (docs/overlap-mode.md)\n"
	             "  --mode ppp --interesting PROFILE  preferential path profiling: the paths\n"
	             "           PROFILE recorded per function are numbered compactly and\n"
	             "           counted in an array, every other path by its Ball-Larus ID\n"
	             "           (residual paths, docs/ppp.md); exit status 3 when PROFILE\n"
	             "           cannot be read (kpath-cc then fails the build)\n"
	             "  --interesting-top P  with --mode ppp: only the hottest paths covering\n"
	             "           P%% of each function's flow are interesting\n"
	             "  --ppp-registers  testing aid: the two registers and the slot check in\n"
	             "           every ppp function (by default a function whose IDs fit 4096\n"
	             "           counters classifies its Ball-Larus ID by a table)\n"
	             "  --check  testing aid: also report every CFG edge taken, for kpath's\n"
	             "           checking runtime (tests/check), which verifies every path ID.\n");
}

/* The options of kpath instrument INPUT.c. */
struct instrument_opts {
	const char *in, *out;
	bool quiet, check, expr_branches;
	const char **flags;           /* after -- */
	int nflags;
	const char **incdirs;         /* --include-dir */
	int nincdirs;
	const char *incout;           /* --include-out */
	struct kp_mode_args mode;     /* --mode and the modes' options */
};

enum {
	I_OUT = 1, I_QUIET, I_CHECK, I_MODE, I_KITER, I_INTERESTING, I_TOP, I_KITER_LOOP, I_NO_EXPR, I_PPP_REGS,
	I_NO_REPEAT, I_INCDIR, I_INCOUT, I_COMPDB, I_HELP, I_DEGREE,
};

static const struct kp_opt instrument_opts_tab[] = {
	{"-o", I_OUT, KP_OPT_VALUE},
	{"--quiet", I_QUIET, KP_OPT_FLAG},
	{"--check", I_CHECK, KP_OPT_FLAG},
	{"--mode", I_MODE, KP_OPT_NEEDS},
	{"--kiter", I_KITER, KP_OPT_NEEDS},
	{"--interesting", I_INTERESTING, KP_OPT_NEEDS},
	{"--interesting-top", I_TOP, KP_OPT_NEEDS},
	{"--kiter-loop", I_KITER_LOOP, KP_OPT_NEEDS},
	{"--degree", I_DEGREE, KP_OPT_NEEDS},
	{"--no-expr-branches", I_NO_EXPR, KP_OPT_FLAG},
	{"--ppp-registers", I_PPP_REGS, KP_OPT_FLAG},
	{"--no-repeat", I_NO_REPEAT, KP_OPT_FLAG},
	{"--include-dir", I_INCDIR, KP_OPT_VALUE},
	{"--include-out", I_INCOUT, KP_OPT_VALUE},
	{"-p", I_COMPDB, KP_OPT_PREFIX},
	{"--help", I_HELP, KP_OPT_FLAG},
	{"-h", I_HELP, KP_OPT_FLAG},
	{NULL, 0, KP_OPT_FLAG},
};

/* One option or argument into o.  -1 to go on, else the exit status. */
static int instrument_opt(int id, const char *opt, const char *v, struct instrument_opts *o)
{
	switch (id) {
	case KP_OPT_REST:
		return -1;
	case I_OUT:
		o->out = v;
		return -1;
	case I_QUIET:
		o->quiet = true;
		return -1;
	case I_CHECK:
		o->check = true;
		return -1;
	case I_MODE:
	case I_KITER:
	case I_INTERESTING:
	case I_TOP:
	case I_DEGREE:
		if (!v) {
			fprintf(stderr, "kpath instrument: %s needs a value\n", opt);
			return 2;
		}
		*(id == I_MODE ? &o->mode.mode : id == I_KITER ? &o->mode.kiter : id == I_DEGREE ? &o->mode.degree
		                               : id == I_TOP ? &o->mode.top : &o->mode.interesting) = v;
		return -1;
	case I_KITER_LOOP:
		o->mode.loops = realloc(o->mode.loops, (o->mode.nloops + 1) * sizeof *o->mode.loops);
		if (!o->mode.loops)
			return 1;
		if (!v || !kp_kiter_loop_arg(v, &o->mode.loops[o->mode.nloops])) {
			fprintf(stderr, "kpath instrument: --kiter-loop '%s': expected FILE:LINE=K with LINE >= 1 and K "
			        "in 1..%u\n", v ? v : "", RW_KITER_MAX_K);
			return 2;
		}
		o->mode.nloops++;
		return -1;
	case I_NO_EXPR:
		o->expr_branches = false;
		return -1;
	case I_PPP_REGS:
		rw_ppp_registers = true;
		return -1;
	case I_NO_REPEAT:
		rw_repeat_loops = false;
		return -1;
	case I_INCDIR:
		o->incdirs = realloc(o->incdirs, (size_t)(o->nincdirs + 1) * sizeof *o->incdirs);
		if (!o->incdirs)
			return 1;
		o->incdirs[o->nincdirs++] = v;
		return -1;
	case I_INCOUT:
		o->incout = v;
		return -1;
	case I_HELP:
		usage(stdout);
		return 0;
	case KP_OPT_UNKNOWN:
		fprintf(stderr, "kpath instrument: unknown option '%s'\n", v);
		usage(stderr);
		return 2;
	default:
		assert(id == KP_OPT_ARG);
		if (o->in) {
			fprintf(stderr, "kpath instrument: more than one input file ('%s', '%s')\n", o->in, v);
			return 2;
		}
		o->in = v;
		return -1;
	}
}

static void instrument_opts_free(struct instrument_opts *o)
{
	free(o->incdirs);
	free(o->mode.loops);
}

int kp_instrument_main(int argc, char **argv)
{
	struct instrument_opts o = {.expr_branches = true};
	struct kp_optstate os;
	const char *v;
	int id;
	kp_opt_init(&os, argc, argv);
	while ((id = kp_opt_next(&os, instrument_opts_tab, &v)) != KP_OPT_DONE) {
		if (id == I_COMPDB) {
			instrument_opts_free(&o);
			return kp_compdb_main(argc, argv, kp_instrument_main); /* -p BUILD_DIR: compile_commands.json */
		}
		int rc = instrument_opt(id, argv[os.i - 1], v, &o); /* argv[os.i - 1]: the option when its value is missing */
		if (rc >= 0) {
			instrument_opts_free(&o);
			return rc;
		}
	}
	o.flags = os.rest;
	o.nflags = os.nrest;
	if (!o.in) {
		usage(stderr);
		instrument_opts_free(&o);
		return 2;
	}
	o.mode.check = o.check;
	struct kp_mode_run mode;
	if (!kp_mode_select(&o.mode, &mode)) {
		instrument_opts_free(&o);
		return 2;
	}
	struct kp_inc_opts inc = {o.incdirs, o.nincdirs, o.incout};
	struct kp_run_opts ro = {.in = o.in, .out = o.out, .flags = o.flags, .nflags = o.nflags, .quiet = o.quiet,
	                         .check = o.check, .no_expr_branches = !o.expr_branches || mode.mode == &kp_mode_overlap /* docs/overlap-mode.md */,
	                         .inc = &inc, .mode = &mode};
	int rc = kp_run(&ro);
	kp_mode_run_free(&mode);
	instrument_opts_free(&o);
	return rc;
}
