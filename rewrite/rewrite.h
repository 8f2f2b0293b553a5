/*
 * rewrite.h: turns numbered CFGs and their sites into the instrumented
 * source text: the original with insertions only, a preamble (the runtime
 * ABI header and forward declarations of the descriptors) and, at the end,
 * each function's static descriptor.
 *
 * Every generated identifier starts with the file's prefix (chosen by the
 * caller so that no identifier of the program starts with it) or with
 * "kpath_rt_" (reserved for the runtime ABI).
 */
#ifndef KPATH_REWRITE_H
#define KPATH_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "build.h"
#include "cfg.h"

struct rw_edit {
	uint32_t off;
	uint8_t phase;
	uint32_t seq;
	char *text;
};

struct rw_file {
	const char *prefix;       /* e.g. "kp_" */
	const char *src_name;     /* the original file as given: #line and descriptors */
	bool check;               /* testing aid: also report every edge to a checking runtime */
	char **check_tables;      /* check mode: per function, its edge table (preamble) */
	struct rw_edit *edits;
	uint32_t nedits, cap_edits;
	char **descs;             /* descriptor definitions, one per function */
	char **desc_names;        /* their identifiers */
	uint32_t ndescs, cap_descs;
};

void rw_file_init(struct rw_file *f, const char *prefix, const char *src_name, bool check);
void rw_file_free(struct rw_file *f);

/*
 * Places the path-register arithmetic of one function (the spanning-forest
 * placement of cfgbuild/placement.h: increments on chords only, an emit and
 * reset on each back or cut edge, the routine-entry event and the exit
 * emits) and adds its descriptor.  On failure nothing is added to f and err
 * says why.
 */
bool rw_function(struct rw_file *f, const struct fn_plan *plan, const struct bl_dag *dag,
                 char *err, size_t errlen);

/* The whole output: preamble, original text with edits, descriptors.
 * out_name is used for the #line directive of the generated tail.
 * Returns a malloc'ed NUL-terminated buffer. */
char *rw_render(const struct rw_file *f, const char *text, size_t len, const char *out_name);

#endif
