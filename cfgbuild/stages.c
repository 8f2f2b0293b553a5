/*
 * stages.c: running, dumping and checking the stages of stages.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stages.h"

/* Paths the numbering checker enumerates at most per function in debug
 * builds (its per-block invariant is checked whatever the count). */
#define CHECK_PATHS 4096

static const char *const stage_names[] = {"backedges", "dag", "numbering", "placement"};

bool stage_by_name(const char *name, enum stage *s)
{
	size_t i;

	for (i = 0; i < sizeof stage_names / sizeof stage_names[0]; i++)
		if (!strcmp(name, stage_names[i])) {
			*s = (enum stage)i;
			return true;
		}
	return false;
}

/* x is a DFS ancestor of y (or y itself). */
static bool ancestor(const struct bl_dag *d, uint32_t x, uint32_t y)
{
	return d->dfs_pre[x] <= d->dfs_pre[y] && d->dfs_post[y] <= d->dfs_post[x];
}

/* Roles against the DFS orders: dead edges leave unreached blocks; a back
 * edge enters an ancestor of its source (a retreating edge); every other
 * edge of a reached block leaves it for a block finished before it (so the
 * DAG is acyclic); cuts at this stage are the forced ones only. */
bool check_backedges(const struct cfg *g, const struct bl_dag *d, char *err, size_t errlen)
{
	uint32_t i;

	if (d->dfs_pre[CFG_ENTRY] != 0) {
		snprintf(err, errlen, "backedges: the DFS does not start at ENTRY");
		return false;
	}
	for (i = 0; i < g->nedges; i++) {
		const struct cfg_edge *e = &g->edges[i];
		bool reached = d->dfs_pre[e->src] != CFG_NONE, ok;

		switch (d->role[i]) {
		case ROLE_DEAD:
			ok = !reached;
			break;
		case ROLE_BACK:
			ok = reached && ancestor(d, e->dst, e->src);
			break;
		case ROLE_CUT:
		case ROLE_FORWARD:
			ok = reached && d->dfs_pre[e->dst] != CFG_NONE && d->dfs_post[e->dst] < d->dfs_post[e->src] &&
			     (d->role[i] == ROLE_FORWARD || e->force_cut || d->nedges);
			break;
		default:
			ok = false;
		}
		if (!ok) {
			snprintf(err, errlen, "backedges: edge %u (block %u -> %u) has role %s against the DFS orders", i,
			         e->src, e->dst, bl_role_name(d->role[i]));
			return false;
		}
	}
	return true;
}

/* The code of one place: what it does to the register r (updated after
 * the end is reported). */
static bool code_is(const struct bl_code *c, bool ends, bool end_rel, uint64_t end, enum bl_update upd,
                    uint64_t val)
{
	if (c->ends != ends || (ends && (c->end_rel != end_rel || c->end != end)))
		return false;
	return c->upd == upd && (upd == BL_UPD_NONE || c->val == val);
}

/* The code an edge u->v of the DAG needs, given r = prefix + pot_in(v) on
 * entering v (placement.h); into EXIT it reports prefix + val. */
static bool edge_ok(const struct bl_placement *p, uint32_t u, uint32_t v, uint64_t val, bool must_set,
                    const struct bl_code *c)
{
	uint64_t inc = val + p->pot_in[v] - p->pot[u];

	if (v == CFG_EXIT)
		return p->known[u] ? code_is(c, true, false, p->prefix[u] + val, BL_UPD_NONE, 0)
		                   : code_is(c, true, true, val - p->pot[u], BL_UPD_NONE, 0);
	if (c->ends)
		return false;
	if (c->upd == BL_UPD_SET)
		return p->known[u] && c->val == p->prefix[u] + val + p->pot_in[v];
	if (must_set)
		return false;
	return c->upd == BL_UPD_ADD ? c->val == inc : inc == 0;
}

/* Known prefixes: every DAG edge into a block whose prefix is known comes
 * from a block with a known prefix and adds up to it. */
