/*
 * rep_stale.c: the warning that a source file changed since its functions
 * were instrumented (issue: an edited source made `show` print every count
 * one line off, silently).  The profile records, per function, the hash of
 * the file's bytes (source_hash); a file on disk with another hash gets one
 * warning line naming the file and listing the functions it affects.
 */
#include <stdlib.h>
#include <string.h>

#include "rep.h"
#include "rep_src.h"
#include "report.h"

static int by_file_hash(const void *a, const void *b)
{
	const struct rep_func *x = *(const struct rep_func *const *)a, *y = *(const struct rep_func *const *)b;
	int c = strcmp(x->file, y->file);

	return c ? c : strcmp(x->source_hash, y->source_hash);
}

size_t rep_warn_changed(FILE *err, const char *cmd, const struct rep_func *const *funcs, size_t n,
                        const struct rep_src_root *root)
{
	const struct rep_func **v = malloc((n ? n : 1) * sizeof *v);
	size_t i, j, k, affected = 0;

	if (!v)
		return 0;
	memcpy(v, funcs, n * sizeof *v);
	qsort(v, n, sizeof *v, by_file_hash);
	/* v[i..j) share file and hash: one read and at most one line each */
	for (i = 0; i < n; i = j) {
		char why[1024], *text = NULL;
		size_t len;

		for (j = i + 1; j < n && !by_file_hash(&v[i], &v[j]);)
			j++;
		if (!v[i]->source_hash[0] ||
		    rep_src_read(root, v[i]->file, v[i]->source_hash, &text, &len, why, sizeof why) != REP_SRC_CHANGED) {
			free(text);
			continue;
		}
		fprintf(err, "kpath %s: warning: %s; its counts would not line up with its lines, for %zu function%s:",
		        cmd, kp_term(why), j - i, j - i == 1 ? "" : "s");
		for (k = i; k < j; k++)
			fprintf(err, " %s", kp_term(v[k]->name));
		fputc('\n', err);
		affected += j - i;
	}
	free(v);
	return affected;
}
