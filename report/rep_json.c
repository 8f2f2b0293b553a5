/*
 * rep_json.c: the JSON form of the report (--json), schema kpath-report/1.
 *
 *   { "schema": "kpath-report/1", "profile": "loop.json",
 *     "profile_schema": "kpath-profile/1", "k": 4, "runs": 1, "dropped": 0,
 *     "functions": [
 *       { "name": "f", "file": "corpus/loop.c", "line": 12, "num_paths": 8,
 *         "invalid_paths": 0, "flow": 14, "flow_saturated": false,
 *         "paths": { "total": 3, "selected": 3, "top": [
 *           { "rank": 1, "count": 7, "share": 50.0, "id": 6,
 *             "lines": [12, 13, 15, 18] } ] },
 *         "multi": { "total": 5, "selected": 2, "top": [
 *           { "rank": 1, "count": 4, "share": 28.571428571428573,
 *             "iterations": 2, "ids": [6, 2],
 *             "lines": [[12, 13, 15], [13, 15]] } ] } } ] }
 *
 * (plus top-level "summary": functions run and the whole profile's
 * coverage, rep_summary_json; "multi_selection": "maximal" | "all", "min_iterations",
 * "sort": "count" | "length", the options that chose the multi rows; total
 * counts every recorded sequence, selected the rows the options keep.)
 * The same rows as the text form, in the same order; functions that never
 * ran are included (with empty tables), last.  share is an unrounded
 * percentage of the function's flow.  lines is null for a path the profile
 * does not decode.  Numbers above INT64_MAX (jansson's integer range) are
 * written as decimal strings, as profile.h does for IDs.
 */
#include <inttypes.h>
#include <jansson.h>

#include "rep.h"

/* Takes ownership of v; a NULL v (failed allocation) fails the set. */
static int set(json_t *o, const char *key, json_t *v)
{
	return json_object_set_new(o, key, v);
}

/* A JSON string; a path that is not UTF-8 cannot be one, so it becomes
 * "?" rather than failing the whole report. */
static json_t *jstr(const char *s)
{
	json_t *v = json_string(s);

	return v ? v : json_string("?");
}

json_t *rep_json_u64(uint64_t v)
{
	char buf[24];

	if (v <= INT64_MAX)
		return json_integer((json_int_t)v);
	snprintf(buf, sizeof buf, "%" PRIu64, v);
	return json_string(buf);
}

json_t *rep_json_lines(const struct rep_func *f, uint64_t id)
{
	const struct rep_decode *d = rep_func_lines(f, id);
	json_t *a;
	size_t i;

	if (!d)
		return json_null();
	a = json_array();
	for (i = 0; a && i < d->nlines; i++)
		if (json_array_append_new(a, json_integer(d->lines[i])) < 0) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *jrow(const struct rep_func *f, const struct rep_seq *s,
                    size_t rank)
{
	json_t *o = json_object(), *ids, *lines;
	uint32_t i;
	int e = !o;

	if (e)
		return NULL;
	e |= set(o, "rank", json_integer((json_int_t)rank));
	e |= set(o, "count", rep_json_u64(s->count));
	e |= set(o, "share", json_real(rep_share(s->count, f->flow)));
	if (s->depth == 1) {
		e |= set(o, "id", rep_json_u64(s->ids[0]));
		e |= set(o, "lines", rep_json_lines(f, s->ids[0]));
	} else {
		e |= set(o, "iterations", json_integer(s->depth));
		e |= set(o, "ids", ids = json_array());
		e |= set(o, "lines", lines = json_array());
		for (i = 0; !e && i < s->depth; i++) {
			e |= json_array_append_new(ids, rep_json_u64(s->ids[i]));
			e |= json_array_append_new(lines,
			                           rep_json_lines(f, s->ids[i]));
		}
	}
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *jtable(const struct rep_func *f, const struct rep_seq *seq,
                      size_t total, size_t n, size_t top)
{
	json_t *o = json_object(), *rows;
	size_t i, shown = rep_shown(n, top);
	int e = !o;

	if (e)
		return NULL;
	e |= set(o, "total", json_integer((json_int_t)total));
	e |= set(o, "selected", json_integer((json_int_t)n));
	e |= set(o, "top", rows = json_array());
	for (i = 0; !e && i < shown; i++)
		e |= json_array_append_new(rows, jrow(f, &seq[i], i + 1));
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *jfunc(const struct rep_func *f, size_t top)
{
	json_t *o = json_object();
	int e = !o;

	if (e)
		return NULL;
	e |= set(o, "name", jstr(f->name));
	e |= set(o, "file", jstr(f->file));
	e |= set(o, "line", json_integer(f->line));
	e |= set(o, "num_paths", rep_json_u64(f->num_paths));
	e |= set(o, "invalid_paths", rep_json_u64(f->invalid_paths));
	e |= set(o, "flow", rep_json_u64(f->flow));
	e |= set(o, "flow_saturated", json_boolean(f->flow_saturated));
	e |= set(o, "paths", jtable(f, f->single, f->nsingle, f->nsingle, top));
	e |= set(o, "multi",
	         jtable(f, f->multi, f->nmulti_all, f->nmulti, top));
	if (e) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int rep_json_render(FILE *out, const struct rep_report *r, const char *path,
                    const struct rep_func *const *funcs, size_t n,
                    const struct rep_opts *opt)
{
	size_t top = opt->top;
	json_t *root = json_object(), *fa;
	size_t i;
	int e = !root;

	if (e)
		return -1;
	e |= set(root, "schema", json_string("kpath-report/1"));
	e |= set(root, "profile", jstr(path));
	e |= set(root, "profile_schema",
	         json_string(r->schema ? r->schema : "?"));
	e |= set(root, "k", json_integer(r->k));
	e |= set(root, "runs", rep_json_u64(r->runs));
	e |= set(root, "dropped", rep_json_u64(r->dropped));
	e |= set(root, "multi_selection",
	         json_string(opt->prefixes ? "all" : "maximal"));
	e |= set(root, "min_iterations", json_integer((json_int_t)opt->min_iter));
	e |= set(root, "sort",
	         json_string(opt->sort == REP_SORT_LENGTH ? "length" : "count"));
	e |= set(root, "summary", rep_summary_json(r, path, opt->source_dir));
	e |= set(root, "functions", fa = json_array());
	for (i = 0; !e && i < n; i++)
		e |= json_array_append_new(fa, jfunc(funcs[i], top));
	if (!e)
		e = json_dumpf(root, out, JSON_INDENT(2)) < 0 ||
		    fputc('\n', out) == EOF;
	json_decref(root);
	return e || ferror(out) ? -1 : 0;
}
