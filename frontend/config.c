/*
 * config.c: `kpath config --libs`: the linker arguments for the runtime,
 * found relative to the kpath executable: PREFIX/bin/kpath ->
 * PREFIX/LIBDIR/libkpath_rt.a, where LIBDIR is the install's library
 * directory (CMAKE_INSTALL_LIBDIR, e.g. lib or lib/x86_64-linux-gnu) and,
 * in the build tree, lib.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"

#ifndef KPATH_INSTALL_LIBDIR
#define KPATH_INSTALL_LIBDIR "lib"
#endif

static const char config_usage[] = "usage: kpath config --libs | --libdir | --version\n";

/* The directory holding libkpath_rt.a, in buf; -1 when not found. */
static int lib_dir(char *buf, size_t cap)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	char *slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0; /* .../bin */
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	static const char *const dirs[] = { KPATH_INSTALL_LIBDIR, "lib" };
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char lib[PATH_MAX + 64];
		if (snprintf(buf, cap, "%s/%s", exe, dirs[i]) >= (int)cap)
			return -1;
		snprintf(lib, sizeof lib, "%s/libkpath_rt.a", buf);
		if (access(lib, R_OK) == 0)
			return 0;
	}
	return -1;
}

int kp_config_libs(char *buf, size_t cap)
{
	char dir[PATH_MAX];
	if (lib_dir(dir, sizeof dir - 32) != 0)
		return -1;
	int n = snprintf(buf, cap, "%s/libkpath_rt.a -Wl,--export-dynamic-symbol-list=%s/kpath_rt.exports -lpthread",
			 dir, dir);
	return n > 0 && (size_t)n < cap ? 0 : -1;
}

int kp_config_main(int argc, char **argv)
{
	char dir[PATH_MAX];
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("%s\n"
		       "Prints what building with kpath needs:\n"
		       "  --libs     the linker arguments for the runtime that instrumented\n"
		       "             programs link: PREFIX/LIBDIR/libkpath_rt.a, the option that\n"
		       "             exports its kpath_* symbols from executables (so shared\n"
		       "             libraries share the program's runtime), -lpthread; found\n"
		       "             relative to this kpath executable (PREFIX/bin/kpath), e.g.\n"
		       "             cc prog.kpath.c -o prog $(kpath config --libs)\n"
		       "  --libdir   the directory holding libkpath_rt.a\n"
		       "  --version  kpath's version\n"
		       "  --help     print this help\n",
		       config_usage);
		return 0;
	}
	if (argc != 2 || (strcmp(argv[1], "--libs") && strcmp(argv[1], "--libdir") && strcmp(argv[1], "--version"))) {
		fputs(config_usage, stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s\n", KPATH_VERSION);
		return 0;
	}
	if (lib_dir(dir, sizeof dir - 32) != 0) {
		fprintf(stderr, "kpath config: no libkpath_rt.a in ../%s or ../lib beside the kpath executable "
			"(/proc/self/exe)\n", KPATH_INSTALL_LIBDIR);
		return 1;
	}
	char libs[3 * PATH_MAX];
	if (!strcmp(argv[1], "--libdir"))
		printf("%s\n", dir);
	else if (kp_config_libs(libs, sizeof libs) == 0)
		printf("%s\n", libs);
	else
		return 1;
	return 0;
}
