/*
 * cc_wrapper.c: kpath-cc, a C compiler wrapper that profiles a whole build.
 *
 *   make CC="kpath-cc gcc"        CC=kpath-cc (compiler: $KPATH_CC, else cc)
 *   cmake -DCMAKE_C_COMPILER_LAUNCHER=kpath-cc -DCMAKE_C_LINKER_LAUNCHER=kpath-cc
 *
 * For every C source a command compiles (-c, -S, or compile-and-link), kpath-cc
 * runs `kpath instrument SRC -o TMP/SRC-BASENAME -- FLAGS` with the
 * command's own parse-relevant flags (ccargs.c), then runs the original
 * command with the instrumented file in place of the source.  The temporary
 * file keeps the source's base name, so default outputs (foo.c -c -> foo.o,
 * -MD -> foo.d) are named exactly as without kpath-cc; "-iquote SRCDIR" keeps
 * #include "..." resolving next to the original source; dependency files are
 * rewritten to name the original source; the instrumented file's #line
 * directives make diagnostics point at the original.  A linking command gets
 * `kpath config --libs` appended.
 *
 * Everything else runs the compiler unchanged (execvp): -E, -M/-MM,
 * -fsyntax-only, --version and friends, assembler and other non-C inputs, and
 * configure/CMake probes (conftest.c, CMakeFiles/CMakeScratch...).  When
 * instrumentation fails, or the instrumented file does not compile, the
 * original command is run as it is, so its diagnostics and exit status are
 * the real compiler's.  No shell is involved anywhere.
 *
 * Environment: KPATH_CC (compiler when none is given), KPATH_KEEP=DIR (keep
 * each instrumented file as DIR/<absolute source dir>/NAME.kpath.c),
 * KPATH_CC_VERBOSE (show kpath's own messages), KPATH_CC_DISABLE (pure
 * pass-through), KPATH_BIN (the kpath executable; default: next to kpath-cc),
 * KPATH_INCLUDE_DIR=DIR[:DIR...] (kpath instrument --include-dir: instrumented
 * header copies in the source's temporary directory, named in dependency
 * files by their originals), KPATH_INSTRUMENT_MODE=kiter with KPATH_KITER=K
 * (kpath instrument --mode kiter --kiter K), KPATH_INSTRUMENT_MODE=ppp with
 * KPATH_INTERESTING=PROFILE [KPATH_INTERESTING_TOP=P] (--mode ppp
 * --interesting PROFILE [--interesting-top P]; cc_mode.c).
 */
/* realpath, strndup, mkdtemp */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builds.h"

extern char **environ;

static bool verbose;
/* KPATH_INSTRUMENT_MODE and its settings as kpath instrument's options
 * (cc_mode.c) */
static struct kp_vec mode_flags;
static char tmpdir[PATH_MAX]; /* "" until created */
static volatile sig_atomic_t got_signal;
static volatile pid_t child_pid;

static void note(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "kpath-cc: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
}

