/*
 * cc_mode.c: kpath-cc's profiling mode from its environment (cc_wrapper.c),
 * as the kpath instrument options every source gets:
 *   KPATH_INSTRUMENT_MODE=kipf (the default), kiter or ppp;
 *   kiter: KPATH_KITER=K (1..16)                -> --mode kiter --kiter K
 *   ppp:   KPATH_INTERESTING=PROFILE.json,
 *          KPATH_INTERESTING_TOP=P (optional)  -> --mode ppp --interesting
 *                                                 ABSOLUTE [--interesting-top P]
 * (docs/kiter-mode.md, docs/ppp.md "In builds").  A malformed setting stops
 * the build with the reason (exit status 2) rather than profile in a mode
 * nobody asked for; so does a PROFILE that is not a readable file, checked
 * here, or that kpath instrument cannot read as a profile (its exit status
 * KP_EXIT_INTERESTING, which cc_wrapper.c turns into a failed build).
 */
/* realpath */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builds.h"

static const char *env(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static bool bad(const char *fmt, const char *a)
{
	fprintf(stderr, "kpath-cc: ");
	fprintf(stderr, fmt, a);
	fputc('\n', stderr);
	return false;
}

static bool kiter_flags(const char *k, struct kp_vec *flags)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(k, &end, 10);
	if (*end || errno || k[0] == '-' || k[0] == '+' || v < 1 || v > 16)
		return bad("KPATH_KITER='%s': expected an integer in 1..16", k);
	kp_vec_push(flags, "--mode");
	kp_vec_push(flags, "kiter");
	kp_vec_push(flags, "--kiter");
	kp_vec_push(flags, k);
	return true;
}

/* The interesting profile made absolute (every compile runs from its own
 * directory) and known to be a readable regular file. */
static bool ppp_flags(const char *file, const char *top, struct kp_vec *flags)
{
	char real[PATH_MAX];
	struct stat st;
	FILE *f;
	if (!realpath(file, real) || stat(real, &st) != 0) {
		fprintf(stderr, "kpath-cc: KPATH_INTERESTING='%s': %s (the interesting paths' profile, "
		        "docs/ppp.md)\n", file, strerror(errno));
		return false;
	}
	if (!S_ISREG(st.st_mode))
		return bad("KPATH_INTERESTING='%s': not a regular file (the interesting paths' profile, docs/ppp.md)",
		           file);
	if (!(f = fopen(real, "r"))) {
		fprintf(stderr, "kpath-cc: KPATH_INTERESTING='%s': %s\n", file, strerror(errno));
		return false;
	}
	fclose(f);
	if (top) {
		char *end;
		double p = strtod(top, &end);
		if (*end || !(p >= 0 && p <= 100))
			return bad("KPATH_INTERESTING_TOP='%s': expected a percentage in 0..100", top);
	}
	kp_vec_push(flags, "--mode");
	kp_vec_push(flags, "ppp");
	kp_vec_push(flags, "--interesting");
	kp_vec_push(flags, real);
	if (top) {
		kp_vec_push(flags, "--interesting-top");
		kp_vec_push(flags, top);
	}
	return true;
}

bool kp_cc_mode_env(struct kp_vec *flags)
{
	const char *mode = env("KPATH_INSTRUMENT_MODE"), *k = env("KPATH_KITER");
	const char *file = env("KPATH_INTERESTING"), *top = env("KPATH_INTERESTING_TOP");
	if (mode && strcmp(mode, "kipf") && strcmp(mode, "kiter") && strcmp(mode, "ppp"))
		return bad("KPATH_INSTRUMENT_MODE='%s': expected kipf (the default), kiter or ppp", mode);
	bool kiter = mode && !strcmp(mode, "kiter"), ppp = mode && !strcmp(mode, "ppp");
	if (kiter != (k != NULL))
		return bad("%s", kiter ? "KPATH_INSTRUMENT_MODE=kiter needs KPATH_KITER=K (1..16)"
		                       : "KPATH_KITER needs KPATH_INSTRUMENT_MODE=kiter");
	if (ppp && !file)
		return bad("%s", "KPATH_INSTRUMENT_MODE=ppp needs KPATH_INTERESTING=PROFILE.json (a profile of the "
		                 "same program: its paths are the interesting ones)");
	if (!ppp && (file || top))
		return bad("%s needs KPATH_INSTRUMENT_MODE=ppp", file ? "KPATH_INTERESTING" : "KPATH_INTERESTING_TOP");
	if (kiter)
		return kiter_flags(k, flags);
	if (ppp)
		return ppp_flags(file, top, flags);
	return true;
}
