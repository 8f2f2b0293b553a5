/*
 * kmode_oracle: checks a `--mode kiter` profile against the definition of a
 * run's k-iteration paths (docs/kiter-paths.md), on the same run traced by
 * the default (kipf) instrumentation.
 *
 *   kmode_oracle --k K --trace TRACE --profile PROFILE [--skip NAME]... FILE.c [-- FLAGS]
 *
 * TRACE is what the kipf-instrumented program wrote with KPATH_TRACE
 * (docs/trace-format.md), PROFILE what the kiter-instrumented program wrote
 * (KPATH_OUT) on the same input.  For every function of FILE.c whose
 * Ball-Larus checksum equals the trace's (the same CFG and numbering), each
 * complete activation of the trace is turned back into its CFG edges
 * (Ball-Larus decoding; a path ending at a dummy exit v->EXIT followed by one
 * starting at ENTRY->w took the back or cut edge v->w), cut into k-iteration
 * paths by ki_cut (the definition, written independently of the counters)
 * with the K per loop the instrumenter chose (ki_fit under RW_KITER_LIMIT),
 * and:
 *   - ki_exec's IDs for the run decode (ki_decode, Algorithm 2) to exactly
 *     the edges of ki_cut's paths, one for one;
 *   - the profile's counts of that function equal the tally of those IDs,
 *     path for path, and its num_paths the static count;
 *   - each executed ID's "lines" in the profile are the lines of the blocks
 *     the trace shows for that path.
 * Exit 0 when all hold and some path was compared, 1 otherwise.
 */
#include "build.h"
#include "cfg.h"
#include "kiter.h"
#include "rewrite.h"

#include <clang-c/Index.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define FAIL(...)                                                                                  \
	do {                                                                                       \
		fprintf(stderr, "kmode_oracle: ");                                                 \
		fprintf(stderr, __VA_ARGS__);                                                      \
		fputc('\n', stderr);                                                               \
		failures++;                                                                        \
	} while (0)

struct u64v {
	uint64_t *v;
	size_t n, cap;
};

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "kmode_oracle: out of memory\n");
		exit(2);
	}
	return p;
}

static void push(struct u64v *a, uint64_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 16;
		a->v = xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = x;
}

struct fn {
	char *name;
	unsigned line;
	struct fn_plan plan;
	struct bl_dag *d;
	uint32_t *first_out; /* per block: first DAG edge out of it (edges grouped by src) */
	struct ki_graph *kg;
	struct ki_numbering *n;
	uint32_t *ki_edge;   /* per CFG edge: its ki edge, KI_NONE when dead */
	char checksum[17];
	struct u64v ids;     /* every k-iteration path ID the trace completes */
	unsigned long activations;
};

static struct fn *fns;
static size_t nfns;
static unsigned opt_k;
static const char **skip; /* --skip NAME: functions the instrumenter left out (it said why) */
static size_t nskip;
static const char *src_path;
static unsigned (*loop_k)[2]; /* --loop LINE=K: the K of the loop whose head starts on LINE */
static size_t nloop_k;
static struct src_file *the_src;

