/*
 * test_stream.c: the streaming profile writer (profile/profile_write.c)
 * against the jansson-tree writer it replaced (issue 14, item 6), kept
 * here as the oracle: the tree built with json_object/json_array and
 * dumped.  On random profiles (names and files with quotes, backslashes,
 * control characters and UTF-8; IDs and counts above INT64_MAX; paths with
 * and without spans; cfgs; kiter, ppp and overlap payloads; forked; the
 * program totals) and on the profile files given as arguments:
 *  - the streamed bytes parse to the oracle's tree: the same keys in the
 *    same order and the same values (compared as jansson's compact dump of
 *    both, which keeps insertion order), and are compact with one function
 *    per line;
 *  - they read back (kp_profile_read), and so do the oracle's indented
 *    bytes, into a profile that streams to the same bytes;
 *  - failures: a stream that cannot be written gives KP_EIO and "write
 *    error: ...", a name that is not UTF-8 KP_ESCHEMA (the oracle refused
 *    it too), and with every N-th allocation failing the writer returns
 *    KP_ENOMEM or the same bytes.
 * A run that compares nothing fails.  Links the profile component alone.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "profile_int.h"

static int failures, compared;

#include "../check.h"

static void seterr(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- the oracle: the tree writer of profile_json.c, profile_cfg.c and
 * profile_mode.c before issue 14 ------------------------------------------ */

static json_t *cfg_u64_json(uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	char buf[24];
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)v);
	return json_string(buf);
}

static json_t *oracle_cfg_json(const struct kp_cfg *c)
{
	json_t *o = json_object(), *blocks = json_array(), *edges = json_array();
	if (!o || !blocks || !edges || json_object_set(o, "blocks", blocks) || json_object_set(o, "edges", edges))
		goto fail;
	for (uint32_t b = 0; b < c->nblocks; b++)
		if (json_array_append_new(blocks, json_pack("[ii]", (json_int_t)c->line[b], (json_int_t)c->last_line[b])))
			goto fail;
	for (uint32_t e = 0; e < c->nedges; e++)
		if (json_array_append_new(edges, json_pack("[iio]", (json_int_t)c->edges[e].src,
		                                           (json_int_t)c->edges[e].dst, cfg_u64_json(c->edges[e].val))))
			goto fail;
	json_decref(blocks);
	json_decref(edges);
	return o;
fail:
	json_decref(o);
	json_decref(blocks);
	json_decref(edges);
	return NULL;
}

static json_t *oracle_program_json(const struct kp_profile *p)
{
	if (!p->totals.runs && !p->totals.threads)
		return NULL;
	return json_pack("{s:{s:I, s:I}}", "totals", "runs", (json_int_t)p->totals.runs, "threads",
	                 (json_int_t)p->totals.threads);
}



static json_t *u64_json(uint64_t v)
{
	if (v <= (uint64_t)INT64_MAX)
		return json_integer((json_int_t)v);
	char buf[32];
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	return json_string(buf);
}

