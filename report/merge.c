/*
 * merge.c: `kpath merge A.json B.json ... -o OUT.json`, the sum of profiles.
 *
 * All the arithmetic is kp_profile_merge_into (profile/profile.c), the same
 * code the runtime accumulates with, so a merge of per-process files equals
 * the file those processes would have accumulated into.  This file only
 * reads every input first (any unreadable input: nothing is written), says
 * what the merge does with inputs that do not line up, and writes the result
 * atomically.
 *
 * Why the sum is associative and commutative: every summed field (runs,
 * dropped, invalid_paths, emitted, each k-IPF node's count) is an integer
 * addition keyed by (name, file, checksum) and by the node's label sequence;
 * the k of the result is the minimum of the inputs' k, and truncation to a
 * smaller k commutes with addition (it drops the same nodes from every
 * operand); `paths` is a union; the writer sorts into canonical order.  So
 * any grouping or order of the same inputs gives a byte-identical file.
 *
 * Why merging at a smaller k is exact (k-BLPP paper, Definition of the
 * k-IPF and Property 2): the node labelled <a1..ad>, d <= k, counts the
 * positions i of the activations' path streams with s_i..s_{i+d-1} =
 * a1..ad.  That number does not depend on k.  So the k'-IPF (k' < k) of the
 * same streams is exactly the k-IPF's nodes of depth <= k' with the same
 * counts, and nothing a k'-IPF holds is missing from the k-IPF.  Cutting
 * every input at k' and summing therefore gives the k'-IPF of all the runs
 * together, as if they had all run with KPATH_K=k' (tests/report/merge_k.sh
 * checks this against n-gram counts recomputed from a trace).  Merging at a
 * larger k is impossible (the k'-profile lacks the deeper n-grams), hence
 * the minimum.
 *
 * Functions with the same name and file but another checksum were built
 * from different code: their path IDs mean different paths, so they are
 * never summed; both are kept (the profile format allows it) and the
 * conflict is reported on stderr.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "opts.h"
#include "rep.h"
#include "report.h"

static void merge_usage(FILE *out)
{
	fputs("usage: kpath merge A.json B.json ... -o OUT.json\n"
	      "\n"
	      "Sums kpath-profile/1 files (runs, counts, invalid and dropped\n"
	      "events).  Profiles of different k are merged at the smallest k\n"
	      "(exact: a k-IPF cut at depth k' is the k'-IPF).  A function whose\n"
	      "checksum differs between inputs (the code changed) is kept twice,\n"
	      "never summed, and reported.  OUT.json is written atomically and\n"
	      "may be one of the inputs.\n"
	      "\n"
	      "  -o, --output OUT.json  the merged profile (required)\n"
	      "  --help                 print this help\n",
	      out);
}

static int merge_usage_error(FILE *err, const char *what, const char *arg)
{
	fprintf(err, "kpath merge: %s%s%s\n", what, arg ? ": " : "",
	        arg ? arg : "");
	merge_usage(err);
	return REP_EXIT_USAGE;
}

/* Reports every function of src that acc holds only under other
 * checksums: merging adds it as a separate entry.  (One that acc already
 * holds under the same checksum, perhaps beside other versions from an
 * earlier merge, is summed into its own entry: nothing to report.)  m[0..n)
 * are the pairs of kp_profile_join(acc, src), in src's order. */
static void report_conflicts(FILE *err, const struct kp_profile *acc,
                             const struct kp_profile *src,
                             const char *src_path, const struct kp_match *m, size_t n)
{
	size_t t, u;

	for (t = 0; t < n; t = u) {
		const struct kp_func *s = &src->funcs[m[t].b], *a = NULL;
		bool same = false;

		/* the pairs of s, in acc's order: the first other checksum */
		for (u = t; u < n && m[u].b == m[t].b; u++) {
			const struct kp_func *x = &acc->funcs[m[u].a];

			if (!strcmp(x->checksum, s->checksum))
				same = true;
			else if (!a)
				a = x;
		}
		if (same || !a)
			continue;
		fprintf(err,
		        "kpath merge: warning: %s (%s:%u): checksum %s in %s, "
		        "%s before: the code changed; kept separate, not "
		        "summed\n",
		        kp_term(s->name), kp_term(s->file), s->line, s->checksum,
		        kp_term(src_path), a->checksum);
	}
}

