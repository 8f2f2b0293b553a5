/*
 * tmp_name.c: the name of the temporary file an atomic write goes through
 * (profile_json.c, and the runtime's WPP writer): "PATH.tmp.HOST.PID.N",
 * beside PATH so that the rename stays in one file system.  The host and
 * the pid in the name let runtime/stale.c tell the files of dead processes
 * from those of live ones.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile_int.h"

void kp_hostname(char *buf, size_t cap)
{
	if (gethostname(buf, cap) != 0 || !buf[0])
		snprintf(buf, cap, "localhost");
	buf[cap - 1] = 0;
	for (char *s = buf; *s; s++)
		if (*s == '/')
			*s = '_';
}

char *kp_tmp_name(const char *path, unsigned n)
{
	char host[65];
	kp_hostname(host, sizeof host);
	size_t cap = strlen(path) + sizeof ".tmp..." + strlen(host) + 32;
	char *s = malloc(cap);
	if (s)
		snprintf(s, cap, "%s.tmp.%s.%ld.%u", path, host, (long)getpid(), n);
	return s;
}
