/*
 * kiter_table: static number of k-iteration paths per function for
 * K = 1 .. max-K (the paper's Table 4), over C files, with kpath's own CFG
 * builder (cfgbuild/build.h) and back edges (bl_build's DFS).  Mixed mode as
 * in the paper's implementation: innermost loops at K, enclosing loops
 * acyclic.  The last column is what ki_fit makes of K = max-K under the hard
 * limit: the count and the number of loops whose K it lowered.
 *
 *   kiter_table [--max-k K] [--limit N] [--check-bl] FILE.c... [-- FLAGS]
 *
 * --check-bl: exits 1 when a function's count at K = 1 differs from
 * bl_build's numPaths(ENTRY) (compared where both count the same thing: no
 * edge cut for overflow, and no block with two back edges, for which
 * bl_build has one dummy exit and kiter one δend per back edge).
 */
#include "build.h"
#include "cfg.h"
#include "kiter.h"

#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
	const char *path;
	struct src_file *src;
	unsigned max_k;
	uint64_t limit;
	bool check_bl;
	unsigned functions, skipped, mismatches, compared;
};

/* Whether some block has two back edges: bl_build has one dummy exit per
 * block, kiter one δend per back edge, so their counts may differ. */
static bool multi_back_edges(const struct ki_graph *k)
{
	bool found = false;
	uint32_t *nback = calloc(k->nnodes, sizeof *nback);

	for (uint32_t e = 0; nback && e < k->nedges && !found; e++)
		found = k->edges[e].back && ++nback[k->edges[e].src] > 1;
	free(nback);
	return found;
}

static void print_count(uint64_t c)
{
	if (c == UINT64_MAX)
		printf(" %10s", ">2^64");
	else
		printf(" %10llu", (unsigned long long)c);
}

static void table_function(struct table *t, CXCursor fn)
{
	struct fn_plan plan;
	char err[256];
	struct bl_dag *d = NULL;
	struct ki_graph *k = NULL;
	bool multi_back;

	memset(&plan, 0, sizeof plan);
	plan.expr_branches = true;
	if (!build_function(t->src, fn, &plan)) {
		fprintf(stderr, "%s:%u: note: function '%s' skipped: %s\n", t->path, plan.line, plan.name ? plan.name : "?",
		        plan.reason);
		t->skipped++;
		goto done;
	}
	if (!(d = bl_build(plan.g, err, sizeof err)) || !(k = ki_graph_from_cfg(plan.g, d, NULL))) {
		fprintf(stderr, "%s:%u: note: function '%s' skipped: %s\n", t->path, plan.line, plan.name,
		        d ? "out of memory" : err);
		t->skipped++;
		goto done;
	}
	t->functions++;
	multi_back = multi_back_edges(k);

	struct ki_options o = { .k = 1 };
	struct ki_numbering *n;
	unsigned loops = 0, inner = 0;
	if (ki_build(k, &(struct ki_options){ .k = 2 }, &n, err, sizeof err) == KI_OK) {
		loops = n->nloops;
		for (uint32_t l = 0; l < n->nloops; l++)
			inner += n->loops[l].k == 2;
		ki_free(n);
	}
	printf("%-24s %5u %3u/%-3u", plan.name, plan.line, inner, loops);
	uint64_t bl = ki_count(k, &o);
	print_count(bl);
	for (unsigned K = 2; K <= t->max_k; K++) {
		o.k = K;
		print_count(ki_count(k, &o));
	}
	unsigned *k_out = malloc(k->nnodes * sizeof *k_out), lowered = 0;
	o.k = t->max_k;
	o.limit = t->limit;
	uint64_t fit = k_out ? ki_fit(k, &o, k_out) : UINT64_MAX;
	/* a loop is lowered when ki_fit chose less than the K it could keep */
	if (k_out && fit != UINT64_MAX &&
	    ki_build(k, &(struct ki_options){ .k = t->max_k }, &n, err, sizeof err) == KI_OK) {
		for (uint32_t l = 0; l < n->nloops; l++)
			lowered += k_out[n->loops[l].head] < n->loops[l].k;
		ki_free(n);
	}
	free(k_out);
	if (fit == UINT64_MAX)
		printf(" %10s (Ball-Larus over the limit)\n", "none");
	else
		printf(" %10llu (%u lowered)\n", (unsigned long long)fit, lowered);

	if (t->check_bl && !d->ncut && !multi_back)
		t->compared++;
	if (t->check_bl && !d->ncut && !multi_back && bl != d->num_paths[CFG_ENTRY]) {
		fprintf(stderr, "%s:%u: error: function '%s': %llu paths at K = 1, bl_build has %llu\n", t->path, plan.line,
		        plan.name, (unsigned long long)bl, (unsigned long long)d->num_paths[CFG_ENTRY]);
		t->mismatches++;
	}
done:
	ki_graph_free(k);
	if (d)
		bl_free(d);
	build_plan_free(&plan);
}

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data)
{
	struct table *t = data;
	CXFile f;

	(void)parent;
	if (clang_getCursorKind(c) != CXCursor_FunctionDecl || !clang_isCursorDefinition(c))
		return CXChildVisit_Continue;
	clang_getExpansionLocation(clang_getCursorLocation(c), &f, NULL, NULL, NULL);
	if (f && clang_File_isEqual(f, t->src->file))
		table_function(t, c);
	return CXChildVisit_Continue;
}