static bool prefixes_ok(const struct bl_dag *d, const struct bl_placement *p, char *err, size_t errlen)
{
	uint32_t i;

	if (!p->known[CFG_ENTRY] || p->prefix[CFG_ENTRY] != 0) {
		snprintf(err, errlen, "placement: ENTRY's prefix is not 0");
		return false;
	}
	for (i = 0; i < d->nedges; i++) {
		const struct bl_edge *b = &d->edges[i];

		if (p->known[b->dst] && (!p->known[b->src] || p->prefix[b->src] + b->val != p->prefix[b->dst])) {
			snprintf(err, errlen, "placement: block %u has a known prefix that DAG edge %u does not give", b->dst, i);
			return false;
		}
	}
	return true;
}

/* The register invariant edge by edge: with r = prefix + pot(v) at every
 * block (prefix + pot_in(v) before a start site), every path's code
 * telescopes to its ID, so checking each edge's and each start site's code
 * locally proves the placement for every path.  Back and cut edges report
 * the path through their dummy v->EXIT and restart with the dummy
 * ENTRY->w's value. */
bool check_placement(const struct cfg *g, const struct bl_dag *d, const struct bl_placement *p, char *err,
                     size_t errlen)
{
	uint32_t e, b;
	struct bl_code c;

	if (!prefixes_ok(d, p, err, errlen))
		return false;
	for (e = 0; e < g->nedges; e++) {
		uint32_t u = g->edges[e].src, v = g->edges[e].dst;
		bool has = bl_code_edge(p, g, d, e, &c), ok = true;

		if (!has)
			continue;
		if (d->role[e] == ROLE_BACK || d->role[e] == ROLE_CUT) {
			uint32_t x = d->dummy_exit[u], n = d->dummy_entry[v];
			struct bl_code end = c;

			end.upd = BL_UPD_NONE;
			ok = x != CFG_NONE && n != CFG_NONE && edge_ok(p, u, CFG_EXIT, d->edges[x].val, false, &end) &&
			     c.upd == BL_UPD_SET && c.val == d->edges[n].val + p->pot_in[v];
		} else if (d->role[e] == ROLE_FORWARD && p->dag_edge[e] != CFG_NONE) {
			bool must_set = u == CFG_ENTRY || (p->restart && p->restart[u]);

			ok = edge_ok(p, u, v, d->edges[p->dag_edge[e]].val, must_set, &c);
		}
		if (!ok) {
			snprintf(err, errlen, "placement: edge %u (block %u -> %u) breaks the register invariant", e, u, v);
			return false;
		}
	}
	for (b = 0; b < g->nblocks; b++) {
		uint64_t inc = p->pot[b] - p->pot_in[b];
		bool ok;

		bl_code_start(p, b, &c);
		if (c.ends)
			ok = false;
		else if (c.upd == BL_UPD_SET)
			ok = p->known[b] && c.val == p->prefix[b] + p->pot[b];
		else
			ok = c.upd == BL_UPD_ADD ? c.val == inc : inc == 0;
		if (!ok) {
			snprintf(err, errlen, "placement: the start site of block %u breaks the register invariant", b);
			return false;
		}
	}
	return true;
}

#ifdef NDEBUG
#define CHECKED(x) true
#else
#define CHECKED(x) (x)
#endif

/* A checker's failure in a debug build is a bug in the stage: abort. */
static void checked(bool ok, const char *err)
{
	if (!ok) {
		fprintf(stderr, "kpath: stage checker: %s\n", err);
		abort();
	}
}

bool stages_run(const struct cfg *g, const struct num_ops *num, const struct bl_place_in *in, enum stage last,
                struct fn_stages *st, char *err, size_t errlen)
{
	char why[256] = "";

	memset(st, 0, sizeof *st);
	st->num = num;
	st->dag = bl_backedges(g, err, errlen);
	if (!st->dag)
		return false;
	checked(CHECKED(check_backedges(g, st->dag, why, sizeof why)), why);
	if (last == STAGE_BACKEDGES)
		return true;
	if (!num->number(g, st->dag, err, errlen))
		return false;
	checked(CHECKED(check_backedges(g, st->dag, why, sizeof why) && num->check(st->dag, CHECK_PATHS, why, sizeof why)),
	        why);
	if (last <= STAGE_NUMBERING)
		return true;
	st->place = bl_place(g, st->dag, in, err, errlen);
	if (!st->place)
		return false;
	checked(CHECKED(check_placement(g, st->dag, st->place, why, sizeof why)), why);
	return true;
}

