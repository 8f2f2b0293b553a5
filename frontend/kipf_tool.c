/*
 * kipf_tool.c: kpath kipf (kipf_tool.h), the offline reader of the trace
 * format described in runtime/trace.c and docs/trace-format.md.  Tool side:
 * it links the runtime with its internals (kpath_rt), which instrumented
 * programs never get (lib/libkpath_rt.a holds no kipf).
 *
 * Replay: one kp_tfunc (a k-SF, or counters for k = 1) per function, one
 * kpath_rt_cursor per live activation, keyed by (thread, activation); the
 * events go through kp_tfunc_item exactly as kpath_rt_emit sends them, so
 * the result equals the online profile (except for events the online run
 * dropped for lack of memory, which the trace still holds).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kipf_tool.h"
#include "array.h"
#include "kp_internal.h"
#include "opts.h"
#include "wpp.h"

struct rfunc {
	struct wpp_func w;      /* the descriptor as read: owns the tables */
	struct kpath_rt_func d; /* the same tables as the runtime sees them */
	struct kp_tfunc *tf;
};

struct ract {
	uint64_t act;
	uint32_t func;
	struct kp_cursor c;
};

struct rthread {
	uint64_t tid;
	struct ract *a; /* live activations, sorted by act */
	size_t n, cap;
};

struct replay {
	const char *path;
	const char *who; /* the message prefix */
	bool strict;     /* a truncated trace is an error, not a warning */
	unsigned k;
	struct rfunc **f; /* each its own allocation: tf->f points into it */
	uint32_t nf;
	struct rthread *t;
	size_t nt;
};

static int fail(const struct replay *r, const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", r->who, r->path, what);
	return 1;
}

/* An 'F' chunk: the descriptor record (wpp_parse_func, shared with the WPP
 * reader) becomes the kpath_rt_func the replay's consumer is built on. */
static int read_func(struct replay *r, const unsigned char *p, const unsigned char *end)
{
	struct wpp_func w;
	uint64_t index;

	if (wpp_parse_func(p, end, &w, &index))
		return fail(r, "corrupt function entry");
	if (index != r->nf) {
		wpp_func_free(&w);
		return fail(r, "function entries out of order");
	}
	struct rfunc **a = realloc(r->f, (r->nf + 1) * sizeof *a);
	struct rfunc *f = a ? calloc(1, sizeof *f) : NULL;
	if (a)
		r->f = a;
	if (!f) {
		wpp_func_free(&w);
		return fail(r, "out of memory");
	}
	f->w = w;
	f->d = (struct kpath_rt_func){ .abi = KPATH_RT_ABI, .name = w.name, .file = w.file, .line = w.line,
		.checksum = w.checksum, .num_paths = w.num_paths, .num_blocks = w.dag.num_blocks,
		.block_line = w.dag.block_line, .num_edges = w.dag.num_edges, .edges = w.dag.edges,
		.block_last_line = w.dag.block_last_line, .source_hash = w.source_hash };
	f->tf = kp_tfunc_new(&f->d, r->k);
	r->f[r->nf++] = f; /* freed with the replay from here on */
	if (!f->tf)
		return fail(r, "out of memory");
	return 0;
}

static struct rthread *thread_of(struct replay *r, uint64_t tid)
{
	for (size_t i = 0; i < r->nt; i++)
		if (r->t[i].tid == tid)
			return &r->t[i];
	struct rthread *a = realloc(r->t, (r->nt + 1) * sizeof *a);
	if (!a)
		return NULL;
	r->t = a;
	memset(&a[r->nt], 0, sizeof a[r->nt]);
	a[r->nt].tid = tid;
	return &a[r->nt++];
}

/* The live activation act of t, or NULL. */
static struct ract *find_act(struct rthread *t, uint64_t act, size_t *at)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->a[mid].act < act)
			lo = mid + 1;
		else if (t->a[mid].act > act)
			hi = mid;
		else {
			*at = mid;
			return &t->a[mid];
		}
	}
	return NULL;
}

static int read_block(struct replay *r, const unsigned char *p, const unsigned char *end)
{
	uint64_t tid, cur, v, id;
	if (kp_varint_get(&p, end, &tid) || kp_varint_get(&p, end, &cur))
		return fail(r, "corrupt event block");
	struct rthread *t = thread_of(r, tid);
	if (!t)
		return fail(r, "out of memory");
	while (p < end) {
		if (kp_varint_get(&p, end, &v))
			return fail(r, "corrupt event block");
		int kind = (int)(v & 3);
		if (kind == KP_TR_ENTER) {
			uint64_t index = v >> 2;
			if (index >= r->nf)
				return fail(r, "event of an unknown function");
			struct ract *x = KP_PUSH(t->a, t->n, t->cap); /* acts increase: stays sorted */
			x->act = ++cur;
			x->func = (uint32_t)index;
			struct kp_tfunc *tf = r->f[index]->tf;
			x->c = tf->marker;
			continue;
		}
		if (kind == 3 || kp_varint_get(&p, end, &id) || (v >> 2) > cur)
			return fail(r, "corrupt event block");
		size_t at;
		struct ract *x = find_act(t, cur - (v >> 2), &at);
		if (!x)
			return fail(r, "event of an activation that is not live");
		kp_tfunc_item(r->f[x->func]->tf, &x->c, id);
		if (kind == KP_TR_LEAVE) {
			memmove(&t->a[at], &t->a[at + 1], (t->n - at - 1) * sizeof *t->a);
			t->n--;
		}
	}
	return 0;
}

