/*
 * dso.c: the runtime in shared libraries, and libraries that go away.
 *
 * Every module (executable or shared library) linked with libkpath_rt.a
 * carries a copy of the runtime, whose kpath_* symbols are global with
 * default visibility.  The dynamic linker binds each module's references
 * to the first definition in lookup order, so normally one copy serves
 * the whole process: the executable's (`kpath config --libs` exports its
 * kpath_* symbols, so libraries loaded later bind to it too), else the
 * first instrumented library loaded at start-up.  A library opened with
 * dlopen when no copy is in the global scope uses its own.
 *
 * The runtime keeps pointers to the descriptors (struct kpath_rt_func) of
 * the functions that registered, and those live in the module of the
 * function.  When dlclose unloads a module, its destructors run first:
 * each copy of the runtime has kp_dso_fini below, which calls the serving
 * runtime's kpath_rt_module_fini with an address inside the unloading
 * module (kp_dso_marker: every copy has its own, a local symbol).  Then:
 *   - a module whose functions registered with a runtime elsewhere: every
 *     descriptor inside the module (dladdr gives the module's base) is
 *     copied to the heap with its strings and arrays, and every reference
 *     to it (the function's kp_gfunc, each thread's kp_tfunc) is pointed
 *     at the copy, under kp_rt.mu.  Nothing reads the unloaded module
 *     afterwards; its paths are written at exit like the others.  If the
 *     module is loaded again, its functions register into the same slots
 *     (same name, file and checksum), so counts add up and the profile
 *     lists each function once.
 *   - the module holding the serving runtime itself: the profile is
 *     written now (kp_atexit; its atexit registration is the module's own,
 *     so glibc would also run it at dlclose), the thread-exit key is
 *     deleted, since its destructor is about to be unmapped, and the
 *     runtime's memory is freed (a plugin loaded and unloaded in a loop
 *     leaks nothing).  Each such unload counts as a run (docs/design.md).
 * At process exit the destructors run after the exit handlers: the
 * profile is written already (kp_rt.exited); but not when a library's
 * constructor started its runtime before the program's start registered
 * the dynamic linker's exit handler: that exit looks like a dlclose.
 * Either way the module's own destructors, which may be instrumented, run
 * after that write: kp_dso_release, the module's last destructor, writes
 * what they recorded (kpath_rt_module_last, in the serving runtime), and
 * then frees the memory if its module held the runtime and is going.
 *
 * No code of a module runs after its dlclose, so no thread touches the
 * descriptor while it is replaced (the program must not call into a
 * library it closes; if it does, that is its bug, not ours).
 */
#define _GNU_SOURCE /* dladdr, dl_iterate_phdr */
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kp_internal.h"

void kp_atexit(void);

/* One byte of this copy's module (each copy of kpath_rt.o has its own). */
static const char kp_dso_marker = 1;

static void *module_base(const void *addr)
{
	Dl_info info;
	return dladdr(addr, &info) ? info.dli_fbase : NULL;
}

/* A heap copy of f with its strings and arrays (every pointer field of
 * struct kpath_rt_func: a field added there must be copied here): one allocation (freed
 * never: the copy lives until exit, like the registry); NULL on ENOMEM. */
static struct kpath_rt_func *desc_copy(const struct kpath_rt_func *f)
{
	size_t name = strlen(f->name) + 1, file = strlen(f->file) + 1, sum = strlen(f->checksum) + 1;
	size_t hash = f->source_hash ? strlen(f->source_hash) + 1 : 0;
	size_t lines = (size_t)f->num_blocks * sizeof *f->block_line;
	size_t last = f->block_last_line ? lines : 0;
	size_t edges = (size_t)f->num_edges * sizeof *f->edges;
	size_t n = sizeof *f + edges + lines + last + name + file + sum + hash;
	struct kpath_rt_func *c = kp_malloc(n);
	if (!c)
		return NULL;
	*c = *f;
	char *p = (char *)(c + 1); /* edges first: they need the strictest alignment */
	c->edges = memcpy(p, f->edges ? (const void *)f->edges : (const void *)"", edges);
	p += edges;
	c->block_line = memcpy(p, f->block_line, lines);
	p += lines;
	if (last) {
		c->block_last_line = memcpy(p, f->block_last_line, last);
		p += last;
	}
	c->name = memcpy(p, f->name, name);
	p += name;
	c->file = memcpy(p, f->file, file);
	p += file;
	c->checksum = memcpy(p, f->checksum, sum);
	p += sum;
	if (hash)
		c->source_hash = memcpy(p, f->source_hash, hash);
	c->next = NULL;
	return c;
}