static void usage(FILE *out)
{
	fprintf(out,
	        "usage: kpath-cc [COMPILER] COMPILER-ARGS...\n"
	        "  A C compiler wrapper: compiles every C source with kpath path profiling\n"
	        "  (kpath instrument) and links the kpath runtime into executables.\n"
	        "  make CC=\"kpath-cc gcc\" | CC=kpath-cc ./configure | cmake -DCMAKE_C_COMPILER_LAUNCHER=kpath-cc\n"
	        "    -DCMAKE_C_LINKER_LAUNCHER=kpath-cc | CC=kpath-cc cmake ...\n"
	        "  COMPILER defaults to $KPATH_CC, else cc.  Every argument goes to the\n"
	        "  compiler: kpath-cc --help and --version print the compiler's (build\n"
	        "  systems probe them); kpath-cc's own are:\n"
	        "  --kpath-help         print this help\n"
	        "  --kpath-version      print kpath's version\n"
	        "environment:\n"
	        "  KPATH_CC=CC          compiler when none is given on the command line\n"
	        "  KPATH_KEEP=DIR       keep instrumented sources as DIR/<source dir>/NAME.kpath.c\n"
	        "  KPATH_INCLUDE_DIR=DIR[:DIR...]  also instrument functions of headers under\n"
	        "                       these directories (kpath instrument --include-dir)\n"
	        "  KPATH_INSTRUMENT_MODE=kiter KPATH_KITER=K  kpath instrument --mode kiter\n"
	        "                       --kiter K (Roy & Srikant's k-iteration paths,\n"
	        "                       docs/kiter-mode.md); the default mode is kipf\n"
	        "  KPATH_INSTRUMENT_MODE=ppp KPATH_INTERESTING=PROFILE [KPATH_INTERESTING_TOP=P]\n"
	        "                       kpath instrument --mode ppp --interesting PROFILE\n"
	        "                       [--interesting-top P] (preferential path profiling:\n"
	        "                       PROFILE's paths are interesting, docs/ppp.md); a\n"
	        "                       PROFILE that cannot be read fails the build\n"
	        "  KPATH_CC_VERBOSE=1   show kpath instrument's messages\n"
	        "  KPATH_CC_STRICT=1    a source that cannot be profiled fails the build (for CI);\n"
	        "                       by default it is compiled as it is, with a one-line warning\n"
	        "  KPATH_CC_DISABLE=1   run the compiler unchanged\n"
	        "  KPATH_BIN=PATH       the kpath executable (default: next to kpath-cc)\n");
}

/* --- processes ------------------------------------------------------------------ */

static void on_signal(int sig)
{
	got_signal = sig;
	if (child_pid > 0)
		kill(child_pid, sig);
}

/* Runs argv (PATH lookup) with stdout/stderr redirected to files when given;
 * returns the wait status, or -1 when it cannot start. */
