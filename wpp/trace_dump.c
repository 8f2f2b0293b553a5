/*
 * trace_dump.c: "kpath trace dump TRACE": a KPATH_TRACE file
 * (docs/trace-format.md) as text, one completed path per line, the form
 * "kpath wpp expand" prints, so that a trace and a WPP of the same run can
 * be compared with cmp:
 *
 *   thread N                       for each thread that completed a path, in thread order
 *   FUNCTION FILE:LINE ID          each EMIT or LEAVE of the thread, in order
 *
 * FUNCTION FILE:LINE is the function the event's activation belongs to
 * (its ENTER record); ID the path ID as recorded (also IDs >= num_paths).
 * A trace cut short is read up to its last complete chunk, with a warning,
 * as kpath kipf does.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"
#include "wpp.h"

struct act {
	uint64_t act;
	uint32_t func;
};

struct dthread {
	uint64_t tid;
	struct act *live; /* live activations, sorted by act */
	size_t nlive, caplive;
	struct wpp_term *paths; /* the thread's stream */
	size_t npaths, cappaths;
};

struct dump {
	const char *path;
	struct wpp_func *funcs;
	uint32_t nfuncs;
	struct dthread *t;
	size_t nt;
};

static int fail(const struct dump *d, const char *what)
{
	fprintf(stderr, "kpath trace: %s: %s\n", d->path, what);
	return 1;
}

static struct dthread *thread_of(struct dump *d, uint64_t tid)
{
	for (size_t i = 0; i < d->nt; i++)
		if (d->t[i].tid == tid)
			return &d->t[i];
	struct dthread *a = realloc(d->t, (d->nt + 1) * sizeof *a);
	if (!a)
		return NULL;
	d->t = a;
	memset(&a[d->nt], 0, sizeof *a);
	a[d->nt].tid = tid;
	return &a[d->nt++];
}

/* The live activation number act (binary search), or NULL. */
static struct act *find_act(struct dthread *t, uint64_t act, size_t *at)
{
	size_t lo = 0, hi = t->nlive;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->live[mid].act < act)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	return lo < t->nlive && t->live[lo].act == act ? &t->live[lo] : NULL;
}

static int read_block(struct dump *d, const unsigned char *p, const unsigned char *end)
{
	uint64_t tid, cur, v, id;
	if (kp_varint_get(&p, end, &tid) || kp_varint_get(&p, end, &cur))
		return fail(d, "corrupt event block");
	struct dthread *t = thread_of(d, tid);
	if (!t)
		return fail(d, "out of memory");
	while (p < end) {
		if (kp_varint_get(&p, end, &v))
			return fail(d, "corrupt event block");
		int kind = (int)(v & 3);
		if (kind == KP_TR_ENTER) {
			if ((v >> 2) >= d->nfuncs)
				return fail(d, "event of an unknown function");
			if (t->nlive == t->caplive) {
				size_t cap = t->caplive ? 2 * t->caplive : 64;
				struct act *a = realloc(t->live, cap * sizeof *a);
				if (!a)
					return fail(d, "out of memory");
				t->live = a;
				t->caplive = cap;
			}
			t->live[t->nlive++] = (struct act){ ++cur, (uint32_t)(v >> 2) }; /* acts increase */
			continue;
		}
		if (kind == 3 || kp_varint_get(&p, end, &id) || (v >> 2) > cur)
			return fail(d, "corrupt event block");
		size_t at;
		struct act *x = find_act(t, cur - (v >> 2), &at);
		if (!x)
			return fail(d, "event of an activation that is not live");
		if (t->npaths == t->cappaths) {
			size_t cap = t->cappaths ? 2 * t->cappaths : 1024;
			struct wpp_term *a = realloc(t->paths, cap * sizeof *a);
			if (!a)
				return fail(d, "out of memory");
			t->paths = a;
			t->cappaths = cap;
		}
		t->paths[t->npaths++] = (struct wpp_term){ x->func, id };
		if (kind == KP_TR_LEAVE) {
			memmove(&t->live[at], &t->live[at + 1], (t->nlive - at - 1) * sizeof *t->live);
			t->nlive--;
		}
	}
	return 0;
}

