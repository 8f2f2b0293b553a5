/*
 * profile_cfg.c: a function's static graph in the profile, the optional
 * "cfg" of docs/profile-schema.md: the span of every block and the
 * Ball-Larus DAG with its vals, copied from the descriptor (kpath_rt.h,
 * struct kpath_rt_func).  Paths say which blocks ran; this says which
 * exist, so that coverage (report/coverage.c) can count what never ran.
 *
 * Invariant of a well-formed cfg (kp_rule_cfg): nblocks >= 2 (ENTRY 0 and
 * EXIT 1), every edge's ends are below nblocks, none leaves EXIT or enters
 * ENTRY, edges are grouped by increasing src and ordered by increasing val
 * within a group (the order decoding relies on), and every val is below
 * num_paths.  Readers hold every profile to it: profiles are untrusted.
 */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "profile_int.h"

void kp_cfg_free(struct kp_cfg *c)
{
	free(c->json);
	if (!c->borrowed) {
		free(c->line);
		free(c->last_line);
		free(c->edges);
	}
	memset(c, 0, sizeof *c);
}

/* Allocates c for nblocks blocks and nedges edges (contents zeroed). */
static int cfg_alloc(struct kp_cfg *c, uint32_t nblocks, uint32_t nedges)
{
	c->line = calloc(nblocks ? nblocks : 1, sizeof *c->line);
	c->last_line = calloc(nblocks ? nblocks : 1, sizeof *c->last_line);
	c->edges = calloc(nedges ? nedges : 1, sizeof *c->edges);
	if (!c->line || !c->last_line || !c->edges) {
		kp_cfg_free(c);
		return KP_ENOMEM;
	}
	c->nblocks = nblocks;
	c->nedges = nedges;
	return 0;
}

int kp_cfg_set(struct kp_func *f, const struct kp_dag *dag)
{
	struct kp_cfg *c = &f->cfg;
	if (c->nblocks || dag->num_blocks < 2 || !dag->block_line)
		return 0;
	if (cfg_alloc(c, dag->num_blocks, dag->num_edges))
		return KP_ENOMEM;
	for (uint32_t b = 0; b < c->nblocks; b++) {
		c->line[b] = dag->block_line[b];
		/* a degraded span is the first line only (kpath_rt.h) */
		c->last_line[b] = dag->block_last_line && dag->block_last_line[b] >= c->line[b] && c->line[b]
		                          ? dag->block_last_line[b] : c->line[b];
	}
	for (uint32_t e = 0; e < c->nedges; e++)
		c->edges[e] = (struct kp_cfg_edge){ dag->edges[e].src, dag->edges[e].dst, dag->edges[e].val };
	return 0;
}

/* The descriptor's edges serve as the cfg's where the two layouts agree
 * (they do on every ABI kpath builds for; the copy is the fallback). */
#define EDGES_ALIKE                                                                                    \
	(sizeof(struct kp_cfg_edge) == sizeof(struct kpath_rt_edge) &&                                 \
	 offsetof(struct kp_cfg_edge, src) == offsetof(struct kpath_rt_edge, src) &&                   \
	 offsetof(struct kp_cfg_edge, dst) == offsetof(struct kpath_rt_edge, dst) &&                   \
	 offsetof(struct kp_cfg_edge, val) == offsetof(struct kpath_rt_edge, val) &&                   \
	 sizeof(unsigned) == sizeof(uint32_t))

int kp_cfg_borrow(struct kp_func *f, const struct kp_dag *dag)
{
	struct kp_cfg *c = &f->cfg;
	if (c->nblocks || dag->num_blocks < 2 || !dag->block_line)
		return 0;
	if (!EDGES_ALIKE || (dag->num_edges && !dag->edges))
		return kp_cfg_set(f, dag);
	/* the spans as kp_cfg_set makes them: with no last lines, or none
	 * degraded, the descriptor's arrays are the cfg's */
	const unsigned *last = dag->block_last_line ? dag->block_last_line : dag->block_line;
	for (uint32_t b = 0; b < dag->num_blocks; b++)
		if (last[b] < dag->block_line[b] || (!dag->block_line[b] && last[b]))
			return kp_cfg_set(f, dag);
	c->nblocks = dag->num_blocks;
	c->nedges = dag->num_edges;
	c->line = (uint32_t *)(uintptr_t)dag->block_line;
	c->last_line = (uint32_t *)(uintptr_t)last;
	c->edges = (struct kp_cfg_edge *)(uintptr_t)dag->edges;
	c->borrowed = 1;
	return 0;
}