/* Replaces the descriptors inside the module based at base by copies
 * (caller holds kp_rt.mu).  A descriptor that cannot be copied takes its
 * function out of the profile, counting its paths as dropped. */
static void copy_module_descriptors(void *base)
{
	for (uint32_t i = 0; i < kp_rt.nfuncs; i++) {
		struct kp_gfunc *g = &kp_rt.funcs[i];
		if (!g->f || g->copied || module_base(g->f) != base)
			continue;
		struct kpath_rt_func *c = desc_copy(g->f);
		if (!c)
			fprintf(stderr, "kpath: %s: out of memory while its library is unloaded; its paths are "
				"dropped\n", g->f->name);
		for (struct kp_thread *th = kp_rt.threads; th; th = th->next)
			if (i < th->nfuncs && th->funcs[i]) {
				if (!c)
					th->funcs[i]->dropped += kp_tfunc_emitted(th->funcs[i]);
				th->funcs[i]->f = c;
				/* in the module's TLS: never written again */
				th->funcs[i]->tally = NULL;
				th->funcs[i]->tpl = NULL;
			}
		if (c)
			kp_ppp_moved(g->f, c);
		if (!c) {
			g->dropped += g->emitted;
			g->lost = 1;
		}
		g->f = c;
		g->copied = 1;
		kp_rt.ncopied++;
	}
}

/* noinline, and global with default visibility: compiled with -fPIC,
 * kp_dso_fini's call goes through the PLT to the serving runtime's copy. */
__attribute__((noinline)) void kpath_rt_module_fini(const void *marker)
{
	void *mod = module_base(marker), *self = module_base(&kp_dso_marker);
	if (!mod || !self || !kp_rt.cons)
		return; /* unknown module, or this runtime never started */
	if (mod != self) {
		struct kp_held cs = kp_lock(&kp_rt.mu);
		if (!kp_rt.exited)
			copy_module_descriptors(mod);
		kp_unlock(&kp_rt.mu, cs);
		return;
	}
	/* The exit handlers run before the destructors, so at process exit
	 * the profile is written and other threads may still run instrumented
	 * code: nothing to do.  At dlclose, this destructor runs before the
	 * module's own atexit handlers (crtbegin's __do_global_dtors_aux, which
	 * calls __cxa_finalize, is the last entry of .fini_array to run). */
	if (kp_rt.exited || !kp_rt.atexit_ok)
		return;
	kp_atexit();
	if (kp_rt.key_ok) {
		kp_rt.key_ok = 0;
		pthread_key_delete(kp_rt.key);
	}
	/* the module's own destructors run after this one and may be
	 * instrumented (libquadmath's unregister_printf_flt128): the memory
	 * goes when they are done, in kp_dso_release */
	kp_rt.release_pending = 1;
}

/* Runs when this copy's module is unloaded (and at exit). */
__attribute__((destructor)) static void kp_dso_fini(void)
{
	kpath_rt_module_fini(&kp_dso_marker);
}

/* The serving runtime's half of kp_dso_release: once the profile is
 * written (at exit, or at the dlclose of its own module), the paths that
 * the destructors run since then recorded (dump.c, kp_dump_after_exit).
 * Global, noinline, default visibility, like kpath_rt_module_fini. */
__attribute__((noinline)) void kpath_rt_module_last(void)
{
	if (kp_rt.cons && kp_rt.exited)
		kp_dump_after_exit();
}

/* Priority 101: after every other destructor of this module (.fini_array
 * runs last what it holds first, the prioritized entries), crtbegin's
 * __cxa_finalize of the module's exit handlers included: the module's
 * destructors have recorded all they will, and are written; then, if this
 * module held the serving runtime and is being unloaded, its memory goes. */
__attribute__((destructor(101))) static void kp_dso_release(void)
{
	kpath_rt_module_last();
	if (kp_rt.release_pending) {
		kp_rt.release_pending = 0;
		kp_rt_release(); /* nothing of this module runs again */
	}
}

