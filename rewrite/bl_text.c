/* bl_text.c: a Ball-Larus register's code for one edge as C text, for the
 * forms that write it next to a register of their own (ppp_form.c,
 * overlap_form.c): what an edge adds to the register, and the ID an end
 * reports.  Constants above 2^63 are written as subtractions, so the text
 * reads as the arithmetic the numbering did. */
#include <inttypes.h>
#include <stdint.h>

#include "cfg.h"
#include "placement.h"
#include "rewrite.h"
#include "strbuf.h"

#define U64(v) rw_u64((char[RW_U64_MAX]){0}, (v))

void rw_put_bl_end(struct sb *b, const char *reg, const struct bl_code *c)
{
	if (!c->end_rel)
		sb_printf(b, "%s", U64(c->end));
	else if (c->end == 0)
		sb_printf(b, "%s", reg);
	else if (c->end > UINT64_MAX / 2)
		sb_printf(b, "(%s - %s)", reg, U64(0 - c->end));
	else
		sb_printf(b, "(%s + %s)", reg, U64(c->end));
}

void rw_put_bl_upd(struct sb *b, const char *reg, const struct bl_code *c)
{
	if (b->n)
		sb_printf(b, ", ");
	if (c->upd == BL_UPD_SET)
		sb_printf(b, "%s = %s", reg, U64(c->val));
	else if (c->val > UINT64_MAX / 2)
		sb_printf(b, "%s -= %s", reg, U64(0 - c->val));
	else
		sb_printf(b, "%s += %s", reg, U64(c->val));
}

void rw_put_bl_descriptor(struct sb *b, const struct rw_file *f, const char *p, const char *name, unsigned line,
                          const struct cfg *g, const struct bl_dag *d, uint64_t num_paths)
{
	sb_printf(b, "static const unsigned %slines_%s[] = {", p, name);
	for (uint32_t i = 0; i < g->nblocks; i++)
		sb_printf(b, "%s%u", i ? ", " : "", g->blocks[i].line);
	sb_printf(b, "};\nstatic const unsigned %slast_lines_%s[] = {", p, name);
	for (uint32_t i = 0; i < g->nblocks; i++)
		sb_printf(b, "%s%u", i ? ", " : "", g->blocks[i].last_line);
	sb_printf(b, "};\nstatic const struct kpath_rt_edge %sedges_%s[] = {", p, name);
	for (uint32_t i = 0; i < d->nedges; i++)
		sb_printf(b, "%s{%u, %u, %s}", i ? ", " : "", d->edges[i].src, d->edges[i].dst, U64(d->edges[i].val));
	sb_printf(b, "%s};\nstatic struct kpath_rt_func %sfn_%s = {KPATH_RT_ABI, ", d->nedges ? "" : "{0, 0, 0}", p, name);
	sb_put_cstr(b, name);
	sb_printf(b, ", ");
	sb_put_cstr(b, f->src_name);
	sb_printf(b, ", %u, \"%016" PRIx64 "\", %s, %u, %slines_%s, %u, %sedges_%s, 0, 0, %slast_lines_%s, ", line,
	          bl_checksum(g, d), U64(num_paths), g->nblocks, p, name, d->nedges, p, name, p, name);
	if (f->src_hash[0])
		sb_printf(b, "\"%s\"};\n", f->src_hash);
	else
		sb_printf(b, "0};\n");
}
