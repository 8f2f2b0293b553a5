/*
 * main.c: the kpath command.  Each subcommand lives in its component:
 *   instrument  frontend/instrument_cmd.c  parse, build CFG, number, rewrite
 *               (pipeline.c, instrument_fn.c, modes.h: kipf, kiter, ppp)
 *               (-p BUILD_DIR: frontend/compdb.c, compile_commands.json)
 *   cfg         frontend/cfg_cmd.c      CFG and numbering dump (golden tests)
 *   config      frontend/config.c       linker arguments for the runtime
 *   kipf        frontend/kipf_tool.c    rebuild a profile from a trace
 *   report      report/report.c         hottest paths of a profile
 *   html        report/html/html_main.c a static web site of a profile
 *   show        report/show.c           source annotated with counts and k-paths
 *   merge       report/merge.c          sum profiles
 *   diff        report/diff.c           what changed between two profiles
 *   residual    report/residual.c       paths PROD ran that TESTS did not
 *   paths       frontend/paths.c        static Ball-Larus paths of a function
 *   coverage    report/coverage_cmd.c   line, branch, function, path coverage
 *   export      report/coverage_cmd.c   the same as lcov or Cobertura XML
 *   wpp         wpp/wpp_cmd.c           whole program paths: expand, stats, hot
 *   trace       wpp/trace_dump.c        a trace as text
 */
#include <stdio.h>
#include <string.h>

#include "frontend.h"
#include "coverage.h"
#include "html.h"
#include "kipf_tool.h"
#include "report.h"
#include "residual.h"
#include "overlap_mode.h"
#include "wpp.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kpath COMMAND [ARGS]\n"
	             "commands:\n"
	             "  instrument INPUT.c [-o OUT.c] [-- FLAGS]  add Ball-Larus path tracing\n"
	             "  instrument -p BUILD_DIR [-o OUT_DIR]     ... every C file of compile_commands.json\n"
	             "  cfg INPUT.c [--function F] [-- FLAGS]    dump CFGs and Ball-Larus numbering\n"
	             "  config --libs | --libdir                 linker arguments for the runtime\n"
	             "  report PROFILE [--top N] [--function F]  hottest paths of a profile\n"
	             "  show PROFILE [--function F]              source with line counts and k-paths\n"
	             "  merge A.json B.json... -o OUT.json       sum profiles\n"
	             "  diff OLD.json NEW.json                   paths that appeared, vanished, changed\n"
	             "  residual TESTS.json PROD.json            paths PROD ran that TESTS did not\n"
	             "  overlap estimate|check PROFILE [EXACT]   flow bounds from overlapping paths\n"
	             "  coverage PROFILE... [--fail-under-line P] line, branch, function, path coverage\n"
	             "  export --format lcov|cobertura PROFILE... coverage for CI services and editors\n"
	             "  paths INPUT.c --function F [-- FLAGS]    list a function's Ball-Larus paths\n"
	             "  kipf --k K [-o OUT.json] TRACE           rebuild a profile from a trace\n"
	             "  html PROFILE -o DIR                      a static web site of a profile\n"
	             "  wpp expand|stats|hot FILE ...            whole program paths (KPATH_MODE=wpp)\n"
	             "  trace dump TRACE                         a KPATH_TRACE file as text\n"
	             "  --version                                print kpath's version\n"
	             "Run 'kpath COMMAND --help' for a command's options; man kpath for all.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "instrument"))
		return kp_instrument_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "cfg"))
		return kp_cfg_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "config"))
		return kp_config_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "report"))
		return kp_report_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "show"))
		return kp_show_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "merge"))
		return kp_merge_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "diff"))
		return kp_diff_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "residual"))
		return kp_residual_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "overlap"))
		return kp_overlap_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "paths"))
		return kp_paths_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "kipf"))
		return kp_kipf_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "html"))
		return kp_html_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "coverage"))
		return kp_coverage_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "export"))
		return kp_export_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "wpp"))
		return wpp_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace"))
		return wpp_trace_main(argc - 1, argv + 1);
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-V")) {
		printf("kpath %s\n", KPATH_VERSION);
		return 0;
	}
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "kpath: unknown command '%s'\n", cmd);
	usage(stderr);
	return 2;
}