void stages_free(struct fn_stages *st)
{
	bl_placement_free(st->place);
	bl_free(st->dag);
	memset(st, 0, sizeof *st);
}

static void dump_backedges(FILE *out, const struct cfg *g, const struct bl_dag *d)
{
	uint32_t i;

	fprintf(out, "blocks %u\n", g->nblocks);
	for (i = 0; i < g->nblocks; i++) {
		fputs("  ", out);
		bl_dump_block(out, i);
		if (d->dfs_pre[i] == CFG_NONE)
			fprintf(out, " line %u unreached\n", g->blocks[i].line);
		else
			fprintf(out, " line %u dfs %u post %u\n", g->blocks[i].line, d->dfs_pre[i], d->dfs_post[i]);
	}
	fprintf(out, "cfg edges %u\n", g->nedges);
	for (i = 0; i < g->nedges; i++) {
		bl_dump_cfg_edge(out, g, i);
		fprintf(out, " %s\n", bl_role_name(d->role[i]));
	}
}

static void dump_dag(FILE *out, const struct bl_dag *d)
{
	uint32_t i;

	fprintf(out, "dag edges %u (%u cut)\n", d->nedges, d->ncut);
	for (i = 0; i < d->nedges; i++) {
		bl_dump_dag_edge(out, &d->edges[i]);
		fputc('\n', out);
	}
}

/* A relative amount mod 2^64 as the signed one it stands for. */
static void dump_rel(FILE *out, const char *plus, const char *minus, uint64_t v)
{
	if (v > INT64_MAX)
		fprintf(out, "%s%" PRIu64, minus, -v);
	else
		fprintf(out, "%s%" PRIu64, plus, v);
}

static void dump_code(FILE *out, const struct bl_code *c)
{
	if (c->ends && c->end_rel)
		dump_rel(out, " end r+", " end r-", c->end);
	else if (c->ends)
		fprintf(out, " end %" PRIu64, c->end);
	if (c->upd == BL_UPD_ADD)
		dump_rel(out, " r+=", " r-=", c->val);
	else if (c->upd == BL_UPD_SET)
		fprintf(out, " r=%" PRIu64, c->val);
}

static void dump_placement(FILE *out, const struct cfg *g, const struct bl_dag *d, const struct bl_placement *p)
{
	uint32_t i;
	struct bl_code c;

	fprintf(out, "blocks %u\n", g->nblocks);
	for (i = 0; i < g->nblocks; i++) {
		fputs("  ", out);
		bl_dump_block(out, i);
		fprintf(out, " depth %u", p->depth[i]);
		dump_rel(out, " pot ", " pot -", p->pot[i]);
		if (p->pot_in[i] != p->pot[i])
			dump_rel(out, " pot_in ", " pot_in -", p->pot_in[i]);
		if (p->known[i])
			fprintf(out, " prefix %" PRIu64, p->prefix[i]);
		bl_code_start(p, i, &c);
		if (c.upd != BL_UPD_NONE) {
			fputs(" start", out);
			dump_code(out, &c);
		}
		fputc('\n', out);
	}
	fprintf(out, "cfg edges %u\n", g->nedges);
	for (i = 0; i < g->nedges; i++) {
		bl_dump_cfg_edge(out, g, i);
		fprintf(out, " weight %u%s", p->weight[i], p->in_tree[i] ? " tree" : "");
		if (bl_code_edge(p, g, d, i, &c))
			dump_code(out, &c);
		else
			fputs(" none", out);
		fputc('\n', out);
	}
}

void stage_dump(FILE *out, enum stage s, const struct cfg *g, const struct fn_stages *st)
{
	fprintf(out, "stage %s\n", stage_names[s]);
	switch (s) {
	case STAGE_BACKEDGES:
		dump_backedges(out, g, st->dag);
		break;
	case STAGE_DAG:
		dump_dag(out, st->dag);
		break;
	case STAGE_NUMBERING:
		st->num->dump(out, g, st->dag);
		break;
	case STAGE_PLACEMENT:
		dump_placement(out, g, st->dag, st->place);
		break;
	}
}
