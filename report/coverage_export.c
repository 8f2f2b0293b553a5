/*
 * coverage_export.c: a cov_report in the formats CI services and editors
 * read (docs/coverage.md, "Exports").
 *
 * lcov tracefile (geninfo(1), "TRACEFILE FORMAT"): per source file TN, SF,
 * FN/FNDA per function, BRDA per branch (taken "-" when its block never
 * ran), BRF/BRH, DA per line, LF/LH, end_of_record.
 *
 * Cobertura XML (coverage-04.dtd, tests/coverage/coverage-04.dtd): one
 * package, one class per source file with its lines; a line holding
 * branches carries branch="true" and condition-coverage "P% (covered/n)".
 * Each function is a method whose one line is its definition line, hit as
 * often as the function was entered.  Ball-Larus path figures have no
 * place in either format: they stay in the JSON.  The timestamp is 0 so
 * that equal profiles give equal files.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "coverage.h"

/* Whether block (fn, block) of f ran: some out-edge of it was taken.
 * branches is sorted by line, fn, block, index, and a block's branches
 * share a line, so they are consecutive from i. */
static int block_ran(const struct cov_file *f, size_t i)
{
	const struct cov_branch *b = &f->branches[i];
	size_t j;

	while (i > 0 && f->branches[i - 1].fn == b->fn && f->branches[i - 1].block == b->block)
		i--;
	for (j = i; j < f->nbranches && f->branches[j].fn == b->fn && f->branches[j].block == b->block; j++)
		if (f->branches[j].count)
			return 1;
	return 0;
}

/* lcov has no quoting: a name with a comma or newline would break the
 * record, so such characters are replaced. */
static void put_lcov_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ',' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

int cov_write_lcov(FILE *out, const struct cov_report *c)
{
	for (size_t i = 0; i < c->nfiles; i++) {
		const struct cov_file *f = &c->files[i];
		size_t j, blk, fnh = 0, brh = 0, lh = 0;

		fputs("TN:\nSF:", out);
		put_lcov_name(out, f->file);
		fputc('\n', out);
		for (j = 0; j < f->nfns; j++) {
			fprintf(out, "FN:%" PRIu32 ",", f->fns[j].line);
			put_lcov_name(out, f->fns[j].name);
			fputc('\n', out);
		}
		for (j = 0; j < f->nfns; j++) {
			uint64_t n = f->fns[j].entries ? f->fns[j].entries : f->fns[j].flow;
			fprintf(out, "FNDA:%" PRIu64 ",", n);
			put_lcov_name(out, f->fns[j].name);
			fputc('\n', out);
			fnh += n > 0;
		}
		fprintf(out, "FNF:%zu\nFNH:%zu\n", f->nfns, fnh);
		for (j = 0, blk = 0; j < f->nbranches; j++) {
			const struct cov_branch *b = &f->branches[j];
			/* lcov's block number: one per branching block of the file,
			 * in order (a block's branches are consecutive) */
			if (j && (b->fn != b[-1].fn || b->block != b[-1].block))
				blk++;
			fprintf(out, "BRDA:%" PRIu32 ",%zu,%" PRIu32 ",", b->line, blk, b->index);
			if (block_ran(f, j))
				fprintf(out, "%" PRIu64 "\n", b->count);
			else
				fputs("-\n", out);
			brh += b->count > 0;
		}
		fprintf(out, "BRF:%zu\nBRH:%zu\n", f->nbranches, brh);
		for (j = 0; j < f->nlines; j++) {
			fprintf(out, "DA:%" PRIu32 ",%" PRIu64 "\n", f->lines[j].line, f->lines[j].count);
			lh += f->lines[j].count > 0;
		}
		fprintf(out, "LF:%zu\nLH:%zu\nend_of_record\n", f->nlines, lh);
	}
	return ferror(out) ? -1 : 0;
}

static void put_xml(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		switch (ch) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			/* XML 1.0 allows no C0 control but tab, newline, CR */
			if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r')
				fprintf(out, "?");
			else
				fputc(ch, out);
		}
	}
}

