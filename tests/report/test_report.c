/*
 * test_report.c: `kpath report` against the hand-written profiles beside
 * this file.  argv[1] is that directory.
 *
 * fixture.json was generated from two activations of loop, [6 2 2 2 3] and
 * [6 2 2 3] with k = 3, so its k-IPF holds: level 1 {2: 5, 3: 2, 6: 2},
 * level 2 {2 2: 3, 2 3: 2, 6 2: 2}, level 3 {2 2 2: 1, 2 2 3: 2, 6 2 2: 2};
 * hot ran path 0 twenty times, cold never ran, bad ran path 1 (no source
 * lines) once and recorded 3 invalid IDs.  fixture.expected is the full
 * text report, with @PROFILE@ standing for the profile's path.
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

static int failures;
static const char *dir;

#define CHECK(c) check((c), #c, __LINE__)

static int check(int ok, const char *what, int line)
{
	if (!ok) {
		fprintf(stderr, "test_report.c:%d: FAILED: %s\n", line, what);
		failures++;
	}
	return ok;
}

static char *slurp(FILE *f)
{
	long n;
	char *s;

	fflush(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc((size_t)n + 1);
	if (!s || fread(s, 1, (size_t)n, f) != (size_t)n)
		abort();
	s[n] = '\0';
	return s;
}

/* The result of one run: exit status, stdout, stderr. */
struct run {
	int rc;
	char *out, *err;
};

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* Runs `report ARGS...` (NULL-terminated). */
static struct run run(const char *arg, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;
	FILE *out = tmpfile(), *err = tmpfile();
	struct run r;

	if (!out || !err)
		abort();
	argv[argc++] = "report";
	va_start(ap, arg);
	for (; arg && argc < 15; arg = va_arg(ap, const char *))
		argv[argc++] = (char *)arg;
	va_end(ap);
	argv[argc] = NULL;
	r.rc = kp_report_run(argc, argv, out, err);
	r.out = slurp(out);
	r.err = slurp(err);
	fclose(out);
	fclose(err);
	return r;
}

