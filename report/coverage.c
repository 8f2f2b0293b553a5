/*
 * coverage.c: coverage from Ball-Larus path counts and the static graph
 * the profile carries ("cfg": block spans and the DAG with its vals).
 *
 * Every executed path ID is decoded into the DAG edges it takes (kpath_rt.h,
 * struct kpath_rt_func: from ENTRY with rest = ID, at each block the
 * out-edge with the largest val <= rest, until EXIT; Ball & Larus 1996,
 * section 3.3).  A path visits a block at most once, so a block ran
 * sum(count of the executed paths through it) times, and a DAG edge was
 * taken as often: coverage is exact, not sampled.
 *
 * Branches are counted on the DAG (docs/coverage.md): a block's CFG
 * out-edges are its forward DAG edges plus its back or cut edges, and the
 * DAG replaces the back or cut edges of a block v by the one dummy edge
 * v->EXIT, which a path takes exactly when it ends by one of them.  The CFG
 * builder gives a block at most one such edge (a branch whose two arms both
 * jump backwards gets a block per arm, cfgbuild/stmt.c), and a block that
 * returns has no other out-edge, so a block's DAG out-degree is its CFG
 * out-degree and each DAG edge out of a branching block is one branch.
 * ENTRY's out-edges (the function entry and the dummy edges to loop
 * headers) are not branches.
 *
 * Invariants: every file's lines are sorted and unique; the counts of a
 * file are recomputed from its tables (count_file), never kept apart.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coverage.h"
#include "array.h"
#include "rep.h"

/* Upper bound on counted (line, block) pairs: a profile is untrusted, and a
 * span [1, 4000000000] must not make us allocate without bound. */
#define COV_MAX_LINE_ROWS ((size_t)1 << 24)
/* ... nor may one block: a block's span holds no line of a nested block,
 * so a real one is a few statements long. */
#define COV_MAX_BLOCK_LINES ((uint32_t)1 << 16)

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The functions of all profiles, grouped by (file, name, checksum). */
struct member {
	const struct rep_func *f;
	size_t profile;
};

static int cmp_member(const void *a, const void *b)
{
	const struct rep_func *x = ((const struct member *)a)->f, *y = ((const struct member *)b)->f;
	int c = strcmp(x->file, y->file);

	if (!c)
		c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->checksum, y->checksum);
	return c;
}

/* Per file, while building. */
struct building {
	struct cov_line *lines;
	size_t nlines, caplines;
	struct cov_branch *br;
	size_t nbr, capbr;
	struct cov_fn *fns;
	size_t nfns, capfns;
};

/* One function group: the decoding state over its DAG. */
struct fn_state {
	const struct rep_cfg *g;
	uint32_t *first;     /* per block: index of its first out-edge; first[nblocks] = nedges */
	uint64_t *block_run; /* per block: executions */
	uint64_t *edge_run;  /* per DAG edge: times taken */
	uint32_t entry_block; /* ENTRY's successor that is the function's entry */
};

static void fn_state_free(struct fn_state *s)
{
	free(s->first);
	free(s->block_run);
	free(s->edge_run);
}

static int fn_state_init(struct fn_state *s, const struct rep_cfg *g)
{
	uint32_t v, e;

	memset(s, 0, sizeof *s);
	s->g = g;
	s->first = calloc((size_t)g->nblocks + 1, sizeof *s->first);
	s->block_run = calloc(g->nblocks, sizeof *s->block_run);
	s->edge_run = calloc(g->nedges ? g->nedges : 1, sizeof *s->edge_run);
	if (!s->first || !s->block_run || !s->edge_run)
		return -1;
	/* edges are grouped by increasing src (checked by the reader) */
	for (v = 0, e = 0; v <= g->nblocks; v++) {
		while (e < g->nedges && g->edges[e].src < v)
			e++;
		s->first[v] = e;
	}
	/* The function's own entry: ENTRY's successor with the smallest id.
	 * The builder creates it before any loop header or label a dummy
	 * ENTRY edge can lead to (cfgbuild/build.c, cfg_build). */
	s->entry_block = UINT32_MAX;
	for (e = s->first[0]; e < s->first[1]; e++)
		if (g->edges[e].dst < s->entry_block)
			s->entry_block = g->edges[e].dst;
	return 0;
}

