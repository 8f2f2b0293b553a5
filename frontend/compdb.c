/*
 * compdb.c: `kpath instrument -p BUILD_DIR [-o OUT_DIR]`.
 *
 * Reads BUILD_DIR/compile_commands.json (CMake's -DCMAKE_EXPORT_COMPILE_COMMANDS=ON,
 * bear, meson, ...) and instruments every C file it lists with that entry's
 * own parse-relevant flags (ccargs.c), from the entry's directory, into
 * OUT_DIR (default BUILD_DIR/kpath-src), mirroring the source tree below the
 * sources' common directory: ROOT/src/vm.c -> OUT_DIR/src/vm.c.
 *
 * The instrumented files keep #include "..." relative to the ORIGINAL source
 * directory (their #line names the original), so OUT_DIR gets its own
 * compile_commands.json: each original command with the instrumented file in
 * place of the source, "-iquote ORIGINAL_DIR" in front, the object written
 * next to the instrumented file (OUT_DIR/src/vm.o, never over the original
 * build's objects) and dependency-file flags dropped; and OUT_DIR/Makefile
 * (compdb_make.c), which compiles them and links a program with the runtime:
 * make -C OUT_DIR PROG=NAME.
 */
/* realpath, strndup, mkdtemp */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "builds.h"
#include "frontend.h"
#include "modes.h"
#include "ppp_interesting.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: kpath instrument -p BUILD_DIR [-o OUT_DIR] [--quiet] [--include-dir DIR]...\n"
	             "       [--mode kiter --kiter K | --mode ppp --interesting PROFILE [--interesting-top P]]\n"
	             "  Instruments every C file of BUILD_DIR/compile_commands.json with its own\n"
	             "  flags into OUT_DIR (default BUILD_DIR/kpath-src), mirroring the source tree\n"
	             "  below the sources' common directory, and writes OUT_DIR/compile_commands.json\n"
	             "  to compile the instrumented tree, and OUT_DIR/Makefile, which compiles it\n"
	             "  and links a profiled program: make -C OUT_DIR PROG=NAME [OBJS=...] [LDLIBS=...]\n"
	             "  (PROG from OBJS, default every object, with $(kpath config --libs)).\n"
	             "  --include-dir DIR: functions of headers under DIR too; their instrumented\n"
	             "  copies go to OUT_DIR/kpath-include, mirroring their path under DIR.\n"
	             "  --mode kiter --kiter K: every file in kiter mode (docs/kiter-mode.md; a\n"
	             "  loop's own K: #pragma kpath kiter(K) in the source).\n"
	             "  --mode ppp --interesting PROFILE [--interesting-top P]: every file in ppp\n"
	             "  mode, PROFILE's paths interesting (docs/ppp.md; PROFILE is read before\n"
	             "  anything is written).\n");
}

struct entry {
	char *dir;     /* the entry's directory (absolute) */
	char *file;    /* the source as given, made absolute against dir */
	char *real;    /* realpath of file */
	struct kp_vec args; /* the whole command, compiler first */
	char *out;     /* OUT_DIR/REL */
};

static char *join(const char *dir, const char *p)
{
	if (p[0] == '/' || !dir || !*dir)
		return strdup(p);
	size_t n = strlen(dir) + strlen(p) + 2;
	char *s = malloc(n);
	snprintf(s, n, "%s/%s", dir, p);
	return s;
}


static bool is_wrapper(const char *w)
{
	const char *b = kp_base_name(w);
	return !strcmp(b, "ccache") || !strcmp(b, "sccache") || !strcmp(b, "distcc") || !strcmp(b, "icecc") ||
	       !strcmp(b, "kpath-cc");
}

/* Length of the directory prefix two absolute paths share ("/a/b" of
 * "/a/b/c.c" and "/a/b/d/e.c"). */
static size_t common_dir(const char *a, const char *b, size_t n)
{
	size_t i = 0, last = 0;
	while (i < n && a[i] && a[i] == b[i]) {
		if (a[i] == '/')
			last = i;
		i++;
	}
	if (i == n && (b[i] == '/'))
		last = i;
	return last;
}

/* The command for OUT_DIR/compile_commands.json: e's command compiling
 * its instrumented file (or, when !instrumented, its original source, so
 * that the tree still links, that file unprofiled) into OUT_DIR. */
