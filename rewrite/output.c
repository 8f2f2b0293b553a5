/*
 * output.c: the instrumented file as a whole.
 *
 *   preamble   the runtime ABI header (kpath_rt.h, verbatim; in check mode
 *              preceded by #define KPATH_RT_NO_INLINE, so that emit and
 *              leave are calls into checkrt.c), the fall-through marker
 *              where one is used, and each function's static descriptor,
 *              defined before the functions that refer to it (a tentative
 *              definition first would be two definitions in C++);
 *   #line 1    the original text with the edits applied; no edit contains a
 *              newline, so every original line keeps its number and compiler
 *              messages and debuggers point at the original file;
 *   tail       under a #line naming the output file: a constructor (where
 *              the compiler has them) that registers all descriptors at
 *              start-up.
 * Every part compiles without a warning of its own under strict flag sets
 * (docs/instrumented-code.md, "Strict flags").
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rewrite.h"
#include "array.h"
#include "xalloc.h"
#include "strbuf.h"

extern const char kp_rt_header_text[];

/* Check mode (kpath instrument --check, for kpath's own tests): the ABI of
 * tests/check/checkrt.c, which replays every CFG edge taken and verifies the
 * path IDs the instrumented code computes. */
static const char check_decls[] =
	"struct kpath_chk_edge { unsigned src, dst; unsigned char role, siteless, restart;"
	" kpath_rt_u64 val, dexit, dentry; };\n"
	"void kpath_chk_enter(struct kpath_rt_cursor *c, const struct kpath_chk_edge *t, unsigned n, unsigned entry);\n"
	"void kpath_chk_acyclic(struct kpath_rt_func *f, struct kpath_rt_cursor *c, const struct kpath_chk_edge *t,"
	" unsigned n, unsigned entry);\n"
	"void kpath_chk_edge(struct kpath_rt_cursor *c, unsigned e);\n"
	"void kpath_chk_block(struct kpath_rt_cursor *c, unsigned b);\n";

/* sep (when i > 0), then v as rw_u64 writes it: an element of a table. */
static void put_elem(struct sb *b, uint32_t i, const char *sep, uint64_t v)
{
	char t[RW_U64_MAX];
	if (i)
		sb_put(b, sep, strlen(sep));
	rw_u64(t, v);
	sb_put(b, t, strlen(t));
}

char *rw_u64(char *buf, uint64_t v)
{
	char t[24];
	size_t n = 0;
	bool small = v <= 2147483647u;
	do
		t[sizeof t - ++n] = (char)('0' + v % 10);
	while (v /= 10);
	if (small) {
		memcpy(buf, t + sizeof t - n, n);
		buf[n] = 0;
	} else {
		memcpy(buf, "KPATH_RT_C(", 11);
		memcpy(buf + 11, t + sizeof t - n, n);
		memcpy(buf + 11 + n, ")", 2);
	}
	return buf;
}

void rw_file_init(struct rw_file *f, const char *prefix, const char *src_name, bool check)
{
	memset(f, 0, sizeof *f);
	f->prefix = prefix;
	f->src_name = src_name;
	f->check = check;
}

void rw_source_hash(const char *text, size_t len, char out[17])
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64 */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
	snprintf(out, 17, "%016" PRIx64, h);
}

void rw_file_free(struct rw_file *f)
{
	for (uint32_t i = 0; i < f->nedits; i++)
		free(f->edits[i].text);
	for (uint32_t i = 0; i < f->ndescs; i++) {
		if (f->check)
			free(f->check_tables[i]);
		free(f->descs[i]);
		free(f->desc_names[i]);
	}
	free(f->edits);
	free(f->descs);
	free(f->desc_names);
	free(f->check_tables);
	free(f->preamble_extra);
	free(f->tail_extra);
	memset(f, 0, sizeof *f);
}

void rw_insert(struct rw_file *f, uint32_t off, const char *text)
{
	KP_RESERVE(f->edits, f->cap_edits, f->nedits + 1);
	f->edits[f->nedits] = (struct rw_edit){off, 1, 0x80000000u + f->nedits, xstrdup(text)};
	f->nedits++;
}

