/*
 * modes.c: the table of profiling modes (modes.h) and the checks of the
 * mode options common to kpath instrument and kpath instrument -p.
 */
#include <stdio.h>
#include <string.h>

#include "modes.h"

/* The first entry is the default mode.  A new mode is one more entry
 * (and its file). */
static const struct kp_mode_ops *const kp_modes[] = {&kp_mode_kipf, &kp_mode_kiter, &kp_mode_ppp, &kp_mode_overlap};
#define NMODES (sizeof kp_modes / sizeof kp_modes[0])

/* "kipf (the default), kiter or ppp" */
static void mode_list(FILE *f)
{
	for (size_t i = 0; i < NMODES; i++)
		fprintf(f, "%s%s%s", i == 0 ? "" : i + 1 == NMODES ? " or " : ", ", kp_modes[i]->name,
		        i == 0 ? " (the default)" : "");
}

bool kp_mode_select(const struct kp_mode_args *a, struct kp_mode_run *run)
{
	run->mode = NULL;
	run->state = NULL;
	const struct kp_mode_ops *sel = kp_modes[0];
	if (a->mode) {
		sel = NULL;
		for (size_t i = 0; i < NMODES && !sel; i++)
			if (!strcmp(a->mode, kp_modes[i]->name))
				sel = kp_modes[i];
		if (!sel) {
			fprintf(stderr, "kpath instrument: --mode '%s': expected ", a->mode);
			mode_list(stderr);
			fputc('\n', stderr);
			return false;
		}
	}
	for (size_t i = 0; i < NMODES; i++) {
		void *st = NULL;
		if (!kp_modes[i]->args(a, kp_modes[i] == sel, &st)) {
			kp_mode_run_free(run);
			return false;
		}
		if (kp_modes[i] == sel) {
			run->mode = sel;
			run->state = st;
		}
	}
	return true;
}

void kp_mode_run_free(struct kp_mode_run *run)
{
	if (run->mode && run->mode->free)
		run->mode->free(run->state);
	run->mode = NULL;
	run->state = NULL;
}