static int run(char **argv, const char *out_file, const char *err_file)
{
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (out_file)
		posix_spawn_file_actions_addopen(&fa, 1, out_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (err_file)
		posix_spawn_file_actions_addopen(&fa, 2, err_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fprintf(stderr, "kpath-cc: cannot run '%s': %s\n", argv[0], strerror(rc));
		return -1;
	}
	child_pid = pid;
	int st;
	while (waitpid(pid, &st, 0) < 0) {
		if (errno != EINTR) {
			st = -1;
			break;
		}
	}
	child_pid = 0;
	return st;
}

static bool ok_status(int st)
{
	return st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void remove_tree(void);

/* Removes the temporary directory and ends like the compiler did. */
static void finish(int st)
{
	if (tmpdir[0])
		remove_tree();
	if (got_signal) {
		signal(got_signal, SIG_DFL);
		raise(got_signal);
	}
	if (st == -1)
		exit(127);
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
		exit(128 + WTERMSIG(st));
	}
	exit(WEXITSTATUS(st));
}

static void exec_or_die(char **argv)
{
	execvp(argv[0], argv);
	fprintf(stderr, "kpath-cc: cannot run '%s': %s\n", argv[0], strerror(errno));
	exit(127);
}

/* --- files ---------------------------------------------------------------------- */

/* Every file and directory kpath-cc creates under tmpdir, in creation order. */
static struct kp_vec created;

/* Directories kpath instrument filled (header copies): removed with all
 * they hold. */
static struct kp_vec created_trees;
/* KPATH_INCLUDE_DIR, split at ':' */
static struct kp_vec include_dirs;

static void remove_dir_tree(const char *dir)
{
	DIR *d = opendir(dir);
	if (d) {
		struct dirent *de;
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			char p[PATH_MAX];
			if (snprintf(p, sizeof p, "%s/%s", dir, de->d_name) >= (int)sizeof p)
				continue;
			struct stat st;
			if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
				remove_dir_tree(p);
			else
				remove(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

static void remove_tree(void)
{
	for (int i = created_trees.n - 1; i >= 0; i--)
		remove_dir_tree(created_trees.v[i]);
	for (int i = created.n - 1; i >= 0; i--)
		if (remove(created.v[i]) != 0 && errno != ENOENT)
			rmdir(created.v[i]);
	rmdir(tmpdir);
}

static void copy_to_stderr(const char *path)
{
	size_t n;
	char *s = kp_cc_slurp(path, &n);
	if (s) {
		fwrite(s, 1, n, stderr);
		free(s);
	}
}


/* The directory part of p as written ("." when none). */
static char *dir_name(const char *p)
{
	const char *s = strrchr(p, '/');
	if (!s)
		return strdup(".");
	if (s == p)
		return strdup("/");
	return strndup(p, (size_t)(s - p));
}

/* --- deciding --------------------------------------------------------------------- */

static bool has_input_suffix(const char *w)
{
	static const char *const sfx[] = {".c", ".o", ".s", ".S", ".a", ".so", ".i", ".h", ".cc",
	                                  ".cpp", ".lo", ".la", ".obj", ".sx", NULL};
	const char *dot = strrchr(kp_base_name(w), '.');
	if (!dot)
		return false;
	for (int i = 0; sfx[i]; i++)
		if (!strcmp(dot, sfx[i]))
			return true;
	return false;
}

static bool is_executable(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Is the first argument the compiler (kpath-cc gcc ...) rather than an
 * argument of it (kpath-cc -c foo.c)? */
static bool looks_like_compiler(const char *w)
{
	if (w[0] == '-' || w[0] == '@' || !w[0] || has_input_suffix(w))
		return false;
	if (strchr(w, '/'))
		return is_executable(w);
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		char cand[PATH_MAX];
		snprintf(cand, sizeof cand, "%.*s/%s", (int)len, len ? path : ".", w);
		if (is_executable(cand))
			return true;
		if (!colon)
			break;
		path = colon + 1;
	}
	return false;
}

/* Does the command name w (PATH lookup) run this very executable? */
static bool is_self(const char *w)
{
	char self[PATH_MAX], real[PATH_MAX], cand[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0)
		return false;
	self[n] = 0;
	if (strchr(w, '/'))
		return realpath(w, real) && !strcmp(real, self);
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		snprintf(cand, sizeof cand, "%.*s/%s", (int)len, len ? path : ".", w);
		if (is_executable(cand))
			return realpath(cand, real) && !strcmp(real, self);
		if (!colon)
			break;
		path = colon + 1;
	}
	return false;
}

static bool is_launcher(const char *w)
{
	const char *b = kp_base_name(w);
	return !strcmp(b, "ccache") || !strcmp(b, "sccache") || !strcmp(b, "distcc") || !strcmp(b, "icecc");
}

static bool probe_path(const char *p)
{
	const char *b = kp_base_name(p);
	return !strncmp(b, "conftest", 8) || !strncmp(b, "cmTC_", 5) || !strncmp(b, "CMakeCCompilerId", 16) ||
	       !strncmp(b, "CMakeCCompilerABI", 17) || strstr(p, "CMakeFiles/CMakeScratch") ||
	       strstr(p, "CMakeFiles/CMakeTmp") || strstr(p, "/CompilerIdC") || strstr(p, "meson-private");
}

/* configure and CMake/meson try-compile probes: never instrumented, never
 * given the runtime (CMake parses the link line of its ABI probe). */
static bool is_probe(const struct kp_vec *args, const struct kp_ccline *cl)
{
	for (int i = 0; i < cl->n_c; i++)
		if (probe_path(args->v[cl->c_inputs[i]]))
			return true;
	if (cl->output >= 0) {
		const char *o = args->v[cl->output];
		if (cl->output_joined)
			o += 2;
		if (probe_path(o))
			return true;
	}
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof cwd) && probe_path(cwd))
		return true;
	return false;
}

static char *self_dir(void)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return strdup(".");
	exe[n] = 0;
	return dir_name(exe);
}

static char *kpath_bin(void)
{
	const char *e = getenv("KPATH_BIN");
	if (e && *e)
		return strdup(e);
	char *d = self_dir();
	size_t n = strlen(d) + 8;
	char *p = malloc(n);
	snprintf(p, n, "%s/kpath", d);
	free(d);
	return p;
}

