/*
 * jansson_stdin.c: what jansson's static library reads of stdin, inside
 * libkpath_rt.a (runtime/CMakeLists.txt).
 *
 * Debian's libjansson.a is compiled as position-dependent code (PIE): its
 * json_loadf reads the variable stdin with a PC-relative relocation, which
 * a shared library cannot have against a symbol of libc.  Its only use is
 * `input == stdin` to name the stream "<stdin>" in error messages, and the
 * runtime never reads stdin.  So the reference is renamed to this variable,
 * which is never equal to a stream the runtime passes: error messages say
 * "<stream>", and the runtime links into shared libraries (-fPIC).
 */
#include <stddef.h>

void *kp_jansson_stdin = NULL;
