/* ts_parse: the tree-sitter-c workload of scripts/realcode-run.
 *
 * usage: ts_parse FILE...
 * Parses each FILE with tree-sitter-c's generated parser (parser.c, from the
 * npm package) on Debian's libtree-sitter runtime and prints, per file, its
 * name, the number of named nodes, whether the tree has errors, and the whole
 * tree as an S-expression.  Everything printed depends only on the input, so
 * a native and an instrumented parser must print the same bytes.
 * Exit status: 0, or 1 when a file cannot be read or parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <tree_sitter/api.h>

const TSLanguage *tree_sitter_c(void);

/* Reads a whole file into a malloc'ed buffer; NULL on failure. */
static char *slurp(const char *path, long *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (*len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)*len + 1)) != NULL && fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Named nodes under (and including) node, by a preorder walk. */
static unsigned long count_named(TSNode node)
{
	TSTreeCursor c = ts_tree_cursor_new(node);
	unsigned long n = 0;
	for (;;) {
		n += ts_node_is_named(ts_tree_cursor_current_node(&c));
		if (ts_tree_cursor_goto_first_child(&c))
			continue;
		while (!ts_tree_cursor_goto_next_sibling(&c))
			if (!ts_tree_cursor_goto_parent(&c)) {
				ts_tree_cursor_delete(&c);
				return n;
			}
	}
}

int main(int argc, char **argv)
{
	TSParser *parser = ts_parser_new();
	int status = 0;
	if (!ts_parser_set_language(parser, tree_sitter_c())) {
		fprintf(stderr, "ts_parse: language version mismatch\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		long len = 0;
		char *text = slurp(argv[i], &len);
		TSTree *tree = text ? ts_parser_parse_string(parser, NULL, text, (uint32_t)len) : NULL;
		if (!tree) {
			fprintf(stderr, "ts_parse: %s: cannot read or parse\n", argv[i]);
			free(text);
			status = 1;
			continue;
		}
		TSNode root = ts_tree_root_node(tree);
		char *sexp = ts_node_string(root);
		printf("%s: %lu named nodes, %s\n%s\n", argv[i], count_named(root),
		       ts_node_has_error(root) ? "with errors" : "no errors", sexp);
		free(sexp);
		ts_tree_delete(tree);
		free(text);
	}
	ts_parser_delete(parser);
	return status;
}
