/*
 * trace.c: KPATH_TRACE, the raw stream of every thread in a compact binary
 * file that kpath kipf (frontend/kipf_tool.c) replays offline.  Full description in
 * docs/trace-format.md; in short:
 *
 *   file    = magic "KPTRACE1" (8 bytes), varint version (1), chunk*
 *   chunk   = type byte, varint payload length, payload
 *   'F'     = one function, written when it registers (before any block
 *             that uses it): varint index, str name, str file, varint line,
 *             str checksum, varint num_paths, varint num_blocks,
 *             num_blocks x varint block_line, varint num_edges,
 *             num_edges x (varint src, varint dst, varint val),
 *             then, when the descriptor has them (optional: readers test
 *             whether payload is left), num_blocks x varint block_last_line
 *             and after those, optionally, str source_hash
 *             (str = varint length + bytes)
 *   'B'     = a block of one thread's events: varint thread, varint
 *             act_base, then records until the end of the payload:
 *               varint (index << 2 | 2)            ENTER: activation
 *                                                  act_base+1+#ENTERs before
 *               varint (back << 2 | 0), varint id  EMIT
 *               varint (back << 2 | 1), varint id  LEAVE (activation ends)
 *             where back = (last activation entered in the thread) -
 *             (the event's activation), 0 for the innermost one.
 *
 * Varints are unsigned LEB128.  Activations are numbered per thread from 1
 * (kp_thread.act, kept in kpath_rt_cursor.act), so recursion, which
 * interleaves activations of one function within a thread, replays with one
 * cursor per activation.  Events go to a per-thread buffer; a full buffer,
 * thread exit and process exit append it as one 'B' chunk under kp_rt.tmu
 * (never per event).
 *
 * The file's descriptor is the runtime's, but the program may close it: a
 * daemon's start-up closes every descriptor it inherited
 * (close(3..1023)), and its next open got the trace's number, so the
 * trace's chunks went into the program's own file (4 MB of trace in a
 * 22 KB output: tests/rtuse, case trace_fd).  So the descriptor is
 * close-on-exec and moved above the ones programs use (KP_TRACE_FD_MIN,
 * where the limit allows), and every write checks first that it is still
 * the file the runtime opened (trace_ok: its device and inode).  When it
 * is not, the trace stops with one message, the bytes stdio holds for it
 * are dropped (__fpurge, so that stdio's flush at exit writes nothing
 * either) and the FILE is never closed: its descriptor may be the
 * program's now.
 */
#define _GNU_SOURCE /* F_DUPFD_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kp_internal.h"

#define KP_TRACE_FD_MIN 512
static dev_t trace_dev;
static ino_t trace_ino;

/* Whether kp_rt.trace (under tmu) is still the file trace_open opened; if
 * not, the trace stops (above).  (kp_trace_ok_locked: for the fork
 * handler, which holds tmu.) */
#define trace_ok kp_trace_ok_locked
int trace_ok(void)
{
	struct stat st;
	if (!kp_rt.trace)
		return 0;
	if (fstat(fileno(kp_rt.trace), &st) == 0 && st.st_dev == trace_dev && st.st_ino == trace_ino)
		return 1;
	fprintf(stderr, "kpath: the program closed or replaced the trace's file descriptor; trace stopped\n");
	__fpurge(kp_rt.trace);
	kp_rt.trace = NULL; /* not closed: the descriptor may be the program's */
	return 0;
}

static void put_chunk(int type, const unsigned char *p, size_t len)
{
	unsigned char h[16];
	h[0] = (unsigned char)type;
	unsigned n = 1 + kp_varint_put(h + 1, len);
	if (!trace_ok())
		return;
	if (fwrite(h, 1, n, kp_rt.trace) != n || fwrite(p, 1, len, kp_rt.trace) != len) {
		fprintf(stderr, "kpath: writing the trace: %s; trace disabled\n", strerror(errno));
		fclose(kp_rt.trace);
		kp_rt.trace = NULL;
	}
}