static json_t *mirror_entry(const struct entry *e, const struct kp_ccline *cl, const struct kp_vec *rest,
			    bool instrumented)
{
	json_t *args = json_array();
	int skip = 0;
	/* compiler (wrappers stay out: the tree is compiled as is) */
	const struct kp_vec *a = &e->args;
	json_array_append_new(args, json_string(a->v[0]));
	char *d = strdup(e->real);
	*strrchr(d, '/') = 0;
	json_array_append_new(args, json_string("-iquote"));
	json_array_append_new(args, json_string(d[0] ? d : "/"));
	free(d);
	size_t on = strlen(e->out);
	char *obj = malloc(on + 3);
	memcpy(obj, e->out, on + 1);
	if (on > 2 && !strcmp(obj + on - 2, ".c"))
		obj[on - 2] = 0;
	strcat(obj, ".o");
	bool has_o = false;
	for (int i = 0; i < rest->n; i++) {
		const char *s = rest->v[i];
		if (skip) {
			skip--;
			continue;
		}
		bool src = false;
		for (int k = 0; k < cl->n_c; k++)
			if (cl->c_inputs[k] == i)
				src = true;
		if (src) {
			char *abs = join(e->dir, s);
			char real[PATH_MAX];
			bool same = realpath(abs, real) && !strcmp(real, e->real);
			free(abs);
			json_array_append_new(args, json_string(same && instrumented ? e->out : s));
		} else if (!strcmp(s, "-o")) {
			json_array_append_new(args, json_string("-o"));
			json_array_append_new(args, json_string(obj));
			has_o = true;
			skip = 1;
		} else if (!strncmp(s, "-o", 2)) {
			json_array_append_new(args, json_string("-o"));
			json_array_append_new(args, json_string(obj));
			has_o = true;
		} else if (!strcmp(s, "-MF") || !strcmp(s, "-MT") || !strcmp(s, "-MQ")) {
			skip = 1;
		} else if (!strcmp(s, "-MD") || !strcmp(s, "-MMD") || !strcmp(s, "-MP")) {
			continue;
		} else {
			json_array_append_new(args, json_string(s));
		}
	}
	if (!has_o) {
		json_array_append_new(args, json_string("-o"));
		json_array_append_new(args, json_string(obj));
	}
	json_t *o = json_object();
	json_object_set_new(o, "directory", json_string(e->dir));
	json_object_set_new(o, "file", json_string(instrumented ? e->out : e->real));
	json_object_set_new(o, "arguments", args);
	json_object_set_new(o, "output", json_string(obj));
	free(obj);
	return o;
}

struct compdb_opts {
	const char *build, *outdir;
	bool quiet;
	struct kp_vec incdirs; /* absolute: each entry is instrumented from its own directory */
	const char *mode, *kiter; /* --mode, --kiter: passed to every kpath instrument */
	const char *top;          /* --interesting-top P */
	char *interesting;        /* --interesting PROFILE, absolute (each entry runs from its own directory) */
	kp_main_fn *instrument;   /* kpath instrument, run on each entry (instrument_cmd.c) */
};

/* --interesting PROFILE: made absolute and read once, before anything is
 * written (each kpath instrument reads it again); 0 or 1 after the error. */
static int interesting_check(struct compdb_opts *o, double top)
{
	char real[PATH_MAX];
	if (!realpath(o->interesting, real)) {
		fprintf(stderr, "kpath instrument: error: --interesting: %s: %s; nothing written\n", o->interesting,
		        strerror(errno));
		return 1;
	}
	struct kp_interesting *s = kp_interesting_load(real, top);
	if (!s)
		return 1;
	kp_interesting_free(s);
	free(o->interesting);
	o->interesting = strdup(real);
	return 0;
}