static void add_function(CXCursor c)
{
	struct fn f;
	char err[256];
	memset(&f, 0, sizeof f);
	f.plan.expr_branches = true;
	bool built = build_function(the_src, c, &f.plan) != NULL, skipped = false;
	for (size_t i = 0; built && i < nskip; i++)
		skipped |= !strcmp(skip[i], f.plan.name);
	if (!built || skipped || !(f.d = bl_build(f.plan.g, err, sizeof err))) {
		build_plan_free(&f.plan);
		return;
	}
	const struct cfg *g = f.plan.g;
	uint32_t *cfg_edge = xrealloc(NULL, (g->nedges + 1) * sizeof *cfg_edge);
	f.kg = ki_graph_from_cfg(g, f.d, cfg_edge);
	unsigned *k_out = xrealloc(NULL, (g->nblocks + 1) * sizeof *k_out);
	/* as rewrite/kiter_form.c: K as asked when it fits, else ki_fit */
	struct ki_options o = {.k = opt_k, .limit = RW_KITER_LIMIT};
	unsigned *k_head = NULL; /* --loop: per head, as the instrumenter's --kiter-loop */
	if (nloop_k && f.kg) {
		k_head = xrealloc(NULL, (g->nblocks + 1) * sizeof *k_head);
		for (uint32_t v = 0; v <= g->nblocks; v++)
			k_head[v] = opt_k;
		for (uint32_t ke = 0; ke < f.kg->nedges; ke++)
			for (size_t j = 0; f.kg->edges[ke].back && j < nloop_k; j++)
				if (g->blocks[f.kg->edges[ke].dst].line == loop_k[j][0])
					k_head[f.kg->edges[ke].dst] = loop_k[j][1];
		o.k_head = k_head;
	}
	enum ki_status st = f.kg ? ki_build(f.kg, &o, &f.n, err, sizeof err) : KI_NOMEM;
	if (st == KI_TOO_MANY) {
		if (ki_fit(f.kg, &o, k_out) == UINT64_MAX) {
			free(cfg_edge);
			free(k_out);
			free(k_head);
			return; /* the instrumenter leaves it out too */
		}
		o.k_head = k_out;
		st = ki_build(f.kg, &o, &f.n, err, sizeof err);
	}
	if (st != KI_OK) {
		fprintf(stderr, "kmode_oracle: %s: %s\n", f.plan.name, err);
		exit(2);
	}
	free(k_out);
	free(k_head);
	f.ki_edge = xrealloc(NULL, (g->nedges + 1) * sizeof *f.ki_edge);
	for (uint32_t e = 0; e < g->nedges; e++)
		f.ki_edge[e] = KI_NONE;
	for (uint32_t ke = 0; ke < f.kg->nedges; ke++)
		f.ki_edge[cfg_edge[ke]] = ke;
	free(cfg_edge);
	f.first_out = xrealloc(NULL, (g->nblocks + 1) * sizeof *f.first_out);
	for (uint32_t b = 0; b <= g->nblocks; b++)
		f.first_out[b] = f.d->nedges;
	for (uint32_t i = f.d->nedges; i-- > 0;)
		f.first_out[f.d->edges[i].src] = i;
	snprintf(f.checksum, sizeof f.checksum, "%016" PRIx64, bl_checksum(g, f.d));
	f.name = f.plan.name;
	f.line = f.plan.line;
	fns = xrealloc(fns, (nfns + 1) * sizeof *fns);
	fns[nfns++] = f;
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	CXFile file;
	(void)parent;
	(void)data;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	clang_getExpansionLocation(clang_getCursorLocation(c), &file, NULL, NULL, NULL);
	if (file && clang_File_isEqual(file, the_src->file))
		add_function(c);
	return CXChildVisit_Continue;
}

/* --- one activation: Ball-Larus IDs -> CFG edges -> k-iteration paths --- */

struct u32v {
	uint32_t *v;
	size_t n, cap;
};

static void push32(struct u32v *a, uint32_t x)
{
	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->v = xrealloc(a->v, a->cap * sizeof *a->v);
	}
	a->v[a->n++] = x;
}

/* The DAG edges of Ball-Larus path id (kpath_rt.h's decoding rule). */
static bool bl_edges(const struct fn *f, uint64_t id, struct u32v *out)
{
	uint32_t v = CFG_ENTRY;
	uint64_t rest = id;
	out->n = 0;
	if (id >= f->d->num_paths[CFG_ENTRY])
		return false;
	while (v != CFG_EXIT) {
		uint32_t pick = CFG_NONE;
		for (uint32_t i = f->first_out[v]; i < f->d->nedges && f->d->edges[i].src == v; i++)
			if (f->d->edges[i].val <= rest && f->d->num_paths[f->d->edges[i].dst])
				pick = i;
		if (pick == CFG_NONE)
			return false;
		rest -= f->d->edges[pick].val;
		push32(out, pick);
		v = f->d->edges[pick].dst;
	}
	return rest == 0;
}

/* The back or cut edge v->w the run took between two Ball-Larus paths. */
static uint32_t closing_edge(const struct fn *f, uint32_t v, uint32_t w)
{
	const struct cfg *g = f->plan.g;
	for (uint32_t e = 0; e < g->nedges; e++)
		if (g->edges[e].src == v && g->edges[e].dst == w &&
		    (f->d->role[e] == ROLE_BACK || f->d->role[e] == ROLE_CUT))
			return e;
	return CFG_NONE;
}

