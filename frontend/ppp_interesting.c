/*
 * ppp_interesting.c: the interesting sets of `kpath instrument --mode ppp
 * --interesting PROFILE.json [--interesting-top P]` (docs/ppp.md, "The
 * instrumentation"), and the per-function choice between ppp and plain
 * Ball-Larus mode.
 *
 * The interesting set of a function is the set of Ball-Larus paths PROFILE
 * recorded for it with a count > 0: the level-1 counts of its k-IPF, which
 * are the Ball-Larus counts whatever k the profile has (a k = 1 profile,
 * the first level of a k-IPF, or a ppp profile, whose paths are Ball-Larus
 * IDs too).  The function is matched by name and file (the same string, or
 * the same last component) and must have the same checksum, i.e. the same
 * CFG and Ball-Larus numbering: otherwise its IDs would name other paths,
 * so it is instrumented in plain Ball-Larus mode with a warning naming it.
 * A kiter profile's IDs are not Ball-Larus IDs: its functions are refused
 * the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ppp.h"
#include "ppp_interesting.h"
#include "profile.h"
#include "rewrite.h"

struct kp_interesting {
	char *path;
	struct kp_profile prof;
	double top;         /* --interesting-top P, or < 0 */
	size_t matched;     /* functions of the profile some function matched */
	struct kp_ppp_counts counts;
};

struct kp_interesting *kp_interesting_load(const char *path, double top)
{
	struct kp_interesting *s = calloc(1, sizeof *s);
	char err[1024];
	if (!s || !(s->path = strdup(path))) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	s->top = top;
	kp_profile_init(&s->prof, 1);
	if (kp_profile_read(path, &s->prof, err, sizeof err) != 0) {
		fprintf(stderr, "kpath instrument: error: --interesting: %s; nothing written\n", err);
		kp_interesting_free(s);
		return NULL;
	}
	return s;
}

void kp_interesting_free(struct kp_interesting *s)
{
	if (!s)
		return;
	kp_profile_free(&s->prof);
	free(s->path);
	free(s);
}

const struct kp_ppp_counts *kp_interesting_counts(const struct kp_interesting *s)
{
	return &s->counts;
}

void kp_interesting_reset(struct kp_interesting *s)
{
	if (s) {
		s->matched = 0;
		memset(&s->counts, 0, sizeof s->counts);
	}
}

static bool same_file(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	return !strcmp(a, b) || !strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b);
}

/* The profile's function of that name and file, or NULL. */
static const struct kp_func *find(const struct kp_interesting *s, const char *name, const char *file)
{
	const struct kp_func *hit = NULL;
	for (size_t i = 0; i < s->prof.nfuncs; i++) {
		const struct kp_func *f = &s->prof.funcs[i];
		if (strcmp(f->name, name) || !same_file(f->file, file))
			continue;
		if (!strcmp(f->file, file))
			return f;
		hit = f;
	}
	return hit;
}

/* The interesting Ball-Larus IDs of f (malloc'd, *n of them). */
static uint64_t *interesting_ids(const struct kp_interesting *s, const struct kp_func *f, uint32_t *n)
{
	uint32_t m = 0;
	for (uint32_t c = f->ipf.n ? f->ipf.nodes[0].first_child : KP_NONE; c != KP_NONE; c = f->ipf.nodes[c].next_sibling)
		m++;
	uint64_t *ids = malloc((m + 1) * sizeof *ids), *cnt = malloc((m + 1) * sizeof *cnt);
	uint32_t *keep = malloc((m + 1) * sizeof *keep);
	if (!ids || !cnt || !keep) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	m = 0;
	for (uint32_t c = f->ipf.n ? f->ipf.nodes[0].first_child : KP_NONE; c != KP_NONE; c = f->ipf.nodes[c].next_sibling)
		if (f->ipf.nodes[c].count) {
			ids[m] = f->ipf.nodes[c].id;
			cnt[m++] = f->ipf.nodes[c].count;
		}
	if (s->top >= 0) {
		uint32_t k = ppp_select_top(ids, cnt, m, s->top, keep);
		for (uint32_t i = 0; i < k; i++)
			cnt[i] = ids[keep[i]];
		memcpy(ids, cnt, k * sizeof *ids);
		m = k;
	}
	free(cnt);
	free(keep);
	*n = m;
	return ids;
}

void kp_interesting_function(struct kp_interesting *s, struct rw_file *rw, const struct fn_plan *plan,
                             const struct bl_dag *dag, const struct bl_placement *place, const char *src_path,
                             FILE *msg, bool quiet)
{
	char sum[17], err[256];
	const char *why = NULL;
	snprintf(sum, sizeof sum, "%016llx", (unsigned long long)bl_checksum(plan->g, dag));
	const struct kp_func *f = find(s, plan->name, rw->src_name);
	if (!f) {
		why = "it has no entry in the interesting profile";
	} else if (strcmp(f->checksum, sum)) {
		snprintf(err, sizeof err, "its checksum there is %s, %s here (the code changed since, or the profile is "
		         "not of Ball-Larus paths)", f->checksum, sum);
		why = err;
	} else if (kp_kiter_k(f->kiter)) {
		why = "the interesting profile is a kiter one (its IDs are not Ball-Larus IDs)";
	}
	if (f)
		s->matched++;
	if (!why) {
		uint32_t n;
		uint64_t *ids = interesting_ids(s, f, &n);
		struct rw_ppp_result r;
		why = rw_ppp_function(rw, plan, dag, place, ids, n, &r, err, sizeof err);
		free(ids);
		if (!why) {
			s->counts.ppp++;
			s->counts.interesting += r.interesting;
			if (!quiet)
				fprintf(msg, "%s:%u: note: function '%s': ppp: %u interesting of %llu paths, interval %llu%s\n",
				        src_path, plan->line, plan->name, r.interesting, (unsigned long long)r.num_paths,
				        (unsigned long long)r.interval, r.demoted ? " (some above the slot limit: residual)" : "");
			return;
		}
	}
	fprintf(msg, "%s:%u: warning: function '%s' instrumented in plain Ball-Larus mode, not ppp: %s (%s)\n",
	        src_path, plan->line, plan->name, why, s->path);
	s->counts.plain++;
	rw_function(rw, plan, dag, place);
}

void kp_interesting_finish(const struct kp_interesting *s, const char *in)
{
	if (s->prof.nfuncs && !s->matched && s->counts.plain)
		fprintf(stderr, "kpath instrument: warning: %s: none of its %zu functions is in %s (a profile of another "
		        "program?): every function is instrumented in plain Ball-Larus mode\n", s->path, s->prof.nfuncs,
		        in);
}