/* 0, or the exit status (after --help, 0 too: *done set). */
static int compdb_args(int argc, char **argv, struct compdb_opts *o, bool *done)
{
	memset(o, 0, sizeof *o);
	*done = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-p") && i + 1 < argc)
			o->build = argv[++i];
		else if (!strncmp(argv[i], "-p", 2) && argv[i][2])
			o->build = argv[i] + 2;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			o->outdir = argv[++i];
		else if (!strcmp(argv[i], "--quiet"))
			o->quiet = true;
		else if (!strcmp(argv[i], "--mode") && i + 1 < argc)
			o->mode = argv[++i];
		else if (!strcmp(argv[i], "--kiter") && i + 1 < argc)
			o->kiter = argv[++i];
		else if (!strcmp(argv[i], "--interesting-top") && i + 1 < argc)
			o->top = argv[++i];
		else if (!strcmp(argv[i], "--interesting") && i + 1 < argc) {
			free(o->interesting);
			o->interesting = strdup(argv[++i]);
		}
		else if (!strcmp(argv[i], "--include-dir") && i + 1 < argc) {
			char real[PATH_MAX];
			if (!realpath(argv[++i], real)) {
				fprintf(stderr, "kpath: error: --include-dir %s: %s\n", argv[i], strerror(errno));
				return 1;
			}
			kp_vec_push(&o->incdirs, real);
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			*done = true;
			return 0;
		} else {
			fprintf(stderr, "kpath instrument -p: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (!o->build) {
		usage(stderr);
		return 2;
	}
	if (o->mode && !strcmp(o->mode, "overlap")) { /* docs/overlap-mode.md, "Not instrumented" */
		fprintf(stderr, "kpath instrument -p: --mode overlap is not supported in builds yet (instrument the "
		        "files one by one)\n");
		return 2;
	}
	struct kp_mode_args ma = {.mode = o->mode, .kiter = o->kiter, .interesting = o->interesting, .top = o->top};
	struct kp_mode_run mr;
	if (!kp_mode_select(&ma, &mr))
		return 2;
	kp_mode_run_free(&mr);
	double top = -1;
	if (o->top)
		top = strtod(o->top, NULL); /* checked by kp_mode_select */
	return o->interesting ? interesting_check(o, top) : 0;
}

static void entry_free(struct entry *e)
{
	free(e->dir);
	free(e->file);
	free(e->real);
	free(e->out);
	kp_vec_free(&e->args);
}

/* Entry i of the database as a C compile command into *e (absolute paths,
 * wrappers in front of the compiler dropped); false when it is skipped:
 * malformed (with a warning), not C, or a file already listed.  *status
 * becomes 1 for a file that does not exist. */
static bool read_entry(json_t *j, size_t i, const char *dbpath, const char *broot, const struct entry *es,
                       size_t ne, struct entry *e, int *status)
{
	const char *dir = json_string_value(json_object_get(j, "directory"));
	const char *file = json_string_value(json_object_get(j, "file"));
	json_t *arguments = json_object_get(j, "arguments");
	const char *command = json_string_value(json_object_get(j, "command"));
	memset(e, 0, sizeof *e);
	if (!dir || !file || (!json_is_array(arguments) && !command)) {
		fprintf(stderr, "kpath: warning: %s: entry %zu lacks directory, file or command; skipped\n", dbpath, i);
		return false;
	}
	if (json_is_array(arguments)) {
		size_t k;
		json_t *v;
		json_array_foreach(arguments, k, v)
			if (json_is_string(v))
				kp_vec_push(&e->args, json_string_value(v));
	} else if (!kp_shell_split(command, &e->args)) {
		fprintf(stderr, "kpath: warning: %s: entry %zu: unterminated quote in command; skipped\n", dbpath, i);
		goto drop;
	}
	if (e->args.n < 2)
		goto drop;
	e->dir = join(broot, dir);
	e->file = join(e->dir, file);
	char real[PATH_MAX];
	if (!realpath(e->file, real)) {
		fprintf(stderr, "kpath: warning: %s: %s: %s; skipped\n", dbpath, e->file, strerror(errno));
		*status = 1;
		goto drop;
	}
	e->real = strdup(real);
	for (size_t k = 0; k < ne; k++)
		if (!strcmp(es[k].real, e->real))
			goto drop;
	/* C only: by the name, or by -x c */
	struct kp_ccline cl;
	int skipw = 1;
	while (skipw < e->args.n - 1 && is_wrapper(e->args.v[skipw - 1]) && e->args.v[skipw][0] != '-')
		skipw++;
	kp_ccline_parse(e->args.n - skipw, e->args.v + skipw, &cl);
	bool is_c = cl.n_c > 0;
	kp_ccline_free(&cl);
	if (!is_c)
		goto drop;
	/* drop wrappers in front of the compiler */
	if (skipw > 1) {
		struct kp_vec a = {0};
		for (int k = skipw - 1; k < e->args.n; k++)
			kp_vec_push(&a, e->args.v[k]);
		kp_vec_free(&e->args);
		e->args = a;
	}
	return true;
drop:
	entry_free(e);
	return false;
}

/* The C entries of BROOT/compile_commands.json, the first of each file;
 * NULL (after the error) when it cannot be read or lists none. */
static struct entry *read_entries(const char *broot, size_t *ne, int *status)
{
	char dbpath[PATH_MAX + 32];
	snprintf(dbpath, sizeof dbpath, "%s/compile_commands.json", broot);
	json_error_t jerr;
	json_t *db = json_load_file(dbpath, 0, &jerr);
	if (!db || !json_is_array(db)) {
		if (db)
			fprintf(stderr, "kpath: error: %s: not an array of compile commands\n", dbpath);
		else
			fprintf(stderr, "kpath: error: %s:%d:%d: %s\n", dbpath, jerr.line, jerr.column, jerr.text);
		json_decref(db);
		return NULL;
	}
	size_t n = json_array_size(db);
	struct entry *es = calloc(n + 1, sizeof *es);
	*ne = 0;
	for (size_t i = 0; es && i < n; i++)
		if (read_entry(json_array_get(db, i), i, dbpath, broot, es, *ne, &es[*ne], status))
			++*ne;
	json_decref(db);
	if (es && *ne == 0)
		fprintf(stderr, "kpath: error: %s lists no C file\n", dbpath);
	if (!es || *ne == 0) {
		free(es);
		return NULL;
	}
	return es;
}

/* kpath instrument on entry e, from its own directory, into ODIR/REL;
 * its mirror entry appended.  Returns instrument's status. */
static int instrument_entry(struct entry *e, const char *rel, const char *odir, const struct compdb_opts *o,
                            int here, json_t *mirror)
{
	size_t m = strlen(odir) + strlen(rel) + 2;
	e->out = malloc(m);
	snprintf(e->out, m, "%s/%s", odir, rel);
	char *d = strdup(e->out);
	*strrchr(d, '/') = 0;
	kp_mkdirs(d);
	free(d);
	struct kp_ccline cl;
	kp_ccline_parse(e->args.n - 1, e->args.v + 1, &cl);
	struct kp_vec iargs = {0};
	kp_vec_push(&iargs, "instrument");
	kp_vec_push(&iargs, e->file);
	kp_vec_push(&iargs, "-o");
	kp_vec_push(&iargs, e->out);
	if (o->quiet)
		kp_vec_push(&iargs, "--quiet");
	if (o->mode) {
		kp_vec_push(&iargs, "--mode");
		kp_vec_push(&iargs, o->mode);
	}
	if (o->kiter) {
		kp_vec_push(&iargs, "--kiter");
		kp_vec_push(&iargs, o->kiter);
	}
	if (o->interesting) {
		kp_vec_push(&iargs, "--interesting");
		kp_vec_push(&iargs, o->interesting);
	}
	if (o->top) {
		kp_vec_push(&iargs, "--interesting-top");
		kp_vec_push(&iargs, o->top);
	}
	for (int k = 0; k < o->incdirs.n; k++) {
		kp_vec_push(&iargs, "--include-dir");
		kp_vec_push(&iargs, o->incdirs.v[k]);
	}
	if (o->incdirs.n) {
		char incout[PATH_MAX + 16];
		snprintf(incout, sizeof incout, "%s/kpath-include", odir);
		kp_vec_push(&iargs, "--include-out");
		kp_vec_push(&iargs, incout);
	}
	kp_vec_push(&iargs, "--");
	for (int k = 0; k < cl.parse_flags.n; k++)
		kp_vec_push(&iargs, cl.parse_flags.v[k]);
	int rc;
	if (chdir(e->dir) != 0) {
		fprintf(stderr, "kpath: error: cannot enter '%s': %s\n", e->dir, strerror(errno));
		rc = 1;
	} else {
		rc = o->instrument(iargs.n, iargs.v);
	}
	if (here >= 0 && fchdir(here) != 0)
		fprintf(stderr, "kpath: warning: cannot return to the working directory\n");
	struct kp_vec rest = {0};
	for (int k = 1; k < e->args.n; k++)
		kp_vec_push(&rest, e->args.v[k]);
	json_array_append_new(mirror, mirror_entry(e, &cl, &rest, rc == 0));
	kp_vec_free(&rest);
	if (rc != 0)
		fprintf(stderr, "kpath: warning: %s not instrumented; %s/compile_commands.json and its Makefile "
			"compile the original, so the tree still links\n", e->file, odir);
	kp_vec_free(&iargs);
	kp_ccline_free(&cl);
	return rc;
}

/* ODIR/compile_commands.json and ODIR/Makefile; 0 or 1. */
static int write_mirror(const char *odir, json_t *mirror)
{
	int status = 0;
	char mpath[PATH_MAX + 32];
	snprintf(mpath, sizeof mpath, "%s/compile_commands.json", odir);
	char *text = json_dumps(mirror, JSON_INDENT(2)), libs[3 * PATH_MAX], why[2 * PATH_MAX + 512];
	if (!text || kp_write_atomic(mpath, text, strlen(text), why, sizeof why) != 0) {
		fprintf(stderr, "kpath: error: cannot write %s\n", text ? why : mpath);
		status = 1;
	}
	free(text);
	if (kp_config_libs(libs, sizeof libs) != 0) {
		fprintf(stderr, "kpath: warning: %s/Makefile not written: the kpath runtime was not found (kpath config --libs)\n", odir);
	} else if (kp_compdb_makefile(odir, mirror, libs, why, sizeof why) != 0) {
		fprintf(stderr, "kpath: warning: %s/Makefile not written: %s\n", odir, why);
		status = 1;
	}
	return status;
}

/* The output directory, made: -o DIR, else BROOT/kpath-src. */
static bool output_dir(const struct compdb_opts *o, const char *broot, char odir[PATH_MAX])
{
	if (o->outdir) {
		kp_mkdirs(o->outdir);
		if (!realpath(o->outdir, odir)) {
			fprintf(stderr, "kpath: error: output directory '%s': %s\n", o->outdir, strerror(errno));
			return false;
		}
		return true;
	}
	if (snprintf(odir, PATH_MAX, "%.*s/kpath-src", PATH_MAX - 16, broot) >= PATH_MAX)
		return false;
	kp_mkdirs(odir);
	return true;
}

int kp_compdb_main(int argc, char **argv, kp_main_fn *instrument)
{
	struct compdb_opts o;
	bool done;
	int status = compdb_args(argc, argv, &o, &done);
	o.instrument = instrument;
	if (status || done) {
		kp_vec_free(&o.incdirs);
		free(o.interesting);
		return status;
	}
	char broot[PATH_MAX], odir[PATH_MAX];
	size_t ne = 0;
	struct entry *es = NULL;
	if (!realpath(o.build, broot)) {
		fprintf(stderr, "kpath: error: build directory '%s': %s\n", o.build, strerror(errno));
		status = 1;
	} else if (!(es = read_entries(broot, &ne, &status)) || !output_dir(&o, broot, odir)) {
		status = 1;
	} else {
		/* the common source root */
		size_t root = strlen(es[0].real);
		for (size_t i = 0; i < ne; i++)
			root = common_dir(es[0].real, es[i].real, root);
		int here = open(".", O_RDONLY);
		unsigned ok = 0;
		json_t *mirror = json_array();
		for (size_t i = 0; i < ne; i++) {
			const char *rel = es[i].real + root + (es[i].real[root] == '/');
			if (instrument_entry(&es[i], rel, odir, &o, here, mirror) == 0)
				ok++;
			else
				status = 1;
		}
		if (here >= 0)
			close(here);
		status |= write_mirror(odir, mirror);
		json_decref(mirror);
		fprintf(stderr, "kpath: %u of %zu C files instrumented into %s (source root %.*s)%s\n", ok, ne, odir,
		        (int)(root ? root : 1), es[0].real, ok < ne ? "; see the errors above" : "");
		if (ok)
			fprintf(stderr, "kpath: build and link it: make -C %s PROG=NAME [LDLIBS=...]\n", odir);
	}
	for (size_t i = 0; es && i < ne; i++)
		entry_free(&es[i]);
	free(es);
	kp_vec_free(&o.incdirs);
	free(o.interesting);
	return status;
}
