/*
 * overlap_call.h: the calls of `kpath instrument --mode overlap` (Tallam,
 * Zhang & Gupta, CGO 2004, section 3; overlap_call.c), called by
 * overlap_form.c for each function it rewrites.  docs/overlap-mode.md,
 * "Calls", is the user's side.
 */
#ifndef KPATH_OVERLAP_CALL_H
#define KPATH_OVERLAP_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "overlap.h"
#include "rewrite.h"
#include "strbuf.h"

/* One call site of the function (build.h, call_sites) kept for Type II:
 * its overlapping graph from the call block (the II-OL paths). */
struct oc_site {
	const struct call_site *cs;
	struct ol_space sp;
	struct ol_og og;
	struct ol_og_numbering nb;
};

struct ocall {
	const struct fn_plan *plan;
	const struct bl_dag *dag;
	const struct bl_placement *place;
	const struct ol_func *f;
	const char *p;
	unsigned theta;
	/* as a callee: the I-OL walk over the overlapping graph from the entry */
	bool callee;                /* its I-OL path IDs fit (callers may hand off to it) */
	struct ol_space in_sp;
	struct ol_og in_og;
	struct ol_og_numbering in_nb;
	uint32_t entry_oe;          /* the entry edge in f */
	bool read_in;               /* some edge reads the I-OL registers */
	/* as a caller */
	struct oc_site *sites;
	uint32_t nsites;
};

/* Builds the graphs of f (the function's graph in overlap_form.c, with
 * entry_oe its entry edge).  Sites whose IDs would not fit, or whose call
 * block has an out-edge without an insertion site (a switch on the call's
 * value), are left out. */
void oc_init(struct ocall *oc, const struct fn_plan *plan, const struct bl_dag *dag,
             const struct bl_placement *place, const struct ol_func *f, uint32_t entry_oe, const char *prefix,
             unsigned theta);
void oc_release(struct ocall *oc);
/* The call code of edge oe of f (before the edge's loop and Ball-Larus
 * code): the II-OL walks started on a call block's out-edges, the I-OL and
 * II-OL register steps and counts, and on an edge into EXIT the handoff of
 * the last path (c: the edge's Ball-Larus code, whose end is that path). */
void oc_edge(struct ocall *oc, struct sb *b, uint32_t oe, const struct bl_code *c);
/* The undoing of oe's register increments (overlap_form.c, movable). */
void oc_inverse(const struct ocall *oc, struct sb *b, uint32_t oe);
/* Declarations after the body's "{" (with a leading space). */
void oc_entry(struct ocall *oc, struct sb *b);
/* The handoffs around each site's callee name, the macros that make this
 * function a callee (into its descriptor text d), the site companions
 * (preamble), and into reg (the file's tail, before the constructor) the
 * key a callee with external linkage exports to callers in other files
 * and the sites' registration. */
void oc_emit(struct ocall *oc, struct rw_file *f, struct sb *d, struct sb *reg, const char *checksum);

/* Does some site's handoff read the Ball-Larus register (a prefix that
 * is not constant)? */
bool oc_reads_r(const struct ocall *oc);

#endif
