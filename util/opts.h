/*
 * opts.h: the option parser every kpath subcommand shares (frontend/,
 * report/, wpp/).  Each subcommand gives a table of its options;
 * kp_opt_next walks argv and returns one item at a time, so that every
 * subcommand keeps its own messages (they are part of its interface) and
 * none re-implements the scanning.  An option with a value takes it as the
 * next argument, after '=' ("--top=5"), or attached to a one-letter name
 * ("-oFILE"); options and positional arguments may come in any order, and
 * "--" ends the options.
 */
#ifndef KPATH_OPTS_H
#define KPATH_OPTS_H

#include <stdbool.h>

enum kp_opt_kind {
	KP_OPT_FLAG,     /* --name */
	KP_OPT_VALUE,    /* --name VALUE (or =VALUE); without a value it is an unknown option */
	KP_OPT_NEEDS,    /* --name VALUE; without a value: returned with *val NULL */
	KP_OPT_PREFIX,   /* any argument starting with name (e.g. -p, -pDIR) */
};

struct kp_opt {
	const char *name;
	int id;          /* > 0 */
	enum kp_opt_kind kind;
};

/* What kp_opt_next returns besides an option's id. */
enum {
	KP_OPT_DONE = 0,      /* no argument left */
	KP_OPT_ARG = -1,      /* a positional argument (or "-"): *val */
	KP_OPT_UNKNOWN = -2,  /* "-x..." not in the table (or a value missing): *val */
	KP_OPT_REST = -3,     /* "--": the arguments after it are in st->rest, st->nrest */
};

struct kp_optstate {
	int argc;
	char **argv;
	int i;                /* the next argument; argv[0] is the subcommand */
	const char **rest;    /* after "--" */
	int nrest;
	const char *arg;      /* the last item's argument as written */
	bool missing;         /* the last item is a KP_OPT_NEEDS option without its value */
};

void kp_opt_init(struct kp_optstate *st, int argc, char **argv);
/* The next item of argv, tab ending with a {NULL} entry. */
int kp_opt_next(struct kp_optstate *st, const struct kp_opt *tab, const char **val);

/* All of argv[1..argc) through fn, in order: fn gets KP_OPT_ARG for each
 * positional argument (those after "--" too), KP_OPT_UNKNOWN, or an
 * option's id with its value (st->missing when a KP_OPT_NEEDS option has
 * none; st->arg is the argument as written).  Stops at the first non-zero
 * value fn returns and returns it; 0 when argv is used up. */
typedef int kp_opt_fn(void *ctx, const struct kp_optstate *st, int id, const char *val);
int kp_opt_parse(int argc, char **argv, const struct kp_opt *tab, kp_opt_fn *fn, void *ctx);

#endif
