/*
 * cc_depfile.c: kpath-cc's files: reading and writing whole files, and the
 * dependency files a compile of the instrumented copies writes, pointed
 * back at the original sources and headers (builds.h).
 */
/* strndup */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builds.h"

char *kp_cc_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	size_t got;
	while (s && (got = fread(s + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n < 2) {
			cap *= 2;
			s = realloc(s, cap);
		}
	}
	fclose(f);
	if (!s)
		return NULL;
	s[n] = 0;
	if (len)
		*len = n;
	return s;
}


bool kp_cc_write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, n, f) == n;
	ok &= fclose(f) == 0;
	return ok;
}


/* Replaces every occurrence of from by to in the file at path. */
static void replace_in_file(const char *path, const char *from, const char *to)
{
	size_t n;
	char *s = kp_cc_slurp(path, &n);
	if (!s || !strstr(s, from)) {
		free(s);
		return;
	}
	size_t fl = strlen(from), tl = strlen(to), cap = n + 1, count = 0;
	for (char *p = strstr(s, from); p; p = strstr(p + fl, from))
		count++;
	cap += count * (tl > fl ? tl - fl : 0);
	char *d = malloc(cap + 1), *w = d;
	const char *r = s;
	for (char *p = strstr(s, from); p; p = strstr(p + fl, from)) {
		memcpy(w, r, (size_t)(p - r));
		w += p - r;
		memcpy(w, to, tl);
		w += tl;
		r = p + fl;
	}
	size_t rest = n - (size_t)(r - s);
	memcpy(w, r, rest);
	w += rest;
	kp_cc_write_file(path, d, (size_t)(w - d));
	free(d);
	free(s);
}

/* The name as make wants it in a dependency file (spaces, #, $ escaped). */
static char *make_escape(const char *s)
{
	char *d = malloc(strlen(s) * 2 + 1), *w = d;
	for (; *s; s++) {
		if (*s == ' ' || *s == '#')
			*w++ = '\\';
		else if (*s == '$')
			*w++ = '$';
		*w++ = *s;
	}
	*w = 0;
	return d;
}

char *kp_cc_strip_suffix(const char *p)
{
	const char *b = kp_base_name(p);
	const char *dot = strrchr(b, '.');
	return dot ? strndup(p, (size_t)(dot - p)) : strdup(p);
}

/* The directory part of source src with its last '/', as its command
 * spells it ("" for "b.c", "./" for "./b.c", "src//" for "src//b.c"): what
 * the compiler puts before the name of a "..." include it finds beside the
 * source. */
char *kp_cc_dir_prefix(const char *src)
{
	const char *slash = strrchr(src, '/');
	return strndup(src, slash ? (size_t)(slash - src + 1) : 0);
}

/* TMPDIR/q<i>: the symlink to source i's directory (quote_link). */
void kp_cc_quote_link_path(char *buf, size_t n, const char *tmpdir, int i)
{
	snprintf(buf, n, "%s/q%d", tmpdir, i);
}

/* p after its leading "./"s (and the slashes that follow each). */
static const char *no_dot_slash(const char *p)
{
	while (p[0] == '.' && p[1] == '/')
		for (p += 2; *p == '/'; p++)
			;
	return p;
}

/* Points the dependency files the command wrote at the original sources. */
void kp_cc_fix_depfiles(const struct kp_vec *args, const struct kp_ccline *cl, char **tmp_paths, const bool *done,
                        const char *tmpdir, const struct kp_vec *include_dirs)
{
	if (!cl->dep && !cl->wp_depfile)
		return;
	struct kp_vec cand = {0};
	if (cl->mf >= 0)
		kp_vec_push(&cand, args->v[cl->mf]);
	if (cl->wp_depfile)
		kp_vec_push(&cand, cl->wp_depfile);
	const char *o = NULL;
	if (cl->output >= 0)
		o = args->v[cl->output] + (cl->output_joined ? 2 : 0);
	char buf[PATH_MAX * 2];
	if (o) {
		char *stem = kp_cc_strip_suffix(o);
		snprintf(buf, sizeof buf, "%s.d", stem);
		kp_vec_push(&cand, buf);
		for (int i = 0; i < cl->n_c; i++) {
			char *s = kp_cc_strip_suffix(kp_base_name(args->v[cl->c_inputs[i]]));
			snprintf(buf, sizeof buf, "%s-%s.d", o, s);
			kp_vec_push(&cand, buf);
			free(s);
		}
		free(stem);
	}
	for (int i = 0; i < cl->n_c; i++) {
		char *s = kp_cc_strip_suffix(kp_base_name(args->v[cl->c_inputs[i]]));
		snprintf(buf, sizeof buf, "%s.d", s);
		kp_vec_push(&cand, buf);
		free(s);
	}
	for (int i = 0; i < cl->n_c; i++) {
		if (!done[i])
			continue;
		/* the source and the headers found through its quote_link, as
		 * the original compile names them: without their leading "./"s
		 * (gcc and clang drop them from dependency files: "./q.c" is
		 * q.c, "./r.h" is r.h, and so is "r.h" beside "./q.c") */
		char *esc = make_escape(no_dot_slash(args->v[cl->c_inputs[i]]));
		for (int j = 0; j < cand.n; j++)
			replace_in_file(cand.v[j], tmp_paths[i], esc);
		free(esc);
		char link[PATH_MAX + 32], dot[PATH_MAX + 40], *pre = kp_cc_dir_prefix(args->v[cl->c_inputs[i]]);
		kp_cc_quote_link_path(link, sizeof link - 1, tmpdir, i);
		strcat(link, "/");
		const char *lead = no_dot_slash(pre);
		if (!*lead) {
			snprintf(dot, sizeof dot, "%s./", link);
			for (int j = 0; j < cand.n; j++)
				replace_in_file(cand.v[j], dot, link);
		}
		esc = make_escape(lead);
		for (int j = 0; j < cand.n; j++)
			replace_in_file(cand.v[j], link, esc);
		free(esc);
		free(pre);
		/* instrumented header copies (KPATH_INCLUDE_DIR): the originals */
		for (int k = 0; k < include_dirs->n; k++) {
			char from[PATH_MAX + 64], to[PATH_MAX + 2];
			int dl = (int)(kp_base_name(tmp_paths[i]) - tmp_paths[i]);
			if (include_dirs->n > 1)
				snprintf(from, sizeof from, "%.*skpath-include/%d/", dl, tmp_paths[i], k);
			else
				snprintf(from, sizeof from, "%.*skpath-include/", dl, tmp_paths[i]);
			char *d = make_escape(include_dirs->v[k]);
			snprintf(to, sizeof to, "%s/", d);
			free(d);
			for (int j = 0; j < cand.n; j++)
				replace_in_file(cand.v[j], from, to);
		}
	}
	kp_vec_free(&cand);
}
