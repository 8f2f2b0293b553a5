/*
 * dag_check.c: reading a numbered DAG: the checker, decoding, checksum and
 * dump.  Everything here relies only on the layout bl_build guarantees:
 * d->edges grouped by src (increasing), each group by val (increasing).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"

/* First index in d->edges whose src is >= v (binary search). */
static uint32_t group_start(const struct bl_dag *d, uint32_t v)
{
	uint32_t lo = 0, hi = d->nedges;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (d->edges[mid].src < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t group_end(const struct bl_dag *d, uint32_t v, uint32_t start)
{
	while (start < d->nedges && d->edges[start].src == v)
		start++;
	return start;
}

/* Ball-Larus invariant of one block's group: vals are the prefix sums of
 * the targets' numPaths, and numPaths(v) is the total.  By induction in
 * reverse topological order this alone makes the IDs a bijection. */
static bool check_group(const struct bl_dag *d, uint32_t v, uint32_t s, uint32_t e, char *err, size_t errlen)
{
	uint64_t sum = 0;
	uint32_t i;

	if (v == CFG_EXIT) {
		if (s != e || d->num_paths[v] != 1) {
			snprintf(err, errlen, "EXIT has out-edges or numPaths != 1");
			return false;
		}
		return true;
	}
	for (i = s; i < e; i++) {
		uint64_t nw = d->edges[i].dst < d->nblocks ? d->num_paths[d->edges[i].dst] : 0;

		if (nw == 0 || d->edges[i].val != sum || sum > UINT64_MAX - nw) {
			snprintf(err, errlen, "block %u: DAG edge %u (to %u) has val %" PRIu64 ", expected %" PRIu64,
				 v, i, d->edges[i].dst, d->edges[i].val, sum);
			return false;
		}
		sum += nw;
	}
	if (sum != d->num_paths[v]) {
		snprintf(err, errlen, "block %u: numPaths %" PRIu64 " but out-edges sum to %" PRIu64, v,
			 d->num_paths[v], sum);
		return false;
	}
	return true;
}

static bool check_local(const struct bl_dag *d, char *err, size_t errlen)
{
	uint32_t v, s = 0;

	for (v = 0; v < d->nblocks; v++) {
		uint32_t e = group_end(d, v, s);

		if (!check_group(d, v, s, e, err, errlen))
			return false;
		s = e;
	}
	if (s != d->nedges) {
		snprintf(err, errlen, "DAG edges not grouped by increasing src");
		return false;
	}
	return true;
}

struct frame {
	uint32_t v, next, end;
	uint64_t id; /* sum of vals from ENTRY to v */
};

/* Marks id in seen; false if out of range or already there. */
static bool mark(unsigned char *seen, uint64_t n, uint64_t id)
{
	if (id >= n || (seen[id / 8] >> (id % 8) & 1))
		return false;
	seen[id / 8] |= (unsigned char)(1u << (id % 8));
	return true;
}

/* Enumerates every ENTRY->EXIT path depth first (iteratively); a DAG path
 * visits each block once, so the stack never exceeds nblocks frames. */
static bool enumerate(const struct bl_dag *d, struct frame *st, unsigned char *seen, char *err, size_t errlen)
{
	uint64_t n = d->num_paths[CFG_ENTRY], count = 0;
	uint32_t sp = 1;

	st[0].v = CFG_ENTRY;
	st[0].next = group_start(d, CFG_ENTRY);
	st[0].end = group_end(d, CFG_ENTRY, st[0].next);
	st[0].id = 0;
	while (sp) {
		struct frame *f = &st[sp - 1];
		const struct bl_edge *e;

		if (f->v == CFG_EXIT || f->next == f->end) {
			if (f->v == CFG_EXIT && (!mark(seen, n, f->id) || ++count > n)) {
				snprintf(err, errlen, "path ID %" PRIu64 " out of range or not unique", f->id);
				return false;
			}
			sp--;
			continue;
		}
		e = &d->edges[f->next++];
		if (sp >= d->nblocks) {
			snprintf(err, errlen, "DAG has a cycle through block %u", e->dst);
			return false;
		}
		st[sp].v = e->dst;
		st[sp].next = group_start(d, e->dst);
		st[sp].end = group_end(d, e->dst, st[sp].next);
		st[sp].id = f->id + e->val;
		sp++;
	}
	if (count != n) {
		snprintf(err, errlen, "%" PRIu64 " paths enumerated, numPaths(ENTRY) is %" PRIu64, count, n);
		return false;
	}
	return true;
}

bool bl_check(const struct bl_dag *d, uint64_t limit, char *err, size_t errlen)
{
	uint64_t n = d->num_paths[CFG_ENTRY];
	struct frame *st;
	unsigned char *seen;
	bool ok;
	char dummy[1];

	if (!err || !errlen) {
		err = dummy;
		errlen = sizeof dummy;
	}
	err[0] = '\0';
	if (!check_local(d, err, errlen))
		return false;
	if (n > limit || n > SIZE_MAX / 2)
		return true; /* too many to enumerate: the local invariant stands */
	st = malloc(((size_t)d->nblocks + 1) * sizeof *st);
	seen = calloc((size_t)(n / 8 + 1), 1);
	ok = st && seen;
	if (!ok)
		snprintf(err, errlen, "out of memory");
	else
		ok = enumerate(d, st, seen, err, errlen);
	free(st);
	free(seen);
	return ok;
}

/* k-BLPP paper, decoding a BL path ID (and DESIGN.md): from ENTRY, take at
 * each block the out-edge with the largest val <= what remains. */
uint32_t bl_decode(const struct bl_dag *d, uint64_t id, uint32_t *out, uint32_t cap)
{
	uint32_t v = CFG_ENTRY, n = 0;

	if (id >= d->num_paths[CFG_ENTRY])
		return 0;
	for (;;) {
		uint32_t s, e, lo, hi;

		if (n < cap)
			out[n] = v;
		n++;
		if (v == CFG_EXIT || n > d->nblocks)
			break;
		s = group_start(d, v);
		e = group_end(d, v, s);
		if (s == e)
			break; /* cannot happen in a checked DAG */
		lo = s;
		hi = e; /* last index in [lo, hi) with val <= id */
		while (hi - lo > 1) {
			uint32_t mid = lo + (hi - lo) / 2;

			if (d->edges[mid].val <= id)
				lo = mid;
			else
				hi = mid;
		}
		id -= d->edges[lo].val;
		v = d->edges[lo].dst;
	}
	return n;
}

#define FNV_OFFSET 14695981039346656037ull
#define FNV_PRIME 1099511628211ull

/* FNV-1a over the little-endian bytes of x (width bytes). */
static uint64_t fnv(uint64_t h, uint64_t x, unsigned width)
{
	unsigned i;

	for (i = 0; i < width; i++) {
		h ^= (x >> (8 * i)) & 0xff;
		h *= FNV_PRIME;
	}
	return h;
}

uint64_t bl_checksum(const struct cfg *g, const struct bl_dag *d)
{
	uint64_t h = FNV_OFFSET;
	uint32_t i;

	h = fnv(h, g->nblocks, 4);
	for (i = 0; i < g->nblocks; i++)
		h = fnv(h, g->blocks[i].line, 4);
	h = fnv(h, g->nedges, 4);
	for (i = 0; i < g->nedges; i++) {
		h = fnv(h, g->edges[i].src, 4);
		h = fnv(h, g->edges[i].dst, 4);
		h = fnv(h, (uint64_t)d->role[i], 4);
	}
	h = fnv(h, d->nedges, 4);
	for (i = 0; i < d->nedges; i++) {
		h = fnv(h, d->edges[i].src, 4);
		h = fnv(h, d->edges[i].dst, 4);
		h = fnv(h, d->edges[i].val, 8);
	}
	return h;
}

const char *bl_role_name(enum cfg_edge_role r)
{
	switch (r) {
	case ROLE_FORWARD: return "forward";
	case ROLE_BACK: return "back";
	case ROLE_CUT: return "cut";
	case ROLE_DEAD: return "dead";
	}
	return "?";
}

static const char *kind_name(enum bl_edge_kind k)
{
	switch (k) {
	case BL_EDGE_CFG: return "cfg";
	case BL_EDGE_DUMMY_ENTRY: return "dummy-entry";
	case BL_EDGE_DUMMY_EXIT: return "dummy-exit";
	}
	return "?";
}

void bl_dump_block(FILE *out, uint32_t v)
{
	if (v == CFG_ENTRY)
		fputs("ENTRY", out);
	else if (v == CFG_EXIT)
		fputs("EXIT", out);
	else
		fprintf(out, "b%u", v);
}

void bl_dump_cfg_edge(FILE *out, const struct cfg *g, uint32_t i)
{
	fprintf(out, "  e%u ", i);
	bl_dump_block(out, g->edges[i].src);
	fputs(" -> ", out);
	bl_dump_block(out, g->edges[i].dst);
}

void bl_dump_dag_edge(FILE *out, const struct bl_edge *b)
{
	fputs("  ", out);
	bl_dump_block(out, b->src);
	fputs(" -> ", out);
	bl_dump_block(out, b->dst);
	fprintf(out, " %s", kind_name(b->kind));
	if (b->kind == BL_EDGE_CFG)
		fprintf(out, " e%u", b->cfg_edge);
}

void bl_dump(FILE *out, const struct cfg *g, const struct bl_dag *d)
{
	uint32_t i;

	fprintf(out, "blocks %u paths %" PRIu64 " cut %u\n", g->nblocks, d->num_paths[CFG_ENTRY], d->ncut);
	for (i = 0; i < g->nblocks; i++) {
		fputs("  ", out);
		bl_dump_block(out, i);
		fprintf(out, " line %u paths %" PRIu64 "\n", g->blocks[i].line, d->num_paths[i]);
	}
	fprintf(out, "cfg edges %u\n", g->nedges);
	for (i = 0; i < g->nedges; i++) {
		const struct cfg_edge *e = &g->edges[i];

		bl_dump_cfg_edge(out, g, i);
		fprintf(out, " order %u %s%s\n", e->order, bl_role_name(d->role[i]), e->can_cut ? "" : " nocut");
	}
	fprintf(out, "dag edges %u\n", d->nedges);
	for (i = 0; i < d->nedges; i++) {
		bl_dump_dag_edge(out, &d->edges[i]);
		fprintf(out, " val %" PRIu64 "\n", d->edges[i].val);
	}
}
