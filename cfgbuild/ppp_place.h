/*
 * ppp_place.h: where the PPP register changes, on the spanning forest that
 * bl_place chose for the Ball-Larus register (placement.h), so both
 * registers change on the same chords (PPP paper, section 5, "Counter
 * optimizations": "we ensure that both PPP and Ball-Larus counter updates
 * occur on the same edges").
 *
 * The model is placement.h's with W(e) (ppp.h) in place of val(e): the PPP
 * register q is kept as  q = pprefix + ppot(v),  pprefix the sum of W over
 * the DAG edges taken since the path began; ppot is fixed by the same tree
 * edges (ppot(b) = ppot(a) - W(e) along each), so every tree edge is free
 * for both registers and a chord u->v adds W(e) + ppot(v) - ppot(u).  Where
 * the Ball-Larus prefix is known (p->known: one DAG path reaches u) the PPP
 * prefix is known too, and the code is written absolutely, as for r.  A
 * chord may carry code for one register and not the other (its constant is
 * 0 there); a tree edge carries none for either.
 *
 * The PPP numbering must be over ppp_dag_from_bl(d), so that W is indexed
 * like d->edges.
 */
#ifndef KPATH_PPP_PLACE_H
#define KPATH_PPP_PLACE_H

#include "placement.h"
#include "ppp.h"

struct ppp_place {
	uint32_t nblocks;
	uint64_t *pot;     /* per block: q = pprefix + pot(v) after v's start site */
	uint64_t *pot_in;  /* per block: before the start site (pot when not split) */
	uint64_t *prefix;  /* per block where p->known: the PPP prefix (mod 2^64) */
};

/* The PPP potentials for numbering n on placement p of g numbered as d (in
 * is the one given to bl_place).  Returns NULL with a reason in err when a
 * site-less edge would need a PPP increment (a cycle of site-less edges
 * whose W sum is not 0; the caller then profiles the function in plain
 * Ball-Larus mode) or out of memory. */
struct ppp_place *ppp_place_new(const struct bl_placement *p, const struct bl_place_in *in, const struct cfg *g,
                                const struct bl_dag *d, const struct ppp_numbering *n, char *err, size_t errlen);
void ppp_place_free(struct ppp_place *pp);

/* bl_code_edge and bl_code_start for the PPP register: the same edges, the
 * same shape of code (an end reports q + end or end, then q is updated). */
bool ppp_code_edge(const struct ppp_place *pp, const struct bl_placement *p, const struct cfg *g,
                   const struct bl_dag *d, const struct ppp_numbering *n, uint32_t e, struct bl_code *c);
void ppp_code_start(const struct ppp_place *pp, const struct bl_placement *p, uint32_t b, struct bl_code *c);

#endif
