/*
 * test_profile.c: profile.h on its own: read errors (missing file,
 * truncated JSON, wrong schema, bad field, forest deeper than k), canonical
 * byte-identical round trip, merging (sums, different k truncates, checksum
 * mismatch keeps both), compatibility, decoding.
 */
#include <unistd.h>

#include "abi_desc.h"
#include "rt_test.h"

static char dir[256];

static char *in_dir(const char *name)
{
	static char buf[4][512];
	static int i;
	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

static void write_text(const char *name, const char *text)
{
	FILE *f = fopen(in_dir(name), "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int read_err(const char *name, const char *needle)
{
	struct kp_profile p;
	char err[512] = "";
	int rc = kp_profile_read(in_dir(name), &p, err, sizeof err);
	kp_profile_free(&p);
	if (!strstr(err, needle)) {
		fprintf(stderr, "%s: message \"%s\" lacks \"%s\"\n", name, err, needle);
		rt_failures++;
	}
	return rc;
}

static const char *good =
	"{\"schema\": \"kpath-profile/1\", \"k\": 3, \"runs\": 2, \"future\": true, \"functions\": ["
	" {\"name\": \"g\", \"file\": \"b.c\", \"line\": 5, \"checksum\": \"00000000000000ff\","
	"  \"num_paths\": 8, \"invalid_paths\": 1, \"emitted\": 9, \"paths\": [{\"id\": 6, \"lines\": [11, 13]}],"
	"  \"kipf\": [{\"id\": 6, \"count\": 5, \"children\": [{\"id\": 2, \"count\": 4, \"children\":"
	"     [{\"id\": 2, \"count\": 1, \"children\": []}]}, {\"id\": 1, \"count\": 1, \"children\": []}]},"
	"   {\"id\": 2, \"count\": 4, \"children\": []}]},"
	" {\"name\": \"f\", \"file\": \"a.c\", \"line\": 9, \"checksum\": \"00000000000000aa\","
	"  \"num_paths\": 4, \"invalid_paths\": 0, \"paths\": [], \"kipf\": []}]}";

static void test_read_errors(void)
{
	CHECK(read_err("missing.json", "No such file") == KP_ENOENT);
	write_text("trunc.json", "{\"schema\": \"kpath-profile/1\", \"k\": 4, \"runs\"");
	CHECK(read_err("trunc.json", "invalid JSON") == KP_EJSON);
	write_text("empty.json", "");
	CHECK(read_err("empty.json", "invalid JSON") == KP_EJSON);
	write_text("schema.json", "{\"schema\": \"other/2\", \"k\": 4, \"runs\": 1, \"functions\": []}");
	CHECK(read_err("schema.json", "expected \"kpath-profile/2\" or \"kpath-profile/1\"") == KP_ESCHEMA);
	write_text("noschema.json", "[1, 2]");
	CHECK(read_err("noschema.json", "not a kpath profile") == KP_ESCHEMA);
	write_text("badk.json", "{\"schema\": \"kpath-profile/1\", \"k\": 0, \"runs\": 1, \"functions\": []}");
	CHECK(read_err("badk.json", "k: expected") == KP_ESCHEMA);
	write_text("badcount.json",
		   "{\"schema\": \"kpath-profile/1\", \"k\": 2, \"runs\": 1, \"functions\": [{\"name\": \"f\", "
		   "\"file\": \"a.c\", \"line\": 1, \"checksum\": \"00000000000000aa\", \"num_paths\": 2, \"invalid_paths\": 0, "
		   "\"kipf\": [{\"id\": 1, \"count\": -3, \"children\": []}]}]}");
	CHECK(read_err("badcount.json", "functions[0].kipf[0].count: expected a non-negative integer") ==
	      KP_ESCHEMA);
	write_text("deep.json",
		   "{\"schema\": \"kpath-profile/1\", \"k\": 1, \"runs\": 1, \"functions\": [{\"name\": \"f\", "
		   "\"file\": \"a.c\", \"line\": 1, \"checksum\": \"00000000000000aa\", \"num_paths\": 2, \"invalid_paths\": 0, "
		   "\"kipf\": [{\"id\": 1, \"count\": 3, \"children\": [{\"id\": 1, \"count\": 1, "
		   "\"children\": []}]}]}]}");
	CHECK(read_err("deep.json", "deeper than k") == KP_ESCHEMA);
}

static void test_roundtrip(void)
{
	struct kp_profile p, q;
	char err[512];
	write_text("good.json", good);
	CHECK(kp_profile_read(in_dir("good.json"), &p, err, sizeof err) == 0);
	CHECK(p.k == 3 && p.runs == 2 && p.nfuncs == 2);
	struct kp_func *g = kp_profile_find(&p, "g", "b.c", NULL);
	CHECK(g && g->emitted == 9 && g->invalid_paths == 1 && g->npaths == 1);
	static const uint64_t s622[] = { 6, 2, 2 };
	CHECK(g && rt_count(&g->ipf, s622, 3) == 1);
	CHECK(kp_profile_write_atomic(in_dir("w1.json"), &p, err, sizeof err) == 0);
	CHECK(kp_profile_read(in_dir("w1.json"), &q, err, sizeof err) == 0);
	CHECK(kp_profile_write_atomic(in_dir("w2.json"), &q, err, sizeof err) == 0);
	size_t la = 0, lb = 0;
	FILE *a = fopen(in_dir("w1.json"), "rb"), *b = fopen(in_dir("w2.json"), "rb");
	static char x[1 << 16], y[1 << 16];
	if (a)
		la = fread(x, 1, sizeof x, a), fclose(a);
	if (b)
		lb = fread(y, 1, sizeof y, b), fclose(b);
	CHECK(la > 0 && la == lb && memcmp(x, y, la) == 0);
	/* canonical order: a.c before b.c; roots by id */
	CHECK(!strcmp(p.funcs[0].file, "a.c"));
	struct kp_func *g2 = kp_profile_find(&p, "g", "b.c", NULL);
	CHECK(g2 && g2->ipf.nodes[g2->ipf.nodes[0].first_child].id == 2);
	kp_profile_free(&q);

	/* merge: same k sums */
	CHECK(kp_profile_read(in_dir("w1.json"), &q, err, sizeof err) == 0);
	CHECK(kp_profile_compatible(&p, &q, err, sizeof err) == 0);
	CHECK(kp_profile_merge_into(&q, &p, err, sizeof err) == 0);
	g = kp_profile_find(&q, "g", "b.c", NULL);
	CHECK(q.runs == 4 && g && g->emitted == 18 && g->invalid_paths == 2 && rt_count(&g->ipf, s622, 3) == 2);
	kp_profile_free(&q);

	/* merge with a smaller k truncates */
	struct kp_profile k2;
	kp_profile_init(&k2, 2);
	k2.runs = 1;
	struct kp_func *h = kp_profile_add_func(&k2, "g", "b.c", 5, "00000000000000ff", 8);
	uint32_t v;
	CHECK(h && kp_ipf_child(&h->ipf, 0, 6, &v) == 0);
	h->ipf.nodes[v].count = 10;
	CHECK(kp_profile_compatible(&p, &k2, err, sizeof err) == KP_EINCOMPAT && strstr(err, "k is 3 there, 2 here"));
	CHECK(kp_profile_merge_into(&p, &k2, err, sizeof err) == 0);
	g = kp_profile_find(&p, "g", "b.c", NULL);
	static const uint64_t s6[] = { 6 }, s62[] = { 6, 2 };
	CHECK(p.k == 2 && g && kp_ipf_depth(&g->ipf) == 2 && rt_count(&g->ipf, s6, 1) == 15 &&
	      rt_count(&g->ipf, s62, 2) == 4 && rt_count(&g->ipf, s622, 3) == 0);

	/* a different checksum: incompatible, and merge keeps both */
	struct kp_profile c;
	kp_profile_init(&c, 2);
	CHECK(kp_profile_add_func(&c, "g", "b.c", 5, "0000000000000000", 8) != NULL);
	CHECK(kp_profile_compatible(&p, &c, err, sizeof err) == KP_EINCOMPAT && strstr(err, "checksum"));
	CHECK(kp_profile_merge_into(&p, &c, err, sizeof err) == 0 && p.nfuncs == 3);
	kp_profile_free(&c);
	kp_profile_free(&k2);
	kp_profile_free(&p);
}

static void test_decode(void)
{
	struct kp_dag d = { 8, loop_lines, 10, abi_edges, NULL };
	uint32_t *lines, *last, n;
	/* every id in [0, 8) decodes; 8 and beyond do not */
	for (uint64_t id = 0; id < 8; id++) {
		CHECK(kp_decode_path(&d, id, &lines, &n) == 0);
		if (n)
			free(lines);
	}
	CHECK(kp_decode_path(&d, 6, &lines, &n) == 0 && n == 4 && lines[0] == 11 && lines[3] == 15);
	free(lines);
	CHECK(kp_decode_path(&d, 8, &lines, &n) == KP_ESCHEMA);
	/* spans: id 6 visits blocks 3, 5, 6, 7; a last line below the first
	 * (block 5) means the first line only; no table, no spans */
	CHECK(kp_decode_spans(&d, 6, &lines, &last, &n) == 0 && n == 4 && last == NULL);
	free(lines);
	static const unsigned last_tab[] = { 0, 0, 10, 12, 12, 3, 16, 15 };
	struct kp_dag ds = { 8, loop_lines, 10, abi_edges, last_tab };
	CHECK(kp_decode_spans(&ds, 6, &lines, &last, &n) == 0 && n == 4 && last != NULL);
	CHECK(lines[0] == 11 && last[0] == 12 && lines[1] == 13 && last[1] == 13);
	CHECK(lines[2] == 14 && last[2] == 16 && lines[3] == 15 && last[3] == 15);
	free(lines);
	free(last);
	/* a cycle in a malformed table terminates */
	static const struct kpath_rt_edge cyc[] = { { 0, 2, 0 }, { 2, 3, 0 }, { 3, 2, 0 } };
	struct kp_dag bad = { 8, loop_lines, 3, cyc, NULL };
	CHECK(kp_decode_path(&bad, 0, &lines, &n) == KP_ESCHEMA);

	/* kp_func_decode_all decodes every label of the forest: from its
	 * roots when they hold them all (a bitmap where the labels are small
	 * against the forest, a binary search otherwise), else from every
	 * node; an id that does not decode keeps an empty line list */
	static const struct {
		uint64_t roots[2], child; /* the child is under the last root */
		uint64_t want[3];
	} cases[] = {
		{ { 1, 6 }, 1, { 1, 6, UINT64_MAX } },  /* every label a root */
		{ { 1, 6 }, 5, { 1, 5, 6 } },           /* 5 is no root */
		{ { 1, 3 }, 7, { 1, 3, 7 } },           /* above every root */
		{ { 1, 40 }, 2, { 1, 2, 40 } },         /* 40: large, and no path */
		{ { 1, 40 }, 1, { 1, 40, UINT64_MAX } }, /* large, all roots */
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct kp_profile q;
		kp_profile_init(&q, 2);
		struct kp_func *f = kp_profile_add_func(&q, "f", "a.c", 1, "0000000000000001", 8);
		uint32_t r0, r1, c;
		CHECK(f && kp_ipf_child(&f->ipf, 0, cases[i].roots[0], &r0) == 0 &&
		      kp_ipf_child(&f->ipf, 0, cases[i].roots[1], &r1) == 0 &&
		      kp_ipf_child(&f->ipf, r1, cases[i].child, &c) == 0);
		f->ipf.nodes[r0].count = f->ipf.nodes[r1].count = 2;
		f->ipf.nodes[c].count = 1;
		kp_ipf_compact(&f->ipf, 2);
		CHECK(kp_func_decode_all(f, &d) == 0);
		uint32_t want = cases[i].want[2] == UINT64_MAX ? 2 : 3;
		CHECK(f->npaths == want);
		for (uint32_t j = 0; j < want && j < f->npaths; j++) {
			CHECK(f->paths[j].id == cases[i].want[j]);
			CHECK((f->paths[j].nlines > 0) == (cases[i].want[j] < 8));
		}
		kp_profile_free(&q);
	}
}

int main(void)
{
	snprintf(dir, sizeof dir, "%s/kpath-prof-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	test_read_errors();
	test_roundtrip();
	test_decode();
	if (!rt_failures) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	}
	return rt_done("test_profile");
}
