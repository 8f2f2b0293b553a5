/* bl_text.c: a Ball-Larus register's code for one edge as C text, for the
 * forms that write it next to a register of their own (ppp_form.c,
 * overlap_form.c): what an edge adds to the register, and the ID an end
 * reports.  Constants above 2^63 are written as subtractions, so the text
 * reads as the arithmetic the numbering did. */
#include <stdint.h>

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
