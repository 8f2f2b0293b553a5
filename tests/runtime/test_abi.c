/*
 * test_abi.c: end-to-end through the ABI.  Runs abi_prog (argv[1]) with
 * various KPATH_* settings in a temporary directory and checks the written
 * profiles exactly against brute force over the streams of abi_desc.h:
 * counts, emitted, invalid_paths, decoded paths, runs accumulation, dump
 * without double counting, concurrent processes, a malformed or
 * incompatible existing file left untouched, and trace mode + kpath kipf
 * giving byte-identical profiles (also after kpath_dump() and _exit).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi_desc.h"
#include "kipf_tool.h"
#include "rt_test.h"

static const char *prog;
static char dir[256];

static char *path_in(const char *name)
{
	static char buf[8][512];
	static int i;
	i = (i + 1) % 8;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return buf[i];
}

/* Starts abi_prog with the environment settings "NAME=VALUE" (NULL-ended),
 * stderr appended to dir/stderr.txt.  Returns the pid. */
static pid_t start(const char *const *env, const char *arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		unsetenv("KPATH_K");
		unsetenv("KPATH_OUT");
		unsetenv("KPATH_TRACE");
		for (; *env; env++)
			putenv((char *)*env);
		int fd = open(path_in("stderr.txt"), O_WRONLY | O_CREAT | O_APPEND, 0644);
		if (fd >= 0)
			dup2(fd, 2);
		execl(prog, prog, arg, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int finish(pid_t pid)
{
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static pid_t run(const char *const *env, const char *arg)
{
	pid_t pid = start(env, arg);
	CHECK(finish(pid) == 0);
	return pid;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *b = malloc(1 << 22);
	*len = b ? fread(b, 1, (1 << 22) - 1, f) : 0;
	if (b)
		b[*len] = 0;
	fclose(f);
	return b;
}

static int same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);
	int same = x && y && la == lb && memcmp(x, y, la) == 0;
	free(x);
	free(y);
	return same;
}

/* Checks function name of p against brute force over `times` copies of
 * streams[0..nstreams) each repeated `reps`. */
static void check_func(struct kp_profile *p, const char *name, unsigned line, const kpath_rt_u64 *const *streams,
		       const size_t *lens, size_t nstreams, uint64_t reps, uint64_t invalid)
{
	struct kp_func *f = kp_profile_find(p, name, "tests/runtime/abi_prog.c", NULL);
	CHECK(f != NULL);
	if (!f)
		return;
	struct kp_ipf bf;
	uint64_t emitted = 0;
	CHECK(kp_ipf_init(&bf) == 0);
	for (size_t i = 0; i < nstreams; i++) {
		uint64_t s[16];
		for (size_t j = 0; j < lens[i]; j++)
			s[j] = streams[i][j];
		for (uint64_t r = 0; r < reps; r++)
			CHECK(rt_ngrams(&bf, s, lens[i], p->k) == 0);
		emitted += reps * lens[i];
	}
	CHECK(f->line == line);
	CHECK(f->num_paths == 8);
	CHECK(f->emitted == emitted);
	CHECK(f->invalid_paths == invalid);
	if (!rt_ipf_equal(&f->ipf, &bf)) {
		fprintf(stderr, "%s: k-IPF differs from brute force\n", name);
		rt_failures++;
	}
	CHECK(rt_monotone(&f->ipf, 0));
	/* every id in the forest is decoded; ids here are < 8 */
	for (uint32_t v = 1; v < f->ipf.n; v++)
		CHECK(kp_func_path(f, f->ipf.nodes[v].id) != NULL);
	const struct kp_path *q = kp_func_path(f, 6);
	if (q) {
		/* 6 = ENTRY B D E F EXIT */
		CHECK(q->nlines == 4 && q->lines[0] == line + 1 && q->lines[1] == line + 3 &&
		      q->lines[2] == line + 4 && q->lines[3] == line + 5);
	}
	q = kp_func_path(f, 0);
	if (q) /* 0 = ENTRY A B C E F EXIT */
		CHECK(q->nlines == 5 && q->lines[0] == line && q->lines[4] == line + 5);
	kp_ipf_free(&bf);
}

/* The whole profile of `runs` runs of abi_prog. */
static void check_profile(const char *path, unsigned k, uint64_t runs)
{
	struct kp_profile p;
	char err[512];
	int rc = kp_profile_read(path, &p, err, sizeof err);
	if (rc != 0) {
		fprintf(stderr, "%s\n", err);
		rt_failures++;
		kp_profile_free(&p);
		return;
	}
	CHECK(p.k == k);
	CHECK(p.runs == runs);
	CHECK(p.dropped == 0);
	CHECK(p.nfuncs == 5);
	const kpath_rt_u64 *ls[] = { S_LOOP }, *rs[] = { S_REC }, *ws[] = { S_WORK[0], S_WORK[1] };
	const kpath_rt_u64 *lfs[] = { S_LEAF[0], S_LEAF[1], S_LEAF[2], S_LEAF[3] };
	size_t ll[] = { sizeof S_LOOP / sizeof *S_LOOP }, rl[] = { 3 }, wl[] = { 7, 7 }, lfl[] = { 1, 1, 1, 1 };
	check_func(&p, "loop", 10, ls, ll, 1, runs * LOOP_CALLS, 0);
	check_func(&p, "rec", 30, rs, rl, 1, runs * (REC_D + 1), runs * (REC_D + 1));
	check_func(&p, "work", 50, ws, wl, 2, runs * WORK_CALLS * NTHREADS / 2, 0);
	/* kpath_rt_count: the counts whatever k is (one-item streams) */
	check_func(&p, "leaf", 90, lfs, lfl, 4, runs * (LEAF_REPS + WORK_CALLS), runs * LEAF_REPS);
	struct kp_func *nv = kp_profile_find(&p, "never", "tests/runtime/abi_prog.c", "00000000000000d4");
	CHECK(nv && nv->ipf.n == 1 && nv->emitted == 0 && nv->npaths == 0);
	/* canonical order: by file, then line */
	CHECK(p.nfuncs == 5 && !strcmp(p.funcs[0].name, "loop") && !strcmp(p.funcs[3].name, "never") &&
	      !strcmp(p.funcs[4].name, "leaf"));
	kp_profile_free(&p);
}

static int contains(const char *path, const char *needle)
{
	size_t len;
	char *s = slurp(path, &len);
	int r = s && strstr(s, needle) != NULL;
	free(s);
	return r;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_accumulate(void)
{
	const char *env[] = { "KPATH_OUT=", NULL };
	char out[600];
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("p.json"));
	env[0] = out;
	run(env, NULL);
	check_profile(path_in("p.json"), 4, 1);
	run(env, NULL);
	check_profile(path_in("p.json"), 4, 2);

	/* kpath_dump() twice then exit: no double counting, runs = 1 */
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("dump.json"));
	run(env, "dump");
	check_profile(path_in("dump.json"), 4, 1);

	/* 4 concurrent processes */
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("conc.json"));
	pid_t pids[4];
	for (int i = 0; i < 4; i++)
		pids[i] = start(env, i % 2 ? "dump" : NULL);
	for (int i = 0; i < 4; i++)
		CHECK(finish(pids[i]) == 0);
	check_profile(path_in("conc.json"), 4, 4);
}

