/*
 * cfg.h: the control-flow graph of one function, and the Ball-Larus DAG and
 * numbering built from it.
 *
 * Graphs are dense arrays referred to by uint32_t ids, CFG_NONE as the
 * sentinel.  Block 0 is the virtual ENTRY, block 1 the virtual EXIT; the
 * function's real blocks follow.  Out-edges of a block are ordered by
 * (order, id): the Ball-Larus numbering gives val 0 to the first one, so the
 * builder puts first the edge whose source site is the most awkward to
 * instrument (a loop's exit edge, a switch's default).
 *
 * The CFG knows nothing of libclang or of source text: an edge's insertion
 * site is an opaque index into the rewriter's site table (CFG_NONE when the
 * edge has no site of its own, such as a switch dispatch into a case label
 * that is also reached by fall-through; such an edge is always an edge of
 * the placement's spanning forest, so it carries no code, and it can never
 * be cut).
 */
#ifndef KPATH_CFG_H
#define KPATH_CFG_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#define CFG_NONE UINT32_MAX
#define CFG_ENTRY 0u
#define CFG_EXIT 1u

/*
 * Invariant (kept by cfgbuild/blocks.c and its callers): when line != 0, the lines
 * [line, last_line] hold code of this block, and no line strictly inside the
 * range holds code of another block (a nested then/else/body, a case or a
 * label, the operand block of &&, || or ?:).  The first and last line may be
 * shared with neighbours ("if (c) x();" puts two blocks on one line).  Where
 * a block's code is not contiguous in the source, the range is cut short (a
 * smaller range, never a wrong one).  last_line == line for a block whose
 * extent is unknown.
 */
struct cfg_block {
	unsigned line;      /* first source line of the block, 0 if none */
	unsigned last_line; /* last source line of the block, >= line (0 if line is 0) */
};

struct cfg_edge {
	uint32_t src, dst;
	uint32_t order; /* out-edge order key, see above */
	uint32_t site;  /* rewriter's site of this edge, CFG_NONE if none */
	bool can_cut;   /* an emit may be placed on this edge (own site, not in an expression that forbids it) */
	bool force_cut; /* always cut (an edge into a setjmp call: a path must start there) */
};

struct cfg {
	struct cfg_block *blocks;
	uint32_t nblocks, cap_blocks;
	struct cfg_edge *edges;
	uint32_t nedges, cap_edges;
};

/* A new CFG holding ENTRY and EXIT only. */
struct cfg *cfg_new(void);
void cfg_free(struct cfg *g);
/* Returns the new block's id. */
uint32_t cfg_add_block(struct cfg *g, unsigned line);
/* Returns the new edge's id. */
uint32_t cfg_add_edge(struct cfg *g, uint32_t src, uint32_t dst, uint32_t order, uint32_t site, bool can_cut);

/*
 * The Ball-Larus DAG (Ball & Larus 1996; k-BLPP paper, "Ball-Larus Path
 * Tracing Algorithm"): the CFG without its back edges (retreating edges of a
 * DFS from ENTRY that follows out-edges in (order, id) order) and cut edges,
 * plus for each such edge v->w the dummy edges ENTRY->w and v->EXIT, one per
 * distinct w and per distinct v.  Blocks unreachable from ENTRY, and blocks
 * from which EXIT is unreachable in the DAG, take part in no path.
 */
enum bl_edge_kind {
	BL_EDGE_CFG,         /* a forward edge of the CFG */
	BL_EDGE_DUMMY_ENTRY, /* ENTRY->w for a back or cut edge into w */
	BL_EDGE_DUMMY_EXIT,  /* v->EXIT for a back or cut edge out of v */
};

struct bl_edge {
	uint32_t src, dst;
	enum bl_edge_kind kind;
	uint32_t cfg_edge; /* the CFG edge (BL_EDGE_CFG only), else CFG_NONE */
	uint64_t val;      /* Ball-Larus val(e) */
};

enum cfg_edge_role {
	ROLE_FORWARD, /* in the DAG */
	ROLE_BACK,    /* retreating edge: emit, restart */
	ROLE_CUT,     /* cut to keep path IDs within 64 bits: emit, restart */
	ROLE_DEAD,    /* source unreachable from ENTRY */
};