static int replay(struct replay *r, const unsigned char *p, const unsigned char *end)
{
	uint64_t version;
	if (end - p < 8 || memcmp(p, KP_TRACE_MAGIC, 8) != 0)
		return fail(r, "not a kpath trace (bad magic)");
	p += 8;
	if (kp_varint_get(&p, end, &version) || version != 1)
		return fail(r, "unsupported trace version");
	while (p < end) {
		int type = *p++;
		uint64_t len;
		if (kp_varint_get(&p, end, &len) || len > (uint64_t)(end - p)) {
			if (r->strict)
				return fail(r, "truncated trace (the program was cut short?): its counts would be incomplete");
			fprintf(stderr, "%s: %s: truncated trace; using the complete part\n", r->who, r->path);
			return 0;
		}
		int rc = type == 'F' ? read_func(r, p, p + len)
			 : type == 'B' ? read_block(r, p, p + len)
				       : fail(r, "unknown chunk type");
		if (rc)
			return rc;
		p += len;
	}
	return 0;
}

static const char kipf_usage[] = "usage: kpath kipf --k K [-o OUT.json] TRACE\n";

static int usage(void)
{
	fputs(kipf_usage, stderr);
	return 2;
}

static int help(void)
{
	printf("%s\n"
	       "Rebuilds a profile from a trace that an instrumented program wrote\n"
	       "with KPATH_TRACE=TRACE, for any k: the same k-IPF the runtime would\n"
	       "have written with KPATH_K=K (docs/trace-format.md).\n"
	       "\n"
	       "  --k K, -k K     path length k, 1..64 (required)\n"
	       "  -o OUT.json     the profile to write (default: stdout)\n"
	       "  --help          print this help\n", kipf_usage);
	return 0;
}

static int build_profile(struct replay *r, struct kp_profile *p)
{
	for (uint32_t i = 0; i < r->nf; i++) {
		struct kp_tfunc *tf = r->f[i]->tf;
		struct kp_ipf t;
		if (kp_ipf_init(&t) != 0)
			return KP_ENOMEM;
		int rc = tf->cons->to_ipf(tf, &t);
		if (rc == 0)
			rc = kp_snapshot_func(p, tf->f, &t, kp_tfunc_emitted(tf), tf->invalid, 0);
		kp_ipf_free(&t);
		if (rc)
			return rc;
	}
	return 0;
}

int kp_kipf_replay(const char *trace, unsigned k, bool strict, const char *who, struct kp_profile *p)
{
	kp_profile_init(p, k);
	p->runs = 1;
	size_t len;
	unsigned char *buf = wpp_slurp(trace, &len);
	if (!buf) {
		fprintf(stderr, "%s: %s: %s\n", who, trace, strerror(errno));
		return 1;
	}
	struct replay r = { trace, who, strict, k, NULL, 0, NULL, 0 };
	int rc = replay(&r, buf, buf + len);
	/* the totals of the online profile (runtime/dump.c): the threads
	 * numbered in the trace are those that ran instrumented code */
	p->totals.runs = 1;
	p->totals.threads = r.nt;
	if (rc == 0 && build_profile(&r, p) != 0)
		rc = fail(&r, "out of memory");
	for (uint32_t i = 0; i < r.nf; i++) {
		struct rfunc *f = r.f[i];
		kp_tfunc_free(f->tf);
		wpp_func_free(&f->w);
		free(f);
	}
	free(r.f);
	for (size_t i = 0; i < r.nt; i++)
		free(r.t[i].a);
	free(r.t);
	free(buf);
	return rc;
}

int kp_kipf_main(int argc, char **argv)
{
	enum { KO_K = 1, KO_OUT, KO_HELP };
	static const struct kp_opt tab[] = {
		{"--k", KO_K, KP_OPT_VALUE},
		{"-k", KO_K, KP_OPT_VALUE},
		{"-o", KO_OUT, KP_OPT_VALUE},
		{"--help", KO_HELP, KP_OPT_FLAG},
		{"-h", KO_HELP, KP_OPT_FLAG},
		{NULL, 0, KP_OPT_FLAG},
	};
	struct kp_optstate st;
	const char *out = NULL, *trace = NULL, *ks = NULL, *v;
	int id;

	kp_opt_init(&st, argc, argv);
	while ((id = kp_opt_next(&st, tab, &v)) != KP_OPT_DONE) {
		if (id == KO_K)
			ks = v;
		else if (id == KO_OUT)
			out = v;
		else if (id == KO_HELP)
			return help();
		else if (id == KP_OPT_ARG && !trace)
			trace = v;
		else if (id == KP_OPT_REST && st.nrest == 1 && !trace)
			trace = st.rest[0];
		else
			return usage();
	}
	if (!ks || !trace)
		return usage();
	char *e;
	unsigned long k = strtoul(ks, &e, 10);
	if (*e || !*ks || k < 1 || k > KP_KMAX) {
		fprintf(stderr, "kpath kipf: --k %s: expected an integer in 1..%d\n", ks, KP_KMAX);
		return 2;
	}
	struct kp_profile p;
	int rc = kp_kipf_replay(trace, (unsigned)k, false, "kpath kipf", &p);
	if (rc == 0) {
		char err[1024];
		int w = out ? kp_profile_write_atomic(out, &p, err, sizeof err)
			    : kp_profile_write_file(stdout, &p, err, sizeof err);
		if (w != 0) {
			fprintf(stderr, "kpath kipf: %s\n", err);
			rc = 1;
		}
	}
	kp_profile_free(&p);
	return rc;
}
