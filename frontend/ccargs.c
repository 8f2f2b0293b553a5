/*
 * ccargs.c: the model of a gcc/clang driver command line that kpath-cc and
 * kpath instrument -p share: which operands are C sources, whether the
 * command compiles (-c), assembles (-S), preprocesses (-E/-M/-MM) or links,
 * where the output and the dependency file go, and which flags change how a
 * source parses (macros, include paths, language standard, target), which
 * are the flags kpath instrument must see to parse the file as the compiler
 * does.  Warnings and code generation flags are left out on purpose: -Werror
 * would turn clang-only warnings into instrumentation failures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builds.h"
#include "array.h"
#include "xalloc.h"
#include "strbuf.h"

/* --- vectors ---------------------------------------------------------------- */

void kp_vec_pushn(struct kp_vec *a, const char *s, size_t len)
{
	KP_RESERVE(a->v, a->cap, a->n + 2); /* and the NULL after the last */
	char *d = xrealloc(NULL, len + 1);
	memcpy(d, s, len);
	d[len] = 0;
	a->v[a->n++] = d;
	a->v[a->n] = NULL;
}

void kp_vec_push(struct kp_vec *a, const char *s)
{
	kp_vec_pushn(a, s, strlen(s));
}

void kp_vec_free(struct kp_vec *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->cap = 0;
}

/* --- splitting ---------------------------------------------------------------- */

bool kp_shell_split(const char *s, struct kp_vec *out)
{
	struct sb w = {0};
	bool in_word = false;
	bool ok = true;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			if (in_word)
				kp_vec_pushn(out, w.s ? w.s : "", w.n);
			w.n = 0;
			in_word = false;
			continue;
		}
		in_word = true;
		if (c == '\\') {
			if (p[1])
				sb_putc(&w, *++p);
		} else if (c == '\'') {
			for (p++; *p && *p != '\''; p++)
				sb_putc(&w, *p);
			if (!*p) {
				ok = false;
				break;
			}
		} else if (c == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1] && strchr("\\\"$`\n", p[1]))
					p++;
				sb_putc(&w, *p);
			}
			if (!*p) {
				ok = false;
				break;
			}
		} else {
			sb_putc(&w, c);
		}
	}
	if (ok && in_word)
		kp_vec_pushn(out, w.s ? w.s : "", w.n);
	free(w.s);
	return ok;
}

/* gcc's response-file syntax (libiberty buildargv): whitespace separates,
 * single and double quotes group, backslash escapes the next character. */
static void split_response(const char *s, struct kp_vec *out)
{
	struct sb w = {0};
	bool in_word = false;
	char quote = 0;
	for (const char *p = s; *p; p++) {
		char c = *p;
		if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) {
			if (in_word)
				kp_vec_pushn(out, w.s ? w.s : "", w.n);
			w.n = 0;
			in_word = false;
			continue;
		}
		in_word = true;
		if (c == '\\' && p[1]) {
			sb_putc(&w, *++p);
		} else if (quote) {
			if (c == quote)
				quote = 0;
			else
				sb_putc(&w, c);
		} else if (c == '\'' || c == '"') {
			quote = c;
		} else {
			sb_putc(&w, c);
		}
	}
	if (in_word)
		kp_vec_pushn(out, w.s ? w.s : "", w.n);
	free(w.s);
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct sb b = {0};
	int c;
	sb_put(&b, "", 0); /* an empty file reads as "" */
	while ((c = getc(f)) != EOF)
		sb_putc(&b, (char)c);
	fclose(f);
	return b.s;
}

static bool expand(int argc, char **argv, struct kp_vec *out, int depth)
{
	bool ok = true;
	for (int i = 0; i < argc; i++) {
		if (argv[i][0] != '@' || !argv[i][1] || depth > 10) {
			kp_vec_push(out, argv[i]);
			continue;
		}
		char *text = read_all(argv[i] + 1);
		if (!text) {
			kp_vec_push(out, argv[i]);
			ok = false;
			continue;
		}
		struct kp_vec sub = {0};
		split_response(text, &sub);
		free(text);
		ok &= expand(sub.n, sub.v, out, depth + 1);
		kp_vec_free(&sub);
	}
	return ok;
}

bool kp_expand_response_files(int argc, char **argv, struct kp_vec *out)
{
	return expand(argc, argv, out, 0);
}

/* --- the driver's options ---------------------------------------------------- */

