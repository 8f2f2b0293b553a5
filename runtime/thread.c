/*
 * thread.c: per-thread state.  Each thread owns one kp_tfunc per function
 * it ran, found by slot in an array that only the owner grows (old arrays
 * are retired, not freed, so that the exit handler can walk a thread that
 * is still running).  The state is reached through a _Thread_local pointer
 * on the hot path and through a pthread key whose destructor merges it into
 * the global k-IPFs when the thread exits.
 */
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

_Thread_local struct kp_thread *kp_thread_current;
_Thread_local void *const *kpath_rt_markers;
_Thread_local unsigned kpath_rt_nmarkers;
_Thread_local kpath_rt_u64 *const *kpath_rt_counters;
_Thread_local unsigned kpath_rt_ncounters;
_Thread_local unsigned kp_ncounters;

/* Publishes th->markers and th->counters to the inline enter and count of
 * this thread: the arrays are complete before their addresses are stored,
 * and their addresses before their sizes, so that a signal handler running
 * between two stores sees a consistent prefix (kpath_rt.h).  Inside the
 * library (kpath_rt_busy) the count's bound stays 0 until busy_leave. */
static void publish(struct kp_thread *th)
{
	if (kp_thread_current != th)
		return;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	kpath_rt_markers = th->markers;
	kpath_rt_counters = th->counters;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	kpath_rt_nmarkers = th->markers ? th->nfuncs : 0;
	kp_ncounters = th->counters ? th->nfuncs : 0;
	if (!kpath_rt_busy)
		kpath_rt_ncounters = kp_ncounters;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void unpublish(void)
{
	kpath_rt_nmarkers = 0;
	kpath_rt_ncounters = kp_ncounters = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	kpath_rt_markers = NULL;
	kpath_rt_counters = NULL;
}

/* The counter array the inline count may use for tf: the counts
 * consumer's array (k = 1 or an acyclic function; null for a hash table),
 * none for a k-SF or while tracing. */
static kpath_rt_u64 *counters_of(const struct kp_thread *th, const struct kp_tfunc *tf)
{
	return tf && !kp_thread_lib_only(th) ? tf->marker.cnt : NULL;
}

void kp_thread_publish(struct kp_thread *th)
{
	for (uint32_t i = 0; th->markers && i < th->nfuncs; i++) {
		th->markers[i] = th->funcs[i] && !kp_thread_lib_only(th) ? th->funcs[i]->pub.x : NULL;
		th->counters[i] = counters_of(th, th->funcs[i]);
	}
	publish(th);
}

struct kp_thread *kp_thread_peek(void)
{
	return kp_thread_current;
}

struct kp_thread *kp_thread_self(void)
{
	if (kp_thread_current)
		return kp_thread_current;
	struct kp_thread *th = kp_calloc(1, sizeof *th);
	if (!th)
		return NULL;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
	/* the x86-64 ABI's thread pointer: %fs:0 holds %fs's base (the
	 * trampolines' trace step compares it, abi.c) */
	__asm__("movq %%fs:0, %0" : "=r"(th->tp));
#endif
	th->busy = &kpath_rt_busy;
	struct kp_held cs = kp_lock(&kp_rt.mu);
	th->tid = kp_rt.next_tid++;
	kp_rt.threads_new++;
	kp_streams_thread_new(th);
	kp_tr_thread_add(th);
	th->next = kp_rt.threads;
	kp_rt.threads = th;
	kp_unlock(&kp_rt.mu, cs);
	if (kp_rt.key_ok)
		pthread_setspecific(kp_rt.key, th);
	kp_thread_current = th;
	return th;
}

struct kp_tfunc *kp_thread_func_slow(struct kp_thread *th, struct kpath_rt_func *f, int slot, unsigned k)
{
	uint32_t i = (uint32_t)slot - 1;
	if (i >= th->nfuncs) {
		uint32_t n = th->nfuncs ? th->nfuncs : 16;
		while (n <= i)
			n *= 2;
		struct kp_tfunc **a = kp_calloc(n, sizeof *a);
		void **m = kp_calloc(n, sizeof *m);
		kpath_rt_u64 **cn = kp_calloc(n, sizeof *cn);
		void **ret = kp_realloc(th->retired, (th->nretired + 3) * sizeof *ret);
		if (ret)
			th->retired = ret;
		if (!a || !m || !cn || !ret) {
			free(a);
			free(m);
			free(cn);
			return NULL;
		}
		if (th->nfuncs) {
			memcpy(a, th->funcs, th->nfuncs * sizeof *a);
			memcpy(m, th->markers, th->nfuncs * sizeof *m);
			memcpy(cn, th->counters, th->nfuncs * sizeof *cn);
		}
		th->retired[th->nretired++] = th->funcs;
		th->retired[th->nretired++] = th->markers;
		th->retired[th->nretired++] = th->counters;
		/* publish the filled arrays, then their size */
		th->funcs = a;
		th->markers = m;
		th->counters = cn;
		th->nfuncs = n;
		publish(th);
	}
	struct kp_tfunc *tf = kp_tfunc_new(f, k);
	if (!tf)
		return NULL;
	if (kp_thread_lib_only(th))
		kp_tfunc_library_only(tf); /* the trace writer or the WPP sees every item */
	tf->th = th;
	th->funcs[i] = tf;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	th->markers[i] = kp_thread_lib_only(th) ? NULL : tf->pub.x;
	th->counters[i] = counters_of(th, tf);
	return tf;
}

void kp_thread_tally(struct kp_tfunc *tf, kpath_rt_u64 **a)
{
	kpath_rt_u64 *cnt = counters_of(tf->th, tf);
	if (!cnt || *a)
		return;
	tf->tally = a;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	*a = cnt;
}

void kp_thread_template(struct kp_tfunc *tf, void **t)
{
	if (kp_thread_lib_only(tf->th) || !tf->pub.x || *t)
		return;
	tf->tpl = t;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	*t = tf->pub.x;
}

void kp_thread_untally(struct kp_thread *th)
{
	for (uint32_t i = 0; i < th->nfuncs; i++) {
		struct kp_tfunc *tf = th->funcs[i];
		if (tf && tf->tally) {
			*tf->tally = NULL;
			tf->tally = NULL;
		}
		if (tf && tf->tpl) {
			*tf->tpl = NULL;
			tf->tpl = NULL;
		}
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

/* Caller holds kp_rt.mu.  Moves counters and k-IPFs into kp_rt.funcs (and
 * counts their items into kp_rt.items); on
 * allocation failure the events of the function are counted as dropped
 * (the global k-IPF may then hold part of them).  A function that
 * recorded nothing since the last flush is left alone: its forest's
 * nodes, all zero, would only join the global k-IPF to be pruned, and
 * make the next write think there is something new (kp_dump_after_exit:
 * every k >= 2 run wrote its profile a second time at exit). */
void kp_thread_flush(struct kp_thread *th)
{
	for (uint32_t i = 0; i < th->nfuncs && i < kp_rt.nfuncs; i++) {
		struct kp_tfunc *tf = th->funcs[i];
		if (!tf)
			continue;
		struct kp_gfunc *g = &kp_rt.funcs[i];
		uint64_t emitted = kp_tfunc_emitted(tf); /* its dropped items included */
		if (emitted == 0 && tf->invalid == 0)
			continue;
		kp_rt.items += emitted + tf->invalid;
		if (tf->cons->to_ipf(tf, &g->ipf) != 0)
			g->dropped += emitted;
		g->emitted += emitted;
		g->invalid += tf->invalid;
		g->dropped += tf->dropped;
		tf->invalid = tf->dropped = 0;
		tf->cons->zero(tf);
	}
}

static void thread_free(struct kp_thread *th)
{
	kp_tr_thread_forget(th); /* before its states go: the trampolines read them */
	for (uint32_t i = 0; i < th->nfuncs; i++)
		kp_tfunc_free(th->funcs[i]);
	free(th->funcs);
	free(th->markers);
	free(th->counters);
	for (uint32_t i = 0; i < th->nretired; i++)
		free(th->retired[i]);
	free(th->retired);
	kp_streams_thread_free(th);
	kp_trec_free_all(th);
	free(th);
}

void kp_thread_free_all(void)
{
	while (kp_rt.threads) {
		struct kp_thread *th = kp_rt.threads;
		kp_rt.threads = th->next;
		thread_free(th);
	}
}

void kp_thread_count_nodes(struct kp_thread *th)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < th->nfuncs; i++)
		if (th->funcs[i])
			n += kp_tfunc_nodes(th->funcs[i], &kp_rt.forest_table_bytes);
	kp_rt.forest_nodes += n;
	kp_rt.forest_threads += n > 0;
	kp_rt.lib_items += th->lib_items;
	th->lib_items = 0;
}

void kp_thread_exit(void *p)
{
	struct kp_thread *th = p;
	struct kp_held cs = kp_lock(&kp_rt.mu);
	if (!kp_rt.exited) {
		kp_thread_flush(th);
		kp_thread_count_nodes(th);
	}
	kp_streams_thread_end(th);
	kp_thread_untally(th); /* th's arrays go below; we are th's thread */
	for (struct kp_thread **pp = &kp_rt.threads; *pp; pp = &(*pp)->next)
		if (*pp == th) {
			*pp = th->next;
			break;
		}
	kp_unlock(&kp_rt.mu, cs);
	if (kp_thread_current == th) {
		unpublish();
		kp_thread_current = NULL;
	}
	thread_free(th);
}
