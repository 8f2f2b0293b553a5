/* opts.c: the shared option parser of frontend/ (opts.h). */
#include <string.h>

#include "opts.h"

void kp_opt_init(struct kp_optstate *st, int argc, char **argv)
{
	st->argc = argc;
	st->argv = argv;
	st->i = 1;
	st->rest = NULL;
	st->nrest = 0;
}

int kp_opt_next(struct kp_optstate *st, const struct kp_opt *tab, const char **val)
{
	*val = NULL;
	if (st->i >= st->argc)
		return KP_OPT_DONE;
	const char *a = st->argv[st->i++];
	if (!strcmp(a, "--")) {
		st->rest = (const char **)st->argv + st->i;
		st->nrest = st->argc - st->i;
		st->i = st->argc;
		return KP_OPT_REST;
	}
	bool has_next = st->i < st->argc;
	for (const struct kp_opt *o = tab; o->name; o++) {
		if (o->kind == KP_OPT_PREFIX) {
			if (!strncmp(a, o->name, strlen(o->name))) {
				*val = a;
				return o->id;
			}
			continue;
		}
		if (strcmp(a, o->name))
			continue;
		if (o->kind == KP_OPT_FLAG)
			return o->id;
		if (has_next) {
			*val = st->argv[st->i++];
			return o->id;
		}
		if (o->kind == KP_OPT_NEEDS)
			return o->id;
		break; /* a value missing: unknown */
	}
	*val = a;
	return a[0] == '-' && a[1] ? KP_OPT_UNKNOWN : KP_OPT_ARG;
}
