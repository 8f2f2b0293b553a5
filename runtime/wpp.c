/*
 * wpp.c: KPATH_MODE=wpp, whole program paths (Larus, "Whole Program
 * Paths", PLDI 1999; the "WPP paper").  Each thread's stream of completed
 * Ball-Larus paths, the symbols (function slot - 1, path ID) in the order
 * the trace (trace.c) records its EMIT and LEAVE events, goes into that
 * thread's own SEQUITUR(1) grammar (sequitur.c) as it runs; at exit every
 * grammar is written to KPATH_WPP (default "kpath.wpp"), atomically (a
 * temporary file, fsync, rename).  Format: docs/wpp-format.md; in short
 *
 *   file  = magic "KPWPP\0\0\1" (8 bytes), varint version (1), chunk*
 *   chunk = type byte, varint payload length, payload
 *   'F'   = one function, the trace's 'F' payload (docs/trace-format.md)
 *   'G'   = one thread's grammar: varint thread, varint length (symbols of
 *           the stream), varint dropped, varint nterms, nterms x (varint
 *           func, varint id), varint nrules, then per rule (S first)
 *           varint len, len x varint symbol (terminal t: 2t; rule r: 2r+1)
 *   'E'   = the end (empty): a file without it is truncated
 *
 * Threads.  A grammar is only ever changed by its own thread.  A thread
 * that ends hands its grammar to kp_rt.wpp_done (under kp_rt.mu).  At exit
 * the writer closes the grammars of threads still running: it sets closed
 * and waits (bounded) until the thread is not inside an append; a thread
 * that appends after that drops (counts) its symbols.
 *
 * Memory: the grammars' (sequitur.h); when an allocation fails, the thread's
 * stream is cut there and the file says how many symbols were dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kp_internal.h"
#include "sequitur.h"

struct kp_wppt {
	struct kp_sq g;
	uint64_t tid;
	int in_append;          /* the owning thread is inside kp_sq_append */
	int closed;             /* the exit writer took the grammar */
	struct kp_wppt *next;   /* kp_rt.wpp_done */
};

static void wpp_open(void)
{
	const char *mode = getenv("KPATH_MODE");
	if (!mode || strcmp(mode, "wpp") != 0)
		return;
	const char *path = getenv("KPATH_WPP");
	char cwd[4096];
	if (!path || !*path)
		path = "kpath.wpp";
	/* relative to the directory current now, like KPATH_OUT (rt.c): the
	 * program may chdir before it exits */
	if (path[0] != '/' && getcwd(cwd, sizeof cwd)) {
		size_t n = strlen(cwd) + strlen(path) + 2;
		kp_rt.wpp_path = malloc(n);
		if (kp_rt.wpp_path)
			snprintf(kp_rt.wpp_path, n, "%s/%s", cwd, path);
	} else {
		kp_rt.wpp_path = strdup(path);
	}
	kp_rt.wpp_on = kp_rt.wpp_path != NULL;
	if (!kp_rt.wpp_on)
		fprintf(stderr, "kpath: KPATH_MODE=wpp: out of memory; no WPP\n");
}

static struct kp_wppt *grammar_new(uint64_t tid)
{
	struct kp_wppt *w = kp_calloc(1, sizeof *w);
	if (!w)
		return NULL;
	if (kp_sq_init(&w->g, 1) != 0) {
		free(w);
		return NULL;
	}
	w->tid = tid;
	return w;
}

static void grammar_free(struct kp_wppt *w)
{
	if (!w)
		return;
	kp_sq_free(&w->g);
	free(w);
}

static void wpp_item(struct kp_thread *th, int kind, uint32_t index, const struct kp_cursor *c, uint64_t id)
{
	struct kp_wppt *w = th->wpp;
	(void)kind, (void)c;
	if (!w)
		return;
	/* Dekker-style with the writer's close: whichever store comes first,
	 * the writer never reads a grammar halfway through an append */
	__atomic_store_n(&w->in_append, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&w->closed, __ATOMIC_SEQ_CST))
		kp_sq_append(&w->g, index, id);
	else
		w->g.dropped++;
	__atomic_store_n(&w->in_append, 0, __ATOMIC_RELEASE);
}

