/*
 * blocks.c: sites, blocks and edges of the CFG being built, and each block's
 * line range [line, last_line].
 *
 * Invariant (cfg.h): a block's range only grows through extend(), with the
 * position of code that follows the block's earlier code with no other
 * block's code in between: a smaller range, never a wrong one.
 */
#include "build_internal.h"
#include "array.h"

#include <string.h>

/* --- sites, blocks, edges ------------------------------------------------- */

uint32_t add_site(struct builder *b, enum site_kind kind, uint32_t off, int phase)
{
	struct fn_plan *p = b->plan;
	KP_RESERVE(p->sites, p->cap_sites, p->nsites + 1);
	struct site *s = &p->sites[p->nsites];
	memset(s, 0, sizeof *s);
	s->kind = kind;
	s->off = off;
	s->phase = (uint8_t)phase;
	s->seq = b->seq++;
	s->partner = CFG_NONE;
	s->edge_true = s->edge_false = CFG_NONE;
	return p->nsites++;
}

void add_text(struct builder *b, uint32_t off, int phase, const char *text)
{
	uint32_t s = add_site(b, SITE_TEXT, off, phase);
	b->plan->sites[s].text = text;
}

uint32_t new_block(struct builder *b, unsigned line)
{
	struct fn_plan *p = b->plan;
	uint32_t id = cfg_add_block(p->g, line);
	if (id >= p->cap_block_start) { /* two arrays, one capacity */
		uint32_t old = p->cap_block_start;
		p->block_start = kp_array_grow(p->block_start, old, id + 1, sizeof *p->block_start);
		p->restart = kp_array_grow(p->restart, old, id + 1, sizeof *p->restart);
		p->cap_block_start = kp_array_cap(old, id + 1);
		for (uint32_t i = old; i < p->cap_block_start; i++) {
			p->block_start[i] = CFG_NONE;
			p->restart[i] = false;
		}
	}
	return id;
}

uint32_t edge(struct builder *b, uint32_t src, uint32_t dst, uint32_t order, uint32_t site)
{
	return cfg_add_edge(b->plan->g, src, dst, order, site, site != CFG_NONE);
}

/* An edge whose site is a statement-context insertion at off. */
uint32_t edge_stmt(struct builder *b, uint32_t src, uint32_t dst, uint32_t order, uint32_t off, int phase)
{
	return edge(b, src, dst, order, add_site(b, SITE_STMT, off, phase));
}

/* --- line ranges of blocks -------------------------------------------------
 *
 * Every block gets [line, last_line] (invariant in cfg.h).  The first line is
 * set where the block is made or at its first statement (touch); the range
 * grows only through extend(), called with the position of code that comes
 * right after the block's earlier code in the source, with no other block's
 * code in between: a statement start (touch), the end of a statement or a
 * condition that made no block of its own (the callers compare nblocks, so
 * a statement whose && / || / ?: split it extends nothing past its start).
 */

/* Sets block blk's first line, and its last line with it. */
void set_line(struct builder *b, uint32_t blk, unsigned line)
{
	struct cfg_block *bl = &b->plan->g->blocks[blk];
	bl->line = line;
	bl->last_line = line;
}

/* The code of block blk reaches the line holding off. */
static void extend(struct builder *b, uint32_t blk, uint32_t off)
{
	if (blk == CFG_NONE)
		return;
	struct cfg_block *bl = &b->plan->g->blocks[blk];
	unsigned l = offset_line(b, off);
	if (bl->line != 0 && l > bl->last_line)
		bl->last_line = l;
}

/* Offset of the last character of c's text when c ends in the file (a
 * construct ending in a macro invocation: the invocation's start, a
 * smaller range), or CFG_NONE. */
static uint32_t code_end(struct builder *b, uint32_t c)
{
	const struct ast_node *x = extent(b, c);
	if (!x->e_in || x->e == 0)
		return CFG_NONE;
	return x->e - 1;
}

/* Extends blk to the end of c, if c's code lies in blk alone: no block was
 * made since there were nblocks0. */
void extend_to_end(struct builder *b, uint32_t blk, uint32_t nblocks0, uint32_t c)
{
	if (b->plan->g->nblocks != nblocks0)
		return;
	uint32_t e = code_end(b, c);
	if (e != CFG_NONE)
		extend(b, blk, e);
}

/* Gives the current block a first line if it has none yet, else extends it
 * to the statement starting at off. */
void touch(struct builder *b, uint32_t off)
{
	if (b->cur == CFG_NONE) {
		/* unreachable code after a jump: a block of its own, no predecessors */
		b->cur = new_block(b, offset_line(b, off));
		return;
	}
	if (b->plan->g->blocks[b->cur].line == 0)
		set_line(b, b->cur, offset_line(b, off));
	else
		extend(b, b->cur, off);
}
