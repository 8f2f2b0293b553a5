/*
 * rt.c: the runtime's global state: one-time initialisation from the
 * environment, function registration, fork handling.
 *
 * Environment (read once, at the first registration):
 *   KPATH_K      1..64, default 4: path length k of the k-IPF (1: plain
 *                Ball-Larus counts)
 *   KPATH_OUT    profile file, default "kpath.json" in the current directory;
 *                %p, %h, %m, %% expanded at each write (out_path.c)
 *   KPATH_TRACE  if set, also write the raw stream to this file (trace.c)
 *   KPATH_FOREST window (default) or ksf: how k >= 2 builds its forest
 *                (consumer.c); the k-IPF is the same
 *   KPATH_STATS  1: print the forests' sizes at exit; 0 or unset: do not
 *   KPATH_MODE   wpp: also build each thread's whole program path (wpp.c)
 *                and write it at exit to KPATH_WPP (default kpath.wpp)
 *
 * Registration is the only place instrumented code takes a lock: slot is
 * read with an acquire load on every enter and written (release) under
 * kp_rt.mu, once.  Slot -1 marks a descriptor the runtime refuses (wrong
 * ABI); its activations are ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kp_internal.h"

struct kp_rt kp_rt = {
	.mu = PTHREAD_MUTEX_INITIALIZER,
	.tmu = PTHREAD_MUTEX_INITIALIZER,
	.k = KP_KDEFAULT,
};

static pthread_once_t kp_once = PTHREAD_ONCE_INIT;

void kp_atexit(void);

/* Environment values are parsed strictly: exactly the documented spelling,
 * no blanks around it (" 4" and "4 " are both refused), anything else
 * refused with a one-line warning naming the default used instead. */
static unsigned parse_k(void)
{
	const char *s = getenv("KPATH_K");
	if (!s || !*s)
		return KP_KDEFAULT;
	unsigned long v = 0;
	size_t n = strspn(s, "0123456789");
	if (n > 0 && n <= 2 && !s[n])
		v = strtoul(s, NULL, 10);
	if (v < 1 || v > KP_KMAX) {
		fprintf(stderr, "kpath: KPATH_K=\"%s\": expected an integer in 1..%d (digits only); using %u\n", s,
			KP_KMAX, KP_KDEFAULT);
		return KP_KDEFAULT;
	}
	return (unsigned)v;
}

/* KPATH_STATS: "1" on; unset, empty or "0" off. */
static int parse_stats(void)
{
	const char *s = getenv("KPATH_STATS");
	if (!s || !*s || strcmp(s, "0") == 0)
		return 0;
	if (strcmp(s, "1") == 0)
		return 1;
	fprintf(stderr, "kpath: KPATH_STATS=\"%s\": expected 1 (on) or 0 (off); stats off\n", s);
	return 0;
}

/* fork: the child starts with empty profile data (the parent writes what
 * was recorded before the fork) and without a trace; it becomes a run of
 * its own.  Other threads do not exist in the child: their states are
 * unlinked and leaked, since they may have been mid-update. */
static struct kp_held fork_cs; /* the forking thread's state before kp_lock, under mu */
static void fork_prepare(void)
{
	fork_cs = kp_lock(&kp_rt.mu);
	pthread_mutex_lock(&kp_rt.tmu);
	if (kp_trace_ok_locked())
		fflush(kp_rt.trace);
}

static void fork_parent(void)
{
	pthread_mutex_unlock(&kp_rt.tmu);
	kp_unlock(&kp_rt.mu, fork_cs);
}

struct kp_thread *kp_thread_peek(void);

static void fork_child(void)
{
	pthread_mutex_init(&kp_rt.mu, NULL);
	pthread_mutex_init(&kp_rt.tmu, NULL);
	struct kp_thread *self = kp_thread_peek();
	kp_rt.threads = NULL;
	if (self) {
		self->next = NULL;
		kp_rt.threads = self;
		for (uint32_t i = 0; i < self->nfuncs; i++) {
			struct kp_tfunc *tf = self->funcs[i];
			if (tf) {
				tf->cons->zero(tf);
				tf->invalid = tf->dropped = 0;
			}
		}
		kp_streams_fork_child(self);
		kp_thread_publish(self); /* no trace now: the inline enter may run */
	}
	for (uint32_t i = 0; i < kp_rt.nfuncs; i++) {
		struct kp_gfunc *g = &kp_rt.funcs[i];
		kp_ipf_clear(&g->ipf);
		g->emitted = g->invalid = g->dropped = 0;
		g->written = 0;
	}
	kp_rt.dropped = 0;
	kp_rt.run_counted = 0;
	kp_rt.run_claim = 0;
	kp_rt.threads_new = self != NULL; /* the child's one thread */
	/* Live activations go on in the child: a k-IPF sequence that began
	 * before the fork ends here, its beginning counted in the parent's
	 * profile.  The profile says so (struct kp_profile, forked). */
	kp_rt.forked = 1;
	kp_rt.pid = (long)getpid();
	free(kp_rt.redirect); /* the parent's fallback file: its pid is in the name */
	kp_rt.redirect = NULL;
	if (!self)
		kp_streams_fork_child(NULL);
	kp_held_restore(fork_cs); /* fork_prepare's kp_lock (the locks are new) */
}

/* KPATH_OUT is relative to the directory current at the first
 * registration, not at exit (the program may chdir meanwhile).  It is a
 * pattern (out_path.c), so a % in the directory's name becomes %%. */
static char *absolute(const char *path)
{
	char cwd[4096];
	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		return strdup(path);
	size_t n = 2 * strlen(cwd) + strlen(path) + 2, j = 0;
	char *s = malloc(n);
	if (!s)
		return NULL;
	for (const char *c = cwd; *c; c++) {
		s[j++] = *c;
		if (*c == '%')
			s[j++] = '%';
	}
	snprintf(s + j, n - j, "/%s", path);
	return s;
}