void rw_reserve_descriptor(struct rw_file *f)
{
	if (f->ndescs < f->cap_descs)
		return;
	f->descs = kp_array_grow(f->descs, f->cap_descs, f->ndescs + 1, sizeof *f->descs);
	f->desc_names = kp_array_grow(f->desc_names, f->cap_descs, f->ndescs + 1, sizeof *f->desc_names);
	f->check_tables = kp_array_grow(f->check_tables, f->cap_descs, f->ndescs + 1, sizeof *f->check_tables);
	f->cap_descs = kp_array_cap(f->cap_descs, f->ndescs + 1);
}

void rw_adopt_descriptors(struct rw_file *dst, struct rw_file *src)
{
	for (uint32_t i = 0; i < src->ndescs; i++) {
		rw_reserve_descriptor(dst);
		dst->check_tables[dst->ndescs] = src->check ? src->check_tables[i] : NULL;
		dst->descs[dst->ndescs] = src->descs[i];
		dst->desc_names[dst->ndescs++] = src->desc_names[i];
	}
	src->ndescs = 0;
	dst->fallthrough |= src->fallthrough;
}

/* The tables a profile needs to decode this function's path IDs (see
 * struct kpath_rt_func in kpath_rt.h). */
char *rw_descriptor(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d);
char *rw_descriptor(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d)
{
	struct sb b = {0};
	const char *p = f->prefix, *n = plan->name;
	sb_printf(&b, "static const unsigned %slines_%s[] = {", p, n);
	for (uint32_t i = 0; i < plan->g->nblocks; i++)
		put_elem(&b, i, ", ", plan->g->blocks[i].line);
	sb_printf(&b, "};\nstatic const unsigned %slast_lines_%s[] = {", p, n);
	for (uint32_t i = 0; i < plan->g->nblocks; i++)
		put_elem(&b, i, ", ", plan->g->blocks[i].last_line);
	sb_printf(&b, "};\nstatic const struct kpath_rt_edge %sedges_%s[] = {", p, n);
	for (uint32_t i = 0; i < d->nedges; i++) {
		sb_put(&b, i ? ", {" : "{", i ? 3 : 1); /* "{src, dst, val}" */
		put_elem(&b, 0, "", d->edges[i].src);
		put_elem(&b, 1, ", ", d->edges[i].dst);
		put_elem(&b, 1, ", ", d->edges[i].val);
		sb_put(&b, "}", 1);
	}
	if (d->nedges == 0)
		sb_put(&b, "{0, 0, 0}", 9);
	sb_printf(&b, "};\nstatic struct kpath_rt_func %sfn_%s = {KPATH_RT_ABI, ", p, n);
	sb_put_cstr(&b, n);
	sb_put(&b, ", ", 2);
	sb_put_cstr(&b, f->src_name);
	char np[RW_U64_MAX];
	sb_printf(&b, ", %u, \"%016" PRIx64 "\", %s, %u, %slines_%s, %u, %sedges_%s, 0, 0, %slast_lines_%s, ",
	     plan->line, bl_checksum(plan->g, d), rw_u64(np, d->num_paths[CFG_ENTRY]), plan->g->nblocks, p, n,
	     d->nedges, p, n, p, n);
	if (f->src_hash[0])
		sb_printf(&b, "\"%s\"};\n", f->src_hash);
	else
		sb_put(&b, "0};\n", 4);
	return b.s;
}

/* Check mode: per CFG edge its ends, role, whether it has no site, and the
 * Ball-Larus values a replay needs (val; for back and cut edges the vals of
 * the dummy edges v->EXIT and ENTRY->w; for an edge out of a setjmp block,
 * restart set and dentry the val of ENTRY->block). */
char *rw_check_table(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d,
                     const uint64_t *edge_val);
