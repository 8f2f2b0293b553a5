/*
 * test_html.c: `kpath html` without a browser: escaping, the model (exact
 * per-line counts and ranking of a hand-checked profile), highlighting, and
 * the command as a whole: a missing source file, odd names, and bad profiles
 * (missing, truncated, wrong schema) that must fail with the file and the
 * reason and leave the output directory as it was.
 *
 *   test_html FIXTURE_DIR WORK_DIR
 */
#include <dirent.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "html.h"
#include "html_int.h"
#include "profile.h"

static int failures;
static const char *fixdir, *work;

#define CHECK(c) check((c), #c, __LINE__)
static void check(int ok, const char *what, int line)
{
	if (!ok) {
		fprintf(stderr, "test_html.c:%d: FAIL %s\n", line, what);
		failures++;
	}
}

/* A formatted string in one of 8 rotating buffers: use it at once. */
static char *fmt(const char *f, ...)
{
	static char buf[8][1024];
	static int next;
	char *b = buf[next++ % 8];
	va_list ap;

	va_start(ap, f);
	vsnprintf(b, sizeof buf[0], f, ap);
	va_end(ap);
	return b;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *b;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		b[n] = '\0';
	fclose(f);
	return b;
}

static int exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* Runs kpath html with the given arguments; stderr goes to *errtext. */
static int run(char **errtext, const char *a1, const char *a2, const char *a3, const char *a4, const char *a5,
               const char *a6)
{
	char *argv[8] = { "html", (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, (char *)a6, NULL };
	int argc = 1, rc;
	FILE *out = tmpfile(), *err = tmpfile();
	long n;

	while (argv[argc])
		argc++;
	rc = kp_html_run(argc, argv, out, err);
	n = ftell(err);
	rewind(err);
	*errtext = calloc(1, (size_t)n + 1);
	if (fread(*errtext, 1, (size_t)n, err) != (size_t)n)
		(*errtext)[0] = '\0';
	fclose(out);
	fclose(err);
	return rc;
}

/* No leftover temporary directory (".NAME.tmp-*") in work. */
static int no_temp_left(void)
{
	DIR *d = opendir(work);
	struct dirent *e;
	int clean = 1;

	while (d && (e = readdir(d)) != NULL)
		if (strstr(e->d_name, ".tmp-") || strstr(e->d_name, ".old-"))
			clean = 0;
	if (d)
		closedir(d);
	return clean;
}

static void test_escape(void)
{
	FILE *f = tmpfile();
	char buf[256] = { 0 }, slug[16];
	static const char in[] = "a<b>&\"c'\0d";

	html_escape_n(f, in, sizeof in - 1);
	rewind(f);
	CHECK(fread(buf, 1, sizeof buf - 1, f) > 0);
	fclose(f);
	CHECK(!strcmp(buf, "a&lt;b&gt;&amp;&quot;c&#39;&#xFFFD;d"));
	html_slug(slug, sizeof slug, "../a b/<x>.c");
	CHECK(!strcmp(slug, "___a_b__x__c"));
	html_slug(slug, sizeof slug, "");
	CHECK(!strcmp(slug, "_"));
	html_slug(slug, 6, "abcdefghij");
	CHECK(!strcmp(slug, "abcde"));
}

static void test_model(void)
{
	struct kp_profile p;
	struct html_model m;
	char err[512];
	const struct html_func *f;
	static const struct html_linecount want[] = { { 2, 1 }, { 5, 4 }, { 6, 3 }, { 7, 1 }, { 8, 1 } };
	static const uint64_t multi[][4] = { { 3, 2, 1, 0 }, { 3, 4, 2, 1 }, { 2, 1, 0 }, { 2, 2, 1 }, { 2, 4, 2 } };
	static const uint64_t single[] = { 0, 1, 2, 4 };
	size_t i;

	kp_profile_init(&p, 1);
	CHECK(kp_profile_read(fmt("%s/loop.json", fixdir), &p, err, sizeof err) == 0);
	CHECK(html_model_build(&m, &p, err, sizeof err) == 0);
	for (i = 0; i < m.nfuncs; i++) /* fixtures/loop.c has 10 lines */
		CHECK(html_model_lines(&m.funcs[i], i, 10, err, sizeof err) == 0);
	/* a line beyond the source is an error naming the field */
	CHECK(html_model_lines(&m.funcs[0], 0, 7, err, sizeof err) == -2 && strstr(err, "functions[0].paths[") &&
	      strstr(err, "line 8 is beyond the end of loop.c (7 lines)"));
	CHECK(m.nfuncs == 2 && m.nfiles == 1 && m.total_flow == 5);
	f = &m.funcs[0];
	CHECK(!strcmp(f->rf->name, "f") && f->flow == 4 && !strcmp(f->page, "f1-f.html"));
	CHECK(!strcmp(m.funcs[1].page, "f2-main.html"));
	/* singles: all count 1, by id */
	CHECK(f->nsingle == 4);
	for (i = 0; i < 4 && i < f->nsingle; i++)
		CHECK(f->single[i].depth == 1 && f->single[i].ids[0] == single[i]);
	/* multi: count desc, depth desc, ids lexicographically */
	CHECK(f->nmulti == 5);
	for (i = 0; i < 5 && i < f->nmulti; i++) {
		CHECK(f->multi[i].count == 1 && f->multi[i].depth == multi[i][0]);
		CHECK(!memcmp(f->multi[i].ids, &multi[i][1], multi[i][0] * sizeof(uint64_t)));
	}
	/* line 5 is on all four paths (twice on three of them): counted once
	 * per path */
	CHECK(f->nlinecount == 5);
	for (i = 0; i < 5 && i < f->nlinecount; i++)
		CHECK(f->linecount[i].line == want[i].line && f->linecount[i].count == want[i].count);
	CHECK(f->min_line == 2 && f->max_line == 8);
	html_model_free(&m);
}

/* loop_spans.json: loop.json with the spans the instrumenter writes for
 * fixtures/loop.c; the entry block spans 2..5 (definition to the for's
 * init), so lines 3 and 4 count too, once (path 4), and line 5 still once
 * per path although path 4's entry span and header both reach it. */
static void test_model_spans(void)
{
	struct kp_profile p;
	struct html_model m;
	char err[512];
	const struct html_func *f;
	static const struct html_linecount want[] = { { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 4 },
						       { 6, 3 }, { 7, 1 }, { 8, 1 } };
	size_t i;

	kp_profile_init(&p, 1);
	CHECK(kp_profile_read(fmt("%s/loop_spans.json", fixdir), &p, err, sizeof err) == 0);
	CHECK(html_model_build(&m, &p, err, sizeof err) == 0);
	CHECK(html_model_lines(&m.funcs[0], 0, 10, err, sizeof err) == 0);
	f = &m.funcs[0];
	CHECK(!strcmp(f->rf->name, "f"));
	CHECK(f->nlinecount == 7);
	for (i = 0; i < 7 && i < f->nlinecount; i++)
		CHECK(f->linecount[i].line == want[i].line && f->linecount[i].count == want[i].count);
	CHECK(f->min_line == 2 && f->max_line == 8);
	CHECK(rep_decode_last(html_func_path(f, 4), 0) == 5 && rep_decode_last(html_func_path(f, 4), 1) == 5);
	html_model_free(&m);
}

/* Names in the source link to the function of that name: the one in the
 * same file, else the only one; never the function itself, never a
 * function whose name merely starts with the token. */
static void test_links(void)
{
	struct kp_profile p;
	struct html_model m;
	char err[512];
	const struct html_func *f = NULL, *mainf = NULL;
	size_t i;

	kp_profile_init(&p, 1);
	CHECK(kp_profile_read(fmt("%s/loop.json", fixdir), &p, err, sizeof err) == 0);
	CHECK(html_model_build(&m, &p, err, sizeof err) == 0);
	CHECK(html_model_coverage(&m, fixdir, NULL, err, sizeof err) == 0);
	for (i = 0; i < m.nfuncs; i++) {
		if (!strcmp(m.funcs[i].rf->name, "f"))
			f = &m.funcs[i];
		if (!strcmp(m.funcs[i].rf->name, "main"))
			mainf = &m.funcs[i];
	}
	CHECK(f && mainf);
	if (f && mainf) {
		CHECK(html_model_link(&m, mainf, "f(3)", 1) == f);
		CHECK(html_model_link(&m, f, "main", 4) == mainf);
		CHECK(html_model_link(&m, f, "f", 1) == NULL);       /* itself */
		CHECK(html_model_link(&m, mainf, "ma", 2) == NULL);  /* a prefix of main */
		CHECK(html_model_link(&m, mainf, "printf", 6) == NULL);
		CHECK(html_model_link(&m, f, "mainx", 5) == NULL);
	}
	/* coverage.c's model: loop.json has no cfg, so only functions and paths */
	CHECK(m.has_cov && m.cov.nocfg == 2 && m.cov.line.total == 0 && m.cov.func.total == 2);
	CHECK(m.nfiles == 1 && m.files[0].cov == &m.cov.files[0] && m.ndirs == 0);
	html_model_free(&m);
}

static void test_highlight(void)
{
	static const char src[] = "int f(void) { /* c<1> */ return \"s\" ? 1 : MAX; }\nint x;\n";
	struct html_hl h;
	char err[256];
	uint32_t a = 0, b = 0;

	CHECK(html_hl_run(&h, src, sizeof src - 1, err, sizeof err) == 0);
	CHECK(!strcmp(html_hl_class(h.cls[0]), "tok-type"));          /* int */
	CHECK(!strcmp(html_hl_class(h.cls[4]), "tok-function"));      /* f */
	CHECK(!strcmp(html_hl_class(h.cls[14]), "tok-comment"));      /* comment */
	CHECK(!strcmp(html_hl_class(h.cls[25]), "tok-keyword"));      /* return */
	CHECK(!strcmp(html_hl_class(h.cls[32]), "tok-string"));       /* "s" */
	CHECK(!strcmp(html_hl_class(h.cls[42]), "tok-constant"));     /* MAX: #match? */
	CHECK(h.cls[12] == -1);                                       /* ' ' */
	CHECK(html_hl_function_lines(&h, 1, &a, &b) == 1 && a == 1 && b == 1);
	CHECK(html_hl_function_lines(&h, 2, &a, &b) == 0);
	html_hl_free(&h);
}

static void test_site(void)
{
	char *e, *page, *idx;
	char site[1024];

	snprintf(site, sizeof site, "%s/site", work);

	/* a full site from loop.json, sources found through --source-root */
	CHECK(run(&e, fmt("%s/loop.json", fixdir), "-o", site, "--source-root", fixdir, NULL) == 0);
	CHECK(strstr(e, "warning") == NULL);
	free(e);
	idx = slurp(fmt("%s/index.html", site));
	page = slurp(fmt("%s/f1-f.html", site));
	CHECK(idx && page && exists(fmt("%s/kpath.js", site)) && exists(fmt("%s/kpath.css", site)));
	if (idx && page) {
		CHECK(strstr(idx, "<a href=\"f1-f.html\"><code>f</code></a>") != NULL);
		CHECK(strstr(page, "<tr id=\"L5\" data-line=\"5\"><td class=\"ln\">5</td><td class=\"cnt heat5\">4</td>") != NULL);
		CHECK(strstr(page, "data-ids=\"2 1 0\" data-iters=\"5 6 7 5;5 6 5;5 8\"") != NULL);
		CHECK(strstr(page, "<span class=\"tok-keyword\">for</span>") != NULL);
		CHECK(strstr(page, "<span class=\"tok-operator\">&lt;</span>") != NULL);
		/* maximal multi-iteration rows, then the prefixes (hidden by CSS) */
		CHECK(strstr(page, "<tr class=\"path\" tabindex=\"0\" aria-selected=\"false\" id=\"kp1\" data-ids=\"2 1 0\"") != NULL);
		CHECK(strstr(page, "<tr class=\"path prefix\" tabindex=\"0\" aria-selected=\"false\" id=\"kpp1\" data-ids=\"2 1\"") != NULL);
		CHECK(strstr(page, "3 executed, 3 maximal") == NULL && strstr(page, "5 executed, 3 maximal") != NULL);
		CHECK(strstr(page, "also show the 2 prefixes") != NULL);
		/* each Ball-Larus path's lines: spans in path order, joined */
		CHECK(strstr(page, "data-ids=\"4\" data-iters=\"2 5 6 5\">") != NULL &&
		      strstr(page, "<td class=\"lines\">2 5-6</td></tr>") != NULL);
		/* no cfg in loop.json: no line is marked covered or not */
		CHECK(strstr(page, "class=\"unc\"") == NULL && strstr(page, "class=\"cov\"") == NULL);
		CHECK(strstr(idx, "2 functions of this profile carry no static graph") != NULL);
		/* the function definition's lines 2..9, not main's */
		CHECK(strstr(page, "id=\"L9\"") != NULL && strstr(page, "id=\"L10\"") == NULL &&
		      strstr(page, "id=\"L1\"") == NULL);
	}
	free(idx);
	free(page);
	page = slurp(fmt("%s/f2-main.html", site));
	CHECK(page && strstr(page, "&quot;%d &amp; &lt;%s&gt;\\n&quot;") != NULL);
	/* the call f(3) links to f's page; printf is not a profile function */
	CHECK(page && strstr(page, "<a class=\"fnlink\" href=\"f1-f.html\"><span class=\"tok-function\">f</span></a>(") != NULL);
	CHECK(page && strstr(page, "fnlink\" href=\"f1-f.html\"><span class=\"tok-function\">printf") == NULL &&
	      strstr(page, ">printf</span>") != NULL);
	free(page);
	CHECK(no_temp_left());

	/* a second run replaces the earlier site */
	CHECK(run(&e, fmt("%s/loop.json", fixdir), "-o", site, "--source-root", fixdir, NULL) == 0);
	free(e);
	CHECK(exists(fmt("%s/f1-f.html", site)) && no_temp_left());

	/* without --source-root the source is not found: a warning, pages
	 * without source, exit 0 */
	CHECK(run(&e, fmt("%s/loop.json", fixdir), "-o", site, NULL, NULL, NULL) == 0);
	CHECK(strstr(e, "warning: source unavailable: ") && strstr(e, "/loop.c: No such file or directory"));
	free(e);
	page = slurp(fmt("%s/f1-f.html", site));
	CHECK(page && strstr(page, "Source unavailable: ") && !strstr(page, "<tr id=\"L5\"") && !strstr(page, "tok-"));
	free(page);
}

/* Odd names are escaped everywhere and never reach a file name. */
static void test_odd_names(void)
{
	char *e, *idx, *page;
	char site[1024];

	snprintf(site, sizeof site, "%s/odd", work);

	CHECK(run(&e, fmt("%s/odd.json", fixdir), "-o", site, NULL, NULL, NULL) == 0);
	CHECK(strstr(e, "/no such/we\"ird <dir>/a&b's.c: No such file or directory") != NULL);
	free(e);
	idx = slurp(fmt("%s/index.html", site));
	page = slurp(fmt("%s/f1-_script_alert_1___script_.html", site));
	CHECK(idx && page);
	if (idx && page) {
		CHECK(!strstr(idx, "<script>alert") && !strstr(page, "<script>alert"));
		CHECK(strstr(idx, "&lt;script&gt;alert(1)&lt;/script&gt;") != NULL);
		CHECK(strstr(page, "no such/we&quot;ird &lt;dir&gt;/a&amp;b&#39;s.c:3") != NULL);
		CHECK(strstr(idx, "<tr class=\"cold\">") != NULL); /* never ran: last, greyed */
	}
	free(idx);
	free(page);
}

/* A bad profile fails with the file and the reason, creates nothing and
 * leaves an existing site alone. */
static void test_bad_profiles(void)
{
	char *e, *text, *cut;
	char site[1024], none[1024], trunc[1024], wrong[1024];
	FILE *f;

	snprintf(site, sizeof site, "%s/site", work);
	snprintf(none, sizeof none, "%s/none", work);
	snprintf(trunc, sizeof trunc, "%s/truncated.json", work);
	snprintf(wrong, sizeof wrong, "%s/wrong.json", work);

	text = slurp(fmt("%s/loop.json", fixdir));
	CHECK(text != NULL);
	if (!text)
		return;
	f = fopen(trunc, "w");
	fwrite(text, 1, strlen(text) / 2, f);
	fclose(f);
	cut = strstr(text, "kpath-profile/1");
	cut[14] = '9';
	f = fopen(wrong, "w");
	fputs(text, f);
	fclose(f);
	free(text);

	CHECK(run(&e, trunc, "-o", none, NULL, NULL, NULL) == 1);
	CHECK(strstr(e, trunc) && strstr(e, "invalid JSON"));
	free(e);
	CHECK(!exists(none) && no_temp_left());

	CHECK(run(&e, wrong, "-o", site, NULL, NULL, NULL) == 1);
	CHECK(strstr(e, wrong) && strstr(e, "kpath-profile/9"));
	free(e);
	CHECK(exists(fmt("%s/f1-f.html", site)) && no_temp_left());

	CHECK(run(&e, fmt("%s/missing.json", work), "-o", none, NULL, NULL, NULL) == 1);
	CHECK(strstr(e, "missing.json") != NULL);
	free(e);
	CHECK(!exists(none));

	/* a directory that is not an earlier site is never replaced */
	mkdir(none, 0755);
	f = fopen(fmt("%s/mine.txt", none), "w");
	fclose(f);
	CHECK(run(&e, fmt("%s/loop.json", fixdir), "-o", none, NULL, NULL, NULL) == 1);
	CHECK(strstr(e, "not a kpath html site") != NULL);
	free(e);
	CHECK(exists(fmt("%s/mine.txt", none)) && !exists(fmt("%s/index.html", none)) && no_temp_left());
}

static void test_args(void)
{
	char *e;

	CHECK(run(&e, "--help", NULL, NULL, NULL, NULL, NULL) == 0);
	free(e);
	CHECK(run(&e, "p.json", NULL, NULL, NULL, NULL, NULL) == 2);
	CHECK(strstr(e, "no output directory") != NULL);
	free(e);
	CHECK(run(&e, "p.json", "-o", "d", "--bogus", NULL, NULL) == 2);
	CHECK(strstr(e, "unknown option '--bogus'") != NULL);
	free(e);
	CHECK(run(&e, "p.json", "-o", "d", "--top", "x", NULL) == 2);
	free(e);
	CHECK(run(&e, "-o", "d", NULL, NULL, NULL, NULL) == 2);
	CHECK(strstr(e, "no profile given") != NULL);
	free(e);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: test_html FIXTURE_DIR WORK_DIR\n");
		return 2;
	}
	fixdir = argv[1];
	work = argv[2];
	if (chdir(work) != 0) {
		perror(work);
		return 2;
	}
	test_escape();
	test_model();
	test_model_spans();
	test_links();
	test_highlight();
	test_site();
	test_odd_names();
	test_bad_profiles();
	test_args();
	html_hl_cleanup();
	if (failures) {
		fprintf(stderr, "%d check(s) failed\n", failures);
		return 1;
	}
	printf("all html checks passed\n");
	return 0;
}