/* Options whose value is the next argument when not joined. */
static const char *const separate[] = {
	"-o", "-D", "-U", "-I", "-include", "-imacros", "-iquote", "-isystem", "-idirafter",
	"-iprefix", "-iwithprefix", "-iwithprefixbefore", "-isysroot", "-imultilib", "-x", "-MF",
	"-MT", "-MQ", "-L", "-l", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "-u",
	"-T", "-z", "-e", "--param", "-aux-info", "-B", "-A", "-target", "-arch", "-F",
	"-framework", "-dumpbase", "-dumpbase-ext", "-dumpdir", "--sysroot", "-G", "-wrapper",
	"-install_name", "-ccc-gcc-name", "--serialize-diagnostics", "-MJ", NULL,
};

/* Of those, the ones that change parsing; kpath gets "-X value". */
static const char *const separate_parse[] = {
	"-D", "-U", "-I", "-include", "-imacros", "-iquote", "-isystem", "-idirafter", "-iprefix",
	"-iwithprefix", "-iwithprefixbefore", "-isysroot", "--sysroot", "-target", NULL,
};

/* Joined forms (prefixes) that change parsing. */
static const char *const joined_parse[] = {
	"-D", "-U", "-I", "-std=", "--std=", "-O", "--sysroot=", "--target=", "-isystem",
	"-iquote", "-idirafter", "-include", "-imacros",
	/* -f flags that define macros or change the language accepted */
	"-fsigned-char", "-funsigned-char", "-fno-signed-char", "-fno-unsigned-char",
	"-fms-extensions", "-fno-ms-extensions", "-fgnu89-inline", "-fno-gnu89-inline",
	"-fshort-enums", "-fshort-wchar", "-fpic", "-fPIC", "-fpie", "-fPIE", "-fno-pic",
	"-fno-PIC", "-fno-pie", "-fno-PIE", "-ffreestanding", "-fhosted", "-fno-builtin",
	"-fopenmp", "-fno-openmp", "-ffast-math", "-fno-fast-math", "-ffinite-math-only",
	"-fno-finite-math-only", "-fstack-protector", "-fno-stack-protector", "-fsanitize=",
	"-fno-inline", "-fcf-protection", "-fexec-charset=", "-finput-charset=",
	"-fextended-identifiers", "-fdollars-in-identifiers", "-fno-dollars-in-identifiers",
	"-fblocks", "-fno-asm", "-fasm", "-fgnu-keywords", "-fno-gnu-keywords",
	"-fsigned-bitfields", "-funsigned-bitfields", "-fdeclspec", "-fms-compatibility",
	"-fwchar-type=", "-fno-signed-zeros", "-fno-math-errno", "-fmath-errno",
	/* target selection and ISA extensions (predefined macros) */
	"-m16", "-m32", "-m64", "-mx32", "-march=", "-mcpu=", "-mfpu=", "-mfloat-abi=", "-mabi=",
	"-mthumb", "-marm", "-msse", "-mno-sse", "-mavx", "-mno-avx", "-mfma", "-mno-fma", "-mbmi",
	"-mno-bmi", "-mpopcnt", "-mno-popcnt", "-maes", "-mno-aes", "-mpclmul", "-mlzcnt", "-mf16c",
	"-mrdrnd", "-mrdseed", "-madx", "-msha", "-mxsave", "-mcx16", "-mmovbe", "-mmmx", "-mno-mmx",
	"-m3dnow", "-msoft-float", "-mhard-float", "-mgeneral-regs-only", "-mbig-endian",
	"-mlittle-endian", "-mlong-double-", "-mno-red-zone",
	NULL,
};

/* Exact flags that change parsing. */
static const char *const exact_parse[] = {
	"-ansi", "-pthread", "-trigraphs", "-undef", "-nostdinc", "-traditional-cpp", NULL,
};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

static bool has_prefix(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strncmp(*l, s, strlen(*l)))
			return true;
	return false;
}

static const char *suffix(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	return dot ? dot : "";
}

bool kp_is_c_name(const char *path)
{
	return !strcmp(suffix(path), ".c");
}

/* -Wp,a,b,c: the preprocessor options a, b, c. */
static void wp_option(const char *arg, struct kp_ccline *cl)
{
	struct kp_vec parts = {0};
	const char *p = arg + 4;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		kp_vec_pushn(&parts, p, len);
		if (!comma)
			break;
		p = comma + 1;
	}
	for (int i = 0; i < parts.n; i++) {
		const char *o = parts.v[i];
		if ((!strcmp(o, "-MD") || !strcmp(o, "-MMD")) && i + 1 < parts.n) {
			free(cl->wp_depfile);
			cl->wp_depfile = strdup(parts.v[++i]);
		} else if (!strncmp(o, "-D", 2) || !strncmp(o, "-U", 2) || !strncmp(o, "-I", 2)) {
			if (!o[2] && i + 1 < parts.n) {
				kp_vec_push(&cl->parse_flags, o);
				kp_vec_push(&cl->parse_flags, parts.v[++i]);
			} else {
				kp_vec_push(&cl->parse_flags, o);
			}
		}
	}
	kp_vec_free(&parts);
}