static int read_func(struct dump *d, const unsigned char *p, const unsigned char *end)
{
	uint64_t index;
	struct wpp_func *a = realloc(d->funcs, ((size_t)d->nfuncs + 1) * sizeof *a);
	if (!a)
		return fail(d, "out of memory");
	d->funcs = a;
	if (wpp_parse_func(p, end, &a[d->nfuncs], &index) != 0)
		return fail(d, "corrupt function entry");
	if (index != d->nfuncs) {
		wpp_func_free(&a[d->nfuncs]);
		return fail(d, "function entries out of order");
	}
	d->nfuncs++;
	return 0;
}

static int read_trace(struct dump *d, const unsigned char *p, const unsigned char *end)
{
	uint64_t version;
	if (end - p < 8 || memcmp(p, KP_TRACE_MAGIC, 8) != 0)
		return fail(d, "not a kpath trace (bad magic; KPATH_TRACE writes one)");
	p += 8;
	if (kp_varint_get(&p, end, &version) || version != 1)
		return fail(d, "unsupported trace version");
	while (p < end) {
		int type = *p++;
		uint64_t len;
		if (kp_varint_get(&p, end, &len) || len > (uint64_t)(end - p)) {
			fprintf(stderr, "kpath trace: %s: truncated trace; using the complete part\n", d->path);
			return 0;
		}
		int rc = type == 'F' ? read_func(d, p, p + len)
			 : type == 'B' ? read_block(d, p, p + len)
				       : fail(d, "unknown chunk type");
		if (rc)
			return rc;
		p += len;
	}
	return 0;
}

static int by_tid(const void *a, const void *b)
{
	uint64_t x = ((const struct dthread *)a)->tid, y = ((const struct dthread *)b)->tid;
	return x < y ? -1 : x > y;
}

static int dump(const char *path)
{
	struct dump d = { .path = path };
	size_t len;
	unsigned char *buf = wpp_slurp(path, &len);
	if (!buf) {
		fprintf(stderr, "kpath trace: %s: %s\n", path, strerror(errno));
		return 1;
	}
	int rc = read_trace(&d, buf, buf + len);
	if (rc == 0) {
		if (d.nt > 1)
			qsort(d.t, d.nt, sizeof *d.t, by_tid);
		for (size_t i = 0; i < d.nt; i++) {
			if (!d.t[i].npaths)
				continue; /* as in a WPP: threads without paths are left out */
			printf("thread %" PRIu64 "\n", d.t[i].tid);
			for (size_t k = 0; k < d.t[i].npaths; k++)
				wpp_print_path(stdout, &d.funcs[d.t[i].paths[k].func], d.t[i].paths[k].id);
		}
		if (fflush(stdout) != 0 || ferror(stdout))
			rc = fail(&d, "writing the output failed");
	}
	for (size_t i = 0; i < d.nt; i++) {
		free(d.t[i].live);
		free(d.t[i].paths);
	}
	for (uint32_t i = 0; i < d.nfuncs; i++)
		wpp_func_free(&d.funcs[i]);
	free(d.funcs);
	free(d.t);
	free(buf);
	return rc;
}

int wpp_trace_main(int argc, char **argv)
{
	static const char u[] = "usage: kpath trace dump TRACE\n";
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("%s\n"
		       "Prints a trace that an instrumented program wrote with KPATH_TRACE=TRACE\n"
		       "(docs/trace-format.md) as text: for each thread that completed a path,\n"
		       "\"thread N\", then one \"FUNCTION FILE:LINE ID\" per completed path, in order\n"
		       "(FILE:LINE: where the function is defined; ID: the Ball-Larus path ID).\n"
		       "kpath wpp expand prints a WPP of the same run in exactly this form.\n", u);
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "dump") != 0) {
		fputs(u, stderr);
		return 2;
	}
	return dump(argv[2]);
}
