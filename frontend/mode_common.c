/* mode_common.c: what the modes' files share (modes.h); apart from
 * modes.c, which calls the modes, so that calls go one way. */
#include <stdio.h>

#include "modes.h"

bool kp_mode_check_refused(void)
{
	fprintf(stderr, "kpath instrument: --check is for the kipf mode only (its checking runtime replays "
	        "Ball-Larus IDs)\n");
	return false;
}
