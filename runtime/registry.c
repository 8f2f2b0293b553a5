/*
 * registry.c: the per-function tables a mode registers at start-up (kiter
 * loops, PPP slots, overlap graphs and call sites), found again by the
 * function's descriptor when the profile is written.  One copy of the
 * registry the four modes each had (kiter.c, ppp.c, overlap.c,
 * overlap_call.c).
 *
 * Invariant: every item is a heap copy whose first member is its function's
 * descriptor pointer; items never move (the array holds pointers), so a
 * pointer kp_registry_find returned stays valid after the lock is released
 * while other modules register.
 */
#include "kp_internal.h"

int kp_registry_add(struct kp_registry *r, const void *item, size_t size)
{
	void *copy = kp_malloc(size);
	if (!copy)
		return KP_ENOMEM;
	memcpy(copy, item, size);
	pthread_mutex_lock(&r->mu);
	void **v = kp_grow(r->items, &r->cap, r->n + 1, sizeof *r->items);
	if (v) {
		r->items = v;
		r->items[r->n++] = copy;
	}
	pthread_mutex_unlock(&r->mu);
	if (!v)
		free(copy);
	return v ? 0 : KP_ENOMEM;
}

static const struct kpath_rt_func *owner(const void *item)
{
	return *(const struct kpath_rt_func *const *)item;
}

void *kp_registry_find(struct kp_registry *r, const struct kpath_rt_func *f)
{
	void *item = NULL;
	pthread_mutex_lock(&r->mu);
	for (size_t i = 0; i < r->n && !item; i++)
		if (owner(r->items[i]) == f)
			item = r->items[i];
	pthread_mutex_unlock(&r->mu);
	return item;
}

void kp_registry_moved(struct kp_registry *r, const struct kpath_rt_func *from, const struct kpath_rt_func *to)
{
	pthread_mutex_lock(&r->mu);
	for (size_t i = 0; i < r->n; i++)
		if (owner(r->items[i]) == from)
			*(const struct kpath_rt_func **)r->items[i] = to;
	pthread_mutex_unlock(&r->mu);
}
