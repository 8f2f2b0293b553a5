/*
 * decode.c: Ball-Larus path ID -> source lines (kpath_rt.h, struct
 * kpath_rt_func): from ENTRY with rest = id, at each block take the
 * out-edge with the largest val <= rest, subtract its val, until EXIT.
 * A DAG path visits each block at most once, so more than num_blocks steps
 * means a malformed table; so does reaching EXIT with rest != 0 or a block
 * without a usable out-edge.
 */
#include <stdlib.h>

#include "profile_int.h"

/* Index of the first edge with src == b, or num_edges if none. */
static unsigned first_edge(const struct kp_dag *d, unsigned b)
{
	unsigned lo = 0, hi = d->num_edges;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (d->edges[mid].src < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A block's last line; a table entry below the first line (or no table)
 * means the block spans its first line only. */
static uint32_t last_line(const struct kp_dag *d, unsigned b)
{
	unsigned first = d->block_line[b];
	return d->block_last_line && d->block_last_line[b] > first ? d->block_last_line[b] : first;
}

int kp_decode_path(const struct kp_dag *d, uint64_t id, uint32_t **lines, uint32_t *nlines)
{
	return kp_decode_spans(d, id, lines, NULL, nlines);
}

/* first[b] for every block b and first[num_blocks] = num_edges, when the
 * edges are grouped by increasing src below num_blocks (what first_edge's
 * binary search assumes; a malformed table keeps the search, so that
 * every table decodes as before): one pass instead of a search per block
 * of every path.  NULL when the table is malformed or out of memory. */
static unsigned *first_edges(const struct kp_dag *d)
{
	for (unsigned e = 0; e < d->num_edges; e++)
		if (d->edges[e].src >= d->num_blocks || (e && d->edges[e].src < d->edges[e - 1].src))
			return NULL;
	unsigned *first = kp_malloc((d->num_blocks + 1) * sizeof *first), e = 0;
	for (unsigned b = 0; first && b <= d->num_blocks; b++) {
		while (e < d->num_edges && d->edges[e].src < b)
			e++;
		first[b] = e;
	}
	return first;
}

/* kp_decode_spans, with first from first_edges or NULL. */
static int decode(const struct kp_dag *d, const unsigned *first, uint64_t id, uint32_t **lines,
		  uint32_t **last_lines, uint32_t *nlines)
{
	uint32_t *out = kp_malloc((d->num_blocks + 1) * sizeof *out);
	uint32_t *last = NULL;
	uint32_t n = 0;
	if (last_lines)
		*last_lines = NULL;
	if (!out)
		return KP_ENOMEM;
	if (last_lines && d->block_last_line) {
		last = kp_malloc((d->num_blocks + 1) * sizeof *last);
		if (!last) {
			free(out);
			return KP_ENOMEM;
		}
	}
	uint64_t rest = id;
	unsigned b = 0;
	for (unsigned steps = 0; b != 1; steps++) {
		if (steps > d->num_blocks || b >= d->num_blocks)
			goto bad;
		if (d->block_line[b]) {
			if (last)
				last[n] = last_line(d, b);
			out[n++] = d->block_line[b];
		}
		unsigned e = first ? first[b] : first_edge(d, b), pick = d->num_edges;
		for (; e < d->num_edges && d->edges[e].src == b; e++)
			if (d->edges[e].val <= rest)
				pick = e; /* vals increase within a group */
		if (pick == d->num_edges)
			goto bad;
		rest -= d->edges[pick].val;
		b = d->edges[pick].dst;
	}
	if (rest != 0 || b >= d->num_blocks)
		goto bad;
	if (d->block_line[1]) {
		if (last)
			last[n] = last_line(d, 1);
		out[n++] = d->block_line[1];
	}
	*lines = out;
	if (last_lines)
		*last_lines = last;
	*nlines = n;
	return 0;
bad:
	free(out);
	free(last);
	return KP_ESCHEMA;
}

int kp_decode_spans(const struct kp_dag *d, uint64_t id, uint32_t **lines, uint32_t **last_lines, uint32_t *nlines)
{
	return decode(d, NULL, id, lines, last_lines, nlines);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int cmp_path(const void *a, const void *b)
{
	const struct kp_path *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Whether id is one of ids[0..n) (sorted). */
static int among(const uint64_t *ids, uint32_t n, uint64_t id)
{
	uint32_t lo = 0, hi = n;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ids[mid] < id)
			lo = mid + 1;
		else if (ids[mid] > id)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

/* Whether every label below v is among ids[0..n).  Depth <= k <= KP_KMAX. */
static int below_among(const struct kp_ipf *t, uint32_t v, const uint64_t *ids, uint32_t n)
{
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling)
		if (!among(ids, n, t->nodes[c].id) || !below_among(t, c, ids, n))
			return 0;
	return 1;
}

/* The distinct labels of t into ids (room for t->n - 1), sorted, when its
 * roots hold them all: a k-IPF counts each path of a sequence as a 1-gram
 * too, so every label is normally a root, and a compacted forest has its
 * roots in order.  Their number, or 0 when that does not hold (then every
 * label must be sorted). */
static uint32_t roots_hold_all(const struct kp_ipf *t, uint64_t *ids)
{
	uint32_t r = 0;
	for (uint32_t c = t->nodes[0].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		if (r && ids[r - 1] >= t->nodes[c].id)
			return 0;
		ids[r++] = t->nodes[c].id;
	}
	if (r && ids[r - 1] < ((uint64_t)t->n << 3)) {
		/* labels small against the forest (the usual case): the roots as
		 * a bitmap, and every node of the array (the forest's, each
		 * linked) looked up with one load, instead of a binary search
		 * per node */
		uint64_t words = (ids[r - 1] >> 6) + 1;
		uint64_t *in = kp_calloc(words, sizeof *in);
		if (in) {
			for (uint32_t i = 0; i < r; i++)
				in[ids[i] >> 6] |= 1ull << (ids[i] & 63);
			uint32_t v = 1;
			for (; v < t->n; v++) {
				uint64_t id = t->nodes[v].id;
				if (id > ids[r - 1] || !(in[id >> 6] >> (id & 63) & 1))
					break;
			}
			free(in);
			return v == t->n ? r : 0;
		}
	}
	for (uint32_t c = t->nodes[0].first_child; c != KP_NONE; c = t->nodes[c].next_sibling)
		if (!below_among(t, c, ids, r))
			return 0;
	return r;
}

/* Collects the distinct ids of the forest, decodes those f lacks (an
 * undecodable id keeps an empty line list), and keeps f->paths sorted. */
int kp_func_decode_all(struct kp_func *f, const struct kp_dag *d)
{
	uint32_t n = f->ipf.n ? f->ipf.n - 1 : 0, m = 0;
	if (n == 0)
		return 0;
	uint64_t *ids = kp_malloc(n * sizeof *ids);
	if (!ids)
		return KP_ENOMEM;
	uint32_t r = roots_hold_all(&f->ipf, ids);
	if (r) {
		n = r;
	} else {
		for (uint32_t v = 1; v < f->ipf.n; v++)
			ids[v - 1] = f->ipf.nodes[v].id;
		qsort(ids, n, sizeof *ids, cmp_u64);
	}
	for (uint32_t i = 0; i < n; i++)
		if ((m == 0 || ids[m - 1] != ids[i]) && !kp_func_path(f, ids[i]))
			ids[m++] = ids[i];
	int rc = 0;
	struct kp_path *a = m ? kp_realloc(f->paths, (f->npaths + m) * sizeof *a) : f->paths;
	if (!a)
		rc = KP_ENOMEM;
	else
		f->paths = a;
	unsigned *first = m > 1 ? first_edges(d) : NULL;
	uint32_t old = f->npaths;
	for (uint32_t i = 0; i < m && rc == 0; i++) {
		struct kp_path q = { .id = ids[i] };
		if (decode(d, first, ids[i], &q.lines, &q.last_lines, &q.nlines) == KP_ENOMEM)
			rc = KP_ENOMEM;
		else
			f->paths[f->npaths++] = q;
	}
	/* the new paths are in id order: sorting is needed only when f had
	 * paths whose ids interleave with them */
	if (old && f->npaths > old && f->paths[old - 1].id > f->paths[old].id)
		qsort(f->paths, f->npaths, sizeof *f->paths, cmp_path);
	free(first);
	free(ids);
	return rc;
}