static int table_file(struct table *t, const char *path, const char **flags, int nflags)
{
	CXIndex index = clang_createIndex(0, 0);
	CXTranslationUnit tu = NULL;
	struct src_file src;
	int status = 0;

	memset(&src, 0, sizeof src);
	if (clang_parseTranslationUnit2(index, path, flags, nflags, NULL, 0, CXTranslationUnit_DetailedPreprocessingRecord,
	                                &tu) != CXError_Success ||
	    !tu) {
		fprintf(stderr, "kiter_table: error: %s: libclang could not parse the file\n", path);
		status = 1;
		goto done;
	}
	src.path = path;
	src.file = clang_getFile(tu, path);
	src.tu = tu;
	src.text = src.file ? clang_getFileContents(tu, src.file, &src.len) : NULL;
	if (!src.text || !src_index(&src)) {
		fprintf(stderr, "kiter_table: error: cannot read '%s'\n", path);
		status = 1;
		goto done;
	}
	t->path = path;
	t->src = &src;
	printf("%s\n%-24s %5s %7s %10s", path, "function", "line", "inner/L", "K=1 (BL)");
	for (unsigned K = 2; K <= t->max_k; K++)
		printf("        K=%u", K);
	printf("     fit(K=%u, <= %llu)\n", t->max_k, (unsigned long long)t->limit);
	clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, t);
	src_free(&src);
done:
	if (tu)
		clang_disposeTranslationUnit(tu);
	clang_disposeIndex(index);
	return status;
}

int main(int argc, char **argv)
{
	struct table t = { .max_k = 5, .limit = 60000 };
	const char **files = calloc((size_t)argc, sizeof *files), **flags = NULL;
	int nfiles = 0, nflags = 0, status = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			flags = (const char **)argv + i + 1;
			nflags = argc - i - 1;
			break;
		} else if (!strcmp(argv[i], "--max-k") && i + 1 < argc) {
			t.max_k = (unsigned)strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--limit") && i + 1 < argc) {
			t.limit = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--check-bl")) {
			t.check_bl = true;
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "kiter_table: unknown option '%s'\n", argv[i]);
			return 2;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (!nfiles || t.max_k < 1 || t.max_k > KI_MAX_K || !t.limit) {
		fputs("usage: kiter_table [--max-k K] [--limit N] [--check-bl] FILE.c... [-- FLAGS]\n", stderr);
		return 2;
	}
	for (int f = 0; f < nfiles; f++)
		status |= table_file(&t, files[f], flags, nflags);
	free(files);
	printf("%u functions, %u skipped\n", t.functions, t.skipped);
	if (t.check_bl)
		printf("%u functions compared with bl_build at K = 1, %u differ\n", t.compared, t.mismatches);
	if (t.check_bl && !t.compared) {
		fprintf(stderr, "kiter_table: --check-bl compared nothing\n");
		status = 1;
	}
	if (t.mismatches) {
		fprintf(stderr, "kiter_table: %u functions differ from bl_build at K = 1\n", t.mismatches);
		status = 1;
	}
	return status;
}