char *rw_check_table(const struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *d,
                     const uint64_t *edge_val)
{
	struct sb b = {0};
	const struct cfg *g = plan->g;
	sb_printf(&b, "static const struct kpath_chk_edge %schk_%s[] = {", f->prefix, plan->name);
	for (uint32_t e = 0; e < g->nedges; e++) {
		const struct cfg_edge *ce = &g->edges[e];
		uint64_t dx = 0, dn = 0;
		bool restart = plan->restart && ce->src < plan->cap_block_start && plan->restart[ce->src];
		if (d->role[e] == ROLE_BACK || d->role[e] == ROLE_CUT) {
			dx = d->edges[d->dummy_exit[ce->src]].val;
			dn = d->edges[d->dummy_entry[ce->dst]].val;
		} else if (restart && d->dummy_entry[ce->src] != CFG_NONE) {
			dn = d->edges[d->dummy_entry[ce->src]].val; /* the register's value at the block */
		}
		char v[3][RW_U64_MAX];
		sb_printf(&b, "%s{%u, %u, %d, %d, %d, %s, %s, %s}", e ? ", " : "", ce->src, ce->dst, (int)d->role[e],
		     ce->site == CFG_NONE, restart, rw_u64(v[0], edge_val[e]), rw_u64(v[1], dx), rw_u64(v[2], dn));
	}
	sb_put(&b, "};\n", 3);
	return b.s;
}