/* The runtime's link arguments, from `kpath config --libs`. */
static bool runtime_libs(const char *kpath, struct kp_vec *out)
{
	char dir[PATH_MAX] = "";
	if (tmpdir[0])
		snprintf(dir, sizeof dir, "%s", tmpdir);
	else {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/kpath-cc.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir))
			return false;
		snprintf(tmpdir, sizeof tmpdir, "%s", dir);
	}
	char file[PATH_MAX + 16];
	snprintf(file, sizeof file, "%s/libs.out", tmpdir);
	kp_vec_push(&created, file);
	char *argv[] = {(char *)kpath, "config", "--libs", NULL};
	int st = run(argv, file, NULL);
	char *text = kp_cc_slurp(file, NULL);
	bool ok = ok_status(st) && text && kp_shell_split(text, out) && out->n > 0;
	free(text);
	if (!ok)
		fprintf(stderr, "kpath-cc: '%s config --libs' failed; linking without the kpath runtime\n", kpath);
	return ok;
}

/* --- main ---------------------------------------------------------------------------- */

/* Copies the instrumented tmp to KPATH_KEEP; returns the copy's path
 * (malloc'd) or NULL. */
static char *keep_copy(const char *src, const char *tmp)
{
	const char *keep = getenv("KPATH_KEEP");
	if (!keep || !*keep)
		return NULL;
	char abs[PATH_MAX];
	if (!realpath(src, abs))
		return NULL;
	char *dir = dir_name(abs);
	char *stem = kp_cc_strip_suffix(kp_base_name(abs));
	char kdir[PATH_MAX * 2], kfile[PATH_MAX * 3];
	snprintf(kdir, sizeof kdir, "%s%s%s", keep, dir[0] == '/' ? "" : "/", dir);
	snprintf(kfile, sizeof kfile, "%s/%s.kpath.c", kdir, stem);
	kp_mkdirs(kdir);
	size_t n;
	char *text = kp_cc_slurp(tmp, &n);
	bool ok = text && kp_cc_write_file(kfile, text, n);
	if (!ok)
		note("cannot keep the instrumented file as %s%s", kfile, "");
	free(text);
	free(dir);
	free(stem);
	return ok ? strdup(kfile) : NULL;
}

/* Says, one line per source, why sources[i] (those with failed[i]) go
 * without path profiling; logs[i] holds the failed step's messages. */
static void fallback_notes(const struct kp_vec *args, const struct kp_ccline *cl, const bool *failed,
                           enum kp_cc_failure step, char **logs, char **kept, bool strict)
{
	for (int i = 0; i < cl->n_c; i++)
		if (failed[i])
			kp_cc_fallback_note(args->v[cl->c_inputs[i]], step, logs[i], kept[i], strict);
}

static void concat(struct kp_vec *dst, const struct kp_vec *src)
{
	for (int i = 0; i < src->n; i++)
		kp_vec_push(dst, src->v[i]);
}

/* KPATH_CC_STRICT=1 and a source could not be profiled: is that kpath's
 * failure?  The original command decides.  When it fails too, the source
 * does not compile under these flags whatever kpath does: its own
 * diagnostics (already on stderr) and exit status are the answer, and
 * kpath says nothing.  When it succeeds, kpath is to blame: the outputs it
 * wrote are removed (no object is left behind for a build that failed) and
 * the caller reports the failure. */
static void strict_failure(struct kp_vec *orig, const struct kp_vec *libs, const struct kp_vec *args,
                           const struct kp_ccline *cl)
{
	concat(orig, libs);
	int st = run(orig->v, NULL, NULL);
	if (got_signal || !ok_status(st))
		finish(st);
	if (cl->output >= 0) {
		unlink(args->v[cl->output] + (cl->output_joined ? 2 : 0));
	} else if (cl->mode == KP_MODE_COMPILE || cl->mode == KP_MODE_ASM) {
		char buf[PATH_MAX];
		for (int i = 0; i < cl->n_c; i++) {
			char *stem = kp_cc_strip_suffix(kp_base_name(args->v[cl->c_inputs[i]]));
			snprintf(buf, sizeof buf, "%s.%s", stem, cl->mode == KP_MODE_COMPILE ? "o" : "s");
			unlink(buf);
			free(stem);
		}
	} else if (cl->mode == KP_MODE_LINK) {
		unlink("a.out");
	}
}

/* The compiler: argv[1] (and argv[2] after a launcher such as ccache)
 * when they look like one, else KPATH_CC, else cc.  Returns the index of
 * the first argument of the compile command proper. */
