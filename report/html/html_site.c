/*
 * html_site.c: the output directory is never half-written.
 *
 * Every page is written into a fresh directory made with mkdtemp beside DIR
 * (same parent, so the final rename stays on one file system).  Only when
 * all of it is written and closed does it take DIR's place:
 *  - DIR absent or an empty directory: rename(tmp, DIR);
 *  - DIR an earlier site (it holds the marker file .kpath-html): DIR is
 *    renamed aside, tmp renamed to DIR, then the old site removed;
 *  - anything else (a file, a directory with other contents) is refused
 *    before anything is written, so kpath never deletes what it did not
 *    make.
 * On failure the temporary directory is removed.  A site is flat (no
 * subdirectories), which is what remove_flat relies on.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "html_int.h"

#define SITE_MARKER ".kpath-html"

extern const unsigned char kp_html_asset_kpath_css[];
extern const size_t kp_html_asset_kpath_css_len;
extern const unsigned char kp_html_asset_kpath_js[];
extern const size_t kp_html_asset_kpath_js_len;

/* Removes the files of a flat directory, then the directory. */
static void remove_flat(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = strlen(dir);

	if (d) {
		while ((e = readdir(d)) != NULL) {
			char *p;

			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			p = malloc(n + strlen(e->d_name) + 2);
			if (!p)
				continue;
			sprintf(p, "%s/%s", dir, e->d_name);
			unlink(p);
			free(p);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* 1 if dir is an empty directory, 2 if it holds the site marker, 0
 * otherwise. */
static int dir_kind(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1, marker = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		empty = 0;
		if (!strcmp(e->d_name, SITE_MARKER))
			marker = 1;
	}
	closedir(d);
	return empty ? 1 : marker ? 2 : 0;
}

static int site_open(struct html_site *s, const char *dir, char *err, size_t errlen);

/* "PARENT/.BASE.SUFFIX-XXXXXX" for mkdtemp. */
static char *sibling_template(const char *dir, const char *suffix)
{
	size_t n = strlen(dir);
	const char *slash, *base;
	char *t = malloc(n + strlen(suffix) + 16);

	if (!t)
		return NULL;
	while (n > 1 && dir[n - 1] == '/')
		n--;
	slash = NULL;
	for (size_t i = 0; i < n; i++)
		if (dir[i] == '/')
			slash = dir + i;
	base = slash ? slash + 1 : dir;
	sprintf(t, "%.*s.%.*s.%s-XXXXXX", (int)(base - dir), dir, (int)(dir + n - base), base, suffix);
	return t;
}

int html_site_open(struct html_site *s, const char *dir, char *err, size_t errlen)
{
	struct stat st;
	char *target = NULL;
	int rc;

	memset(s, 0, sizeof *s);
	/* DIR a symbolic link (to an earlier site, say): the site replaces
	 * the link's target, beside which the temporary directory is made, and
	 * the link keeps pointing at it.  (Renaming over the link itself
	 * would fail with "Is a directory".) */
	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
		if (!(target = realpath(dir, NULL))) {
			snprintf(err, errlen, "%s: a symbolic link whose target cannot be used (%s)", dir, strerror(errno));
			return -1;
		}
		dir = target;
	}
	rc = site_open(s, dir, err, errlen);
	free(target);
	return rc;
}

static int site_open(struct html_site *s, const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (stat(dir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "%s: exists and is not a directory", dir);
			return -1;
		}
		if (dir_kind(dir) == 0) {
			snprintf(err, errlen, "%s: directory is not empty and is not a kpath html site "
			         "(no %s); not replacing it", dir, SITE_MARKER);
			return -1;
		}
	} else if (errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return -1;
	}
	s->final = strdup(dir);
	s->tmp = sibling_template(dir, "tmp");
	if (!s->final || !s->tmp) {
		snprintf(err, errlen, "out of memory");
		html_site_abort(s);
		return -1;
	}
	if (!mkdtemp(s->tmp)) {
		snprintf(err, errlen, "%s: cannot create a directory beside it: %s", dir, strerror(errno));
		free(s->tmp);
		s->tmp = NULL;
		html_site_abort(s);
		return -1;
	}
	/* mkdtemp makes it 0700; a site is meant to be shared like any output */
	{
		mode_t mask = umask(0);

		umask(mask);
		chmod(s->tmp, 0777 & ~mask);
	}
	return 0;
}

FILE *html_site_create(struct html_site *s, const char *name, char *err, size_t errlen)
{
	char *p = malloc(strlen(s->tmp) + strlen(name) + 2);
	FILE *f;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	sprintf(p, "%s/%s", s->tmp, name);
	f = fopen(p, "w");
	if (!f)
		snprintf(err, errlen, "%s: %s", p, strerror(errno));
	free(p);
	return f;
}

int html_site_close(FILE *f, const char *name, char *err, size_t errlen)
{
	int bad = ferror(f);
	int e = errno;

	if (fclose(f) != 0 || bad) {
		snprintf(err, errlen, "%s: write error: %s", name, strerror(bad ? e : errno));
		return -1;
	}
	return 0;
}

static int write_blob(struct html_site *s, const char *name, const void *data, size_t n, char *err, size_t errlen)
{
	FILE *f = html_site_create(s, name, err, errlen);

	if (!f)
		return -1;
	fwrite(data, 1, n, f);
	return html_site_close(f, name, err, errlen);
}

int html_site_assets(struct html_site *s, char *err, size_t errlen)
{
	static const char marker[] = "This directory was written by kpath html; "
	                             "kpath html replaces it as a whole.\n";

	if (write_blob(s, "kpath.css", kp_html_asset_kpath_css, kp_html_asset_kpath_css_len, err, errlen) < 0 ||
	    write_blob(s, "kpath.js", kp_html_asset_kpath_js, kp_html_asset_kpath_js_len, err, errlen) < 0 ||
	    write_blob(s, SITE_MARKER, marker, sizeof marker - 1, err, errlen) < 0)
		return -1;
	return 0;
}

int html_site_commit(struct html_site *s, char *err, size_t errlen)
{
	char *old = NULL;
	int kind;
	struct stat st;

	if (stat(s->final, &st) == 0) {
		kind = dir_kind(s->final);
		if (kind == 0) {
			snprintf(err, errlen, "%s: directory is no longer empty; not replacing it", s->final);
			return -1;
		}
		if (kind == 2) {
			old = sibling_template(s->final, "old");
			if (!old || !mkdtemp(old) || rename(s->final, old) < 0) {
				snprintf(err, errlen, "%s: cannot move the old site aside: %s", s->final, strerror(errno));
				if (old)
					rmdir(old);
				free(old);
				return -1;
			}
		}
	}
	if (rename(s->tmp, s->final) < 0) {
		snprintf(err, errlen, "%s: %s", s->final, strerror(errno));
		if (old && rename(old, s->final) < 0)
			fprintf(stderr, "kpath html: the old site is left in %s\n", old);
		free(old);
		return -1;
	}
	if (old) {
		remove_flat(old);
		free(old);
	}
	free(s->tmp);
	s->tmp = NULL;
	free(s->final);
	s->final = NULL;
	return 0;
}

void html_site_abort(struct html_site *s)
{
	if (s->tmp)
		remove_flat(s->tmp);
	free(s->tmp);
	free(s->final);
	s->tmp = s->final = NULL;
}
