/* tests/overlapmode/xfile_*.c: calls across files in --mode overlap
 * (docs/overlap-mode.md, "Calls across files"). */
#ifndef XFILE_H
#define XFILE_H
unsigned xf_leaf(unsigned x);              /* xfile_b.c */
unsigned xf_loop(unsigned x, unsigned n);  /* xfile_b.c: a loop, with a same-file site */
unsigned xf_rec(unsigned d);               /* xfile_b.c: recursive */
unsigned xf_cb(unsigned x);                /* xfile_b.c: called back from xfile_c.c and through a pointer */
unsigned xf_native(unsigned x);            /* xfile_c.c: not instrumented */
unsigned xf_scale(unsigned x);             /* xfile_a.c: called from xfile_b.c */
#endif
