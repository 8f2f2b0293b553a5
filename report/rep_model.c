/*
 * rep_model.c: the report's model of one function, built from its k-IPF.
 *
 * A k-IPF node at depth d (k-BLPP paper, Definition "k-Iteration Path
 * Forest") stands for the d consecutive Ball-Larus paths labelling its root
 * path, and its counter for how often they ran in a row.  The model keeps
 * each node as a rep_seq: its label sequence, copied into chunked storage
 * owned by the function, and its count.  Depth-1 nodes go to single, deeper
 * ones to multi, so that the two tables can be ranked independently.
 *
 * Failure: every adder returns -1 on allocation failure and leaves the
 * function as it was (what it held is still valid and freeable).
 */
#include <stdlib.h>
#include <string.h>

#include "rep.h"
#include "array.h"

/* IDs of many sequences, bump-allocated; a sequence never spans chunks. */
struct rep_chunk {
	struct rep_chunk *next;
	size_t used, cap; /* in IDs */
	uint64_t ids[];
};

enum { CHUNK_IDS = 4096 };

static char *dupstr(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

static uint64_t *alloc_ids(struct rep_func *f, uint32_t n)
{
	struct rep_chunk *c = f->chunks;
	size_t cap;

	if (!c || c->cap - c->used < n) {
		cap = n > CHUNK_IDS ? n : CHUNK_IDS;
		c = malloc(sizeof *c + cap * sizeof c->ids[0]);
		if (!c)
			return NULL;
		c->next = f->chunks;
		c->used = 0;
		c->cap = cap;
		f->chunks = c;
	}
	c->used += n;
	return c->ids + c->used - n;
}

int rep_func_init(struct rep_func *f, const char *name, const char *file,
                  unsigned line, uint64_t num_paths, uint64_t invalid_paths)
{
	memset(f, 0, sizeof *f);
	f->name = dupstr(name ? name : "?");
	f->file = dupstr(file ? file : "?");
	if (!f->name || !f->file) {
		rep_func_free(f);
		return -1;
	}
	f->line = line;
	f->num_paths = num_paths;
	f->invalid_paths = invalid_paths;
	return 0;
}

int rep_func_add_seq(struct rep_func *f, const uint64_t *ids, uint32_t depth,
                     uint64_t count, int extended)
{
	struct rep_seq *s;
	uint64_t *copy;

	if (depth == 0)
		return 0;
	if (depth == 1)
		KP_RESERVE(f->single, f->capsingle, f->nsingle + 1);
	else
		KP_RESERVE(f->multi, f->capmulti, f->nmulti + 1);
	copy = alloc_ids(f, depth);
	if (!copy)
		return -1;
	memcpy(copy, ids, depth * sizeof *ids);
	s = depth == 1 ? &f->single[f->nsingle++] : &f->multi[f->nmulti++];
	s->count = count;
	s->depth = depth;
	s->extended = extended;
	s->ids = copy;
	if (depth == 1) {
		/* Saturating sum: on overflow the shares are approximate, and
		 * the renderers say so. */
		if (f->flow > UINT64_MAX - count) {
			f->flow = UINT64_MAX;
			f->flow_saturated = 1;
		} else {
			f->flow += count;
		}
	}
	return 0;
}

int rep_func_add_decode(struct rep_func *f, uint64_t id,
                        const uint32_t *lines, const uint32_t *last_lines, size_t n)
{
	uint32_t *copy = NULL, *last = NULL;

	KP_RESERVE(f->decode, f->capdecode, f->ndecode + 1);
	if (n) {
		if (n > SIZE_MAX / sizeof *lines)
			return -1;
		copy = malloc(n * sizeof *lines);
		if (!copy)
			return -1;
		memcpy(copy, lines, n * sizeof *lines);
		if (last_lines) {
			last = malloc(n * sizeof *last);
			if (!last) {
				free(copy);
				return -1;
			}
			memcpy(last, last_lines, n * sizeof *last);
		}
	}
	f->decode[f->ndecode].id = id;
	f->decode[f->ndecode].lines = copy;
	f->decode[f->ndecode].last_lines = last;
	f->decode[f->ndecode].nlines = n;
	f->ndecode++;
	return 0;
}

uint32_t rep_decode_last(const struct rep_decode *d, size_t i)
{
	if (d->last_lines && d->last_lines[i] > d->lines[i])
		return d->last_lines[i];
	return d->lines[i];
}

int rep_decode_has_line(const struct rep_decode *d, unsigned l)
{
	size_t i;

	for (i = 0; d && i < d->nlines; i++)
		if (d->lines[i] <= l && l <= rep_decode_last(d, i))
			return 1;
	return 0;
}

const struct rep_decode *rep_func_lines(const struct rep_func *f, uint64_t id)
{
	size_t lo = 0, hi = f->ndecode;

	/* decode is sorted by id (rep_rank_report). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->decode[mid].id == id)
			return &f->decode[mid];
		if (f->decode[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void rep_func_free(struct rep_func *f)
{
	struct rep_chunk *c, *next;
	size_t i;

	for (c = f->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	for (i = 0; i < f->ndecode; i++) {
		free(f->decode[i].lines);
		free(f->decode[i].last_lines);
	}
	free(f->decode);
	free(f->single);
	free(f->multi);
	free(f->name);
	free(f->file);
	free(f->cfg.line);
	free(f->cfg.last_line);
	free(f->cfg.edges);
	memset(f, 0, sizeof *f);
}

void rep_report_free(struct rep_report *r)
{
	size_t i;

	for (i = 0; i < r->nfuncs; i++)
		rep_func_free(&r->funcs[i]);
	free(r->funcs);
	memset(r, 0, sizeof *r);
}

void rep_print_lines(FILE *out, const struct rep_func *f, const uint64_t *ids,
                     uint32_t depth)
{
	uint32_t i;
	size_t j;

	for (i = 0; i < depth; i++) {
		const struct rep_decode *d = rep_func_lines(f, ids[i]);

		if (depth > 1)
			fputs(i ? " -> [" : "[", out);
		if (!d)
			fputc('?', out);
		else if (!d->nlines)
			fputc('-', out);
		for (j = 0; d && j < d->nlines; j++)
			fprintf(out, j ? " %u" : "%u", (unsigned)d->lines[j]);
		if (depth > 1)
			fputc(']', out);
	}
}