static void activation(struct fn *f, const struct u64v *bl)
{
	struct u32v dag = {0}, run = {0};
	uint32_t pending = CFG_NONE; /* the tail v of a dummy exit v->EXIT */
	for (size_t j = 0; j < bl->n; j++) {
		if (!bl_edges(f, bl->v[j], &dag)) {
			FAIL("%s: Ball-Larus ID %" PRIu64 " does not decode", f->name, bl->v[j]);
			goto out;
		}
		for (size_t i = 0; i < dag.n; i++) {
			const struct bl_edge *be = &f->d->edges[dag.v[i]];
			uint32_t e = be->cfg_edge;
			if (be->kind == BL_EDGE_DUMMY_EXIT) {
				pending = be->src;
				continue;
			}
			if (be->kind == BL_EDGE_DUMMY_ENTRY) {
				e = pending == CFG_NONE ? CFG_NONE : closing_edge(f, pending, be->dst);
				if (e == CFG_NONE) {
					FAIL("%s: a path starts at b%u without a back edge into it", f->name, be->dst);
					goto out;
				}
			}
			push32(&run, f->ki_edge[e]);
		}
	}
	size_t np = ki_cut(f->n, run.v, run.n, NULL, 0);
	if (np == SIZE_MAX) {
		FAIL("%s: ki_cut failed", f->name);
		goto out;
	}
	struct ki_span *sp = xrealloc(NULL, (np + 1) * sizeof *sp);
	uint64_t *ids = xrealloc(NULL, (np + 1) * sizeof *ids);
	uint32_t *dec = xrealloc(NULL, (run.n + 1) * sizeof *dec);
	ki_cut(f->n, run.v, run.n, sp, np);
	size_t ne = ki_exec(f->n, run.v, run.n, KI_FLAG_PER_COUNTER, ids, np);
	if (ne != np)
		FAIL("%s: the counters record %zu paths, the definition cuts %zu", f->name, ne, np);
	for (size_t j = 0; j < np && j < ne; j++) {
		size_t len = sp[j].last - sp[j].first + 1;
		size_t dl = ki_decode(f->n, ids[j], dec, run.n + 1);
		if (dl != len || memcmp(dec, run.v + sp[j].first, len * sizeof *dec))
			FAIL("%s: ID %" PRIu64 " decodes to other edges than the path the trace shows", f->name, ids[j]);
		push(&f->ids, ids[j]);
	}
	free(sp);
	free(ids);
	free(dec);
out:
	free(dag.v);
	free(run.v);
	f->activations++;
}

/* --- the trace (docs/trace-format.md) --- */

struct rd {
	const unsigned char *p, *end;
	bool bad;
};

static uint64_t varint(struct rd *r)
{
	uint64_t v = 0;
	for (unsigned s = 0; s < 64; s += 7) {
		if (r->p >= r->end) {
			r->bad = true;
			return 0;
		}
		unsigned char b = *r->p++;
		v |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return 0;
}

static char *string(struct rd *r)
{
	uint64_t n = varint(r);
	if (r->bad || n > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return NULL;
	}
	char *s = xrealloc(NULL, n + 1);
	memcpy(s, r->p, n);
	s[n] = 0;
	r->p += n;
	return s;
}

struct act {
	uint64_t num;
	struct fn *f; /* NULL: a function not compared */
	struct u64v ids;
};

struct thread {
	uint64_t id;
	struct act *v; /* live activations, by increasing num */
	size_t n, cap;
};

static struct fn **func_of; /* per trace function index */
static size_t nfunc_of;
static struct thread *threads;
static size_t nthreads;
static unsigned long incomplete;

static struct thread *thread_of(uint64_t id)
{
	for (size_t i = 0; i < nthreads; i++)
		if (threads[i].id == id)
			return &threads[i];
	threads = xrealloc(threads, (nthreads + 1) * sizeof *threads);
	memset(&threads[nthreads], 0, sizeof *threads);
	threads[nthreads].id = id;
	return &threads[nthreads++];
}

static struct act *act_of(struct thread *t, uint64_t num)
{
	for (size_t i = t->n; i-- > 0;)
		if (t->v[i].num == num)
			return &t->v[i];
	return NULL;
}

static void read_trace(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		perror(path);
		exit(2);
	}
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0, got;
	do {
		if (len + 65536 > cap)
			buf = xrealloc(buf, cap = 2 * cap + 65536);
		got = fread(buf + len, 1, cap - len, fp);
		len += got;
	} while (got);
	fclose(fp);
	struct rd r = {buf, buf + len, false};
	if (len < 8 || memcmp(buf, "KPTRACE1", 8)) {
		fprintf(stderr, "kmode_oracle: %s: not a kpath trace\n", path);
		exit(2);
	}
	r.p += 8;
	varint(&r);
	while (r.p < r.end && !r.bad) {
		unsigned char type = *r.p++;
		uint64_t n = varint(&r);
		if (r.bad || n > (uint64_t)(r.end - r.p))
			break;
		struct rd c = {r.p, r.p + n, false};
		r.p += n;
		if (type == 'F') {
			uint64_t idx = varint(&c);
			char *name = string(&c), *file = string(&c);
			varint(&c);
			char *sum = string(&c);
			struct fn *match = NULL;
			for (size_t i = 0; name && sum && i < nfns; i++)
				if (!strcmp(fns[i].name, name) && !strcmp(fns[i].checksum, sum))
					match = &fns[i];
			if (idx >= nfunc_of) {
				func_of = xrealloc(func_of, (idx + 1) * sizeof *func_of);
				for (size_t i = nfunc_of; i <= idx; i++)
					func_of[i] = NULL;
				nfunc_of = idx + 1;
			}
			func_of[idx] = match;
			free(name);
			free(file);
			free(sum);
		} else if (type == 'B') {
			struct thread *t = thread_of(varint(&c));
			uint64_t cur = varint(&c);
			while (c.p < c.end && !c.bad) {
				uint64_t rec = varint(&c);
				if ((rec & 3) == 2) {
					uint64_t fi = rec >> 2;
					if (t->n == t->cap)
						t->v = xrealloc(t->v, (t->cap = 2 * t->cap + 16) * sizeof *t->v);
					t->v[t->n++] = (struct act){++cur, fi < nfunc_of ? func_of[fi] : NULL, {0}};
					continue;
				}
				uint64_t id = varint(&c);
				struct act *a = act_of(t, cur - (rec >> 2));
				if (!a) {
					FAIL("%s: a record for an activation that is not live", path);
					continue;
				}
				if (a->f)
					push(&a->ids, id);
				if ((rec & 3) == 1) { /* LEAVE: the activation is complete */
					if (a->f)
						activation(a->f, &a->ids);
					free(a->ids.v);
					size_t at = (size_t)(a - t->v);
					/* activations above it were left by a longjmp */
					for (size_t i = at + 1; i < t->n; i++) {
						incomplete += t->v[i].f != NULL;
						free(t->v[i].ids.v);
					}
					t->n = at;
				}
			}
		}
	}
	for (size_t i = 0; i < nthreads; i++) {
		for (size_t j = 0; j < threads[i].n; j++) {
			incomplete += threads[i].v[j].f != NULL;
			free(threads[i].v[j].ids.v);
		}
		free(threads[i].v);
	}
	free(buf);
	if (r.bad)
		FAIL("%s: truncated trace", path);
}

