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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wpp.h"
#include "array.h"

struct dthread {
	uint64_t tid;
	struct wpp_term *paths; /* the thread's stream */
	size_t npaths, cappaths;
};

struct dump {
	struct dthread *t;
	size_t nt;
};

/* Each EMIT / LEAVE appended to its thread's stream. */
static const char *on_event(void *arg, const struct wpp_trace *tr, const struct wpp_trace_event *e)
{
	struct dump *d = arg;
	struct dthread *t = NULL;
	(void)tr;
	if (e->kind == WPP_TRACE_ENTER)
		return NULL;
	for (size_t i = 0; i < d->nt && !t; i++)
		if (d->t[i].tid == e->thread)
			t = &d->t[i];
	if (!t) {
		struct dthread *a = realloc(d->t, (d->nt + 1) * sizeof *a);
		if (!a)
			return "out of memory";
		d->t = a;
		t = memset(&a[d->nt++], 0, sizeof *a);
		t->tid = e->thread;
	}
	*KP_PUSH(t->paths, t->npaths, t->cappaths) = (struct wpp_term){e->func, e->id};
	return NULL;
}

static int by_tid(const void *a, const void *b)
{
	uint64_t x = ((const struct dthread *)a)->tid, y = ((const struct dthread *)b)->tid;
	return x < y ? -1 : x > y;
}

static int dump(const char *path)
{
	struct dump d = {0};
	struct wpp_trace tr = {.path = path, .event = on_event, .arg = &d};
	char err[1024];
	int rc = 0;
	if (wpp_trace_read(&tr, err, sizeof err) != 0) {
		fprintf(stderr, "kpath trace: %s\n", err);
		rc = 1;
	} else if (tr.truncated) {
		fprintf(stderr, "kpath trace: %s: truncated trace; using the complete part\n", path);
	}
	if (rc == 0) {
		if (d.nt > 1)
			qsort(d.t, d.nt, sizeof *d.t, by_tid);
		for (size_t i = 0; i < d.nt; i++) {
			if (!d.t[i].npaths)
				continue; /* as in a WPP: threads without paths are left out */
			printf("thread %" PRIu64 "\n", d.t[i].tid);
			for (size_t k = 0; k < d.t[i].npaths; k++)
				wpp_print_path(stdout, &tr.funcs[d.t[i].paths[k].func], d.t[i].paths[k].id);
		}
		if (fflush(stdout) != 0 || ferror(stdout)) {
			fprintf(stderr, "kpath trace: %s: writing the output failed\n", path);
			rc = 1;
		}
	}
	for (size_t i = 0; i < d.nt; i++)
		free(d.t[i].paths);
	free(d.t);
	wpp_trace_free(&tr);
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
