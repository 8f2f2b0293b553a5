/*
 * dump.c: writing the profile: kpath_dump() now, kp_atexit at exit, and
 * kp_dump_after_exit for what destructors record after that.
 *
 * No double counting: what a write puts into the file is removed from
 * memory (the global k-IPFs are cleared, the calling thread's counters
 * zeroed), so the next write adds only what was recorded since.  A write
 * that fails keeps the data for the next attempt.  Only the first write of
 * a process adds 1 to "runs" (of all the copies of the runtime a process
 * may hold, dso.c: kp_dso_claim_run).
 *
 * What a write covers: the global k-IPFs (threads that exited) plus the
 * calling thread.  At exit, also every thread still running (best effort:
 * their forests are read while they may still be emitting; the segments
 * never move, so this reads stale counters at worst).  kpath_dump() leaves
 * other running threads alone; their paths are written when they exit.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kp_internal.h"

struct kp_thread *kp_thread_peek(void);

static int nothing_new(void)
{
	if (!kp_rt.run_counted || kp_rt.threads_new || __atomic_load_n(&kp_rt.dropped, __ATOMIC_RELAXED))
		return 0;
	for (uint32_t i = 0; i < kp_rt.nfuncs; i++) {
		const struct kp_gfunc *g = &kp_rt.funcs[i];
		if (!g->written || g->ipf.n > 1 || g->emitted || g->invalid || g->dropped)
			return 0;
	}
	return 1;
}

void kp_dump_locked(void)
{
	if (nothing_new())
		return;
	struct kp_profile p;
	kp_profile_init(&p, kp_rt.k);
	kp_profile_reserve(&p, kp_rt.nfuncs);
	if (!kp_rt.run_counted && !kp_rt.run_claim)
		kp_rt.run_claim = kp_dso_claim_run() ? 1 : 2;
	p.runs = !kp_rt.run_counted && kp_rt.run_claim == 1;
	p.forked = kp_rt.forked;
	/* the whole-program totals (docs/profile-schema.md, "program"): this
	 * write counts the run if it is its first, and the threads that began
	 * since the last write */
	p.totals.runs = p.runs;
	p.totals.threads = kp_rt.threads_new;
	uint64_t dropped = __atomic_load_n(&kp_rt.dropped, __ATOMIC_RELAXED);
	p.dropped = dropped;
	int rc = 0;
	for (uint32_t i = 0; i < kp_rt.nfuncs && rc == 0; i++) {
		const struct kp_gfunc *g = &kp_rt.funcs[i];
		p.dropped += g->dropped;
		if (!g->lost)
			rc = kp_snapshot_func(&p, g->f, &g->ipf, g->emitted, g->invalid, 1);
	}
	char err[1024];
	char *out = kp_rt.redirect || !kp_rt.out ? NULL : kp_out_expand(kp_rt.out);
	if (rc != 0) {
		snprintf(err, sizeof err, "%s: out of memory while preparing the profile",
			 kp_rt.redirect ? kp_rt.redirect : kp_rt.out ? kp_rt.out : "KPATH_OUT");
	} else if (!kp_rt.redirect && !out) {
		snprintf(err, sizeof err, "%s: out of memory", kp_rt.out ? kp_rt.out : "KPATH_OUT");
		rc = KP_ENOMEM;
	} else if (kp_rt.redirect) {
		rc = kp_accumulate(kp_rt.redirect, &p, NULL, err, sizeof err);
	} else {
		rc = kp_accumulate(out, &p, &kp_rt.redirect, err, sizeof err);
	}
	free(out);
	kp_profile_free(&p); /* before the k-IPFs it may borrow change (snapshot.c) */
	if (rc != 0) {
		fprintf(stderr, "kpath: profile NOT written: %s%s\n", err,
			kp_rt.exited ? "" : " (the data is kept for the next write)");
		kp_rt.exit_write_failed = kp_rt.exited; /* one message, no retry after it */
	}
	if (rc == 0) {
		for (uint32_t i = 0; i < kp_rt.nfuncs; i++) {
			struct kp_gfunc *g = &kp_rt.funcs[i];
			kp_ipf_clear(&g->ipf);
			g->emitted = g->invalid = g->dropped = 0;
			g->written = 1;
		}
		__atomic_fetch_sub(&kp_rt.dropped, dropped, __ATOMIC_RELAXED);
		kp_rt.run_counted = 1;
		kp_rt.threads_new = 0; /* under mu, as kp_thread_self counts them */
	}
}

/* The writes (kpath_dump, the exit handler's, the one after the
 * destructors) count as inside the library for this thread's signal
 * handlers, as the library halves do (abi.c, "Signal handlers"): an
 * activation a handler enters meanwhile is not recorded.  A handler that
 * interrupted kpath_dump's trace flush appended its events to the very
 * buffer being written and zeroed, and recorded into the forests being
 * flushed (a traced program with a timer handler and kpath_dump calls:
 * the trace's replay differed from the profile, and the trace stopped with
 * "writing the trace: Success": tests/rtuse, case dump_handler); and a
 * program whose own malloc is instrumented recursed into the runtime
 * while it held its lock. */
static int busy_enter(void)
{
	int was = kpath_rt_busy;
	kpath_rt_busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return was;
}

static void busy_leave(int was)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	kpath_rt_busy = was;
}

void kpath_dump(void)
{
	kp_rt_init();
	struct kp_thread *self = kp_thread_peek();
	int was = busy_enter();
	struct kp_held cs = kp_lock(&kp_rt.mu);
	if (!kp_rt.exited) {
		if (self)
			kp_thread_flush(self);
		kp_dump_locked();
	}
	kp_unlock(&kp_rt.mu, cs);
	if (self)
		kp_streams_flush(self);
	/* what went to stdio is in the trace file now: a process that ends
	 * with _exit or a crash after kpath_dump() keeps it (dash ends every
	 * process with _exit) */
	kp_streams_sync();
	busy_leave(was);
}

