/*
 * kiter_check.c: the stage checker and the text dump of a k-iteration
 * numbering (kiter.h).  The checker restates the invariants of kiter.c from
 * their definitions and, on small graphs, enumerates Glu to verify that the
 * valid paths get exactly [0, total) (the paper's Theorem 1: unique and
 * perfect).
 */
#include "kiter.h"

#include <stdarg.h>
#include <stdlib.h>

static bool bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return false;
}

/* Equation (2): invalid paths via arc a out of (u, i) for a path that began
 * at δstart of u's loop. */
static uint64_t invalid_via(const struct ki_numbering *n, uint32_t u, unsigned i, const struct ki_arc *a)
{
	uint32_t L = n->kloop[u];

	if (u == KI_START)
		return a->kind == KI_ARC_START ? n->invalid_paths[a->dst] : 0;
	if (L == KI_NONE || i >= n->loops[L].k)
		return 0;
	if (a->kind == KI_ARC_END || n->kloop[n->slot_node[a->dst]] != L)
		return n->num_paths[a->dst];
	return n->invalid_paths[a->dst];
}

static bool check_sums(const struct ki_numbering *n, char *err, size_t errlen)
{
	for (uint32_t s = 0; s < n->nslots; s++) {
		uint32_t u = n->slot_node[s];
		uint64_t np = u == KI_END, inv = 0;
		for (uint32_t x = n->arc_first[s]; x < n->arc_first[s + 1]; x++) {
			const struct ki_arc *a = &n->arcs[x];
			uint64_t iv = invalid_via(n, u, n->slot_ver[s], a);
			if (a->val != np || a->cval != inv || a->invalid != iv)
				return bad(err, errlen, "slot %u (node %u, version %u), arc %u: val %llu cval %llu, want %llu %llu",
				           s, u, n->slot_ver[s], x, (unsigned long long)a->val,
				           (unsigned long long)a->cval, (unsigned long long)np, (unsigned long long)inv);
			np += n->num_paths[a->dst];
			inv += iv;
		}
		if (np != n->num_paths[s] || inv != n->invalid_paths[s])
			return bad(err, errlen, "slot %u: numPaths/invalidPaths differ from the sums", s);
	}
	return true;
}

struct enumerate {
	const struct ki_numbering *n;
	unsigned char *seen; /* per ID */
	uint64_t valid;
	bool ok;
	char *err;
	size_t errlen;
};

/* Every Glu path from slot s; the path so far has compensated weight id,
 * began at δstart of comp_loop (KI_NONE: at Start->entry or an acyclic
 * head), and is invalid when it left comp_loop before version K. */
static void walk(struct enumerate *en, uint32_t s, uint64_t id, uint32_t comp_loop, bool invalid)
{
	const struct ki_numbering *n = en->n;
	uint32_t u = n->slot_node[s];

	if (!en->ok)
		return;
	if (u == KI_END) {
		if (invalid)
			return;
		en->valid++;
		if (id >= n->total || en->seen[id]) {
			en->ok = bad(en->err, en->errlen, "ID %llu %s", (unsigned long long)id,
			             id >= n->total ? "out of range" : "given to two paths");
			return;
		}
		en->seen[id] = 1;
		return;
	}
	for (uint32_t x = n->arc_first[s]; x < n->arc_first[s + 1]; x++) {
		const struct ki_arc *a = &n->arcs[x];
		bool comp = u == KI_START || (comp_loop != KI_NONE && n->kloop[u] == comp_loop);
		uint32_t cl = comp_loop;
		bool inv = invalid;
		if (a->kind == KI_ARC_START)
			cl = n->kloop[n->slot_node[a->dst]];
		if (comp && u != KI_START && n->slot_ver[s] < n->loops[comp_loop].k &&
		    (a->kind == KI_ARC_END || n->kloop[n->slot_node[a->dst]] != comp_loop))
			inv = true; /* began at the head, leaves before K iterations */
		walk(en, a->dst, id + a->val - (comp ? a->cval : 0), cl, inv);
	}
}

bool ki_check(const struct ki_numbering *n, uint64_t limit, char *err, size_t errlen)
{
	uint32_t start = n->slot_base[KI_START];
	struct enumerate en = { .n = n, .ok = true, .err = err, .errlen = errlen };

	if (!check_sums(n, err, errlen))
		return false;
	if (n->total != n->num_paths[start] - n->invalid_paths[start])
		return bad(err, errlen, "total is not numPaths(Start) - invalidPaths(Start)");
	if (n->num_paths[start] > limit)
		return true;
	en.seen = calloc(n->total + 1, 1);
	if (!en.seen)
		return bad(err, errlen, "out of memory");
	walk(&en, start, 0, KI_NONE, false);
	if (en.ok && en.valid != n->total)
		en.ok = bad(err, errlen, "%llu valid paths, total %llu", (unsigned long long)en.valid,
		            (unsigned long long)n->total);
	free(en.seen);
	return en.ok;
}

static const char *const kind_name[] = { "edge", "start", "end" };
static const char *const lowered_name[] = { "", " (not innermost)", " (irreducible)" };

void ki_dump(FILE *out, const struct ki_numbering *n)
{
	fprintf(out, "kiter: %u loops, max K %u, %llu paths\n", n->nloops, n->max_k,
	        (unsigned long long)n->total);
	for (uint32_t l = 0; l < n->nloops; l++)
		fprintf(out, "loop %u: head %u, K %u, asked %u%s\n", l, n->loops[l].head, n->loops[l].k,
		        n->loops[l].k_asked, lowered_name[n->loops[l].lowered]);
	for (uint32_t s = 0; s < n->nslots; s++) {
		fprintf(out, "(%u,%u) numPaths %llu invalidPaths %llu\n", n->slot_node[s], n->slot_ver[s],
		        (unsigned long long)n->num_paths[s], (unsigned long long)n->invalid_paths[s]);
		for (uint32_t x = n->arc_first[s]; x < n->arc_first[s + 1]; x++) {
			const struct ki_arc *a = &n->arcs[x];
			fprintf(out, "  %-5s", kind_name[a->kind]);
			if (a->edge != KI_NONE)
				fprintf(out, " e%u", a->edge);
			fprintf(out, " -> (%u,%u) val %llu cval %llu\n", n->slot_node[a->dst], n->slot_ver[a->dst],
			        (unsigned long long)a->val, (unsigned long long)a->cval);
		}
	}
}
