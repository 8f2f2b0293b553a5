/*
 * rep_load.c: reads a profile with profile/profile.h and flattens it into
 * the report's model.  The only file of report/ that knows profile.h.
 *
 * A kp_ipf is a node array whose nodes[0] is the dummy root phi of the k-BLPP
 * paper's make_k_ipf; its children are the forest's trees.  The walk below
 * is a depth-first search with an explicit stack of at most KP_KMAX nodes
 * (profile.h: depth never exceeds k <= KP_KMAX), so a malformed forest
 * (links out of range, cycles, depth > k) is reported, never followed
 * forever: every link is range-checked and the walk visits at most n - 1
 * nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "rep.h"

/* Flattens f's k-IPF into rf.  Returns 0, -1 on allocation failure, -2 on
 * a malformed forest. */
static int flatten_ipf(struct rep_func *rf, const struct kp_ipf *ipf,
                       unsigned k)
{
	uint32_t stack[KP_KMAX + 1]; /* stack[d]: current node at depth d */
	uint64_t ids[KP_KMAX];
	uint32_t depth, visited = 0, c;

	if (ipf->n == 0 || !ipf->nodes)
		return 0;
	if (k > KP_KMAX)
		return -2;
	stack[0] = 0;
	depth = 0;
	c = ipf->nodes[0].first_child;
	/* Invariant: stack[0..depth] is the path from phi to the parent of c
	 * (c == KP_NONE when that parent has no more children to visit). */
	for (;;) {
		if (c == KP_NONE) {
			if (depth == 0)
				return 0;
			c = ipf->nodes[stack[depth--]].next_sibling;
			continue;
		}
		if (c >= ipf->n || ++visited >= ipf->n || depth >= k)
			return -2;
		ids[depth] = ipf->nodes[c].id;
		if (rep_func_add_seq(rf, ids, depth + 1, ipf->nodes[c].count,
		                     ipf->nodes[c].first_child != KP_NONE) < 0)
			return -1;
		stack[++depth] = c;
		c = ipf->nodes[c].first_child;
	}
}

/* Copies the static graph (the reader has checked its rules). */
static int load_cfg(struct rep_cfg *rc, const struct kp_cfg *c)
{
	uint32_t e, nb = c->nblocks, ne = c->nedges;

	if (nb == 0)
		return 0;
	rc->line = malloc(nb * sizeof *rc->line);
	rc->last_line = malloc(nb * sizeof *rc->last_line);
	rc->edges = malloc((ne ? ne : 1) * sizeof *rc->edges);
	if (!rc->line || !rc->last_line || !rc->edges)
		return -1; /* rep_func_free frees what was allocated */
	memcpy(rc->line, c->line, nb * sizeof *rc->line);
	memcpy(rc->last_line, c->last_line, nb * sizeof *rc->last_line);
	for (e = 0; e < ne; e++)
		rc->edges[e] = (struct rep_cfg_edge){ c->edges[e].src, c->edges[e].dst, c->edges[e].val };
	rc->nblocks = nb;
	rc->nedges = ne;
	return 0;
}

static int load_func(struct rep_func *rf, const struct kp_func *f,
                     unsigned k)
{
	uint32_t i;
	int r;

	if (rep_func_init(rf, f->name, f->file, f->line, f->num_paths,
	                  f->invalid_paths) < 0)
		return -1;
	snprintf(rf->checksum, sizeof rf->checksum, "%s", f->checksum);
	memcpy(rf->source_hash, f->source_hash, sizeof rf->source_hash);
	rf->kiter_k = kp_kiter_k(f->kiter);
	if ((rf->ppp = f->ppp != NULL)) {
		kp_ppp_info(f->ppp, &rf->ppp_interesting, &rf->ppp_interval);
		for (uint32_t c = f->ipf.n ? f->ipf.nodes[0].first_child : KP_NONE; c != KP_NONE;
		     c = f->ipf.nodes[c].next_sibling)
			if (f->ipf.nodes[c].count && !kp_ppp_lookup(f->ppp, f->ipf.nodes[c].id, NULL)) {
				rf->ppp_residual++;
				rf->ppp_residual_flow += f->ipf.nodes[c].count;
			}
	}
	if ((r = flatten_ipf(rf, &f->ipf, k)) < 0)
		return r;
	if (load_cfg(&rf->cfg, &f->cfg) < 0)
		return -1;
	for (i = 0; i < f->npaths; i++) {
		if (rep_func_add_decode(rf, f->paths[i].id, f->paths[i].lines,
		                        f->paths[i].last_lines, f->paths[i].nlines) < 0)
			return -1;
		rf->decode[rf->ndecode - 1].at = f->paths[i].json_index;
	}
	return 0;
}

int rep_from_profile(const struct kp_profile *p, struct rep_report *r, char *why, size_t whylen)
{
	size_t i;
	int rc = 0;

	memset(r, 0, sizeof *r);
	r->schema = p->version == 1 ? KP_SCHEMA_V1 : KP_SCHEMA; /* the file's */
	r->k = p->k;
	r->runs = p->runs;
	r->dropped = p->dropped;
	if (p->nfuncs) {
		r->funcs = calloc(p->nfuncs, sizeof *r->funcs);
		if (!r->funcs)
			rc = -1;
	}
	for (i = 0; rc == 0 && i < p->nfuncs; i++) {
		rc = load_func(&r->funcs[i], &p->funcs[i], p->k);
		r->funcs[i].at = i;
		r->nfuncs = i + 1; /* so that rep_report_free frees it */
		if (rc == -2)
			snprintf(why, whylen, "functions[%zu].kipf: malformed forest", i);
	}
	if (rc == -1)
		snprintf(why, whylen, "out of memory");
	if (rc) {
		rep_report_free(r);
		return -1;
	}
	return 0;
}

int rep_load(const char *path, int force, struct rep_report *r, char *why, size_t whylen)
{
	struct kp_profile p;
	char err[512];
	size_t plen = strlen(path);
	int rc = 0, read;
	const char *reason = err;

	memset(r, 0, sizeof *r);
	err[0] = '\0';
	read = kp_profile_read_opts(path, &p, force, err, sizeof err);
	/* profile.h's messages read "PATH: reason"; keep the reason. */
	if (strncmp(err, path, plen) == 0 && err[plen] == ':')
		reason = err + plen + 1 + (err[plen + 1] == ' ');
	if (read != 0)
		snprintf(why, whylen, "%s", *reason ? reason : "cannot read");
	if (read < 0) {
		kp_profile_free(&p);
		return -1;
	}
	rc = rep_from_profile(&p, r, why, whylen);
	kp_profile_free(&p);
	if (rc)
		return -1;
	return read == KP_FORCED;
}
