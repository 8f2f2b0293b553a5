/*
 * consumer.c: the stream consumers behind one small interface (DESIGN.md:
 * "the stream consumer is one of the two places later modes plug in"), and
 * the per-function state kp_tfunc that holds one.
 *
 *   window  k >= 2 (default): the window forest (window.c); make_k_ipf at
 *           the end
 *   ksf     k >= 2 with KPATH_FOREST=ksf: process_bl_path_id into the
 *           k-SF of the k-BLPP paper (ksf.c); make_k_ipf at the end
 *   counts  k == 1: Ball-Larus counters (ksf at k = 1 for a function
 *           with more paths than an array takes: kp_tfunc_new)
 * window and ksf give the same k-IPF (tests/runtime/test_ksf.c checks
 * both against brute force) and share the node store and the inline step;
 * they differ in how many nodes they build.
 * The trace writer is not a consumer: it sees the raw stream, invalid IDs
 * included, and runs beside either (abi.c).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

static int ksf_init(struct kp_tfunc *tf, unsigned k)
{
	return kp_ksf_init(&tf->u.ksf, k);
}

static void ksf_enter(struct kp_tfunc *tf, struct kp_cursor *c)
{
	c->lim = 0;
	c->cnt = NULL;
	c->state = tf;
	c->act = 0;
	kp_ksf_marker(&tf->u.ksf, c);
}

static int ksf_item(struct kp_tfunc *tf, struct kp_cursor *c, uint64_t id)
{
	return kp_ksf_process(&tf->u.ksf, c, id);
}

static int ksf_to_ipf(const struct kp_tfunc *tf, struct kp_ipf *dst)
{
	return kp_ksf_to_ipf(&tf->u.ksf, dst);
}

static void ksf_zero(struct kp_tfunc *tf)
{
	kp_ksf_zero(&tf->u.ksf);
}

static uint64_t ksf_sum(const struct kp_tfunc *tf)
{
	return kp_ksf_sum(&tf->u.ksf);
}

static void ksf_fini(struct kp_tfunc *tf)
{
	kp_ksf_free(&tf->u.ksf);
}

const struct kp_consumer kp_consumer_ksf = {
	"ksf", ksf_init, ksf_enter, ksf_item, ksf_to_ipf, ksf_zero, ksf_sum, ksf_fini,
};

static int window_init(struct kp_tfunc *tf, unsigned k)
{
	return kp_win_init(&tf->u.ksf, k);
}

static int window_item(struct kp_tfunc *tf, struct kp_cursor *c, uint64_t id)
{
	return kp_win_process(&tf->u.ksf, c, id);
}

static int window_to_ipf(const struct kp_tfunc *tf, struct kp_ipf *dst)
{
	return kp_win_to_ipf(&tf->u.ksf, dst);
}

const struct kp_consumer kp_consumer_window = {
	"window", window_init, ksf_enter, window_item, window_to_ipf, ksf_zero, ksf_sum, ksf_fini,
};

static int counts_init(struct kp_tfunc *tf, unsigned k)
{
	(void)k;
	return kp_counts_init(&tf->u.counts, tf->f->num_paths, kp_ppp_prefix(tf->f));
}

/* The inline path counts into the array directly (lim = num_paths); with
 * the hash table every item goes through counts_item. */
static void counts_enter(struct kp_tfunc *tf, struct kp_cursor *c)
{
	const struct kp_counts *t = &tf->u.counts;
	c->lim = t->arr ? t->narr : 0;
	c->cnt = t->arr;
	c->p = &kp_rt_lib;
	c->state = tf;
	c->act = 0;
}

static int counts_item(struct kp_tfunc *tf, struct kp_cursor *c, uint64_t id)
{
	(void)c;
	return kp_counts_add(&tf->u.counts, id);
}

static int counts_to_ipf(const struct kp_tfunc *tf, struct kp_ipf *dst)
{
	return kp_counts_to_ipf(&tf->u.counts, dst);
}

static void counts_zero(struct kp_tfunc *tf)
{
	kp_counts_zero(&tf->u.counts);
}

static uint64_t counts_sum(const struct kp_tfunc *tf)
{
	return kp_counts_sum(&tf->u.counts);
}

static void counts_fini(struct kp_tfunc *tf)
{
	kp_counts_free(&tf->u.counts);
}

const struct kp_consumer kp_consumer_counts = {
	"counts", counts_init, counts_enter, counts_item, counts_to_ipf, counts_zero, counts_sum, counts_fini,
};

const struct kp_consumer *kp_forest = &kp_consumer_window;

int kp_forest_select(const char *name)
{
	if (!name || !*name || strcmp(name, "window") == 0)
		kp_forest = &kp_consumer_window;
	else if (strcmp(name, "ksf") == 0)
		kp_forest = &kp_consumer_ksf;
	else
		return -1;
	return 0;
}

const struct kp_consumer *kp_consumer_for(unsigned k)
{
	return k == 1 ? &kp_consumer_counts : kp_forest;
}

struct kp_tfunc *kp_tfunc_new(const struct kpath_rt_func *f, unsigned k)
{
	struct kp_tfunc *tf = kp_calloc(1, sizeof *tf);
	if (!tf)
		return NULL;
	tf->f = f;
	tf->cons = kp_consumer_for(k);
	/* k = 1 above the arrays' limit: the k-SF at k = 1, a root whose
	 * children are the paths, rather than the hash table, where every item
	 * was a library call; the inline step's cache slots and the
	 * trampolines' child tables serve it as at k >= 2 (zstd's
	 * ZSTD_compressBlock_opt2: k = 1 ran 2.31x native, k = 4 1.77x).  Not
	 * a ppp function's, whose prefix IDs have their array. */
	if (k == 1 && f->num_paths > KP_COUNTS_SPARSE_MAX && !kp_ppp_prefix(f))
		tf->cons = &kp_consumer_ksf;
	if (tf->cons->init(tf, k) != 0) {
		free(tf);
		return NULL;
	}
	tf->cons->enter(tf, &tf->marker);
	kp_tfunc_pack(tf);
	return tf;
}

uint64_t kp_tfunc_nodes(const struct kp_tfunc *tf, uint64_t *tables)
{
	if (tf->cons == &kp_consumer_ksf || tf->cons == &kp_consumer_window) {
		*tables += kp_ksf_table_bytes(&tf->u.ksf);
		return tf->u.ksf.n - 1;
	}
	return 0;
}

void kp_tfunc_free(struct kp_tfunc *tf)
{
	if (!tf)
		return;
	tf->cons->fini(tf);
	free(tf);
}

void kp_tfunc_library_only(struct kp_tfunc *tf)
{
	tf->marker.lim = 0;
	if (tf->cons == &kp_consumer_ksf || tf->cons == &kp_consumer_window)
		tf->u.ksf.nocache = 1;
	kp_tfunc_pack(tf);
}
