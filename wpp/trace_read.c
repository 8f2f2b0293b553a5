/*
 * trace_read.c: the reader of KPATH_TRACE files (docs/trace-format.md) for
 * the tools that walk a trace's events: "kpath trace dump" (trace_dump.c)
 * and the calls check of "kpath overlap check" (frontend/overlap_trace.c).
 * "kpath kipf" replays a trace with its own loop (frontend/kipf_tool.c),
 * since it feeds the runtime's cursors.
 *
 * The reader keeps each thread's live activations (sorted by number) so
 * that every EMIT / LEAVE names its function; it hands each event to the
 * caller's callback in file order (one thread's events in order).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "array.h"
#include "wpp.h"

struct tr_act {
	uint64_t act;
	uint32_t func;
};

struct tr_thread {
	uint64_t tid;
	struct tr_act *live; /* sorted by act */
	size_t n, cap;
};

struct tr_state {
	struct wpp_trace *t;
	struct tr_thread *th;
	size_t nth;
	const char *why;
};

static struct tr_thread *thread_of(struct tr_state *s, uint64_t tid)
{
	for (size_t i = 0; i < s->nth; i++)
		if (s->th[i].tid == tid)
			return &s->th[i];
	struct tr_thread *a = realloc(s->th, (s->nth + 1) * sizeof *a);
	if (!a)
		return NULL;
	s->th = a;
	memset(&a[s->nth], 0, sizeof *a);
	a[s->nth].tid = tid;
	return &a[s->nth++];
}

/* The live activation act of t (binary search; *at where it is or goes). */
static struct tr_act *find_act(struct tr_thread *t, uint64_t act, size_t *at)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->live[mid].act < act)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < t->n && t->live[lo].act == act ? &t->live[lo] : NULL;
}

static const char *deliver(struct tr_state *s, struct wpp_trace_event *e)
{
	return s->t->event ? s->t->event(s->t->arg, s->t, e) : NULL;
}

static const char *read_block(struct tr_state *s, const unsigned char *p, const unsigned char *end)
{
	uint64_t tid, cur, v, id;
	if (kp_varint_get(&p, end, &tid) || kp_varint_get(&p, end, &cur))
		return "corrupt event block";
	struct tr_thread *t = thread_of(s, tid);
	if (!t)
		return "out of memory";
	while (p < end) {
		const char *why;
		if (kp_varint_get(&p, end, &v))
			return "corrupt event block";
		int kind = (int)(v & 3);
		if (kind == KP_TR_ENTER) {
			if ((v >> 2) >= s->t->nfuncs)
				return "event of an unknown function";
			*KP_PUSH(t->live, t->n, t->cap) = (struct tr_act){++cur, (uint32_t)(v >> 2)}; /* acts increase: stays sorted */
			struct wpp_trace_event e = {tid, cur, (uint32_t)(v >> 2), WPP_TRACE_ENTER, 0};
			if ((why = deliver(s, &e)))
				return why;
			continue;
		}
		if (kind == 3 || kp_varint_get(&p, end, &id) || (v >> 2) > cur)
			return "corrupt event block";
		size_t at;
		struct tr_act *x = find_act(t, cur - (v >> 2), &at);
		if (!x)
			return "event of an activation that is not live";
		struct wpp_trace_event e = {tid, x->act, x->func, kind == KP_TR_LEAVE ? WPP_TRACE_LEAVE : WPP_TRACE_EMIT, id};
		if (kind == KP_TR_LEAVE) {
			memmove(&t->live[at], &t->live[at + 1], (t->n - at - 1) * sizeof *t->live);
			t->n--;
		}
		if ((why = deliver(s, &e)))
			return why;
	}
	return NULL;
}

static const char *read_func(struct wpp_trace *t, const unsigned char *p, const unsigned char *end)
{
	uint64_t index;
	struct wpp_func *a = realloc(t->funcs, ((size_t)t->nfuncs + 1) * sizeof *a);
	if (!a)
		return "out of memory";
	t->funcs = a;
	if (wpp_parse_func(p, end, &a[t->nfuncs], &index) != 0)
		return "corrupt function entry";
	if (index != t->nfuncs) {
		wpp_func_free(&a[t->nfuncs]);
		return "function entries out of order";
	}
	t->nfuncs++;
	return NULL;
}

static int fail(char *err, size_t errlen, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s: ", path);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

int wpp_trace_read(struct wpp_trace *t, char *err, size_t errlen)
{
	size_t len;
	uint64_t version;
	unsigned char *buf = wpp_slurp(t->path, &len);
	t->truncated = false;
	if (!buf)
		return fail(err, errlen, t->path, "%s", strerror(errno));
	struct tr_state s = {.t = t};
	const unsigned char *p = buf, *end = buf + len;
	int rc = 0;
	if (len < 8 || memcmp(p, KP_TRACE_MAGIC, 8) != 0) {
		rc = fail(err, errlen, t->path, "not a kpath trace (bad magic; KPATH_TRACE writes one)");
		goto out;
	}
	p += 8;
	if (kp_varint_get(&p, end, &version) || version != 1) {
		rc = fail(err, errlen, t->path, "unsupported trace version");
		goto out;
	}
	while (p < end) {
		size_t at = (size_t)(p - buf);
		int type = *p++;
		uint64_t n;
		if (kp_varint_get(&p, end, &n) || n > (uint64_t)(end - p)) {
			t->truncated = true; /* a program cut short: its last chunk is incomplete */
			t->truncated_at = at;
			break;
		}
		const char *why = type == 'F' ? read_func(t, p, p + n)
		                  : type == 'B' ? read_block(&s, p, p + n)
		                                : "unknown chunk type";
		if (why) {
			rc = fail(err, errlen, t->path, "byte %zu: %s", at, why);
			break;
		}
		p += n;
	}
out:
	for (size_t i = 0; i < s.nth; i++)
		free(s.th[i].live);
	free(s.th);
	free(buf);
	return rc;
}

void wpp_trace_free(struct wpp_trace *t)
{
	for (uint32_t i = 0; i < t->nfuncs; i++)
		wpp_func_free(&t->funcs[i]);
	free(t->funcs);
	t->funcs = NULL;
	t->nfuncs = 0;
}