/* What atexit() does (glibc's atexit is __cxa_atexit with the module's
 * __dso_handle), spelled out: so the handler belongs to the module this
 * runtime is in even where atexit itself is interposed (ThreadSanitizer's
 * atexit registers for the whole process, and would call into a library
 * that was unloaded), and runs at its dlclose (dso.c). */
int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
extern void *__dso_handle;

static void atexit_cb(void *unused)
{
	(void)unused;
	kp_atexit();
}

static void init_once(void)
{
	/* Busy while it runs: the C library may call a malloc the program
	 * defines here (the trace's fdopen, pthread_key_create), and that
	 * malloc's own instrumentation must be dropped (kpath_rt_busy), not
	 * come back to register and wait for this very pthread_once (a
	 * program with its own malloc hung at its first traced call:
	 * e2e.licm's own_malloc.c).  The runtime's own memory never comes
	 * from there (own_alloc.c). */
	int busy = kpath_rt_busy;
	kpath_rt_busy = 1;
	int cs; /* cancellation points here (the trace's fopen): as under kp_lock */
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cs);
	kp_rt.k = parse_k();
	kp_rt.stats = parse_stats();
	kp_rt.pid = (long)getpid();
	const char *forest = getenv("KPATH_FOREST");
	if (kp_forest_select(forest) != 0)
		fprintf(stderr, "kpath: KPATH_FOREST=%s: expected window or ksf; using window\n", forest);
	kp_rt.cons = kp_consumer_for(kp_rt.k);
	const char *out = getenv("KPATH_OUT");
	kp_rt.out = absolute(out && *out ? out : "kpath.json");
	if (out)
		kp_out_pattern_warn("KPATH_OUT", out);
	kp_rt.key_ok = pthread_key_create(&kp_rt.key, kp_thread_exit) == 0;
	kp_streams_open();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	kp_rt.atexit_ok = __cxa_atexit(atexit_cb, NULL, __dso_handle) == 0;
	if (!kp_rt.atexit_ok)
		fprintf(stderr, "kpath: cannot register the exit handler; call kpath_dump() to write the profile\n");
	pthread_setcancelstate(cs, &cs);
	kpath_rt_busy = busy;
}

void kp_rt_init(void)
{
	pthread_once(&kp_once, init_once);
}

void kp_rt_release(void)
{
	struct kp_held cs = kp_lock(&kp_rt.mu);
	/* the modules this runtime served are still loaded (their destructors
	 * run first): their threads' pointers go back to null before the
	 * arrays they point at are freed */
	for (struct kp_thread *th = kp_rt.threads; th; th = th->next)
		kp_thread_untally(th);
	kp_thread_free_all();
	for (uint32_t i = 0; i < kp_rt.nfuncs; i++) {
		struct kp_gfunc *g = &kp_rt.funcs[i];
		kp_ipf_free(&g->ipf);
		if (g->copied)
			free(g->f);
	}
	free(kp_rt.funcs);
	kp_rt.funcs = NULL;
	kp_rt.nfuncs = kp_rt.cap = 0;
	free(kp_rt.out);
	free(kp_rt.redirect);
	kp_rt.out = kp_rt.redirect = NULL;
	kp_unlock(&kp_rt.mu, cs);
	kp_streams_close();
}

void kp_rt_drop(uint64_t n)
{
	__atomic_fetch_add(&kp_rt.dropped, n, __ATOMIC_RELAXED);
}

static int usable(const struct kpath_rt_func *f)
{
	return f->abi == KPATH_RT_ABI && f->name && f->file && f->checksum && f->num_blocks >= 2 &&
	       f->block_line && (f->num_edges == 0 || f->edges);
}

int kp_rt_register(struct kpath_rt_func *f)
{
	kp_rt_init();
	int slot = __atomic_load_n(&f->slot, __ATOMIC_ACQUIRE);
	if (slot)
		return slot;
	struct kp_held cs = kp_lock(&kp_rt.mu);
	slot = f->slot;
	if (slot)
		goto out;
	if (!usable(f)) {
		fprintf(stderr, "kpath: %s: descriptor of ABI %u (runtime has %d) or incomplete; not profiled\n",
			f->abi == KPATH_RT_ABI && f->name ? f->name : "?", f->abi, KPATH_RT_ABI);
		slot = -1;
		__atomic_store_n(&f->slot, slot, __ATOMIC_RELEASE);
		goto out;
	}
	if ((slot = kp_dso_reuse_slot(f)) != 0) { /* its library was loaded again */
		__atomic_store_n(&f->slot, slot, __ATOMIC_RELEASE);
		goto out;
	}
	if (kp_rt.nfuncs == kp_rt.cap) {
		uint32_t cap = kp_rt.cap ? 2 * kp_rt.cap : 64;
		struct kp_gfunc *a = realloc(kp_rt.funcs, cap * sizeof *a);
		if (!a)
			goto out; /* slot stays 0: retried at the next enter */
		kp_rt.funcs = a;
		kp_rt.cap = cap;
	}
	struct kp_gfunc *g = &kp_rt.funcs[kp_rt.nfuncs];
	memset(g, 0, sizeof *g);
	if (kp_ipf_init(&g->ipf) != 0)
		goto out;
	g->f = f;
	slot = (int)++kp_rt.nfuncs;
	kp_streams_func(f, (uint32_t)slot - 1);
	__atomic_store_n(&f->slot, slot, __ATOMIC_RELEASE);
out:
	kp_unlock(&kp_rt.mu, cs);
	return slot;
}
