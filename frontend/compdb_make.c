/*
 * compdb_make.c: OUT_DIR/Makefile beside the compile_commands.json that
 * `kpath instrument -p` writes (compdb.c), so the instrumented tree gets
 * to a linked, profiled program with one command:
 *
 *   make -C OUT_DIR PROG=NAME [OBJS="..."] [LDLIBS=-lm] [LDFLAGS=...]
 *
 * compiles every instrumented file with its own command (one rule per
 * object, run from the entry's directory, as the original build did) and
 * links OBJS (default: all of them) into OUT_DIR/NAME with the runtime.
 * Without PROG it only compiles.  compile_commands.json holds no link
 * steps, so which objects and libraries make a program is the user's to
 * say; one program from every object (the common single-executable case)
 * is the default.  For a project of several programs and libraries,
 * kpath-cc as the build's compiler relinks each target as the build does.
 *
 * GNU make syntax.  Every word of a command is single-quoted for the
 * shell and every $ doubled for make; paths make cannot hold as a target
 * (blanks, ':', '#', '%') make the Makefile not written, with the reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "builds.h"
#include "frontend.h"

/* Writes s for a recipe: single-quoted for sh, $ doubled for make. */
static void put_word(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else if (*s == '$')
			fputs("$$", f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

static int make_safe(const char *path)
{
	return !strpbrk(path, " \t\n:#%$\\;=*?[]");
}

int kp_compdb_makefile(const char *odir, struct json_t *mirror, const char *libs, char *err, size_t errlen)
{
	size_t i;
	json_t *e;
	json_array_foreach(mirror, i, e)
	{
		const char *out = json_string_value(json_object_get(e, "output"));
		const char *file = json_string_value(json_object_get(e, "file"));
		if (!out || !file || !make_safe(out) || !make_safe(file)) {
			snprintf(err, errlen, "%s: make cannot name it as a target (blanks, ':', '#', '%%', '$', ...)",
				 out && !make_safe(out) ? out : file ? file : "?");
			return -1;
		}
	}
	size_t n = strlen(odir) + sizeof "/Makefile";
	char *path = malloc(n), *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!path || !f) {
		free(path);
		if (f)
			fclose(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(path, n, "%s/Makefile", odir);
	json_t *first = json_array_get(mirror, 0);
	const char *cc = first ? json_string_value(json_array_get(json_object_get(first, "arguments"), 0)) : NULL;
	fprintf(f, "# Written by kpath instrument -p: compiles the instrumented tree of this\n"
		   "# directory and links a profiled program (README.md, \"Real builds\").\n"
		   "#   make -C %s PROG=NAME [OBJS=\"...\"] [LDLIBS=-lm] [LDFLAGS=...]\n"
		   "# links OBJS (default: every object) into %s/NAME; without PROG it only\n"
		   "# compiles.  The program writes its profile (kpath.json) when it exits.\n\n",
		odir, odir);
	fputs("KPATH_CC = ", f);
	put_word(f, cc ? cc : "cc");
	fprintf(f, "\nKPATH_LIBS = %s\nKPATH_OBJS =", libs);
	json_array_foreach(mirror, i, e)
		fprintf(f, " \\\n\t%s", json_string_value(json_object_get(e, "output")));
	fputs("\nOBJS ?= $(KPATH_OBJS)\n\n"
	      "ifdef PROG\nall: $(PROG)\nelse\nall: $(KPATH_OBJS)\nendif\n"
	      ".PHONY: all\n\n"
	      "ifdef PROG\n$(PROG): $(OBJS)\n"
	      "\t$(KPATH_CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS) $(KPATH_LIBS)\nendif\n", f);
	json_array_foreach(mirror, i, e)
	{
		fprintf(f, "\n%s: %s\n\tcd ", json_string_value(json_object_get(e, "output")),
			json_string_value(json_object_get(e, "file")));
		put_word(f, json_string_value(json_object_get(e, "directory")));
		fputs(" &&", f);
		size_t k;
		json_t *a;
		json_array_foreach(json_object_get(e, "arguments"), k, a)
		{
			fputc(' ', f);
			put_word(f, json_string_value(a));
		}
		fputc('\n', f);
	}
	bool built = fclose(f) == 0 && text;
	int rc = built ? kp_write_atomic(path, text, len, err, errlen) : -1;
	if (!built)
		snprintf(err, errlen, "%s: out of memory", path);
	free(text);
	free(path);
	return rc;
}