void kp_ccline_parse(int argc, char **argv, struct kp_ccline *cl)
{
	memset(cl, 0, sizeof *cl);
	cl->output = -1;
	cl->mf = -1;
	bool c = false, S = false, E = false, M = false, other = false;
	const char *lang = NULL; /* -x LANG in effect, NULL = by suffix */
	cl->c_inputs = calloc((size_t)argc + 1, sizeof *cl->c_inputs);
	if (!cl->c_inputs) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1]) {
			/* an operand ("-" is stdin, never instrumented) */
			cl->n_inputs++;
			if (a[0] != '-' && (lang ? !strcmp(lang, "c") : kp_is_c_name(a)))
				cl->c_inputs[cl->n_c++] = i;
			continue;
		}
		if (in_list(separate, a)) {
			if (i + 1 >= argc)
				break; /* the compiler will complain */
			const char *v = argv[i + 1];
			if (!strcmp(a, "-o")) {
				cl->output = i + 1;
			} else if (!strcmp(a, "-x")) {
				lang = strcmp(v, "none") ? v : NULL;
				kp_vec_push(&cl->parse_flags, a);
				kp_vec_push(&cl->parse_flags, v);
			} else if (!strcmp(a, "-MF")) {
				cl->mf = i + 1;
			} else if (!strcmp(a, "-Xpreprocessor") && (!strncmp(v, "-D", 2) || !strncmp(v, "-U", 2) || !strncmp(v, "-I", 2))) {
				kp_vec_push(&cl->parse_flags, v);
			} else if (!strcmp(a, "-l")) {
				cl->n_inputs++;
			} else if (in_list(separate_parse, a)) {
				kp_vec_push(&cl->parse_flags, a);
				kp_vec_push(&cl->parse_flags, v);
			}
			i++;
			continue;
		}
		if (!strcmp(a, "-c"))
			c = true;
		else if (!strcmp(a, "-S"))
			S = true;
		else if (!strcmp(a, "-E"))
			E = true;
		else if (!strcmp(a, "-M") || !strcmp(a, "-MM"))
			M = true;
		else if (!strcmp(a, "-MD") || !strcmp(a, "-MMD"))
			cl->dep = true;
		else if (!strcmp(a, "-shared"))
			cl->shared = true;
		else if (!strcmp(a, "-r"))
			cl->relocatable = true;
		else if (!strcmp(a, "-nostdlib") || !strcmp(a, "-nodefaultlibs"))
			cl->nostdlib = true;
		else if (!strncmp(a, "-o", 2)) {
			cl->output = i;
			cl->output_joined = true;
		} else if (!strncmp(a, "-x", 2)) {
			lang = strcmp(a + 2, "none") ? a + 2 : NULL;
			kp_vec_push(&cl->parse_flags, a);
		} else if (!strncmp(a, "-l", 2)) {
			cl->n_inputs++;
		} else if (!strncmp(a, "-Wp,", 4)) {
			wp_option(a, cl);
		} else if (!strncmp(a, "-g", 2) && strncmp(a, "-gno", 4) && strcmp(a, "-g0")) {
			cl->has_debug = true;
		} else if (!strcmp(a, "-fsyntax-only") || !strcmp(a, "-###") || !strcmp(a, "--version") ||
		           !strcmp(a, "--help") || !strncmp(a, "--help=", 7) || !strncmp(a, "-print-", 7) ||
		           !strncmp(a, "--print-", 8) || !strncmp(a, "-dump", 5) || !strcmp(a, "--target-help")) {
			other = true;
		} else if (in_list(exact_parse, a) || has_prefix(joined_parse, a)) {
			kp_vec_push(&cl->parse_flags, a);
		}
	}
	if (E || (M && !cl->dep))
		cl->mode = KP_MODE_PREPROCESS;
	else if (other || cl->n_inputs == 0)
		cl->mode = KP_MODE_OTHER;
	else if (S)
		cl->mode = KP_MODE_ASM;
	else if (c)
		cl->mode = KP_MODE_COMPILE;
	else
		cl->mode = KP_MODE_LINK;
}

void kp_ccline_free(struct kp_ccline *cl)
{
	free(cl->c_inputs);
	kp_vec_free(&cl->parse_flags);
	free(cl->wp_depfile);
	memset(cl, 0, sizeof *cl);
}

void kp_mkdirs(const char *dir)
{
	char *p = strdup(dir);
	if (!p)
		return;
	for (char *s = p + 1; *s; s++) {
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0777);
			*s = '/';
		}
	}
	mkdir(p, 0777);
	free(p);
}

const char *kp_base_name(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}
