/* frontend.h: the kpath subcommands the driver dispatches to. */
#ifndef KPATH_FRONTEND_H
#define KPATH_FRONTEND_H

/* kpath instrument: argv[0] is "instrument". Returns the exit status. */
int kp_instrument_main(int argc, char **argv);
/* kpath cfg: prints CFGs and Ball-Larus numberings (golden tests). */
int kp_cfg_main(int argc, char **argv);
/* kpath config: prints build settings for instrumented programs. */
int kp_config_main(int argc, char **argv);

#endif