/* --- the kiter profile --- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static uint64_t json_u64(json_t *x)
{
	if (json_is_string(x))
		return strtoull(json_string_value(x), NULL, 10);
	return (uint64_t)json_integer_value(x);
}

/* The lines of the blocks path id visits, as the trace shows them: its
 * first block, then the target of every edge but End and, for a path that
 * ends at a back edge, the head it returns to (the next path's). */
static size_t trace_lines(const struct fn *f, uint64_t id, unsigned *out, size_t cap)
{
	uint32_t *e = xrealloc(NULL, 4096 * sizeof *e);
	size_t len = ki_decode(f->n, id, e, 4096), m = 0;
	const struct cfg *g = f->plan.g;
	for (size_t i = 0; i < len && i < 4096; i++) {
		const struct ki_edge *ed = &f->kg->edges[e[i]];
		if (i == 0 && g->blocks[ed->src].line && m < cap)
			out[m++] = g->blocks[ed->src].line;
		if (ed->dst == KI_END || (i + 1 == len && ed->back))
			continue;
		if (g->blocks[ed->dst].line && m < cap)
			out[m++] = g->blocks[ed->dst].line;
	}
	free(e);
	return m;
}

static size_t compare_profile(const char *path)
{
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	size_t compared = 0;
	if (!root) {
		fprintf(stderr, "kmode_oracle: %s:%d: %s\n", path, je.line, je.text);
		exit(2);
	}
	json_t *funcs = json_object_get(root, "functions");
	for (size_t i = 0; i < nfns; i++) {
		struct fn *f = &fns[i];
		json_t *pf = NULL, *x;
		size_t j;
		json_array_foreach(funcs, j, x)
			if (!strcmp(json_string_value(json_object_get(x, "name")), f->name) &&
			    (unsigned)json_integer_value(json_object_get(x, "line")) == f->line)
				pf = x;
		if (!f->activations)
			continue;
		if (!pf) {
			FAIL("%s: ran %lu times but is not in the kiter profile", f->name, f->activations);
			continue;
		}
		if (json_u64(json_object_get(pf, "num_paths")) != f->n->total)
			FAIL("%s: num_paths %" PRIu64 ", the numbering has %" PRIu64, f->name,
			     json_u64(json_object_get(pf, "num_paths")), f->n->total);
		qsort(f->ids.v, f->ids.n, sizeof *f->ids.v, cmp_u64);
		/* the oracle's tally against the profile's level-1 counts (both by
		 * increasing ID: the profile is in canonical order) */
		json_t *roots = json_object_get(pf, "kipf"), *paths = json_object_get(pf, "paths");
		size_t a = 0, r = 0, nr = json_array_size(roots);
		while (a < f->ids.n || r < nr) {
			uint64_t id = a < f->ids.n ? f->ids.v[a] : UINT64_MAX, cnt = 0;
			json_t *node = r < nr ? json_array_get(roots, r) : NULL;
			uint64_t pid = node ? json_u64(json_object_get(node, "id")) : UINT64_MAX;
			if (pid < id) {
				FAIL("%s: the profile counts path %" PRIu64 ", the run never completes it", f->name, pid);
				r++;
				continue;
			}
			while (a < f->ids.n && f->ids.v[a] == id)
				a++, cnt++;
			if (pid > id) {
				FAIL("%s: path %" PRIu64 " taken %" PRIu64 " times is not in the profile", f->name, id, cnt);
				continue;
			}
			r++;
			uint64_t pc = json_u64(json_object_get(node, "count"));
			if (pc != cnt)
				FAIL("%s: path %" PRIu64 ": count %" PRIu64 " in the profile, %" PRIu64 " by the definition",
				     f->name, id, pc, cnt);
			compared++;
			/* its lines */
			unsigned want[4096];
			size_t nw = trace_lines(f, id, want, 4096);
			json_t *pp = NULL, *y;
			size_t k;
			json_array_foreach(paths, k, y)
				if (json_u64(json_object_get(y, "id")) == id)
					pp = y;
			json_t *lines = pp ? json_object_get(pp, "lines") : NULL;
			bool same = lines && json_array_size(lines) == nw;
			for (size_t q = 0; same && q < nw; q++)
				same = (unsigned)json_integer_value(json_array_get(lines, q)) == want[q];
			if (!same)
				FAIL("%s: path %" PRIu64 ": its lines in the profile are not those of its blocks", f->name, id);
		}
	}
	json_decref(root);
	return compared;
}