/* Whether src may be merged into acc: a function of both (same name and
 * file) must be of one mode, and in mode kiter of one K (docs/kiter-mode.md:
 * the IDs of two numberings have nothing in common, and summing them side by
 * side would read as one function profiled twice).  Says why not on err.
 * m[0..n): the pairs of kp_profile_join(acc, src). */
static bool modes_agree(FILE *err, const struct kp_profile *acc, const struct kp_profile *src, const char *src_path,
                        const struct kp_match *m, size_t n)
{
	/* the pairs of the same name and file, in the order of a scan over
	 * src, then acc (kp_profile_join) */
	for (size_t t = 0; t < n; t++) {
		const struct kp_func *s = &src->funcs[m[t].b], *a = &acc->funcs[m[t].a];
		unsigned ks = kp_kiter_k(s->kiter), ka = kp_kiter_k(a->kiter);
		if (ks == ka && !kp_ppp_same(s->ppp, a->ppp)) { /* docs/ppp.md, "Profiles" */
			fprintf(err, "kpath merge: error: %s (%s:%u): %s has a %s profile of it, the profiles before %s; "
			        "profiles of ppp mode merge only with the same interesting set\n",
			        kp_term(s->name), kp_term(s->file), s->line, kp_term(src_path),
			        s->ppp ? "ppp" : "non-ppp", a->ppp ? s->ppp ? "another interesting set" : "a ppp one"
			                                          : "a non-ppp one");
			return false;
		}
		if (ks == ka && !kp_overlap_same(s->overlap, a->overlap)) { /* docs/overlap-mode.md, "The profile" */
			char sm[48] = "kipf", am[48] = "kipf";
			if (s->overlap)
				snprintf(sm, sizeof sm, "overlap degree %u", kp_overlap_degree(s->overlap));
			if (a->overlap)
				snprintf(am, sizeof am, "overlap degree %u", kp_overlap_degree(a->overlap));
			fprintf(err, "kpath merge: error: %s (%s:%u): %s has a profile of it in mode %s, the profiles "
			        "before in mode %s; OL counts of different modes or degrees cannot be merged\n",
			        kp_term(s->name), kp_term(s->file), s->line, kp_term(src_path), sm, am);
			return false;
		}
		if (ks == ka)
			continue;
		if (!ks || !ka)
			fprintf(err, "kpath merge: error: %s (%s:%u): %s has a %s profile of it, the profiles before "
			        "a %s one; a kiter and a kipf profile of the same function cannot be merged\n",
			        kp_term(s->name), kp_term(s->file), s->line, kp_term(src_path), ks ? "kiter" : "kipf",
			        ka ? "kiter" : "kipf");
		else
			fprintf(err, "kpath merge: error: %s (%s:%u): kiter K=%u in %s, K=%u before; profiles of "
			        "different K cannot be merged\n",
			        kp_term(s->name), kp_term(s->file), s->line, ks, kp_term(src_path), ka);
		return false;
	}
	return true;
}

enum { MG_HELP = 1, MG_OUTPUT };

static const struct kp_opt merge_opts[] = {
	{"--help", MG_HELP, KP_OPT_FLAG},
	{"-h", MG_HELP, KP_OPT_FLAG},
	{"-o", MG_OUTPUT, KP_OPT_NEEDS},
	{"--output", MG_OUTPUT, KP_OPT_NEEDS},
	{NULL, 0, KP_OPT_FLAG},
};

struct merge_args {
	const char **inputs, *output;
	int n;
	FILE *out, *err;
};

