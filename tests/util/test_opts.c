/*
 * test_opts.c: util/opts.c, the option parser every subcommand uses.
 * Each case is a command line and the items kp_opt_parse must hand out,
 * in order, written as "id=value" ("id!" for a missing value).
 */
#include <stdio.h>
#include <string.h>

#include "opts.h"

enum { T_FLAG = 1, T_VAL, T_NEED, T_OUT, T_PREFIX };

static const struct kp_opt tab[] = {
	{"--flag", T_FLAG, KP_OPT_FLAG},
	{"--val", T_VAL, KP_OPT_VALUE},
	{"--need", T_NEED, KP_OPT_NEEDS},
	{"-o", T_OUT, KP_OPT_NEEDS},
	{"-p", T_PREFIX, KP_OPT_PREFIX},
	{NULL, 0, KP_OPT_FLAG},
};

static int failures;

static int record(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	char *out = ctx;
	char item[128];

	if (st->missing)
		snprintf(item, sizeof item, "%d!%s ", id, st->arg);
	else
		snprintf(item, sizeof item, "%d=%s ", id, v ? v : "(null)");
	strcat(out, item);
	return 0;
}

static void check(const char *line, const char *want)
{
	char buf[512], out[1024] = "", *argv[32];
	int argc = 0;

	snprintf(buf, sizeof buf, "cmd %s", line);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	kp_opt_parse(argc, argv, tab, record, out);
	if (strcmp(out, want)) {
		printf("FAIL: '%s'\n  got  '%s'\n  want '%s'\n", line, out, want);
		failures++;
	}
}

static int stop_at_two(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	int *n = ctx;

	(void)st, (void)id, (void)v;
	return ++*n == 2 ? 7 : 0;
}

int main(void)
{
	int n = 0, r;
	char *argv[] = { "cmd", "a", "b", "c", NULL };

	check("--flag a", "1=(null) -1=a ");
	check("--val x --need y", "2=x 3=y ");
	check("--val=x --need=y --need=", "2=x 3=y 3= ");
	check("-oFILE -o F2", "4=FILE 4=F2 ");
	check("--need", "3!--need ");
	check("--val", "-2=--val ");               /* a VALUE without its value is unknown */
	check("--flag=1", "-2=--flag=1 ");          /* a flag takes no value */
	check("--needle x", "-2=--needle -1=x ");   /* a longer name is another option */
	check("-pDIR -p", "5=-pDIR 5=-p ");
	check("- x -- --flag -o", "-1=- -1=x -1=--flag -1=-o ");
	check("-x", "-2=-x ");
	r = kp_opt_parse(4, argv, tab, stop_at_two, &n);
	if (r != 7 || n != 2) {
		printf("FAIL: kp_opt_parse returned %d after %d items, want 7 after 2\n", r, n);
		failures++;
	}
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "ok", failures);
	return failures != 0;
}