static void wpp_thread_end(struct kp_thread *th)
{
	if (!th->wpp)
		return;
	th->wpp->next = kp_rt.wpp_done;
	kp_rt.wpp_done = th->wpp;
	th->wpp = NULL;
}

static void wpp_fork_child(struct kp_thread *self)
{
	/* the parent writes what was recorded before the fork; the child
	 * records nothing (as with KPATH_TRACE) */
	if (self) {
		grammar_free(self->wpp);
		self->wpp = NULL;
	}
	kp_rt.wpp_done = NULL; /* the parent's; leaked, like other threads' state */
	kp_rt.wpp_on = 0;
}

/* ---- serialisation ---------------------------------------------------- */

/* A chunk: type, length, then the payload in c. */
static void put_chunk(struct kp_bytes *b, int type, const struct kp_bytes *c)
{
	unsigned char t = (unsigned char)type;
	kp_bytes_put(b, &t, 1);
	kp_bytes_varint(b, c->len);
	kp_bytes_put(b, c->p, c->len);
	b->oom |= c->oom;
}

static const struct kp_sq *sort_g;
static int by_serial(const void *a, const void *b)
{
	uint32_t x = sort_g->rule[*(const uint32_t *)a].serial, y = sort_g->rule[*(const uint32_t *)b].serial;
	return x < y ? -1 : x > y;
}

/* One 'G' payload: rules renumbered densely in creation order (S = 0). */
static void put_grammar(struct kp_bytes *c, const struct kp_wppt *w)
{
	const struct kp_sq *g = &w->g;
	uint32_t *order = malloc(((size_t)g->live_rules + 1) * sizeof *order);
	uint32_t *num = malloc(((size_t)g->nrule + 1) * sizeof *num);
	if (!order || !num) {
		free(order);
		free(num);
		c->oom = 1;
		return;
	}
	uint32_t n = 0;
	for (uint32_t r = 0; r < g->nrule; r++)
		if (kp_sq_live(g, r))
			order[n++] = r;
	sort_g = g;
	qsort(order, n, sizeof *order, by_serial);
	for (uint32_t i = 0; i < n; i++)
		num[order[i]] = i;
	kp_bytes_varint(c, w->tid);
	kp_bytes_varint(c, g->length);
	kp_bytes_varint(c, g->dropped);
	kp_bytes_varint(c, g->nterm);
	for (uint32_t t = 0; t < g->nterm; t++) {
		kp_bytes_varint(c, g->term[t].func);
		kp_bytes_varint(c, g->term[t].id);
	}
	kp_bytes_varint(c, n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t gd = g->rule[order[i]].guard, len = 0;
		for (uint32_t s = g->node[gd].next; s != gd; s = g->node[s].next)
			len++;
		kp_bytes_varint(c, len);
		for (uint32_t s = g->node[gd].next; s != gd; s = g->node[s].next) {
			uint32_t sym = g->node[s].sym;
			kp_bytes_varint(c, KP_SQ_TAG(sym) == KP_SQ_RULE ? (uint64_t)num[KP_SQ_VAL(sym)] << 1 | 1
								   : (uint64_t)KP_SQ_VAL(sym) << 1);
		}
	}
	free(order);
	free(num);
}

/* Takes w from its (running) thread: 0, or -1 when the thread stays inside
 * an append (it was interrupted there by whatever called exit). */
static int close_grammar(struct kp_wppt *w)
{
	__atomic_store_n(&w->closed, 1, __ATOMIC_SEQ_CST);
	for (unsigned spins = 0; __atomic_load_n(&w->in_append, __ATOMIC_SEQ_CST); spins++) {
		if (spins > 100000)
			return -1;
		sched_yield();
	}
	return 0;
}

static int collect(struct kp_wppt ***all, size_t *n, size_t *cap, struct kp_wppt *w)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 16;
		struct kp_wppt **a = realloc(*all, c * sizeof *a);
		if (!a)
			return 1;
		*all = a;
		*cap = c;
	}
	(*all)[(*n)++] = w;
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	uint64_t x = (*(struct kp_wppt *const *)a)->tid, y = (*(struct kp_wppt *const *)b)->tid;
	return x < y ? -1 : x > y;
}