static double rate(struct cov_counts k)
{
	return k.total ? (double)k.covered / (double)k.total : 1.0;
}

/* Branches of fn in f: covered and total. */
static struct cov_counts fn_branches(const struct cov_file *f, uint32_t fn)
{
	struct cov_counts k = { 0, 0 };
	for (size_t i = 0; i < f->nbranches; i++)
		if (f->branches[i].fn == fn) {
			k.total++;
			k.covered += f->branches[i].count > 0;
		}
	return k;
}

static void put_class(FILE *out, const struct cov_file *f)
{
	size_t j, b = 0;

	fputs("    <class name=\"", out);
	put_xml(out, f->file);
	fputs("\" filename=\"", out);
	put_xml(out, f->file);
	fprintf(out, "\" line-rate=\"%.6f\" branch-rate=\"%.6f\" complexity=\"0\">\n     <methods>\n",
	        rate(f->line), rate(f->branch));
	for (j = 0; j < f->nfns; j++) {
		const struct cov_fn *fn = &f->fns[j];
		uint64_t hits = fn->entries ? fn->entries : fn->flow;
		fputs("      <method name=\"", out);
		put_xml(out, fn->name);
		fprintf(out, "\" signature=\"\" line-rate=\"%s\" branch-rate=\"%.6f\" complexity=\"0\">\n"
		             "       <lines><line number=\"%" PRIu32 "\" hits=\"%" PRIu64 "\"/></lines>\n"
		             "      </method>\n",
		        hits ? "1.0" : "0.0", rate(fn_branches(f, (uint32_t)j)), fn->line, hits);
	}
	fputs("     </methods>\n     <lines>\n", out);
	for (j = 0; j < f->nlines; j++) {
		const struct cov_line *l = &f->lines[j];
		size_t n = 0, hit = 0;
		while (b < f->nbranches && f->branches[b].line < l->line)
			b++; /* a branch on a line not counted: in the totals only */
		for (; b < f->nbranches && f->branches[b].line == l->line; b++, n++)
			hit += f->branches[b].count > 0;
		fprintf(out, "      <line number=\"%" PRIu32 "\" hits=\"%" PRIu64 "\"", l->line, l->count);
		if (n)
			fprintf(out, " branch=\"true\" condition-coverage=\"%zu%% (%zu/%zu)\">\n"
			             "       <conditions><condition number=\"0\" type=\"jump\" coverage=\"%zu%%\"/>"
			             "</conditions>\n      </line>\n",
			        hit * 100 / n, hit, n, hit * 100 / n);
		else
			fputs(" branch=\"false\"/>\n", out);
	}
	fputs("     </lines>\n    </class>\n", out);
}

int cov_write_cobertura(FILE *out, const struct cov_report *c, const char *source_root)
{
	fprintf(out, "<?xml version=\"1.0\" ?>\n"
	             "<!DOCTYPE coverage SYSTEM \"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
	             "<coverage line-rate=\"%.6f\" branch-rate=\"%.6f\" lines-covered=\"%" PRIu64
	             "\" lines-valid=\"%" PRIu64 "\" branches-covered=\"%" PRIu64 "\" branches-valid=\"%" PRIu64
	             "\" complexity=\"0\" version=\"kpath\" timestamp=\"0\">\n <sources>\n  <source>",
	        rate(c->line), rate(c->branch), c->line.covered, c->line.total, c->branch.covered, c->branch.total);
	put_xml(out, source_root);
	fprintf(out, "</source>\n </sources>\n <packages>\n  <package name=\".\" line-rate=\"%.6f\" "
	             "branch-rate=\"%.6f\" complexity=\"0\">\n   <classes>\n",
	        rate(c->line), rate(c->branch));
	for (size_t i = 0; i < c->nfiles; i++)
		put_class(out, &c->files[i]);
	fputs("   </classes>\n  </package>\n </packages>\n</coverage>\n", out);
	return ferror(out) ? -1 : 0;
}