/* Walks path id (count times): 0, or -1 when it does not decode. */
static int decode_path(struct fn_state *s, uint64_t id, uint64_t count, int *from_entry)
{
	const struct rep_cfg *g = s->g;
	uint64_t rest = id;
	uint32_t v = 0, steps = 0, e, pick;

	*from_entry = 0;
	s->block_run[0] = add_sat(s->block_run[0], count);
	while (v != 1) {
		/* a DAG path visits each block once: more steps is a cycle */
		if (++steps > g->nblocks || s->first[v] == s->first[v + 1])
			return -1;
		pick = UINT32_MAX;
		for (e = s->first[v]; e < s->first[v + 1] && g->edges[e].val <= rest; e++)
			pick = e;
		if (pick == UINT32_MAX)
			return -1;
		if (v == 0)
			*from_entry = g->edges[pick].dst == s->entry_block;
		rest -= g->edges[pick].val;
		s->edge_run[pick] = add_sat(s->edge_run[pick], count);
		v = g->edges[pick].dst;
		s->block_run[v] = add_sat(s->block_run[v], count);
	}
	return rest == 0 ? 0 : -1;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Adds the function group m[0..n) to file b. */
static int add_group(struct building *b, const struct member *m, size_t n, size_t *rows, char *why,
                     size_t whylen)
{
	const struct rep_func *f0 = m[0].f;
	const struct rep_cfg *g = NULL;
	struct fn_state s;
	struct cov_fn fn = { .name = f0->name, .line = f0->line, .num_paths = f0->num_paths };
	uint64_t *ids = NULL;
	size_t nids = 0, i, j, k;
	int rc = -1, from_entry;

	for (i = 0; i < n && !g; i++)
		if (m[i].f->cfg.nblocks)
			g = &m[i].f->cfg;
	for (i = 0; i < n; i++)
		nids += m[i].f->nsingle;
	ids = malloc((nids ? nids : 1) * sizeof *ids);
	if (!ids)
		return snprintf(why, whylen, "out of memory"), -1;
	for (i = 0, k = 0; i < n; i++)
		for (j = 0; j < m[i].f->nsingle; j++) {
			ids[k++] = m[i].f->single[j].ids[0];
			fn.flow = add_sat(fn.flow, m[i].f->single[j].count);
		}
	if (nids > 1)
		qsort(ids, nids, sizeof *ids, cmp_u64);
	for (i = 0; i < nids; i++)
		fn.paths_run += i == 0 || ids[i] != ids[i - 1];
	free(ids);
	if (!g) {
		/* without the graph: a function that completed a path was entered */
		fn.entries = fn.flow;
		goto add_fn;
	}
	fn.has_cfg = 1;
	if (fn_state_init(&s, g) < 0) {
		fn_state_free(&s);
		return snprintf(why, whylen, "out of memory"), -1;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < m[i].f->nsingle; j++) {
			const struct rep_seq *q = &m[i].f->single[j];
			if (m[i].f->cfg.nblocks && (m[i].f->cfg.nblocks != g->nblocks ||
			                            m[i].f->cfg.nedges != g->nedges)) {
				snprintf(why, whylen, "functions[%zu].cfg (%s): differs from another profile's "
				         "under the same checksum", m[i].f->at, m[i].f->name);
				goto out;
			}
			if (decode_path(&s, q->ids[0], q->count, &from_entry) < 0) {
				snprintf(why, whylen, "functions[%zu].kipf (%s): path %llu does not decode "
				         "in the function's cfg", m[i].f->at, m[i].f->name,
				         (unsigned long long)q->ids[0]);
				goto out;
			}
			if (from_entry)
				fn.entries = add_sat(fn.entries, q->count);
		}
	/* lines: every line of every real block's span */
	for (uint32_t v = 2; v < g->nblocks; v++) {
		if (!g->line[v])
			continue;
		if (g->last_line[v] - g->line[v] >= COV_MAX_BLOCK_LINES) {
			snprintf(why, whylen, "functions[%zu].cfg.blocks[%u] (%s): a span of more than %u lines",
			         f0->at, v, f0->name, (unsigned)COV_MAX_BLOCK_LINES);
			goto out;
		}
		if ((size_t)(g->last_line[v] - g->line[v]) + 1 > COV_MAX_LINE_ROWS - *rows) {
			snprintf(why, whylen, "functions[%zu].cfg.blocks[%u] (%s): spans more lines than "
			         "kpath counts (%zu in all)", f0->at, v, f0->name, COV_MAX_LINE_ROWS);
			goto out;
		}
		for (uint32_t l = g->line[v];; l++) {
			*KP_PUSH(b->lines, b->nlines, b->caplines) = (struct cov_line){ l, s.block_run[v] };
			++*rows;
			if (l == g->last_line[v])
				break;
		}
	}
	/* branches: the out-edges of blocks with two or more (not ENTRY's) */
	for (uint32_t v = 2; v < g->nblocks; v++) {
		uint32_t deg = s.first[v + 1] - s.first[v];
		if (deg < 2)
			continue;
		for (uint32_t e = s.first[v]; e < s.first[v + 1]; e++) {
			*KP_PUSH(b->br, b->nbr, b->capbr) = (struct cov_branch){
				.line = g->last_line[v] ? g->last_line[v] : f0->line,
				.block = v,
				.index = e - s.first[v],
				.count = s.edge_run[e],
				.fn = (uint32_t)b->nfns,
			};
		}
	}
	rc = 0;
add_fn:
	*KP_PUSH(b->fns, b->nfns, b->capfns) = fn;
	rc = 0;
out:
	if (fn.has_cfg)
		fn_state_free(&s);
	return rc;
}

static int cmp_line(const void *a, const void *b)
{
	const struct cov_line *x = a, *y = b;
	return x->line < y->line ? -1 : x->line > y->line;
}

static int cmp_branch(const void *a, const void *b)
{
	const struct cov_branch *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	if (x->block != y->block)
		return x->block < y->block ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static void count_file(struct cov_file *f)
{
	size_t i;

	memset(&f->line, 0, 4 * sizeof f->line);
	for (i = 0; i < f->nlines; i++)
		f->line.covered += f->lines[i].count > 0;
	f->line.total = f->nlines;
	for (i = 0; i < f->nbranches; i++)
		f->branch.covered += f->branches[i].count > 0;
	f->branch.total = f->nbranches;
	for (i = 0; i < f->nfns; i++) {
		f->func.covered += f->fns[i].flow > 0 || f->fns[i].entries > 0;
		f->path.covered = add_sat(f->path.covered, f->fns[i].paths_run);
		f->path.total = add_sat(f->path.total, f->fns[i].num_paths);
	}
	f->func.total = f->nfns;
}

/* Sorts the lines and keeps one row per line, with the largest count. */
static void unique_lines(struct cov_file *f)
{
	size_t i, n = 0;

	if (f->nlines > 1) /* lines is NULL when empty */
		qsort(f->lines, f->nlines, sizeof *f->lines, cmp_line);
	for (i = 0; i < f->nlines; i++) {
		if (n && f->lines[n - 1].line == f->lines[i].line) {
			if (f->lines[i].count > f->lines[n - 1].count)
				f->lines[n - 1].count = f->lines[i].count;
		} else {
			f->lines[n++] = f->lines[i];
		}
	}
	f->nlines = n;
}

static int finish_file(struct cov_report *c, const char *name, const char *hash, struct building *b)
{
	struct cov_file *f;
	struct cov_file *nf = realloc(c->files, (c->nfiles + 1) * sizeof *nf);

	if (!nf)
		return -1;
	c->files = nf;
	f = &c->files[c->nfiles++];
	memset(f, 0, sizeof *f);
	f->file = name;
	f->source_hash = hash;
	f->lines = b->lines;
	f->nlines = b->nlines;
	f->branches = b->br;
	f->nbranches = b->nbr;
	f->fns = b->fns;
	f->nfns = b->nfns;
	memset(b, 0, sizeof *b);
	unique_lines(f);
	if (f->nbranches > 1)
		qsort(f->branches, f->nbranches, sizeof *f->branches, cmp_branch);
	count_file(f);
	return 0;
}

int cov_build(struct cov_report *c, const struct rep_report *const *reps, const char *const *names, size_t n,
              char *why, size_t whylen)
{
	struct member *m;
	struct building b = { 0 };
	size_t nm = 0, i, j, g, rows = 0;
	int rc = 0;

	memset(c, 0, sizeof *c);
	for (i = 0; i < n; i++)
		nm += reps[i]->nfuncs;
	m = malloc((nm ? nm : 1) * sizeof *m);
	if (!m)
		return snprintf(why, whylen, "out of memory"), -1;
	for (i = 0, nm = 0; i < n; i++)
		for (j = 0; j < reps[i]->nfuncs; j++)
			m[nm++] = (struct member){ &reps[i]->funcs[j], i };
	if (nm > 1)
		qsort(m, nm, sizeof *m, cmp_member);
	const char *hash = "";
	for (i = 0; i < nm && rc == 0; i = g) {
		char sub[400];
		if (!*hash)
			hash = m[i].f->source_hash;
		for (g = i + 1; g < nm && !cmp_member(&m[i], &m[g]); g++)
			;
		rc = add_group(&b, m + i, g - i, &rows, sub, sizeof sub);
		if (rc)
			snprintf(why, whylen, "%s: %s", names[m[i].profile], sub);
		if (rc == 0 && !m[i].f->cfg.nblocks) {
			size_t k;
			for (k = i; k < g && !m[k].f->cfg.nblocks; k++)
				;
			c->nocfg += k == g;
		}
		if (rc == 0 && g < nm && !strcmp(m[g].f->file, m[i].f->file) &&
		    !strcmp(m[g].f->name, m[i].f->name))
			c->twice++;
		if (rc == 0 && (g == nm || strcmp(m[g].f->file, m[i].f->file)) &&
		    finish_file(c, m[i].f->file, hash, &b) < 0) {
			snprintf(why, whylen, "out of memory");
			rc = -1;
		}
		if (g == nm || strcmp(m[g].f->file, m[i].f->file))
			hash = "";
	}
	free(b.lines);
	free(b.br);
	free(b.fns);
	free(m);
	if (rc) {
		cov_free(c);
		return -1;
	}
	cov_total(c);
	return 0;
}

void cov_filter_lines(struct cov_file *f, int (*keep)(uint32_t line, void *ctx), void *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < f->nlines; i++)
		if (keep(f->lines[i].line, ctx))
			f->lines[n++] = f->lines[i];
	f->nlines = n;
	count_file(f);
}

void cov_total(struct cov_report *c)
{
	size_t i;
	struct cov_counts *t[4] = { &c->line, &c->branch, &c->func, &c->path };

	memset(t[0], 0, sizeof *t[0]);
	memset(t[1], 0, sizeof *t[1]);
	memset(t[2], 0, sizeof *t[2]);
	memset(t[3], 0, sizeof *t[3]);
	for (i = 0; i < c->nfiles; i++) {
		const struct cov_counts *s[4] = { &c->files[i].line, &c->files[i].branch, &c->files[i].func,
		                                  &c->files[i].path };
		for (int k = 0; k < 4; k++) {
			t[k]->covered = add_sat(t[k]->covered, s[k]->covered);
			t[k]->total = add_sat(t[k]->total, s[k]->total);
		}
	}
}

double cov_percent(struct cov_counts k)
{
	return k.total ? 100.0 * (double)k.covered / (double)k.total : -1.0;
}

void cov_frac(char *buf, size_t n, struct cov_counts k, const char *sep)
{
	if (k.total == UINT64_MAX)
		snprintf(buf, n, "%" PRIu64 "%s>= 2^64", k.covered, sep);
	else
		snprintf(buf, n, "%" PRIu64 "%s%" PRIu64, k.covered, sep, k.total);
}

void cov_free(struct cov_report *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		free(c->files[i].lines);
		free(c->files[i].branches);
		free(c->files[i].fns);
	}
	free(c->files);
	memset(c, 0, sizeof *c);
}
