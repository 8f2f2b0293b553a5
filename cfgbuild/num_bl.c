/*
 * num_bl.c: Ball-Larus numbering behind the numbering seam (numbering.h).
 * The work is in dag.c (DAG, numbering, cutting) and dag_check.c (checker,
 * decoder, checksum, dump).
 */
#include "numbering.h"

static const struct num_ops ball_larus = {
	"ball-larus", bl_number, bl_decode, bl_check, bl_checksum, bl_dump,
};

const struct num_ops *num_ops_of(enum num_mode mode)
{
	switch (mode) {
	case NUM_BALL_LARUS:
		return &ball_larus;
	}
	return NULL;
}
