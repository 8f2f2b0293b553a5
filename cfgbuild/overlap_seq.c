/*
 * overlap_seq.c: block sequences interned to dense ids (open addressing,
 * FNV-1a over the block ids).  Invariant: hash[] holds id + 1 of every
 * sequence, and is at most half full.
 */
#include "overlap.h"
#include "array.h"
#include "overlap_internal.h"

#include <stdlib.h>
#include <string.h>

static uint32_t seq_hash(const uint32_t *s, uint32_t n)
{
	uint64_t h = 1469598103934665603ull;
	uint32_t i;

	for (i = 0; i < n; i++)
		h = (h ^ s[i]) * 1099511628211ull;
	h = (h ^ n) * 1099511628211ull;
	return (uint32_t)(h ^ (h >> 32));
}

static void seq_rehash(struct ol_seqtab *t)
{
	uint32_t i;

	free(t->hash);
	t->nhash = t->nhash ? 2 * t->nhash : 64;
	t->hash = ol_xcalloc(t->nhash, sizeof *t->hash);
	for (i = 0; i < t->nseq; i++) {
		uint32_t h = seq_hash(t->data + t->start[i], (uint32_t)(t->start[i + 1] - t->start[i]));

		while (t->hash[h & (t->nhash - 1)])
			h++;
		t->hash[h & (t->nhash - 1)] = i + 1;
	}
}

uint32_t ol_seq_intern(struct ol_seqtab *t, const uint32_t *s, uint32_t n)
{
	uint32_t h, id;

	if (2 * (t->nseq + 1) > t->nhash)
		seq_rehash(t);
	for (h = seq_hash(s, n);; h++) {
		uint32_t slot = t->hash[h & (t->nhash - 1)], len;
		const uint32_t *have;

		if (!slot)
			break;
		have = ol_seq(t, slot - 1, &len);
		if (len == n && !memcmp(have, s, n * sizeof *s))
			return slot - 1;
	}
	KP_RESERVE(t->start, t->cap_seq, t->nseq + 2);
	if (t->nseq == 0)
		t->start[0] = 0;
	KP_RESERVE(t->data, t->cap_data, t->ndata + n);
	memcpy(t->data + t->ndata, s, n * sizeof *s);
	t->ndata += n;
	id = t->nseq++;
	t->start[id + 1] = t->ndata;
	t->hash[h & (t->nhash - 1)] = id + 1;
	return id;
}