static char *path(const char *name)
{
	static char buf[4][4096];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

static int has(const char *hay, const char *needle)
{
	if (strstr(hay, needle))
		return 1;
	fprintf(stderr, "--- missing: [%s]\n--- in:\n%s\n", needle, hay);
	return 0;
}

static int lacks(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		return 1;
	fprintf(stderr, "--- unexpected: [%s]\n--- in:\n%s\n", needle, hay);
	return 0;
}

/* The golden file with @PROFILE@ replaced by p. */
static char *golden(const char *name, const char *p)
{
	FILE *f = fopen(path(name), "rb");
	char *g, *at, *res;

	if (!f)
		abort();
	g = slurp(f);
	fclose(f);
	at = strstr(g, "@PROFILE@");
	if (!at)
		return g;
	res = malloc(strlen(g) + strlen(p) + 1);
	if (!res)
		abort();
	sprintf(res, "%.*s%s%s", (int)(at - g), g, p, at + strlen("@PROFILE@"));
	free(g);
	return res;
}

/* The whole text report, by default (maximal multi-iteration rows: the
 * leaves 2|2|3, 6|2|2, 2|3, 2|2|2) and with --prefixes (every node). */
static void test_full_text(void)
{
	const char *p = path("fixture.json");
	struct run r = run(p, (char *)NULL);
	char *g = golden("fixture.expected", p);

	CHECK(r.rc == 0);
	if (!CHECK(strcmp(r.out, g) == 0))
		fprintf(stderr, "--- got:\n%s--- expected:\n%s", r.out, g);
	CHECK(strcmp(r.err, "kpath report: warning: bad (corpus/b.c:7): 3 "
	                    "invalid path IDs\n") == 0);
	free(g);
	run_free(&r);

	r = run(p, "--prefixes", (char *)NULL);
	g = golden("fixture_prefixes.expected", p);
	CHECK(r.rc == 0);
	if (!CHECK(strcmp(r.out, g) == 0))
		fprintf(stderr, "--- got:\n%s--- expected:\n%s", r.out, g);
	free(g);
	run_free(&r);
}

/* --function RE (whole name), --file RE (anywhere), --min-iterations,
 * --sort length. */
static void test_select(void)
{
	const char *p = path("fixture.json");
	struct run r = run(p, "--function", "l.*", (char *)NULL);

	CHECK(r.rc == 0);
	CHECK(has(r.out, "\nloop  corpus/loop.c:12\n"));
	CHECK(lacks(r.out, "hot") && lacks(r.out, "cold") && lacks(r.out, "bad"));
	run_free(&r);

	/* anchored: "o" is no function's whole name */
	r = run(p, "--function", "o", (char *)NULL);
	CHECK(r.rc == 1);
	CHECK(strcmp(r.out, "") == 0);
	CHECK(has(r.err, "no function matching --function 'o' in "));
	run_free(&r);

	r = run(p, "--file", "a\\.c$", (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "\nhot  corpus/a.c:40\n"));
	CHECK(has(r.out, "not executed: 1 function\n  cold  corpus/a.c:3\n"));
	CHECK(lacks(r.out, "loop") && lacks(r.out, "bad"));
	run_free(&r);

	r = run(p, "--function", "hot|loop", "--file", "loop", (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "loop  corpus") && lacks(r.out, "hot  corpus"));
	run_free(&r);

	r = run(p, "--function", "loop", "--min-iterations", "3",
	        (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "  multi-iteration paths: 6 executed, 3 maximal of "
	                 ">= 3 iterations, top 3\n"
	                 "    #  count  share  iters  ids        lines\n"
	                 "    1      2  22.2%      3  2 | 2 | 3  "
	                 "[13 14 15] -> [13 14 15] -> [13 15 18]\n"
	                 "    2      2  22.2%      3  6 | 2 | 2  "
	                 "[12 13 15] -> [13 14 15] -> [13 14 15]\n"
	                 "    3      1  11.1%      3  2 | 2 | 2  "
	                 "[13 14 15] -> [13 14 15] -> [13 14 15]\n"));
	run_free(&r);

	r = run(p, "--function", "loop", "--min-iterations", "4",
	        (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "  multi-iteration paths: 6 executed, 0 maximal of "
	                 ">= 4 iterations, none shown\n"));
	run_free(&r);

	r = run(p, "--function", "loop", "--sort", "length", "--prefixes",
	        "--top", "0", (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "  multi-iteration paths: 6 executed, top 6\n"
	                 "    #  count  share  iters  ids        lines\n"
	                 "    1      2  22.2%      3  2 | 2 | 3  "
	                 "[13 14 15] -> [13 14 15] -> [13 15 18]\n"
	                 "    2      2  22.2%      3  6 | 2 | 2  "
	                 "[12 13 15] -> [13 14 15] -> [13 14 15]\n"
	                 "    3      1  11.1%      3  2 | 2 | 2  "
	                 "[13 14 15] -> [13 14 15] -> [13 14 15]\n"
	                 "    4      3  33.3%      2  2 | 2      "
	                 "[13 14 15] -> [13 14 15]\n"
	                 "    5      2  22.2%      2  2 | 3      "
	                 "[13 14 15] -> [13 15 18]\n"
	                 "    6      2  22.2%      2  6 | 2      "
	                 "[12 13 15] -> [13 14 15]\n"));
	run_free(&r);

	r = run(p, "--sort", "random", (char *)NULL);
	CHECK(r.rc == 2);
	CHECK(has(r.err, "--sort: 'count' or 'length', not 'random'"));
	run_free(&r);

	r = run(p, "--function", "(", (char *)NULL);
	CHECK(r.rc == 2);
	CHECK(has(r.err, "kpath report: --function '(': "));
	run_free(&r);

	r = run(p, "--min-iterations", "0", (char *)NULL);
	CHECK(r.rc == 2);
	run_free(&r);
}

static void test_top(void)
{
	struct run r = run(path("fixture.json"), "--top", "2", (char *)NULL);

	CHECK(r.rc == 0);
	CHECK(has(r.out, "  Ball-Larus paths: 3 executed, top 2\n"
	                 "    #  count  share  id  lines\n"
	                 "    1      5  55.6%   2  13 14 15\n"
	                 "    2      2  22.2%   3  13 15 18\n"
	                 "  multi-iteration paths: 6 executed, 4 maximal, top 2\n"
	                 "    #  count  share  iters  ids        lines\n"
	                 "    1      2  22.2%      3  2 | 2 | 3  "
	                 "[13 14 15] -> [13 14 15] -> [13 15 18]\n"
	                 "    2      2  22.2%      3  6 | 2 | 2  "
	                 "[12 13 15] -> [13 14 15] -> [13 14 15]\n"
	                 "\nbad"));
	CHECK(lacks(r.out, "12 13 15\n"));
	run_free(&r);

	r = run("--top=1", path("fixture.json"), "--prefixes", (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "  multi-iteration paths: 6 executed, top 1\n"
	                 "    #  count  share  iters  ids    lines\n"
	                 "    1      3  33.3%      2  2 | 2  "
	                 "[13 14 15] -> [13 14 15]\n\n"));
	run_free(&r);

	/* 0 means all. */
	r = run(path("fixture.json"), "--top", "0", (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "multi-iteration paths: 6 executed, 4 maximal, top 4\n"));
	run_free(&r);
}

static void test_function(void)
{
	const char *p = path("fixture.json");
	struct run r = run(p, "--function", "loop", (char *)NULL);

	CHECK(r.rc == 0);
	CHECK(has(r.out, "\nloop  corpus/loop.c:12\n"
	                 "  num_paths 8, runs 2, k 3, invalid_paths 0, "
	                 "flow 9\n"));
	CHECK(lacks(r.out, "hot"));
	CHECK(lacks(r.out, "not executed"));
	CHECK(strcmp(r.err, "") == 0); /* bad's warning is not about loop */
	run_free(&r);

	/* A function that never ran, asked for by name, is shown in full. */
	r = run("--function=cold", p, (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "\ncold  corpus/a.c:3\n"
	                 "  num_paths 2, runs 2, k 3, invalid_paths 0, flow 0\n"
	                 "  no paths executed\n"));
	run_free(&r);

	r = run(p, "--function", "bad", (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "  !!! WARNING: 3 invalid path IDs"));
	CHECK(has(r.err, "warning: bad (corpus/b.c:7): 3 invalid path IDs"));
	run_free(&r);

	r = run(p, "--function", "nope", (char *)NULL);
	CHECK(r.rc == 1);
	CHECK(strcmp(r.out, "") == 0);
	{
		char want[4200];

		snprintf(want, sizeof want,
		         "kpath report: no function matching --function 'nope' in %s\n", p);
		CHECK(strcmp(r.err, want) == 0);
	}
	run_free(&r);
}

static json_t *at(json_t *v, const char *key)
{
	return json_object_get(v, key);
}

static int near(json_t *v, double want)
{
	return json_is_number(v) && fabs(json_number_value(v) - want) < 1e-9;
}

static int int_is(json_t *v, json_int_t want)
{
	return json_is_integer(v) && json_integer_value(v) == want;
}

static void test_json(void)
{
	struct run r = run(path("fixture.json"), "--json", (char *)NULL);
	json_error_t e;
	json_t *root, *fs, *loop, *single, *multi, *row;

	CHECK(r.rc == 0);
	root = json_loads(r.out, 0, &e);
	if (!CHECK(root != NULL)) {
		fprintf(stderr, "%s\n%s\n", e.text, r.out);
		run_free(&r);
		return;
	}
	CHECK(strcmp(json_string_value(at(root, "schema")),
	             "kpath-report/1") == 0);
	CHECK(int_is(at(root, "k"), 3));
	CHECK(int_is(at(root, "runs"), 2));
	fs = at(root, "functions");
	CHECK(json_array_size(fs) == 4);
	/* Ranked by flow; cold (flow 0) last, but present. */
	CHECK(strcmp(json_string_value(at(json_array_get(fs, 0), "name")),
	             "hot") == 0);
	CHECK(strcmp(json_string_value(at(json_array_get(fs, 3), "name")),
	             "cold") == 0);
	loop = json_array_get(fs, 1);
	CHECK(strcmp(json_string_value(at(loop, "name")), "loop") == 0);
	CHECK(int_is(at(loop, "flow"), 9));
	CHECK(int_is(at(loop, "line"), 12));
	single = at(loop, "paths");
	CHECK(int_is(at(single, "total"), 3));
	CHECK(json_array_size(at(single, "top")) == 3);
	row = json_array_get(at(single, "top"), 0);
	CHECK(int_is(at(row, "rank"), 1));
	CHECK(int_is(at(row, "id"), 2));
	CHECK(int_is(at(row, "count"), 5));
	CHECK(near(at(row, "share"), 500.0 / 9));
	CHECK(int_is(json_array_get(at(row, "lines"), 2), 15));
	multi = at(loop, "multi");
	CHECK(int_is(at(multi, "total"), 6));
	CHECK(int_is(at(multi, "selected"), 4));
	CHECK(strcmp(json_string_value(at(root, "multi_selection")), "maximal") == 0);
	row = json_array_get(at(multi, "top"), 0);
	CHECK(int_is(at(row, "count"), 2));
	CHECK(int_is(at(row, "iterations"), 3));
	CHECK(int_is(json_array_get(at(row, "ids"), 0), 2));
	CHECK(int_is(json_array_get(at(row, "ids"), 2), 3));
	CHECK(json_array_size(at(row, "lines")) == 3);
	CHECK(int_is(json_array_get(json_array_get(at(row, "lines"), 2), 2),
	             18));
	CHECK(near(at(row, "share"), 200.0 / 9));
	CHECK(int_is(at(json_array_get(fs, 2), "invalid_paths"), 3));
	json_decref(root);
	run_free(&r);

	r = run(path("fixture.json"), "--json", "--top", "1", "--function",
	        "loop", (char *)NULL);
	CHECK(r.rc == 0);
	root = json_loads(r.out, 0, &e);
	if (CHECK(root != NULL)) {
		fs = at(root, "functions");
		CHECK(json_array_size(fs) == 1);
		multi = at(json_array_get(fs, 0), "multi");
		CHECK(int_is(at(multi, "total"), 6));
		CHECK(json_array_size(at(multi, "top")) == 1);
		json_decref(root);
	}
	run_free(&r);
}

/* A bad profile: exit 1, nothing on stdout, "kpath report: FILE: reason"
 * with a non-empty reason that contains want (if not NULL). */
static void bad_profile(const char *p, const char *want)
{
	struct run r = run(p, (char *)NULL);
	char prefix[4200];

	snprintf(prefix, sizeof prefix, "kpath report: %s: ", p);
	CHECK(r.rc == 1);
	CHECK(strcmp(r.out, "") == 0);
	if (!CHECK(strncmp(r.err, prefix, strlen(prefix)) == 0))
		fprintf(stderr, "--- got: %s", r.err);
	CHECK(strlen(r.err) > strlen(prefix) + 1);
	if (want)
		CHECK(has(r.err + strlen(prefix), want));
	/* One line, and the file name is not repeated in the reason. */
	CHECK(strchr(r.err, '\n') == r.err + strlen(r.err) - 1);
	CHECK(strstr(r.err + strlen(prefix), p) == NULL);
	run_free(&r);
}

static void test_errors(void)
{
	struct run r;

	bad_profile(path("no-such-profile.json"), NULL);
	bad_profile(path("truncated.json"), NULL);
	bad_profile(path("wrong_schema.json"), "schema");

	r = run(path("fixture.json"), "--bogus", (char *)NULL);
	CHECK(r.rc == 2);
	CHECK(strcmp(r.out, "") == 0);
	CHECK(has(r.err, "kpath report: unknown option '--bogus'\n"));
	CHECK(has(r.err, "usage: kpath report PROFILE"));
	run_free(&r);

	r = run(path("fixture.json"), "--top", "ten", (char *)NULL);
	CHECK(r.rc == 2);
	CHECK(has(r.err, "--top: not a count: 'ten'"));
	run_free(&r);

	r = run(path("fixture.json"), "--top", (char *)NULL);
	CHECK(r.rc == 2);
	CHECK(has(r.err, "--top needs a value"));
	run_free(&r);

	r = run((char *)NULL);
	CHECK(r.rc == 2);
	CHECK(has(r.err, "no profile given"));
	run_free(&r);

	r = run("a.json", "b.json", (char *)NULL);
	CHECK(r.rc == 2);
	CHECK(has(r.err, "more than one profile: 'b.json'"));
	run_free(&r);

	r = run("--help", (char *)NULL);
	CHECK(r.rc == 0);
	CHECK(has(r.out, "usage: kpath report PROFILE [--top N] "
	                 "[--function RE] [--file RE]\n"));
	CHECK(strcmp(r.err, "") == 0);
	run_free(&r);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_report FIXTURE_DIR\n");
		return 2;
	}
	dir = argv[1];
	test_full_text();
	test_top();
	test_function();
	test_select();
	test_json();
	test_errors();
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("all report checks passed\n");
	return 0;
}