/* One run per process, whatever the number of copies writing.  A library
 * linked with a version script that makes everything but its own API local
 * (zlib's, liblzma's, expat's...) keeps its copy of the runtime to itself,
 * so a process can have several serving copies, each writing its own
 * functions' paths into the same profile: each write must not count a
 * run.  Every copy has a word, kp_run_pid, that every copy in the process
 * finds through an ELF note of its module (name "kpath", type
 * KP_RUN_NOTE, its descriptor the word's offset from the descriptor, fixed
 * at link time: no relocation, no symbol): the first module holding such a
 * note in dl_iterate_phdr's order (the executable, then the libraries as
 * loaded) is the leader, and the copy that first swaps the process id
 * into the leader's word counts the run.  A forked child's id differs from
 * the one it inherited, so it counts its own run.  (If the leader is
 * unloaded while other copies live, the next leader's word counts the run
 * again: a library that carries the runtime, opened and closed with
 * dlopen, counts a run at each unload anyway, docs/design.md.) */
#define KP_RUN_NOTE 0x4b505254 /* the note's type (the asm below spells it) */
#define KP_STR_(x) #x
#define KP_STR(x) KP_STR_(x)
static int kp_run_pid __attribute__((used));
#if defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#if defined(__x86_64__) || defined(__i386__)
#define KP_NOTE_TYPE "@note"
#else
#define KP_NOTE_TYPE "%note"
#endif
__asm__("\t.pushsection .note.kpath_run, \"a\", " KP_NOTE_TYPE "\n\t.balign 4\n"
	"\t.long 6\n\t.long 8\n\t.long " KP_STR(KP_RUN_NOTE) "\n\t.asciz \"kpath\"\n\t.balign 4\n"
	"\t.quad kp_run_pid - .\n\t.popsection\n");
#endif

static int find_leader(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_NOTE)
			continue;
		size_t align = ph->p_align == 8 ? 8 : 4;
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)p;
			const char *name = p + sizeof *n;
			const char *desc = name + ((n->n_namesz + align - 1) & ~(align - 1));
			const char *next = desc + ((n->n_descsz + align - 1) & ~(align - 1));
			if (next > end || next <= p)
				break;
			if (n->n_type == KP_RUN_NOTE && n->n_namesz == 6 && n->n_descsz == 8 && !memcmp(name, "kpath", 6)) {
				int64_t off;
				memcpy(&off, desc, sizeof off);
				*(int **)data = (int *)(void *)(desc + off);
				return 1;
			}
			p = next;
		}
	}
	return 0;
}

/* The leader's word, or this copy's own where no note is found (not ELF,
 * or stripped of it). */
static int *leader_word(void)
{
	int *word = NULL;
	dl_iterate_phdr(find_leader, &word);
	return word ? word : &kp_run_pid;
}

int kp_dso_claim_run(void)
{
	int me = (int)getpid();
	return __atomic_exchange_n(leader_word(), me, __ATOMIC_SEQ_CST) != me;
}

/* NULL where this copy is the leader (or alone); else this copy's module's
 * file name (its last component; malloc'ed), which the copy's trace takes
 * as a suffix: two copies writing one trace file made it unreadable
 * (trace.c, trace_on). */
char *kp_dso_follower_name(void)
{
	if (leader_word() == &kp_run_pid)
		return NULL;
	Dl_info info;
	const char *name = dladdr(&kp_dso_marker, &info) && info.dli_fname && *info.dli_fname ? info.dli_fname : "module";
	const char *base = strrchr(name, '/');
	char *r = strdup(base ? base + 1 : name);
	return r ? r : strdup("module");
}

int kp_dso_reuse_slot(const struct kpath_rt_func *f)
{
	if (!kp_rt.ncopied)
		return 0;
	for (uint32_t i = 0; i < kp_rt.nfuncs; i++) {
		const struct kp_gfunc *g = &kp_rt.funcs[i];
		if (g->copied && g->f && g->f->num_paths == f->num_paths && !strcmp(g->f->checksum, f->checksum) &&
		    !strcmp(g->f->name, f->name) && !strcmp(g->f->file, f->file))
			return (int)i + 1;
	}
	return 0;
}