struct bl_dag {
	uint32_t nblocks;
	struct bl_edge *edges;   /* grouped by src (increasing), each group by increasing val */
	uint32_t nedges;
	uint64_t *num_paths;     /* numPaths(v) per block; num_paths[CFG_ENTRY] is the function's */
	enum cfg_edge_role *role; /* per CFG edge */
	uint32_t *dummy_entry;   /* per block w: index in edges of ENTRY->w, or CFG_NONE */
	uint32_t *dummy_exit;    /* per block v: index in edges of v->EXIT, or CFG_NONE */
	uint32_t ncut;           /* number of edges cut for overflow */
	uint32_t *dfs_pre;       /* per block: DFS discovery index, CFG_NONE if unreached */
	uint32_t *dfs_post;      /* per block: DFS postorder index, CFG_NONE if unreached; x is a
	                            DFS descendant of w iff pre(w) <= pre(x) and post(x) <= post(w) */
};

/*
 * Builds and numbers the DAG of g (bl_path_numbering of the k-BLPP paper,
 * out-edges in (order, id) order).  Path counts are uint64_t; when
 * numPaths(ENTRY) would exceed UINT64_MAX, further edges with can_cut set are
 * cut (treated like back edges) until every ID fits.
 * Returns NULL and writes a reason into err when no numbering exists: a
 * back edge that cannot be cut (can_cut false), or an overflow no cut fixes.
 */
struct bl_dag *bl_build(const struct cfg *g, char *err, size_t errlen);
void bl_free(struct bl_dag *d);

/*
 * bl_build as its two stages, for drivers that show or check each one
 * (cfgbuild/stages.h):
 * bl_backedges: the DFS from ENTRY and each CFG edge's role (forward, back,
 *   dead; forced cuts), with dfs_pre and dfs_post.  The DAG is empty
 *   (nedges 0, every numPaths 0).  NULL with a reason on malformed edges or
 *   a back edge that cannot be cut.
 * bl_number: into a d from bl_backedges, the DAG's edges (dummies
 *   included), the Ball-Larus numbering and, on overflow, the cuts (roles
 *   become ROLE_CUT).  False with a reason when no numbering exists; d must
 *   then only be freed.
 */
struct bl_dag *bl_backedges(const struct cfg *g, char *err, size_t errlen);
bool bl_number(const struct cfg *g, struct bl_dag *d, char *err, size_t errlen);

/* Checker for tests and debug builds: enumerates every ENTRY->EXIT path of
 * the DAG (when there are at most limit) and verifies the IDs are exactly
 * [0, numPaths(ENTRY)).  Returns true when consistent. */
bool bl_check(const struct bl_dag *d, uint64_t limit, char *err, size_t errlen);

/* Decodes a path ID into the blocks it visits, ENTRY and EXIT included.
 * Writes at most cap block ids into out; returns the number of blocks, or 0
 * when id >= numPaths(ENTRY). */
uint32_t bl_decode(const struct bl_dag *d, uint64_t id, uint32_t *out, uint32_t cap);

/* FNV-1a 64 over blocks (lines), CFG edges (ends, roles) and DAG vals: two
 * builds share a checksum only when their path IDs decode identically. */
uint64_t bl_checksum(const struct cfg *g, const struct bl_dag *d);

/* Text dump of the CFG, roles and DAG numbering (golden files). */
void bl_dump(FILE *out, const struct cfg *g, const struct bl_dag *d);
/* Pieces of the dumps (no newline): a role ("forward"), a block ("ENTRY",
 * "b7"), CFG edge i ("  e3 b2 -> b4"), a DAG edge ("  ENTRY -> b3
 * dummy-entry", "  b2 -> b4 cfg e3"). */
const char *bl_role_name(enum cfg_edge_role r);
void bl_dump_block(FILE *out, uint32_t v);
void bl_dump_cfg_edge(FILE *out, const struct cfg *g, uint32_t i);
void bl_dump_dag_edge(FILE *out, const struct bl_edge *b);

#endif
