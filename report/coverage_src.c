/*
 * coverage_src.c: which lines of a source hold code, so that coverage
 * counts no blank, comment-only, brace-only or preprocessor line
 * (docs/coverage.md, "Line").  Sources are read the one safe way
 * (rep_src.h): under the source root, regular files only, and only when
 * their bytes hash to the source_hash the profile recorded.
 */
#include <stdio.h>
#include <stdlib.h>

#include "coverage.h"
#include "rep_src.h"
#include "report.h"

/* Which lines of a source hold code: not blank, not only comments and
 * braces, not a preprocessor directive (C11 6.4.9 comments, 6.10 directives; string and
 * character literals are skipped so that a comment opener in one opens nothing). */
struct code_lines {
	unsigned char *code; /* code[l] for l in 1..n */
	uint32_t n;
};

static int scan_code_lines(const char *t, size_t len, struct code_lines *cl)
{
	enum { CODE, LINE_COMMENT, BLOCK_COMMENT, STR, CHR } st = CODE;
	uint32_t line = 1, lines = 1;
	int first = 1, directive = 0; /* first visible token of the line not yet seen */
	size_t i;

	for (i = 0; i < len; i++)
		lines += t[i] == '\n';
	cl->code = calloc((size_t)lines + 1, 1);
	if (!cl->code)
		return -1;
	cl->n = lines;
	for (i = 0; i < len; i++) {
		char c = t[i], d = i + 1 < len ? t[i + 1] : 0;
		if (c == '\n') {
			line++;
			if (st == LINE_COMMENT)
				st = CODE;
			/* a directive continues past a backslash-newline */
			if (!(directive && i > 0 && t[i - 1] == '\\')) {
				first = 1;
				directive = 0;
			}
			continue;
		}
		switch (st) {
		case LINE_COMMENT:
			break;
		case BLOCK_COMMENT:
			if (c == '*' && d == '/')
				st = CODE, i++;
			break;
		case STR:
		case CHR:
			if (c == '\\' && d != '\n')
				i++;
			else if (c == (st == STR ? '"' : '\''))
				st = CODE;
			break;
		case CODE:
			if (c == '/' && d == '/') {
				st = LINE_COMMENT;
				i++;
			} else if (c == '/' && d == '*') {
				st = BLOCK_COMMENT;
				i++;
			} else if (c != ' ' && c != '\t' && c != '\r' && c != '\f' && c != '\v') {
				if (first && c == '#')
					directive = 1;
				first = 0;
				/* braces alone compile to nothing (gcov: "-") */
				if (!directive && c != '{' && c != '}')
					cl->code[line] = 1;
				if (c == '"')
					st = STR;
				else if (c == '\'')
					st = CHR;
			}
			break;
		}
	}
	return 0;
}

static int keep_code_line(uint32_t line, void *ctx)
{
	const struct code_lines *cl = ctx;
	return line > cl->n || cl->code[line]; /* beyond the end: kept, and said */
}

size_t cov_filter_sources(struct cov_report *c, const char *source_dir, const char *cmd, FILE *err)
{
	struct rep_src_root root;
	char why[512];
	size_t i, unread = 0;

	if (rep_src_root_open(&root, source_dir, why, sizeof why) < 0) {
		if (err)
			fprintf(err, "kpath %s: warning: --source-dir %s: blank and comment lines inside blocks "
			             "are counted\n", cmd, kp_term(why));
		return c->nfiles;
	}
	for (i = 0; i < c->nfiles; i++) {
		struct cov_file *f = &c->files[i];
		struct code_lines cl = { 0 };
		char *text;
		size_t len;
		if (rep_src_read(&root, f->file, f->source_hash, &text, &len, why, sizeof why) != REP_SRC_OK) {
			if (err)
				fprintf(err, "kpath %s: warning: %s; its blank and comment lines inside blocks are "
				             "counted\n", cmd, kp_term(why));
			unread++;
			continue;
		}
		if (scan_code_lines(text, len, &cl) == 0)
			cov_filter_lines(f, keep_code_line, &cl);
		free(cl.code);
		free(text);
	}
	rep_src_root_close(&root);
	cov_total(c);
	return unread;
}