static int trace_open(const char *path)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd >= 0) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, KP_TRACE_FD_MIN);
		if (hi >= 0) {
			close(fd);
			fd = hi;
		}
	}
	kp_rt.trace = fd >= 0 && fstat(fd, &st) == 0 ? fdopen(fd, "wb") : NULL;
	if (!kp_rt.trace) {
		fprintf(stderr, "kpath: KPATH_TRACE=%s: %s; no trace\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	trace_dev = st.st_dev;
	trace_ino = st.st_ino;
	unsigned char v = 1;
	if (fwrite(KP_TRACE_MAGIC, 1, 8, kp_rt.trace) != 8 || fwrite(&v, 1, 1, kp_rt.trace) != 1) {
		fclose(kp_rt.trace);
		kp_rt.trace = NULL;
		return -1;
	}
	return 0;
}

static void trace_func(const struct kpath_rt_func *f, uint32_t index)
{
	if (!kp_rt.trace_on)
		return;
	struct kp_bytes b = { 0 };
	kp_bytes_func_desc(&b, f, index);
	struct kp_held cs = kp_lock(&kp_rt.tmu);
	if (b.oom) {
		fprintf(stderr, "kpath: out of memory writing the trace; trace disabled\n");
		if (trace_ok())
			fclose(kp_rt.trace);
		kp_rt.trace = NULL;
	} else {
		put_chunk('F', b.p, b.len);
	}
	kp_unlock(&kp_rt.tmu, cs);
	free(b.p);
}

static void trace_flush(struct kp_thread *th)
{
	struct kp_tbuf *t = th->tbuf;
	if (!t)
		return;
	if (t->len) {
		unsigned char h[20];
		unsigned n = kp_varint_put(h, th->tid);
		n += kp_varint_put(h + n, t->act_base);
		struct kp_held cs = kp_lock(&kp_rt.tmu);
		if (trace_ok()) {
			unsigned char c[16];
			c[0] = 'B';
			unsigned m = 1 + kp_varint_put(c + 1, (uint64_t)n + t->len);
			if (fwrite(c, 1, m, kp_rt.trace) != m || fwrite(h, 1, n, kp_rt.trace) != n ||
			    fwrite(t->buf, 1, t->len, kp_rt.trace) != t->len) {
				fprintf(stderr, "kpath: writing the trace: %s; trace disabled\n", strerror(errno));
				fclose(kp_rt.trace);
				kp_rt.trace = NULL;
			}
		}
		kp_unlock(&kp_rt.tmu, cs);
	}
	t->len = 0;
	t->act_base = th->act;
}

static void trace_enter(struct kp_thread *th, uint32_t index, struct kp_cursor *c)
{
	struct kp_tbuf *t = th->tbuf;
	if (!t)
		return;
	if (t->len + 24 > KP_TBUF)
		trace_flush(th);
	c->act = ++th->act;
	t->len += kp_varint_put(t->buf + t->len, (uint64_t)index << 2 | KP_TR_ENTER);
}

static void trace_item(struct kp_thread *th, int kind, uint32_t index, const struct kp_cursor *c, uint64_t id)
{
	struct kp_tbuf *t = th->tbuf;
	(void)index; /* the activation record names the function */
	if (!t)
		return;
	if (t->len + 24 > KP_TBUF)
		trace_flush(th);
	/* back < 2^62 always: activations are counted in 64 bits and no
	 * program enters 2^62 of them */
	t->len += kp_varint_put(t->buf + t->len, (th->act - c->act) << 2 | (uint64_t)kind);
	t->len += kp_varint_put(t->buf + t->len, id);
}

/* After each write at or after exit (kp_atexit, kp_dump_after_exit): what
 * trace_flush handed to stdio is in the file, though destructors that run
 * later may append more (the FILE is closed only when the runtime is
 * released, dso.c; at process exit stdio's own cleanup finds nothing
 * left to write). */
static void trace_sync(void)
{
	struct kp_held cs = kp_lock(&kp_rt.tmu);
	if (trace_ok() && fflush(kp_rt.trace) != 0) {
		fprintf(stderr, "kpath: writing the trace: %s; trace disabled\n", strerror(errno));
		fclose(kp_rt.trace);
		kp_rt.trace = NULL;
	}
	kp_unlock(&kp_rt.tmu, cs);
}

static void trace_close(void)
{
	struct kp_held cs = kp_lock(&kp_rt.tmu);
	if (trace_ok() && fclose(kp_rt.trace) != 0)
		fprintf(stderr, "kpath: closing the trace: %s\n", strerror(errno));
	kp_rt.trace = NULL;
	kp_unlock(&kp_rt.tmu, cs);
}

/* KPATH_TRACE=FILE: the trace is on when FILE opens.  FILE is a pattern
 * like KPATH_OUT's (%p, %h, %m, %%: out_path.c), expanded once, when the
 * runtime starts: without %p every process of a test suite truncates the
 * same file, and the last one's trace is what is left. */
static void trace_on(void)
{
	const char *tr = getenv("KPATH_TRACE");
	if (!tr || !*tr)
		return;
	kp_out_pattern_warn("KPATH_TRACE", tr);
	char *path = kp_out_expand(tr);
	if (!path) {
		fprintf(stderr, "kpath: KPATH_TRACE=%s: out of memory; no trace\n", tr);
		return;
	}
	/* A library that keeps its copy of the runtime to itself (a version
	 * script: dso.c) has a second runtime in the process: each copy
	 * numbers its own functions, threads and activations, so the copies
	 * after the first write their own traces, PATH.MODULE (libjq.so.1's
	 * and jq's shared one was unreadable: tests/rtuse, dso_private). */
	char *follower = kp_dso_follower_name();
	if (follower) {
		size_t n = strlen(path) + strlen(follower) + 2;
		char *alt = malloc(n);
		if (alt) {
			snprintf(alt, n, "%s.%s", path, follower);
			fprintf(stderr, "kpath: KPATH_TRACE: %s holds its own copy of the runtime; its paths go to %s\n",
				follower, alt);
		}
		free(path);
		free(follower);
		path = alt;
		if (!path) {
			fprintf(stderr, "kpath: KPATH_TRACE=%s: out of memory; no trace\n", tr);
			return;
		}
	}
	kp_rt.trace_on = trace_open(path) == 0;
	free(path);
}

static void trace_thread_new(struct kp_thread *th)
{
	if (!kp_rt.trace_on)
		return;
	th->tbuf = kp_malloc(sizeof *th->tbuf);
	if (th->tbuf)
		th->tbuf->len = 0, th->tbuf->act_base = 0;
}

static void trace_thread_free(struct kp_thread *th)
{
	free(th->tbuf);
	th->tbuf = NULL;
}

/* The parent owns the stream: the child neither writes nor closes it. */
static void trace_fork_child(struct kp_thread *self)
{
	if (self)
		trace_thread_free(self);
	kp_tr_threads_clear();
	kp_rt.trace = NULL;
	kp_rt.trace_on = 0;
}

const struct kp_stream kp_stream_trace = {
	.name = "trace",
	.open = trace_on,
	.func = trace_func,
	.thread_new = trace_thread_new,
	.thread_free = trace_thread_free,
	.enter = trace_enter,
	.item = trace_item,
	.flush = trace_flush,
	.thread_end = trace_flush,
	.fork_child = trace_fork_child,
	.sync = trace_sync,
	.close = trace_close,
};