static int find_compiler(int argc, char **argv, struct kp_vec *cc)
{
	int first = 1;
	if (looks_like_compiler(argv[1])) {
		kp_vec_push(cc, argv[1]);
		first = 2;
		if (is_launcher(argv[1]) && argc > 2 && looks_like_compiler(argv[2])) {
			kp_vec_push(cc, argv[2]);
			first = 3;
		}
	} else {
		const char *e = getenv("KPATH_CC");
		if (!e || !*e || !kp_shell_split(e, cc) || cc->n == 0) {
			kp_vec_free(cc);
			kp_vec_push(cc, "cc");
		}
	}
	return first;
}

/* The temporary directory of this run, once; without one the original
 * command runs instead. */
static void make_tmpdir(struct kp_vec *orig, const struct kp_vec *libs)
{
	if (tmpdir[0])
		return;
	const char *t = getenv("TMPDIR");
	snprintf(tmpdir, sizeof tmpdir, "%s/kpath-cc.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		fprintf(stderr, "kpath-cc: cannot create a temporary directory (%s): %s; compiling without kpath\n",
		        tmpdir, strerror(errno));
		tmpdir[0] = 0;
		concat(orig, libs);
		exec_or_die(orig->v);
	}
}

/* What became of each C source of the command. */
struct sources {
	int n, ndone;
	char **tmp_paths;    /* the instrumented copy's path */
	bool *done, *not_done;
	char **logs, **kept; /* kpath instrument's messages; KPATH_KEEP's copy */
};

/* kpath instrument SRC into TMPDIR/I/BASENAME, messages to TMPDIR/I.log,
 * headers too under KPATH_INCLUDE_DIR. */
static void instrument_one(const char *kpath, const char *src, int i, const struct kp_ccline *cl,
                           struct sources *s)
{
	char sub[PATH_MAX + 32], log[PATH_MAX + 32];
	snprintf(sub, sizeof sub, "%s/%d", tmpdir, i);
	snprintf(log, sizeof log, "%s/%d.log", tmpdir, i);
	mkdir(sub, 0700);
	kp_vec_push(&created, sub);
	kp_vec_push(&created, log);
	s->logs[i] = strdup(log);
	size_t n = strlen(sub) + strlen(kp_base_name(src)) + 2;
	s->tmp_paths[i] = malloc(n);
	snprintf(s->tmp_paths[i], n, "%s/%s", sub, kp_base_name(src));
	kp_vec_push(&created, s->tmp_paths[i]);
	/* kpath instrument's temporary (OUT.tmp.PID) is its own business */
	struct kp_vec cmd = {0};
	kp_vec_push(&cmd, kpath);
	kp_vec_push(&cmd, "instrument");
	kp_vec_push(&cmd, src);
	kp_vec_push(&cmd, "-o");
	kp_vec_push(&cmd, s->tmp_paths[i]);
	kp_vec_push(&cmd, "--quiet");
	concat(&cmd, &mode_flags);
	const char *incdirs = getenv("KPATH_INCLUDE_DIR");
	if (incdirs && *incdirs) {
		/* functions of headers under these directories too: the copies
		 * go to this source's own directory, removed with it */
		if (!include_dirs.n) {
			char *list = strdup(incdirs), *save = NULL;
			for (char *d = list ? strtok_r(list, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save))
				kp_vec_push(&include_dirs, d);
			free(list);
		}
		for (int k = 0; k < include_dirs.n; k++) {
			kp_vec_push(&cmd, "--include-dir");
			kp_vec_push(&cmd, include_dirs.v[k]);
		}
		char incout[PATH_MAX + 48];
		snprintf(incout, sizeof incout, "%s/kpath-include", sub);
		kp_vec_push(&cmd, "--include-out");
		kp_vec_push(&cmd, incout);
		kp_vec_push(&created_trees, incout);
	}
	kp_vec_push(&cmd, "--");
	concat(&cmd, &cl->parse_flags);
	int st = run(cmd.v, NULL, log);
	kp_vec_free(&cmd);
	if (verbose)
		copy_to_stderr(log);
	if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == KP_EXIT_INTERESTING) {
		/* KPATH_INTERESTING is not a profile: the build fails, it does
		 * not go on unprofiled */
		if (!verbose)
			copy_to_stderr(log);
		fprintf(stderr, "kpath-cc: KPATH_INTERESTING: the profile cannot be read (above); nothing compiled\n");
		finish(2 << 8); /* a wait status: exited with 2 */
	}
	if (ok_status(st) && access(s->tmp_paths[i], R_OK) == 0) {
		s->done[i] = true;
		s->ndone++;
		s->kept[i] = keep_copy(src, s->tmp_paths[i]);
	}
	s->not_done[i] = !s->done[i];
}