static int edit_cmp(const void *a, const void *b)
{
	const struct rw_edit *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static unsigned count_lines(const struct sb *b)
{
	unsigned n = 0;
	for (size_t i = 0; i < b->n; i++)
		n += b->s[i] == '\n';
	return n;
}

static void put_edited(struct sb *bp, const struct rw_file *f, const char *text, size_t len);

/* The length of the UTF-8 byte-order mark text starts with, or 0.  A BOM
 * is only one at the very start of a file: the output starts with it, and
 * put_edited leaves it out of the original text it copies (no edit lies
 * inside it: edits are at tokens). */
static size_t bom_len(const char *text, size_t len)
{
	return len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
}

/* A file that includes itself (libiberty's regex.c, to compile its
 * matcher twice) includes its instrumented copy, which has the same name:
 * the descriptors and the constructor are guarded by macros named after
 * the source, so they are defined once per translation unit, and each
 * guard is tested once after its definition so that -Wunused-macros does
 * not count it as unused. */
static void open_guard(struct sb *b, const struct rw_file *f, const char *what)
{
	uint32_t h = 2166136261u; /* FNV-1a of the source's name */
	for (const char *s = f->src_name; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	sb_printf(b, "#ifndef %s%s_%08" PRIx32 "\n#define %s%s_%08" PRIx32 "\n#if defined(%s%s_%08" PRIx32 ")\n#endif\n",
	     f->prefix, what, h, f->prefix, what, h, f->prefix, what, h);
}

char *rw_render(const struct rw_file *f, const char *text, size_t len, const char *out_name)
{
	struct sb b = {0};
	/* room for all of it at once: the text, the edits, the descriptors */
	size_t need = len + strlen(kp_rt_header_text) + 65536;
	for (uint32_t i = 0; i < f->nedits; i++)
		need += strlen(f->edits[i].text);
	for (uint32_t i = 0; i < f->ndescs; i++)
		need += strlen(f->descs[i]) + 2 * strlen(f->desc_names[i]) + 64 +
		        (f->check ? strlen(f->check_tables[i]) : 0);
	sb_reserve(&b, need);
	sb_put(&b, text, bom_len(text, len));
	sb_printf(&b, "/* Instrumented by kpath from %s: Ball-Larus path register %sr, cursor %sc. */\n", f->src_name,
	     f->prefix, f->prefix);
	/* Check mode links with checkrt.c, which implements emit/leave as
	 * calls: the header's inline half must not be used. */
	if (f->check)
		sb_put(&b, "#define KPATH_RT_NO_INLINE 1\n", 29);
	sb_put(&b, kp_rt_header_text, strlen(kp_rt_header_text));
	/* The inserted code is made of comma expressions ("(r = 1, 1)",
	 * "ret = (v), leave(...), ret"), each of which clang's -Wcomma
	 * (-Weverything) would report in the program's text; the program's
	 * own commas are reported by its native build. */
	sb_str(&b, "#if defined(__clang__)\n#pragma clang diagnostic ignored \"-Wcomma\"\n#endif\n");
	/* only where it is used: -Wunused-macros */
	if (f->fallthrough)
		sb_printf(&b, "#if defined(__has_attribute)\n#if __has_attribute(fallthrough)\n"
		         "#define %sfallthrough __attribute__((fallthrough))\n#endif\n#endif\n"
		         "#ifndef %sfallthrough\n#define %sfallthrough do { } while (0)\n#endif\n",
		     f->prefix, f->prefix, f->prefix);
	/* the descriptors before the functions that use them: a tentative
	 * definition here and the definition in the tail would be two
	 * definitions in C++ (-Wc++-compat) */
	open_guard(&b, f, "descriptors");
	for (uint32_t i = 0; i < f->ndescs; i++)
		sb_put(&b, f->descs[i], strlen(f->descs[i]));
	if (f->check) {
		sb_put(&b, check_decls, strlen(check_decls));
		for (uint32_t i = 0; i < f->ndescs; i++)
			sb_put(&b, f->check_tables[i], strlen(f->check_tables[i]));
	}
	if (f->preamble_extra)
		sb_put(&b, f->preamble_extra, strlen(f->preamble_extra));
	sb_put(&b, "#endif\n", 7);
	sb_put(&b, "#line 1 ", 8);
	sb_put_cstr(&b, f->src_name);
	sb_put(&b, "\n", 1);
	put_edited(&b, f, text, len);

	sb_printf(&b, "#line %u ", count_lines(&b) + 2);
	sb_put_cstr(&b, out_name);
	sb_put(&b, "\n", 1);
	open_guard(&b, f, "tail");
	if (f->tail_extra)
		sb_put(&b, f->tail_extra, strlen(f->tail_extra));
	if (f->ndescs) {
		sb_printf(&b, "#if defined(__GNUC__) || defined(__clang__)\n"
		         "__attribute__((constructor, no_instrument_function)) static void %sregister_all(void)\n{\n",
		     f->prefix);
		for (uint32_t i = 0; i < f->ndescs; i++)
			sb_printf(&b, "\tkpath_rt_register(&%s);\n", f->desc_names[i]);
		sb_put(&b, "}\n#endif\n", 9);
	}
	sb_put(&b, "#endif\n", 7);
	return b.s;
}

char *rw_render_header(const struct rw_file *f, const char *text, size_t len, const char *line_name,
                       const char *preamble)
{
	struct sb b = {0};
	sb_put(&b, text, bom_len(text, len));
	if (preamble)
		sb_put(&b, preamble, strlen(preamble));
	sb_printf(&b, "#line 1 %s\n", line_name);
	put_edited(&b, f, text, len);
	return b.s;
}

/* The text with f's edits applied, in (offset, phase, seq) order; ends with
 * a newline. */
static void put_edited(struct sb *bp, const struct rw_file *f, const char *text, size_t len)
{
	struct sb b = *bp;
	struct rw_edit *e = malloc((f->nedits + 1) * sizeof *e);
	if (!e) {
		fprintf(stderr, "kpath: out of memory\n");
		exit(1);
	}
	if (f->nedits) /* none when no function was instrumented: edits is NULL */
		memcpy(e, f->edits, f->nedits * sizeof *e);
	qsort(e, f->nedits, sizeof *e, edit_cmp);
	size_t pos = bom_len(text, len);
	for (uint32_t i = 0; i < f->nedits; i++) {
		sb_put(&b, text + pos, e[i].off - pos);
		pos = e[i].off;
		sb_put(&b, e[i].text, strlen(e[i].text));
	}
	sb_put(&b, text + pos, len - pos);
	free(e);
	if (len && text[len - 1] != '\n')
		sb_put(&b, "\n", 1);
	*bp = b;
}
