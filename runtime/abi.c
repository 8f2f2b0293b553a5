/*
 * abi.c: the entry points of kpath_rt.h.  The hot path (enter, emit,
 * leave) takes no lock and allocates only when a forest grows.
 */
#include <signal.h>

#include "kp_internal.h"

/* Set while this thread is inside enter/emit/leave.  A signal handler that
 * runs instrumented code then would see a half-updated forest: its
 * activation is not recorded (kpath_rt_enter leaves c->state null, so its
 * emits are ignored) and counted as dropped.  Only this thread writes it. */
static _Thread_local volatile sig_atomic_t kp_busy;

void kpath_rt_register(struct kpath_rt_func *f)
{
	kp_rt_register(f);
}

/* The routine-entry marker "*" of the k-BLPP paper. */
static void enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c);

void kpath_rt_enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c)
{
	c->state = 0;
	c->n = 0;
	c->tau = c->beta = 0;
	c->act = 0;
	if (kp_busy) {
		kp_rt_drop(1);
		return;
	}
	kp_busy = 1;
	enter(f, c);
	kp_busy = 0;
}

static void enter(struct kpath_rt_func *f, struct kpath_rt_cursor *c)
{
	int slot = __atomic_load_n(&f->slot, __ATOMIC_ACQUIRE);
	if (slot == 0)
		slot = kp_rt_register(f);
	if (slot < 0)
		return;
	struct kp_thread *th = kp_thread_self();
	if (slot == 0 || !th) {
		kp_rt_drop(1);
		return;
	}
	struct kp_tfunc *tf = (uint32_t)slot <= th->nfuncs ? th->funcs[slot - 1] : 0;
	if (!tf && !(tf = kp_thread_func_slow(th, f, slot))) {
		kp_rt_drop(1);
		return;
	}
	c->state = tf;
	tf->cons->enter(tf, c);
	if (th->tbuf)
		kp_trace_enter(th, (uint32_t)slot - 1, c);
}

void kpath_rt_emit(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	struct kp_tfunc *tf = c->state;
	if (!tf)
		return;
	kp_busy = 1;
	if (tf->th->tbuf)
		kp_trace_event(tf->th, KP_TR_EMIT, c, id);
	kp_tfunc_item(tf, c, id);
	kp_busy = 0;
}

void kpath_rt_leave(struct kpath_rt_cursor *c, kpath_rt_u64 id)
{
	struct kp_tfunc *tf = c->state;
	if (!tf)
		return;
	kp_busy = 1;
	if (tf->th->tbuf)
		kp_trace_event(tf->th, KP_TR_LEAVE, c, id);
	kp_tfunc_item(tf, c, id);
	kp_busy = 0;
	c->state = 0; /* the activation is over */
}