static void instrument_sources(const char *kpath, const struct kp_vec *args, const struct kp_ccline *cl,
                               struct sources *s)
{
	size_t n = (size_t)cl->n_c + 1;
	s->n = cl->n_c;
	s->ndone = 0;
	s->tmp_paths = calloc(n, sizeof *s->tmp_paths);
	s->done = calloc(n, sizeof *s->done);
	s->not_done = calloc(n, sizeof *s->not_done);
	s->logs = calloc(n, sizeof *s->logs);
	s->kept = calloc(n, sizeof *s->kept);
	if (!s->tmp_paths || !s->done || !s->not_done || !s->logs || !s->kept) {
		fprintf(stderr, "kpath-cc: out of memory\n");
		finish(1 << 8);
	}
	for (int i = 0; i < cl->n_c && !got_signal; i++)
		instrument_one(kpath, args->v[cl->c_inputs[i]], i, cl, s);
}

/* Whether the file at path holds the text s (false when unreadable). */
static bool file_mentions(const char *path, const char *s)
{
	size_t n;
	char *buf = kp_cc_slurp(path, &n);
	if (!buf)
		return false;
	for (size_t i = 0; i < n; i++) /* a NUL in the file ends strstr's search early */
		if (!buf[i])
			buf[i] = ' ';
	bool found = strstr(buf, s) != NULL;
	free(buf);
	return found;
}

/* The "..." includes of source i are looked up through TMPDIR/q<i>, a
 * symbolic link to the source's directory, and spelled back as the
 * original compile spells them by -fmacro-prefix-map (gcc >= 8, clang >=
 * 10): the compiler looks in the directory of the file it reads (the copy,
 * TMPDIR/<i>), finds nothing, and then in the -iquote directory, and a
 * header's __FILE__ is that directory's name and its own.  Through
 * "-iquote DIR" the name was right only where DIR is how the source's
 * directory is spelled: for "b.c", "-iquote ." made c.h's __FILE__
 * "./c.h" where the original compile's is "c.h" (an assert in a header
 * printed another file name).  Through the link, every name under it maps
 * back exactly ("", "./", "src//"), nested includes and "../x.h"
 * included, and no other name is touched (the link's path is this run's
 * own).  Dependency files are mapped back too (kp_cc_fix_depfiles).  false: no
 * link, "-iquote DIR" as before. */
static bool quote_link(const char *src, int i)
{
	char *d = dir_name(src), target[PATH_MAX * 2], link[PATH_MAX + 32], cwd[PATH_MAX];
	bool ok;
	if (d[0] == '/')
		ok = snprintf(target, sizeof target, "%s", d) < (int)sizeof target;
	else
		ok = getcwd(cwd, sizeof cwd) && snprintf(target, sizeof target, "%s/%s", cwd, d) < (int)sizeof target;
	free(d);
	kp_cc_quote_link_path(link, sizeof link, tmpdir, i);
	if (!ok || symlink(target, link) != 0)
		return false;
	kp_vec_push(&created, link);
	return true;
}

/* The command with the instrumented files in place of the sources: their
 * own directories first for "..." includes (quote_link; legacy: "-iquote
 * DIR", for a compiler without -fmacro-prefix-map), debug paths mapped
 * back, and __BASE_FILE__ too.  That macro is the compiler's input as its
 * command names it, the copy's path here (tcc's test3 printed
 * /tmp/kpath-cc.XXXXXX/0/tcctest.c; __FILE__ comes from the copy's #line
 * directives): -fmacro-prefix-map maps it back to the source as written,
 * and only for a source whose text names it. */