/* The children of v as a JSON array; NULL on ENOMEM. */
static json_t *forest_json(const struct kp_ipf *t, uint32_t v)
{
	json_t *a = json_array();
	if (!a)
		return NULL;
	for (uint32_t c = t->nodes[v].first_child; c != KP_NONE; c = t->nodes[c].next_sibling) {
		json_t *o = json_object(), *kids = forest_json(t, c);
		if (!o || !kids || json_object_set_new(o, "id", u64_json(t->nodes[c].id)) ||
		    json_object_set_new(o, "count", u64_json(t->nodes[c].count)) ||
		    json_object_set_new(o, "children", kids) || json_array_append_new(a, o)) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* "mode" and the mode's payload, nested (profile_mode.c): 0, or -1 when
 * out of memory. */
static int mode_json(json_t *o, const struct kp_func *f)
{
	const char *mode = kp_func_mode(f);
	json_t *flat = f->kiter     ? json_incref((json_t *)f->kiter)
	               : f->overlap ? json_incref((json_t *)f->overlap)
	               : f->ppp     ? kp_ppp_json(f)
	                            : NULL;
	if (json_object_set_new(o, "mode", json_string(mode))) {
		json_decref(flat);
		return -1;
	}
	if (!strcmp(mode, "kipf"))
		return 0;
	json_t *x = flat ? kp_payload_nest(flat, mode) : NULL;
	json_decref(flat);
	return x && json_object_set_new(o, mode, x) == 0 ? 0 : -1;
}

static json_t *func_json(const struct kp_func *f)
{
	json_t *o = json_object(), *paths = json_array(), *kipf = forest_json(&f->ipf, 0);
	if (!o || !paths || !kipf)
		goto fail;
	for (uint32_t i = 0; i < f->npaths; i++) {
		json_t *q = json_object(), *lines = json_array();
		if (!q || !lines || json_object_set_new(q, "id", u64_json(f->paths[i].id)) ||
		    json_array_append_new(paths, q)) {
			json_decref(q);
			json_decref(lines);
			goto fail;
		}
		for (uint32_t j = 0; j < f->paths[i].nlines; j++)
			if (json_array_append_new(lines, json_integer(f->paths[i].lines[j]))) {
				json_decref(lines);
				goto fail;
			}
		if (json_object_set_new(q, "lines", lines))
			goto fail;
		if (f->paths[i].last_lines) {
			json_t *spans = json_array();
			if (!spans || json_object_set_new(q, "spans", spans))
				goto fail;
			for (uint32_t j = 0; j < f->paths[i].nlines; j++)
				if (json_array_append_new(spans, json_pack("[ii]", (json_int_t)f->paths[i].lines[j],
									   (json_int_t)f->paths[i].last_lines[j])))
					goto fail;
		}
	}
	if (json_object_set_new(o, "name", json_string(f->name)) ||
	    json_object_set_new(o, "file", json_string(f->file)) ||
	    json_object_set_new(o, "line", json_integer(f->line)) ||
	    json_object_set_new(o, "checksum", json_string(f->checksum)) ||
	    json_object_set_new(o, "num_paths", u64_json(f->num_paths)) ||
	    json_object_set_new(o, "invalid_paths", u64_json(f->invalid_paths)) ||
	    json_object_set_new(o, "emitted", u64_json(f->emitted)) ||
	    (f->source_hash[0] && json_object_set_new(o, "source_hash", json_string(f->source_hash))))
		goto fail;
	if (mode_json(o, f))
		goto fail;
	json_object_set_new(o, "paths", paths);
	json_object_set_new(o, "kipf", kipf);
	if (f->cfg.nblocks) { /* optional, last: docs/profile-schema.md */
		json_t *cfg = oracle_cfg_json(&f->cfg);
		if (!cfg || json_object_set_new(o, "cfg", cfg)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
fail:
	json_decref(o);
	json_decref(paths);
	json_decref(kipf);
	return NULL;
}

static json_t *profile_json(struct kp_profile *p)
{
	kp_profile_sort(p);
	json_t *o = json_object(), *fs = json_array();
	if (!o || !fs)
		goto fail;
	if (json_object_set_new(o, "schema", json_string(KP_SCHEMA)) ||
	    json_object_set_new(o, "k", json_integer(p->k)) || json_object_set_new(o, "runs", u64_json(p->runs)) ||
	    json_object_set_new(o, "dropped", u64_json(p->dropped)) ||
	    (p->forked && json_object_set_new(o, "forked", json_true())))
		goto fail;
	if (p->totals.runs || p->totals.threads) { /* profile_mode.c */
		json_t *prog = oracle_program_json(p);
		if (!prog || json_object_set_new(o, "program", prog))
			goto fail;
	}
	for (size_t i = 0; i < p->nfuncs; i++)
		if (json_array_append_new(fs, func_json(&p->funcs[i])))
			goto fail;
	json_object_set_new(o, "functions", fs);
	return o;
fail:
	json_decref(o);
	json_decref(fs);
	return NULL;
}

static int oracle_write_file(void *stdio_file, struct kp_profile *p, char *err, size_t errlen)
{
	json_t *o = profile_json(p);
	if (!o) {
		seterr(err, errlen, "out of memory while writing the profile");
		return KP_ENOMEM;
	}
	int rc = json_dumpf(o, stdio_file, JSON_INDENT(1)) == 0 && fputc('\n', stdio_file) != EOF ? 0 : KP_EIO;
	json_decref(o);
	if (rc)
		seterr(err, errlen, "write error: %s", strerror(errno));
	return rc;
}


/* ---- the tests ---------------------------------------------------------- */

static uint64_t rng = 88172645463325252ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* Numbers at and around every length the writer forms differently (one
 * to four digits, five and six, longer; above INT64_MAX a string). */
static uint64_t digits(void)
{
	static const uint64_t edge[] = { 0, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000,
		                         9999999, 12345678901ull, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1 };
	uint64_t v = edge[pick(sizeof edge / sizeof *edge)];
	return pick(2) ? v : v + pick(3);
}

/* small, or now and then one above INT64_MAX (written as a string), or
 * one at a length boundary */
static uint64_t big(void)
{
	if (pick(6) == 0)
		return digits();
	return pick(8) ? pick(1000) : UINT64_MAX - pick(1000);
}

/* a line number: short, or of a 100,000-line amalgamation (five and six
 * digits) */
static unsigned line_no(void)
{
	return pick(3) ? 1 + pick(500) : 9990 + pick(20) + (pick(2) ? 0 : 89990 + pick(910020));
}

static const char *const names[] = { "f", "main", "a\"quoted\\name", "tab\there", "ctl\001\037x", "caf\xc3\xa9",
	                             "\xe2\x82\xac\xf0\x9f\x98\x80", "sl/ash", "" };
static const char *const files[] = { "a.c", "lib/b.c", "dir with space/c.c", "\xc3\xbc.c" };

static void random_forest(struct kp_ipf *t, uint32_t v, uint64_t count, unsigned depth, unsigned k,
			  uint64_t num_paths)
{
	if (depth > k)
		return;
	unsigned n = pick(depth == 1 ? 6 : 3);
	for (unsigned i = 0; i < n; i++) {
		uint32_t c;
		uint64_t id = num_paths > 1000 && pick(4) == 0 ? num_paths - 1 - pick(5) : pick(40) % num_paths;
		CHECK(kp_ipf_child(t, v, id, &c) == 0);
		if (t->nodes[c].count)
			continue;
		t->nodes[c].count = 1 + rnd() % (count ? count : 1);
		random_forest(t, c, t->nodes[c].count, depth + 1, k, num_paths);
	}
}

static void random_paths(struct kp_func *f)
{
	unsigned n = pick(5);
	for (unsigned i = 0; i < n; i++) {
		uint64_t id = f->npaths ? f->paths[f->npaths - 1].id + 1 + pick(3) : pick(3);
		if (id >= f->num_paths)
			break;
		struct kp_path q = { .id = id, .nlines = pick(5) };
		q.lines = malloc((q.nlines + 1) * sizeof *q.lines);
		q.last_lines = pick(2) ? malloc((q.nlines + 1) * sizeof *q.last_lines) : NULL;
		for (uint32_t j = 0; j < q.nlines; j++) {
			q.lines[j] = line_no();
			if (q.last_lines)
				q.last_lines[j] = q.lines[j] + pick(3);
		}
		f->paths = realloc(f->paths, (f->npaths + 1) * sizeof *f->paths);
		f->paths[f->npaths++] = q;
	}
}

static void random_cfg(struct kp_func *f)
{
	struct kp_cfg *c = &f->cfg;
	c->nblocks = 2 + pick(4);
	c->nedges = pick(5);
	if (c->nedges > f->num_paths)
		c->nedges = (uint32_t)f->num_paths;
	c->line = calloc(c->nblocks, sizeof *c->line);
	c->last_line = calloc(c->nblocks, sizeof *c->last_line);
	c->edges = calloc(c->nedges + 1, sizeof *c->edges);
	for (uint32_t b = 2; b < c->nblocks; b++)
		c->last_line[b] = (c->line[b] = line_no()) + pick(2);
	/* well formed (kp_rule_cfg): from ENTRY, increasing vals below
	 * num_paths, some above INT64_MAX when num_paths is */
	for (uint32_t e = 0; e < c->nedges; e++)
		c->edges[e] = (struct kp_cfg_edge){ 0, c->nblocks > 2 ? 2 + e % (c->nblocks - 2) : 1, e * (f->num_paths / 5) };
}

static void random_mode(struct kp_func *f)
{
	switch (pick(6)) {
	case 0:
		f->kiter = json_pack("{s:s, s:i, s:[{s:i, s:i}]}", "mode", "kiter", "kiter_k", 2, "kiter_loops", "line",
				     3, "k", 2);
		break;
	case 1:
		f->ppp = json_pack("{s:s, s:i, s:i, s:i, s:[{s:i, s:i}]}", "mode", "ppp", "ppp_interesting", 1,
				   "ppp_interval", 3, "ppp_slots", 1, "ppp_paths", "id", 0, "ppp_id", 0);
		break;
	case 2:
		f->overlap = json_pack("{s:s, s:i, s:[i, i], s:[s]}", "mode", "overlap", "overlap_degree", 1,
				       "overlap_counts", 4, 5, "overlap_dag_kinds", "a\"b");
		break;
	}
}

static void random_profile(struct kp_profile *p)
{
	kp_profile_init(p, 1 + pick(8));
	p->runs = big();
	p->dropped = pick(3) ? 0 : big();
	p->forked = pick(4) == 0;
	if (pick(2))
		p->totals = (struct kp_totals){ pick(5), pick(9) };
	unsigned n = pick(12);
	for (unsigned i = 0; i < n; i++) {
		char sum[17];
		snprintf(sum, sizeof sum, "%016" PRIx64, rnd());
		uint64_t np = pick(3) ? 1 + pick(50) : UINT64_MAX - pick(10);
		struct kp_func *f = kp_profile_add_func(p, names[pick(8)], files[pick(4)], 1 + pick(900), sum, np);
		CHECK(f != NULL);
		f->invalid_paths = pick(2) ? 0 : big();
		f->emitted = big();
		if (pick(2))
			snprintf(f->source_hash, sizeof f->source_hash, "%016" PRIx64, rnd());
		random_forest(&f->ipf, 0, 1000, 1, p->k, np);
		random_paths(f);
		if (pick(2))
			random_cfg(f);
		random_mode(f);
	}
}

typedef int writer_fn(void *f, struct kp_profile *p, char *err, size_t errlen);

/* p written by w into memory: *out (malloc'd, NUL-terminated); w's result. */
static int write_mem(writer_fn *w, struct kp_profile *p, char **out, char *err, size_t errlen)
{
	size_t len;
	*out = NULL;
	FILE *f = open_memstream(out, &len);
	if (!f)
		return -99;
	int rc = w(f, p, err, errlen);
	fclose(f);
	return rc;
}

/* jansson's compact dump of the JSON in s, keys in the file's order. */
static char *canonical(const char *s)
{
	json_error_t je;
	json_t *v = json_loads(s, 0, &je);
	if (!v) {
		fprintf(stderr, "not JSON (%d:%d: %s): %.200s\n", je.line, je.column, je.text, s);
		return NULL;
	}
	char *d = json_dumps(v, JSON_COMPACT);
	json_decref(v);
	return d;
}

/* The streamed bytes of p against the oracle's, and read back. */
static void compare(struct kp_profile *p, const char *what)
{
	char err[256], *s, *t;
	int rs = write_mem(kp_profile_write_file, p, &s, err, sizeof err);
	int rt = write_mem(oracle_write_file, p, &t, err, sizeof err);
	CHECK(rs == 0 && rt == 0);
	char *cs = canonical(s), *ct = canonical(t), *u = NULL;
	CHECK(cs && ct && strcmp(cs, ct) == 0);
	if (cs && ct && strcmp(cs, ct))
		fprintf(stderr, "%s: stream %.300s\noracle %.300s\n", what, cs, ct);
	/* compact, one function a line: the head, the functions, the end */
	size_t lines = 0;
	for (const char *c = s; *c; c++)
		lines += *c == '\n';
	CHECK(lines == p->nfuncs + 2);
	CHECK(strstr(s, ": ") == NULL || strstr(t, ": ") != NULL);
	/* read back: the same bytes again (not with the random overlap and ppp
	 * payloads, which only the writer takes: it copies payloads as they are) */
	for (size_t i = 0; i < p->nfuncs; i++)
		if ((p->funcs[i].overlap || p->funcs[i].ppp) && strstr(what, "random"))
			goto done;
	/* both the compact bytes and the oracle's indented ones (the reader
	 * splits either into functions, profile_json.c read_sliced) */
	for (int which = 0; which < 2; which++) {
		char path[] = "/tmp/kpath-test-stream.XXXXXX";
		int fd = mkstemp(path);
		CHECK(fd >= 0);
		FILE *f = fdopen(fd, "w");
		fputs(which ? t : s, f);
		fclose(f);
		struct kp_profile q;
		unsigned long fallbacks = kp_read_fallbacks;
		int rr = kp_profile_read_opts(path, &q, 1, err, sizeof err);
		CHECK(rr == 0 || rr == KP_FORCED);
		/* a clean file is read a function at a time, its forests
		 * without jansson trees (profile_json.c, read_sliced) */
		CHECK(rr == KP_FORCED || kp_read_fallbacks == fallbacks);
		if (rr != 0 && rr != KP_FORCED)
			fprintf(stderr, "%s: read back: %s\n", what, err);
		free(u);
		u = NULL;
		CHECK(write_mem(kp_profile_write_file, &q, &u, err, sizeof err) == 0 && u && strcmp(s, u) == 0);
		kp_profile_free(&q);
		unlink(path);
	}
done:
	free(s), free(t), free(cs), free(ct), free(u);
	compared++;
}

/* Write failures: the stream, the name, the memory. */
static void failures_test(struct kp_profile *p)
{
	char err[256], *s, *t;
	FILE *full = fopen("/dev/full", "w");
	if (full) {
		setvbuf(full, NULL, _IONBF, 0);
		CHECK(kp_profile_write_file(full, p, err, sizeof err) == KP_EIO);
		CHECK(strncmp(err, "write error: ", 13) == 0);
		fclose(full);
		compared++;
	}
	CHECK(write_mem(kp_profile_write_file, p, &s, err, sizeof err) == 0);
	for (unsigned every = 1; every < 8; every++) {
		kp_alloc_fail_every = every;
		int rc = write_mem(kp_profile_write_file, p, &t, err, sizeof err);
		kp_alloc_fail_every = 0;
		CHECK(rc == 0 || (rc == KP_ENOMEM && strcmp(err, "out of memory while writing the profile") == 0));
		if (rc == 0) {
			CHECK(strcmp(s, t) == 0);
		}
		free(t);
		compared++;
	}
	free(s);
	struct kp_func *f = kp_profile_add_func(p, "bad\xff", "x.c", 1, "0000000000000000", 1);
	CHECK(f != NULL);
	CHECK(write_mem(kp_profile_write_file, p, &s, err, sizeof err) == KP_ESCHEMA);
	CHECK(strstr(err, "UTF-8") != NULL);
	CHECK(write_mem(oracle_write_file, p, &t, err, sizeof err) != 0);
	free(s), free(t);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		struct kp_profile p;
		char err[512];
		int rc = kp_profile_read_opts(argv[i], &p, 1, err, sizeof err);
		CHECK(rc == 0 || rc == KP_FORCED);
		if (rc == 0 || rc == KP_FORCED)
			compare(&p, argv[i]);
		else
			fprintf(stderr, "%s\n", err);
		kp_profile_free(&p);
	}
	for (int round = 0; round < 120; round++) {
		struct kp_profile p;
		random_profile(&p);
		char what[32];
		snprintf(what, sizeof what, "random profile %d", round);
		compare(&p, what);
		if (round % 40 == 0)
			failures_test(&p);
		kp_profile_free(&p);
	}
	if (!compared)
		failures++;
	printf("test_stream: %d comparisons, %d failures\n", compared, failures);
	return failures != 0;
}