static void test_untouchable(void)
{
	char out[600], name[64], k2[] = "KPATH_K=2";
	const char *env[] = { out, NULL, NULL };
	size_t len0, len1;

	/* malformed: left as is, profile beside it */
	write_text(path_in("bad.json"), "{ \"schema\": \"kpath-profile/1\", \"k\": 4, ");
	char *before = slurp(path_in("bad.json"), &len0);
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("bad.json"));
	pid_t pid = run(env, NULL);
	char *after = slurp(path_in("bad.json"), &len1);
	CHECK(before && after && len0 == len1 && memcmp(before, after, len0) == 0);
	free(before);
	free(after);
	snprintf(name, sizeof name, "bad.%ld.json", (long)pid);
	check_profile(path_in(name), 4, 1);
	CHECK(contains(path_in("stderr.txt"), name));
	CHECK(contains(path_in("stderr.txt"), "kpath: "));

	/* incompatible (k = 2 there, 4 here) */
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("inc.json"));
	env[1] = k2;
	run(env, NULL);
	check_profile(path_in("inc.json"), 2, 1);
	env[1] = NULL;
	pid = run(env, NULL);
	check_profile(path_in("inc.json"), 2, 1);
	snprintf(name, sizeof name, "inc.%ld.json", (long)pid);
	check_profile(path_in(name), 4, 1);
	CHECK(contains(path_in("stderr.txt"), "k is 2 there, 4 here"));

	/* an invalid KPATH_K: message, default k */
	char bk[] = "KPATH_K=65";
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("badk.json"));
	env[1] = bk;
	run(env, NULL);
	check_profile(path_in("badk.json"), 4, 1);
	CHECK(contains(path_in("stderr.txt"), "KPATH_K=\"65\""));
}

