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

static void usage(FILE *out)
{
	fprintf(out, "usage: kpath instrument -p BUILD_DIR [-o OUT_DIR] [--quiet] [--include-dir DIR]...\n"
	             "  Instruments every C file of BUILD_DIR/compile_commands.json with its own\n"
	             "  flags into OUT_DIR (default BUILD_DIR/kpath-src), mirroring the source tree\n"
	             "  below the sources' common directory, and writes OUT_DIR/compile_commands.json\n"
	             "  to compile the instrumented tree, and OUT_DIR/Makefile, which compiles it\n"
	             "  and links a profiled program: make -C OUT_DIR PROG=NAME [OBJS=...] [LDLIBS=...]\n"
	             "  (PROG from OBJS, default every object, with $(kpath config --libs)).\n"
	             "  --include-dir DIR: functions of headers under DIR too; their instrumented\n"
	             "  copies go to OUT_DIR/kpath-include, mirroring their path under DIR.\n");
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

int kp_compdb_main(int argc, char **argv)
{
	const char *build = NULL, *outdir = NULL;
	bool quiet = false;
	struct kp_vec incdirs = {0}; /* absolute: each entry is instrumented from its own directory */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-p") && i + 1 < argc)
			build = argv[++i];
		else if (!strncmp(argv[i], "-p", 2) && argv[i][2])
			build = argv[i] + 2;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			outdir = argv[++i];
		else if (!strcmp(argv[i], "--quiet"))
			quiet = true;
		else if (!strcmp(argv[i], "--include-dir") && i + 1 < argc) {
			char real[PATH_MAX];
			if (!realpath(argv[++i], real)) {
				fprintf(stderr, "kpath: error: --include-dir %s: %s\n", argv[i], strerror(errno));
				kp_vec_free(&incdirs);
				return 1;
			}
			kp_vec_push(&incdirs, real);
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else {
			fprintf(stderr, "kpath instrument -p: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (!build) {
		usage(stderr);
		return 2;
	}
	char broot[PATH_MAX];
	if (!realpath(build, broot)) {
		fprintf(stderr, "kpath: error: build directory '%s': %s\n", build, strerror(errno));
		return 1;
	}
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
		return 1;
	}

	/* the C entries, first entry of each file */
	size_t n = json_array_size(db), ne = 0;
	struct entry *es = calloc(n + 1, sizeof *es);
	int status = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *j = json_array_get(db, i);
		const char *dir = json_string_value(json_object_get(j, "directory"));
		const char *file = json_string_value(json_object_get(j, "file"));
		json_t *arguments = json_object_get(j, "arguments");
		const char *command = json_string_value(json_object_get(j, "command"));
		if (!dir || !file || (!json_is_array(arguments) && !command)) {
			fprintf(stderr, "kpath: warning: %s: entry %zu lacks directory, file or command; skipped\n", dbpath, i);
			continue;
		}
		struct entry e = {0};
		if (json_is_array(arguments)) {
			size_t k;
			json_t *v;
			json_array_foreach(arguments, k, v)
				if (json_is_string(v))
					kp_vec_push(&e.args, json_string_value(v));
		} else if (!kp_shell_split(command, &e.args)) {
			fprintf(stderr, "kpath: warning: %s: entry %zu: unterminated quote in command; skipped\n", dbpath, i);
			kp_vec_free(&e.args);
			continue;
		}
		if (e.args.n < 2) {
			kp_vec_free(&e.args);
			continue;
		}
		e.dir = join(broot, dir);
		e.file = join(e.dir, file);
		char real[PATH_MAX];
		if (!realpath(e.file, real)) {
			fprintf(stderr, "kpath: warning: %s: %s: %s; skipped\n", dbpath, e.file, strerror(errno));
			status = 1;
			goto drop;
		}
		e.real = strdup(real);
		bool dup = false;
		for (size_t k = 0; k < ne; k++)
			dup |= !strcmp(es[k].real, e.real);
		if (dup)
			goto drop;
		/* C only: by the name, or by -x c */
		struct kp_ccline cl;
		int skipw = 1;
		while (skipw < e.args.n - 1 && is_wrapper(e.args.v[skipw - 1]) && e.args.v[skipw][0] != '-')
			skipw++;
		kp_ccline_parse(e.args.n - skipw, e.args.v + skipw, &cl);
		bool is_c = cl.n_c > 0;
		kp_ccline_free(&cl);
		if (!is_c)
			goto drop;
		/* drop wrappers in front of the compiler */
		if (skipw > 1) {
			struct kp_vec a = {0};
			for (int k = skipw - 1; k < e.args.n; k++)
				kp_vec_push(&a, e.args.v[k]);
			kp_vec_free(&e.args);
			e.args = a;
		}
		es[ne++] = e;
		continue;
	drop:
		free(e.dir);
		free(e.file);
		free(e.real);
		kp_vec_free(&e.args);
	}
	json_decref(db);
	if (ne == 0) {
		fprintf(stderr, "kpath: error: %s lists no C file\n", dbpath);
		free(es);
		return 1;
	}

	/* the common source root */
	size_t root = strlen(es[0].real);
	for (size_t i = 0; i < ne; i++)
		root = common_dir(es[0].real, es[i].real, root);
	char odir[PATH_MAX];
	if (outdir) {
		kp_mkdirs(outdir);
		if (!realpath(outdir, odir)) {
			fprintf(stderr, "kpath: error: output directory '%s': %s\n", outdir, strerror(errno));
			return 1;
		}
	} else {
		if (snprintf(odir, sizeof odir, "%.*s/kpath-src", PATH_MAX - 16, broot) >= (int)sizeof odir)
			return 1;
		kp_mkdirs(odir);
	}

	int here = open(".", O_RDONLY);
	unsigned ok = 0, failed = 0;
	json_t *mirror = json_array();
	for (size_t i = 0; i < ne; i++) {
		struct entry *e = &es[i];
		const char *rel = e->real + root + (e->real[root] == '/');
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
		if (quiet)
			kp_vec_push(&iargs, "--quiet");
		for (int k = 0; k < incdirs.n; k++) {
			kp_vec_push(&iargs, "--include-dir");
			kp_vec_push(&iargs, incdirs.v[k]);
		}
		if (incdirs.n) {
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
			rc = kp_instrument_main(iargs.n, iargs.v);
		}
		if (here >= 0 && fchdir(here) != 0)
			fprintf(stderr, "kpath: warning: cannot return to the working directory\n");
		struct kp_vec rest = {0};
		for (int k = 1; k < e->args.n; k++)
			kp_vec_push(&rest, e->args.v[k]);
		json_array_append_new(mirror, mirror_entry(e, &cl, &rest, rc == 0));
		kp_vec_free(&rest);
		if (rc == 0) {
			ok++;
		} else {
			failed++;
			status = 1;
			fprintf(stderr, "kpath: warning: %s not instrumented; %s/compile_commands.json and its Makefile "
				"compile the original, so the tree still links\n", e->file, odir);
		}
		kp_vec_free(&iargs);
		kp_ccline_free(&cl);
	}
	if (here >= 0)
		close(here);
	char mpath[PATH_MAX + 32];
	snprintf(mpath, sizeof mpath, "%s/compile_commands.json", odir);
	if (json_dump_file(mirror, mpath, JSON_INDENT(2)) != 0) {
		fprintf(stderr, "kpath: error: cannot write '%s'\n", mpath);
		status = 1;
	}
	char libs[3 * PATH_MAX], why[PATH_MAX + 128];
	if (kp_config_libs(libs, sizeof libs) != 0) {
		fprintf(stderr, "kpath: warning: %s/Makefile not written: the kpath runtime was not found (kpath config --libs)\n", odir);
	} else if (kp_compdb_makefile(odir, mirror, libs, why, sizeof why) != 0) {
		fprintf(stderr, "kpath: warning: %s/Makefile not written: %s\n", odir, why);
		status = 1;
	}
	json_decref(mirror);
	fprintf(stderr, "kpath: %u of %zu C files instrumented into %s (source root %.*s)%s\n", ok, ne, odir,
	        (int)(root ? root : 1), es[0].real, failed ? "; see the errors above" : "");
	if (ok)
		fprintf(stderr, "kpath: build and link it: make -C %s PROG=NAME [LDLIBS=...]\n", odir);
	for (size_t i = 0; i < ne; i++) {
		free(es[i].dir);
		free(es[i].file);
		free(es[i].real);
		free(es[i].out);
		kp_vec_free(&es[i].args);
	}
	free(es);
	kp_vec_free(&incdirs);
	return status;
}