int main(int argc, char **argv)
{
	const char *trace = NULL, *profile = NULL;
	const char **flags = NULL;
	int nflags = 0, i;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			flags = (const char **)argv + i + 1;
			nflags = argc - i - 1;
			break;
		} else if (!strcmp(argv[i], "--k") && i + 1 < argc) {
			opt_k = (unsigned)atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
			trace = argv[++i];
		} else if (!strcmp(argv[i], "--skip") && i + 1 < argc) {
			skip = xrealloc(skip, (nskip + 1) * sizeof *skip);
			skip[nskip++] = argv[++i];
		} else if (!strcmp(argv[i], "--loop") && i + 1 < argc) {
			loop_k = xrealloc(loop_k, (nloop_k + 1) * sizeof *loop_k);
			if (sscanf(argv[++i], "%u=%u", &loop_k[nloop_k][0], &loop_k[nloop_k][1]) != 2) {
				fprintf(stderr, "kmode_oracle: --loop LINE=K\n");
				return 2;
			}
			nloop_k++;
		} else if (!strcmp(argv[i], "--profile") && i + 1 < argc) {
			profile = argv[++i];
		} else if (!src_path) {
			src_path = argv[i];
		}
	}
	if (!src_path || !trace || !profile || opt_k < 1) {
		fprintf(stderr, "usage: kmode_oracle --k K [--loop LINE=K]... --trace TRACE --profile PROFILE FILE.c [-- FLAGS]\n");
		return 2;
	}
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	if (clang_parseTranslationUnit2(index, src_path, flags, nflags, NULL, 0,
	                                CXTranslationUnit_DetailedPreprocessingRecord, &tu) != CXError_Success) {
		fprintf(stderr, "kmode_oracle: cannot parse %s\n", src_path);
		return 2;
	}
	struct src_file src;
	memset(&src, 0, sizeof src);
	src.path = src_path;
	src.file = clang_getFile(tu, src_path);
	src.tu = tu;
	src.text = clang_getFileContents(tu, src.file, &src.len);
	if (!src.text || !src_index(&src))
		return 2;
	the_src = &src;
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, NULL);
	read_trace(trace);
	size_t compared = compare_profile(profile);
	unsigned long acts = 0;
	for (size_t j = 0; j < nfns; j++)
		acts += fns[j].activations;
	printf("kmode_oracle: %s K=%u: %zu functions, %lu activations, %zu executed paths compared, %lu activations "
	       "incomplete, %d failures\n",
	       src_path, opt_k, nfns, acts, compared, incomplete, failures);
	if (!compared) {
		fprintf(stderr, "kmode_oracle: nothing compared\n");
		return 1;
	}
	return failures ? 1 : 0;
}
