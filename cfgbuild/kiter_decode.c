/*
 * kiter_decode.c: path identification, the paper's Algorithm 2: from a
 * k-iteration path ID back to the CFG edges of the path.
 */
#include "kiter.h"

#include <assert.h>

size_t ki_decode(const struct ki_numbering *n, uint64_t id, uint32_t *out, size_t cap)
{
	uint32_t s = n->slot_base[KI_START], comp_loop = KI_NONE;
	uint64_t rem = id;
	size_t len = 0;

	if (id >= n->total)
		return 0;
	/* Algorithm 2: from Start, take at each slot the arc whose range of
	 * (compensated) IDs holds what remains of n: the paper's "highest val
	 * with pathWeight + cweight <= n" stated as a range (an arc carrying no
	 * valid path, such as an early exit of a path that began at the head,
	 * has an empty range and ties with the next arc's weight). */
	while (n->slot_node[s] != KI_END) {
		uint32_t u = n->slot_node[s], pick = KI_NONE;
		bool comp = u == KI_START || (comp_loop != KI_NONE && n->kloop[u] == comp_loop);
		uint64_t off = 0;
		for (uint32_t x = n->arc_first[s]; x < n->arc_first[s + 1]; x++) {
			const struct ki_arc *a = &n->arcs[x];
			uint64_t o = a->val - (comp ? a->cval : 0);
			uint64_t cnt = n->num_paths[a->dst] - (comp ? a->invalid : 0);
			if (o <= rem && rem - o < cnt) {
				pick = x;
				off = o;
				break;
			}
		}
		assert(pick != KI_NONE);
		if (pick == KI_NONE)
			return 0;
		const struct ki_arc *a = &n->arcs[pick];
		rem -= off;
		if (a->kind == KI_ARC_START)
			comp_loop = n->kloop[n->slot_node[a->dst]];
		else {
			if (len < cap)
				out[len] = a->edge;
			len++;
		}
		s = a->dst;
	}
	assert(rem == 0);
	return len;
}