static void test_trace(void)
{
	char out[600], tr[600], kk[32];
	const char *env[] = { out, tr, NULL, NULL };
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("traced.json"));
	snprintf(tr, sizeof tr, "KPATH_TRACE=%s", path_in("t.kpt"));
	run(env, "dump");
	check_profile(path_in("traced.json"), 4, 1);
	static const unsigned ks[] = { 1, 2, 3, 4, 8 };
	for (size_t i = 0; i < sizeof ks / sizeof *ks; i++) {
		char on[64], off[64], karg[16];
		snprintf(on, sizeof on, "on%u.json", ks[i]);
		snprintf(off, sizeof off, "off%u.json", ks[i]);
		snprintf(kk, sizeof kk, "KPATH_K=%u", ks[i]);
		snprintf(out, sizeof out, "KPATH_OUT=%s", path_in(on));
		const char *env2[] = { out, kk, NULL };
		run(env2, NULL);
		check_profile(path_in(on), ks[i], 1);
		snprintf(karg, sizeof karg, "%u", ks[i]);
		char *argv[] = { "kipf", "--k", karg, "-o", path_in(off), path_in("t.kpt"), NULL };
		CHECK(kp_kipf_main(6, argv) == 0);
		if (!same_file(path_in(on), path_in(off))) {
			fprintf(stderr, "k=%u: online and offline profiles differ\n", ks[i]);
			rt_failures++;
		}
	}
	/* kpath_dump() then _exit: the trace file holds what the dump wrote
	 * (it stayed in stdio's buffer before: kipf read a truncated trace
	 * with no path, where the profile had loop's) */
	snprintf(out, sizeof out, "KPATH_OUT=%s", path_in("dexit.json"));
	snprintf(tr, sizeof tr, "KPATH_TRACE=%s", path_in("dexit.kpt"));
	run(env, "dump_exit");
	{
		char *argv[] = { "kipf", "--k", "4", "-o", path_in("dexit_off.json"), path_in("dexit.kpt"), NULL };
		CHECK(kp_kipf_main(6, argv) == 0);
		if (!same_file(path_in("dexit.json"), path_in("dexit_off.json"))) {
			fprintf(stderr, "kpath_dump then _exit: the trace's profile differs from the profile\n");
			rt_failures++;
		}
	}
	/* errors */
	char *bad1[] = { "kipf", path_in("t.kpt"), NULL };
	CHECK(kp_kipf_main(2, bad1) == 2);
	char *bad2[] = { "kipf", "--k", "4", path_in("nope.kpt"), NULL };
	CHECK(kp_kipf_main(4, bad2) == 1);
	char *bad3[] = { "kipf", "--k", "4", path_in("p.json"), NULL };
	CHECK(kp_kipf_main(4, bad3) == 1);
	/* a truncated trace still yields a profile of its complete part */
	size_t len;
	char *t = slurp(path_in("t.kpt"), &len);
	FILE *f = fopen(path_in("trunc.kpt"), "wb");
	CHECK(t && f);
	if (t && f) {
		fwrite(t, 1, len - 3, f);
		fclose(f);
		char *argv[] = { "kipf", "--k", "4", "-o", path_in("trunc.json"), path_in("trunc.kpt"), NULL };
		CHECK(kp_kipf_main(6, argv) == 0);
		struct kp_profile p;
		CHECK(kp_profile_read(path_in("trunc.json"), &p, NULL, 0) == 0);
		kp_profile_free(&p);
	}
	free(t);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_abi ABI_PROG\n");
		return 2;
	}
	prog = argv[1];
	snprintf(dir, sizeof dir, "%s/kpath-rt-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	test_accumulate();
	test_untouchable();
	test_trace();
	if (!rt_failures) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", dir);
	} else {
		fprintf(stderr, "files kept in %s\n", dir);
	}
	return rt_done("test_abi");
}