static void instrumented_command(const struct kp_vec *cc, const struct kp_vec *args, const struct kp_ccline *cl,
                                 const struct sources *s, bool legacy, struct kp_vec *cmd)
{
	concat(cmd, cc);
	for (int i = 0; i < cl->n_c; i++) {
		if (!s->done[i])
			continue;
		char *d = dir_name(args->v[cl->c_inputs[i]]);
		char link[PATH_MAX + 32], map[PATH_MAX * 3];
		kp_cc_quote_link_path(link, sizeof link, tmpdir, i);
		struct stat lst;
		if (!legacy && (lstat(link, &lst) == 0 || quote_link(args->v[cl->c_inputs[i]], i))) {
			char *pre = kp_cc_dir_prefix(args->v[cl->c_inputs[i]]);
			kp_vec_push(cmd, "-iquote");
			kp_vec_push(cmd, link);
			snprintf(map, sizeof map, "-fmacro-prefix-map=%s/=%s", link, pre);
			kp_vec_push(cmd, map);
			if (cl->has_debug) {
				snprintf(map, sizeof map, "-fdebug-prefix-map=%s/=%s", link, pre);
				kp_vec_push(cmd, map);
			}
			free(pre);
		} else {
			kp_vec_push(cmd, "-iquote");
			kp_vec_push(cmd, d);
		}
		if (cl->has_debug) {
			char abs[PATH_MAX], map[PATH_MAX * 3];
			if (realpath(d, abs)) {
				snprintf(map, sizeof map, "-fdebug-prefix-map=%s/%d=%s", tmpdir, i, abs);
				kp_vec_push(cmd, map);
			}
		}
		free(d);
		const char *src = args->v[cl->c_inputs[i]], *slash = strrchr(src, '/');
		if (file_mentions(src, "__BASE_FILE__")) {
			char map[PATH_MAX * 3];
			snprintf(map, sizeof map, "-fmacro-prefix-map=%s/%d/=%.*s", tmpdir, i,
			         slash ? (int)(slash - src + 1) : 0, src);
			kp_vec_push(cmd, map);
		}
	}
	for (int j = 0; j < args->n; j++) {
		const char *a = args->v[j];
		for (int i = 0; i < cl->n_c; i++)
			if (cl->c_inputs[i] == j && s->done[i])
				a = s->tmp_paths[i];
		kp_vec_push(cmd, a);
	}
}

/* Compiles (and links) with the instrumented sources; never returns.  When
 * that fails, the original command decides, unless KPATH_CC_STRICT=1. */
