/*
 * profile_check.c: the invariants of a kpath profile that JSON types do
 * not express (docs/profile-schema.md), as predicates shared by the reader
 * (profile_json.c, which names the JSON path of the first violation) and by
 * kp_profile_check (in memory: what `kpath merge` verifies before writing).
 *
 * Each predicate returns NULL when the rule holds, else the rule's text.
 * The rules (k-BLPP paper, Properties 1 and 2, and the numbering):
 *  - a k-IPF node's count is > 0 and never above its parent's count
 *    (except in a profile marked "forked", see struct kp_profile);
 *  - a node's label, and a decoded path's id, is a path ID: < num_paths;
 *  - the forest is at most k deep (checked by the walk that knows depth);
 *  - a decoded path's lines are line numbers (>= 1), and its optional spans
 *    pair each lines[i] with a last line >= it;
 *  - a checksum (and a source hash) is 16 lowercase hex digits.
 */
#include <stdio.h>
#include <string.h>

#include "profile_int.h"

const char *kp_rule_node(uint64_t id, uint64_t count, uint64_t parent_count, int is_root, uint64_t num_paths,
			 int forked)
{
	if (forked) /* the count rules hold only over the parent's and child's profiles together */
		return id >= num_paths ? "a path ID is below num_paths" : NULL;
	if (count == 0)
		return "a k-IPF count is > 0";
	if (!is_root && count > parent_count)
		return "a child's count never exceeds its parent's (k-BLPP Property 2)";
	if (id >= num_paths)
		return "a path ID is below num_paths";
	return NULL;
}

const char *kp_rule_path(const struct kp_path *q, uint64_t num_paths)
{
	if (q->id >= num_paths)
		return "a path ID is below num_paths";
	for (uint32_t j = 0; j < q->nlines; j++) {
		if (q->lines[j] == 0)
			return "line numbers are >= 1";
		if (q->last_lines && q->last_lines[j] < q->lines[j])
			return "a span [first, last] has first == lines[i] <= last";
	}
	return NULL;
}

const char *kp_rule_hex16(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");
	return n == 16 && s[16] == '\0' ? NULL : "16 lowercase hex digits";
}

/* Walks the children of v at depth d (1 = roots); stops at the first
 * violation.  Depth is bounded by k <= KP_KMAX, links by t->n. */
static const char *check_forest(const struct kp_ipf *t, uint32_t v, unsigned d, unsigned k, uint64_t num_paths,
				int forked, uint32_t *budget)
{
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		if (c >= t->n || (*budget)-- == 0)
			return "a forest, not a graph";
		if (d > k)
			return "the forest is at most k deep";
		const char *why = kp_rule_node(t->nodes[c].id, t->nodes[c].count, t->nodes[v].count, d == 1, num_paths,
					       forked);
		if (!why)
			why = check_forest(t, c, d + 1, k, num_paths, forked, budget);
		if (why)
			return why;
	}
	return NULL;
}

int kp_profile_check(const struct kp_profile *p, char *err, size_t errlen)
{
	if (p->k < 1 || p->k > KP_KMAX) {
		snprintf(err, errlen, "k: must be in 1..%d", KP_KMAX);
		return KP_ESCHEMA;
	}
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct kp_func *f = &p->funcs[i];
		const char *why = kp_rule_hex16(f->checksum), *field = "checksum";
		if (!why && f->source_hash[0]) {
			why = kp_rule_hex16(f->source_hash);
			field = "source_hash";
		}
		if (!why && !f->name[0]) {
			why = "a function has a name";
			field = "name";
		}
		for (uint32_t j = 0; !why && j < f->npaths; j++) {
			why = kp_rule_path(&f->paths[j], f->num_paths);
			field = "paths";
		}
		uint32_t budget = f->ipf.n;
		if (!why && f->ipf.n) {
			why = check_forest(&f->ipf, 0, 1, p->k, f->num_paths, p->forked, &budget);
			field = "kipf";
		}
		char kind;
		uint32_t at;
		if (!why && f->cfg.nblocks && (why = kp_rule_cfg(&f->cfg, f->num_paths, &kind, &at)))
			field = kind == 'b' ? "cfg.blocks" : "cfg.edges";
		if (why) {
			snprintf(err, errlen, "functions[%zu].%s (%s): %s", i, field, f->name, why);
			return KP_ESCHEMA;
		}
	}
	return 0;
}