/* Whether the calling thread may be running a signal handler: a signal
 * that has a handler is blocked in its mask (a handler runs with its own
 * signal blocked, unless installed with SA_NODEFER).  Conservative: a
 * thread that blocks such a signal on purpose is taken for one. */
static int maybe_in_handler(void)
{
	sigset_t cur;
	if (pthread_sigmask(SIG_SETMASK, NULL, &cur) != 0)
		return 1;
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (s == SIGKILL || s == SIGSTOP || sigismember(&cur, s) != 1 || sigaction(s, NULL, &sa) != 0)
			continue;
		if ((sa.sa_flags & SA_SIGINFO) ? sa.sa_sigaction != NULL
		                               : sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)
			return 1;
	}
	return 0;
}

/* Before an exec, an _exit or a daemon (kpath_rt.h): the exit handlers will
 * not run.  Only the calling thread's records are written, as by
 * kpath_dump: an exec that fails returns to a process whose other threads
 * go on, so their states are not read under them here (at exit, kp_atexit
 * reads them once, best effort); what they recorded since their last write
 * is lost.  The trace's buffer is written and its FILE flushed (exec drops
 * stdio buffers).  Nothing
 *  - in a vfork child, which runs in the parent's memory until its exec or
 *    _exit: a write there would change the parent's states under it (a
 *    getpid that is not the runtime's; the fork handler updates it in a
 *    forked child);
 *  - in what may be a signal handler (maybe_in_handler), or inside the
 *    library (kp_busy: a handler that interrupted it): handlers end
 *    processes with _exit, which is async-signal-safe, and the write is not
 *    (malloc, stdio, the runtime's locks: a handler that interrupted one of
 *    them would wait for itself);
 *  - when the runtime never started: nothing was recorded. */
void kpath_rt_dump_now(void)
{
	if (!kp_rt.cons || (long)getpid() != kp_rt.pid || kpath_rt_busy || maybe_in_handler())
		return;
	kpath_dump(); /* which flushes the trace's FILE too */
}

void kp_atexit(void)
{
	int was = busy_enter();
	struct kp_held cs = kp_lock(&kp_rt.mu);
	if (kp_rt.exited) {
		kp_unlock(&kp_rt.mu, cs);
		busy_leave(was);
		return;
	}
	for (struct kp_thread *th = kp_rt.threads; th; th = th->next) {
		kp_thread_flush(th);
		kp_thread_count_nodes(th);
	}
	kp_rt.exited = 1;
	/* Nothing joins into the global k-IPFs after this (exited): their
	 * lookup indexes would only add to the memory the snapshot's copies
	 * peak at (issue 14: peak memory against the forest). */
	for (uint32_t i = 0; i < kp_rt.nfuncs; i++)
		kp_ipf_drop_index(&kp_rt.funcs[i].ipf);
	kp_dump_locked();
	if (kp_rt.stats)
		fprintf(stderr, "kpath: stats: k %u, forest %s, %llu nodes (%llu KiB, child tables %llu KiB) in %llu thread(s); "
			"%llu of %llu items through the library\n", kp_rt.k,
			kp_rt.k == 1 ? (kp_rt.forest_nodes ? "ksf (functions above the counter arrays' limit)" : "none (counters)")
			             : kp_forest->name, (unsigned long long)kp_rt.forest_nodes,
			(unsigned long long)(kp_rt.forest_nodes * sizeof(struct kpath_rt_node) / 1024),
			(unsigned long long)(kp_rt.forest_table_bytes / 1024),
			(unsigned long long)kp_rt.forest_threads, (unsigned long long)kp_rt.lib_items,
			(unsigned long long)kp_rt.items);
	for (struct kp_thread *th = kp_rt.threads; th; th = th->next)
		kp_streams_flush(th);
	kp_streams_write_locked();
	kp_unlock(&kp_rt.mu, cs);
	kp_streams_sync();
	busy_leave(was); /* the destructors' paths are recorded (kp_dump_after_exit) */
}

/* The exit handlers run before the destructors (glibc's exit runs the
 * dynamic linker's _dl_fini, which runs every module's .fini_array, as
 * the handler registered first), so the destructors of the program and of
 * its libraries, and what they call, run after kp_atexit's write.  Each
 * module's last destructor (dso.c, kp_dso_release) calls this through the
 * serving runtime: what the calling thread recorded since the last write
 * is written now, and its trace buffer goes out (runs unchanged: only a
 * process's first write counts the run; nothing recorded, nothing
 * written).  Other threads still running at exit are not flushed again
 * (kp_atexit read them once, best effort); WPP grammars were closed by
 * kp_atexit's write and miss these paths (docs/design.md). */
void kp_dump_after_exit(void)
{
	struct kp_thread *self = kp_thread_peek();
	int was = busy_enter();
	struct kp_held cs = kp_lock(&kp_rt.mu);
	/* written (not lost: its message said so), not released */
	int live = kp_rt.exited && !kp_rt.exit_write_failed && kp_rt.funcs != NULL;
	if (live && self) {
		uint64_t items = kp_rt.items;
		kp_thread_flush(self); /* only what was recorded since */
		if (kp_rt.stats && kp_rt.items != items)
			fprintf(stderr, "kpath: stats: %llu items recorded after the exit handler's write (destructors)\n",
				(unsigned long long)(kp_rt.items - items));
		kp_dump_locked(); /* nothing new, nothing written */
	}
	kp_unlock(&kp_rt.mu, cs);
	if (live && self) {
		kp_streams_flush(self);
		kp_streams_sync();
	}
	busy_leave(was);
}