static void compile_instrumented(const struct kp_vec *cc, struct kp_vec *orig, const struct kp_vec *libs,
                                 const struct kp_vec *args, const struct kp_ccline *cl, const struct sources *s,
                                 bool strict)
{
	struct kp_vec cmd = {0};
	instrumented_command(cc, args, cl, s, false, &cmd);
	concat(&cmd, libs);
	char errf[PATH_MAX + 16];
	snprintf(errf, sizeof errf, "%s/cc.err", tmpdir);
	kp_vec_push(&created, errf);
	int st = run(cmd.v, NULL, errf);
	if (got_signal)
		finish(st);
	if (!ok_status(st) && file_mentions(errf, "-fmacro-prefix-map")) {
		/* a compiler without the flag (gcc < 8, clang < 10): the
		 * includes as before */
		kp_vec_free(&cmd);
		instrumented_command(cc, args, cl, s, true, &cmd);
		concat(&cmd, libs);
		st = run(cmd.v, NULL, errf);
		if (got_signal)
			finish(st);
	}
	if (ok_status(st)) {
		copy_to_stderr(errf);
		kp_cc_fix_depfiles(args, cl, s->tmp_paths, s->done, tmpdir, &include_dirs);
		fallback_notes(args, cl, s->not_done, KP_CC_INSTRUMENT, s->logs, s->kept, false);
		finish(st);
	}
	if (verbose)
		copy_to_stderr(errf);
	char **errs = calloc((size_t)cl->n_c + 1, sizeof *errs);
	for (int i = 0; errs && i < cl->n_c; i++)
		errs[i] = errf;
	if (strict) {
		strict_failure(orig, libs, args, cl);
		fallback_notes(args, cl, s->done, KP_CC_COMPILE, errs, s->kept, true);
		finish(1 << 8); /* a wait status: exited with 1 */
	}
	concat(orig, libs);
	int st2 = run(orig->v, NULL, NULL);
	if (ok_status(st2))
		fallback_notes(args, cl, s->done, KP_CC_COMPILE, errs, s->kept, false);
	finish(st2);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--kpath-help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--kpath-version")) {
		printf("kpath-cc (kpath) %s\n", KPATH_VERSION);
		return 0;
	}
	verbose = getenv("KPATH_CC_VERBOSE") && *getenv("KPATH_CC_VERBOSE");
	bool strict = kp_cc_strict();
	/* the mode: checked before anything is allocated or run (a pure
	 * pass-through, KPATH_CC_DISABLE, ignores it) */
	const char *disabled = getenv("KPATH_CC_DISABLE");
	if (!(disabled && *disabled) && !kp_cc_mode_env(&mode_flags))
		return 2;

	struct kp_vec cc = {0};
	int first = find_compiler(argc, argv, &cc);
	if (is_self(cc.v[0])) {
		fprintf(stderr, "kpath-cc: the compiler to run is kpath-cc itself; give the real compiler "
		                "(kpath-cc gcc ... or KPATH_CC=gcc)\n");
		return 1;
	}
	if (getenv("KPATH_CC_ACTIVE")) {
		fprintf(stderr, "kpath-cc: the compiler '%s' runs kpath-cc again; give the real compiler "
		                "(kpath-cc gcc ... or KPATH_CC=gcc)\n", cc.v[0]);
		return 1;
	}
	setenv("KPATH_CC_ACTIVE", "1", 1);

	/* the original command, unchanged: what every pass-through runs */
	struct kp_vec orig = {0};
	concat(&orig, &cc);
	for (int i = first; i < argc; i++)
		kp_vec_push(&orig, argv[i]);

	const char *dis = getenv("KPATH_CC_DISABLE");
	if (dis && *dis)
		exec_or_die(orig.v);

	struct kp_vec args = {0};
	if (!kp_expand_response_files(argc - first, argv + first, &args))
		exec_or_die(orig.v); /* the compiler reports the missing @file */
	struct kp_ccline cl;
	kp_ccline_parse(args.n, args.v, &cl);

	if (cl.mode == KP_MODE_PREPROCESS || cl.mode == KP_MODE_OTHER || is_probe(&args, &cl))
		exec_or_die(orig.v);
	bool link = cl.mode == KP_MODE_LINK && !cl.relocatable && !cl.nostdlib;
	if (cl.n_c == 0 && !link)
		exec_or_die(orig.v);

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	char *kpath = kpath_bin();
	struct kp_vec libs = {0};
	if (link && !runtime_libs(kpath, &libs))
		kp_vec_free(&libs);
	if (cl.n_c == 0) { /* link only */
		concat(&orig, &libs);
		finish(run(orig.v, NULL, NULL));
	}
	make_tmpdir(&orig, &libs);

	struct sources s;
	instrument_sources(kpath, &args, &cl, &s);
	if (got_signal)
		finish(0);
	/* KPATH_CC_STRICT=1: a source kpath cannot instrument fails the build */
	if (strict && s.ndone < cl.n_c) {
		strict_failure(&orig, &libs, &args, &cl);
		fallback_notes(&args, &cl, s.not_done, KP_CC_INSTRUMENT, s.logs, s.kept, true);
		finish(1 << 8); /* a wait status: exited with 1 */
	}
	/* nothing instrumented: the original command is the real compiler's */
	if (s.ndone == 0) {
		concat(&orig, &libs);
		int st0 = run(orig.v, NULL, NULL);
		if (ok_status(st0))
			fallback_notes(&args, &cl, s.not_done, KP_CC_INSTRUMENT, s.logs, s.kept, false);
		finish(st0);
	}
	compile_instrumented(&cc, &orig, &libs, &args, &cl, &s, strict);
	return 0;
}