static int fill_wpp(void *f, void *b, char *why, size_t whylen)
{
	const struct kp_bytes *bytes = b;

	if (fwrite(bytes->p, 1, bytes->len, f) != bytes->len) {
		snprintf(why, whylen, "write error: %s", strerror(errno));
		return KP_EIO;
	}
	return 0;
}

static void wpp_write_locked(void)
{
	if (!kp_rt.wpp_on)
		return;
	kp_rt.wpp_on = 0; /* once */
	struct kp_wppt **all = NULL;
	size_t n = 0, cap = 0;
	int oom = 0;
	for (struct kp_wppt *w = kp_rt.wpp_done; w; w = w->next)
		oom |= collect(&all, &n, &cap, w);
	for (struct kp_thread *th = kp_rt.threads; th; th = th->next) {
		if (!th->wpp)
			continue;
		if (close_grammar(th->wpp) != 0)
			fprintf(stderr, "kpath: thread %llu is inside its grammar at exit; its WPP is not written\n",
				(unsigned long long)th->wpp->tid);
		else
			oom |= collect(&all, &n, &cap, th->wpp);
	}
	if (n > 1)
		qsort(all, n, sizeof *all, by_tid);
	struct kp_bytes b = { 0 }, c = { 0 };
	unsigned char version = 1;
	kp_bytes_put(&b, KP_WPP_MAGIC, 8);
	kp_bytes_put(&b, &version, 1);
	for (uint32_t i = 0; i < kp_rt.nfuncs; i++) {
		const struct kp_gfunc *gf = &kp_rt.funcs[i];
		c.len = 0;
		if (!gf->lost)
			kp_bytes_func_desc(&c, gf->f, i);
		else /* unusable: unloaded and not copied; named so readers can say so */
			kp_bytes_func_desc(&c, &(struct kpath_rt_func){ .name = "?", .file = "?", .checksum = "0000000000000000" }, i);
		put_chunk(&b, 'F', &c);
	}
	for (size_t i = 0; i < n; i++) {
		kp_sq_finish(&all[i]->g);
		if (all[i]->g.length == 0)
			continue; /* a thread without paths, as in the trace's dump */
		c.len = 0;
		put_grammar(&c, all[i]);
		put_chunk(&b, 'G', &c);
	}
	c.len = 0;
	put_chunk(&b, 'E', &c);
	char why[512] = "";
	if (oom || b.oom)
		fprintf(stderr, "kpath: WPP NOT written: %s: out of memory\n", kp_rt.wpp_path);
	else if (kp_atomic_write(kp_rt.wpp_path, fill_wpp, &b, why, sizeof why) != 0)
		fprintf(stderr, "kpath: WPP NOT written: %s\n", why);
	for (size_t i = 0; i < n; i++)
		if (all[i]->g.dropped)
			fprintf(stderr, "kpath: WPP of thread %llu: %llu paths dropped (out of memory)\n",
				(unsigned long long)all[i]->tid, (unsigned long long)all[i]->g.dropped);
	free(b.p);
	free(c.p);
	free(all);
	while (kp_rt.wpp_done) { /* the running threads' grammars go with them */
		struct kp_wppt *w = kp_rt.wpp_done;
		kp_rt.wpp_done = w->next;
		grammar_free(w);
	}
}

static void wpp_thread_new(struct kp_thread *th)
{
	if (kp_rt.wpp_on)
		th->wpp = grammar_new(th->tid);
}

static void wpp_thread_free(struct kp_thread *th)
{
	grammar_free(th->wpp);
	th->wpp = NULL;
}

const struct kp_stream kp_stream_wpp = {
	.name = "wpp",
	.open = wpp_open,
	.thread_new = wpp_thread_new,
	.thread_free = wpp_thread_free,
	.item = wpp_item,
	.thread_end = wpp_thread_end,
	.fork_child = wpp_fork_child,
	.write_locked = wpp_write_locked,
};
