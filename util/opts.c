/* opts.c: the option parser every kpath subcommand shares (opts.h). */
#include <string.h>

#include "opts.h"

void kp_opt_init(struct kp_optstate *st, int argc, char **argv)
{
	st->argc = argc;
	st->argv = argv;
	st->i = 1;
	st->rest = NULL;
	st->nrest = 0;
	st->arg = NULL;
	st->missing = false;
}

/* If a is option o written with its value attached ("--name=VALUE", or
 * "-xVALUE" for a one-letter name), the value; else NULL. */
static const char *attached(const struct kp_opt *o, const char *a)
{
	size_t n = strlen(o->name);

	if (strncmp(a, o->name, n) || !a[n])
		return NULL;
	if (n > 2 && o->name[1] == '-' && a[n] == '=')
		return a + n + 1;
	if (n == 2 && o->name[1] != '-')
		return a + n;
	return NULL;
}

int kp_opt_next(struct kp_optstate *st, const struct kp_opt *tab, const char **val)
{
	*val = NULL;
	st->missing = false;
	if (st->i >= st->argc)
		return KP_OPT_DONE;
	const char *a = st->argv[st->i++];
	st->arg = a;
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
		if (o->kind != KP_OPT_FLAG && (*val = attached(o, a)) != NULL)
			return o->id;
		if (strcmp(a, o->name))
			continue;
		if (o->kind == KP_OPT_FLAG)
			return o->id;
		if (has_next) {
			*val = st->argv[st->i++];
			return o->id;
		}
		if (o->kind == KP_OPT_NEEDS) {
			st->missing = true;
			return o->id;
		}
		break; /* a value missing: unknown */
	}
	*val = a;
	return a[0] == '-' && a[1] ? KP_OPT_UNKNOWN : KP_OPT_ARG;
}

int kp_opt_parse(int argc, char **argv, const struct kp_opt *tab, kp_opt_fn *fn, void *ctx)
{
	struct kp_optstate st;
	const char *v;
	int id, r = 0;

	kp_opt_init(&st, argc, argv);
	while (!r && (id = kp_opt_next(&st, tab, &v)) != KP_OPT_DONE) {
		if (id != KP_OPT_REST) {
			r = fn(ctx, &st, id, v);
			continue;
		}
		for (int i = 0; !r && i < st.nrest; i++) {
			st.arg = st.rest[i];
			r = fn(ctx, &st, KP_OPT_ARG, st.rest[i]);
		}
	}
	return r;
}