/* One item of the command line (kp_opt_fn); -1 after --help. */
static int merge_item(void *ctx, const struct kp_optstate *st, int id, const char *v)
{
	struct merge_args *a = ctx;

	switch (id) {
	case KP_OPT_ARG:
		a->inputs[a->n++] = v;
		return 0;
	case MG_HELP:
		merge_usage(a->out);
		return -1;
	case MG_OUTPUT:
		if (st->missing || a->output)
			return merge_usage_error(a->err, st->missing ? "-o needs a file name" : "-o given twice", NULL);
		a->output = v;
		return 0;
	default:
		return merge_usage_error(a->err, "unknown option", v);
	}
}

int kp_merge_run(int argc, char **argv, FILE *out, FILE *err)
{
	struct merge_args ma = { NULL, NULL, 0, out, err };
	const char **inputs, *output;
	struct kp_profile acc;
	char why[1024];
	int i, n, rc = REP_EXIT_OK;

	ma.inputs = calloc((size_t)argc, sizeof *ma.inputs);
	if (!ma.inputs) {
		fputs("kpath merge: out of memory\n", err);
		return REP_EXIT_FAIL;
	}
	rc = kp_opt_parse(argc, argv, merge_opts, merge_item, &ma);
	inputs = ma.inputs;
	output = ma.output;
	n = ma.n;
	if (rc) {
		free(inputs);
		return rc < 0 ? REP_EXIT_OK : rc;
	}
	if (!output || n == 0) {
		free(inputs);
		return merge_usage_error(err, !output ? "no output (-o OUT.json)"
		                                      : "no input profile",
		                         NULL);
	}
	kp_profile_init(&acc, KP_KMAX);
	for (i = 0; i < n && rc == REP_EXIT_OK; i++) {
		struct kp_profile p;

		why[0] = '\0';
		if (kp_profile_read(inputs[i], &p, why, sizeof why) != 0) {
			fprintf(err, "kpath merge: %s\n",
			        why[0] ? kp_term(why) : "cannot read a profile");
			rc = REP_EXIT_FAIL;
		} else {
			if (i && p.k != acc.k)
				fprintf(err,
				        "kpath merge: note: %s has k %u, the profiles "
				        "before it k %u: merging at k %u\n",
				        inputs[i], p.k, acc.k,
				        p.k < acc.k ? p.k : acc.k);
			struct kp_match *m;
			size_t nm;
			if (kp_profile_join(&acc, &p, &m, &nm) != 0) {
				fputs("kpath merge: out of memory\n", err);
				rc = REP_EXIT_FAIL;
				kp_profile_free(&p);
				break;
			}
			if (!modes_agree(err, &acc, &p, inputs[i], m, nm)) {
				rc = REP_EXIT_FAIL;
				free(m);
				kp_profile_free(&p);
				break;
			}
			report_conflicts(err, &acc, &p, inputs[i], m, nm);
			free(m);
			if (kp_profile_merge_into(&acc, &p, why, sizeof why) != 0) {
				fprintf(err, "kpath merge: %s\n", kp_term(why));
				rc = REP_EXIT_FAIL;
			}
		}
		kp_profile_free(&p);
	}
	/* Every input passed the reader's checks, and sums saturate, so the
	 * result keeps the invariants; checked anyway, since an invalid
	 * profile must never be written. */
	if (rc == REP_EXIT_OK && kp_profile_check(&acc, why, sizeof why) != 0) {
		fprintf(err, "kpath merge: the merged profile would be invalid (%s); "
		        "%s not written\n", kp_term(why), output);
		rc = REP_EXIT_FAIL;
	}
	if (rc == REP_EXIT_OK &&
	    kp_profile_write_atomic(output, &acc, why, sizeof why) != 0) {
		fprintf(err, "kpath merge: %s\n", kp_term(why));
		rc = REP_EXIT_FAIL;
	}
	kp_profile_free(&acc);
	free(inputs);
	return rc;
}

int kp_merge_main(int argc, char **argv)
{
	return kp_merge_run(argc, argv, stdout, stderr);
}
