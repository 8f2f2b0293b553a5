/*
 * config.c: `kpath config --libs`: the linker arguments for the runtime,
 * found relative to the kpath executable (bin/kpath -> lib/libkpath_rt.a).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frontend.h"

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
	if (strlen(exe) + sizeof "/lib" > cap)
		return -1;
	memcpy(buf, exe, strlen(exe));
	memcpy(buf + strlen(exe), "/lib", sizeof "/lib");
	return 0;
}

int kp_config_main(int argc, char **argv)
{
	char dir[PATH_MAX];
	if (argc != 2 || (strcmp(argv[1], "--libs") && strcmp(argv[1], "--libdir"))) {
		fprintf(stderr, "usage: kpath config --libs | --libdir\n");
		return 2;
	}
	if (lib_dir(dir, sizeof dir - 32) != 0) {
		fprintf(stderr, "kpath config: cannot locate the kpath executable\n");
		return 1;
	}
	if (!strcmp(argv[1], "--libdir"))
		printf("%s\n", dir);
	else
		printf("%s/libkpath_rt.a -lpthread\n", dir);
	return 0;
}