int kp_cfg_copy(struct kp_func *dst, const struct kp_func *src)
{
	const struct kp_cfg *s = &src->cfg;
	if (dst->cfg.nblocks || !s->nblocks)
		return 0;
	if (s->borrowed) { /* the owner keeps the arrays for dst too */
		dst->cfg = *s;
		dst->cfg.json = NULL;
		dst->cfg.json_len = 0;
	} else {
		if (cfg_alloc(&dst->cfg, s->nblocks, s->nedges))
			return KP_ENOMEM;
		memcpy(dst->cfg.line, s->line, s->nblocks * sizeof *s->line);
		memcpy(dst->cfg.last_line, s->last_line, s->nblocks * sizeof *s->last_line);
		memcpy(dst->cfg.edges, s->edges, s->nedges * sizeof *s->edges);
	}
	if (s->json && (dst->cfg.json = malloc(s->json_len ? s->json_len : 1)) != NULL) {
		memcpy(dst->cfg.json, s->json, s->json_len); /* the same graph: the same bytes */
		dst->cfg.json_len = s->json_len;
	}
	return 0;
}

const char *kp_rule_cfg(const struct kp_cfg *c, uint64_t num_paths, char *field, uint32_t *at)
{
	*field = 'b';
	*at = 0;
	if (c->nblocks < 2)
		return "a graph has ENTRY and EXIT: at least 2 blocks";
	for (uint32_t b = 0; b < c->nblocks; b++) {
		*at = b;
		if (c->line[b] == 0 ? c->last_line[b] != 0 : c->last_line[b] < c->line[b])
			return "a block's span is [0, 0] or [first, last] with 1 <= first <= last";
	}
	*field = 'e';
	for (uint32_t e = 0; e < c->nedges; e++) {
		const struct kp_cfg_edge *x = &c->edges[e];
		*at = e;
		if (x->src >= c->nblocks || x->dst >= c->nblocks)
			return "an edge's ends are blocks (below the number of blocks)";
		if (x->src == 1 || x->dst == 0)
			return "no edge leaves EXIT (block 1) or enters ENTRY (block 0)";
		if (x->val >= num_paths)
			return "an edge's val is below num_paths";
		if (e && (x->src < c->edges[e - 1].src ||
		          (x->src == c->edges[e - 1].src && x->val < c->edges[e - 1].val)))
			return "edges are grouped by increasing src, with increasing val within a group";
	}
	return NULL;
}

/* A JSON integer in [0, max], or a decimal string of one (vals above
 * INT64_MAX are strings, as everywhere in the profile). */
static int get_uint(json_t *v, uint64_t max, uint64_t *out)
{
	if (json_is_integer(v) && json_integer_value(v) >= 0) {
		*out = (uint64_t)json_integer_value(v);
		return *out <= max ? 0 : -1;
	}
	if (json_is_string(v)) {
		const char *s = json_string_value(v);
		char *end;
		unsigned long long x;
		if (*s < '0' || *s > '9')
			return -1;
		x = strtoull(s, &end, 10);
		if (*end || x == ULLONG_MAX)
			return -1;
		*out = x;
		return x <= max ? 0 : -1;
	}
	return -1;
}

int kp_cfg_from_json(json_t *o, struct kp_cfg *c, char *where, size_t wlen)
{
	json_t *blocks = json_object_get(o, "blocks"), *edges = json_object_get(o, "edges"), *x;
	size_t i;
	if (!json_is_object(o))
		return snprintf(where, wlen, ": expected an object with blocks and edges"), KP_ESCHEMA;
	if (!json_is_array(blocks) || json_array_size(blocks) > UINT32_MAX)
		return snprintf(where, wlen, ".blocks: expected an array of [first, last] pairs"), KP_ESCHEMA;
	if (!json_is_array(edges) || json_array_size(edges) > UINT32_MAX)
		return snprintf(where, wlen, ".edges: expected an array of [src, dst, val] triples"), KP_ESCHEMA;
	if (cfg_alloc(c, (uint32_t)json_array_size(blocks), (uint32_t)json_array_size(edges)))
		return snprintf(where, wlen, ": out of memory"), KP_ENOMEM;
	json_array_foreach(blocks, i, x)
	{
		uint64_t a, b;
		if (!json_is_array(x) || json_array_size(x) != 2 || get_uint(json_array_get(x, 0), UINT32_MAX, &a) ||
		    get_uint(json_array_get(x, 1), UINT32_MAX, &b))
			return snprintf(where, wlen, ".blocks[%zu]: expected a [first, last] pair of line numbers", i),
			       KP_ESCHEMA;
		c->line[i] = (uint32_t)a;
		c->last_line[i] = (uint32_t)b;
	}
	json_array_foreach(edges, i, x)
	{
		uint64_t s, d, v;
		if (!json_is_array(x) || json_array_size(x) != 3 || get_uint(json_array_get(x, 0), UINT32_MAX, &s) ||
		    get_uint(json_array_get(x, 1), UINT32_MAX, &d) || get_uint(json_array_get(x, 2), UINT64_MAX, &v))
			return snprintf(where, wlen, ".edges[%zu]: expected a [src, dst, val] triple of integers", i),
			       KP_ESCHEMA;
		c->edges[i] = (struct kp_cfg_edge){ (uint32_t)s, (uint32_t)d, v };
	}
	return 0;
}
