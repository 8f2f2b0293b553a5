/*
 * snapshot.c: from runtime data (descriptor + k-IPF + counters) to a
 * kp_profile function, shared by the exit writer and the offline kipf tool
 * so that both produce the same profile.
 */
#include <string.h>

#include "kp_internal.h"

int kp_snapshot_func(struct kp_profile *p, const struct kpath_rt_func *f, const struct kp_ipf *t,
		     uint64_t emitted, uint64_t invalid, int borrow)
{
	if (kp_overlap_companion(f)) /* its counts are f's owner's (overlap.c) */
		return 0;
	/* --mode ppp (ppp.c): IDs back to Ball-Larus IDs, and the mode's fields */
	struct kp_ipf bl;
	uint64_t num_paths = f->num_paths;
	void *ppp = NULL;
	int rc = kp_ppp_snapshot(f, t, &bl, &num_paths, &invalid, &ppp);
	if (rc < 0)
		return rc;
	struct kp_func *kf = borrow ? kp_profile_add_func_borrowed(p, f->name, f->file, f->line, f->checksum, num_paths)
	                            : kp_profile_add_func(p, f->name, f->file, f->line, f->checksum, num_paths);
	if (!kf) {
		if (rc) {
			kp_ipf_free(&bl);
			kp_ppp_free(ppp);
		}
		return KP_ENOMEM;
	}
	kf->emitted = emitted;
	if (f->source_hash && !kp_rule_hex16(f->source_hash))
		memcpy(kf->source_hash, f->source_hash, sizeof kf->source_hash);
	kf->invalid_paths = invalid;
	kf->kiter = kp_kiter_fields(f);
	kf->ppp = ppp;
	kf->overlap = kp_overlap_fields(f);
	/* a global k-IPF already compact (window.c) is taken as it is: no
	 * copy, no second forest in memory while the profile is written */
	if (rc || !borrow || !kp_ipf_borrow(&kf->ipf, t, p->k))
		rc = kp_ipf_add_compact(&kf->ipf, rc ? &bl : t, p->k);
	if (ppp)
		kp_ipf_free(&bl);
	if (rc != 0)
		return KP_ENOMEM;
	struct kp_dag dag = { f->num_blocks, f->block_line, f->num_edges, f->edges, f->block_last_line };
	if ((borrow ? kp_cfg_borrow(kf, &dag) : kp_cfg_set(kf, &dag)) != 0)
		return KP_ENOMEM;
	return kp_func_decode_all(kf, &dag);
}
