/* common.h: shared types of the "stk" interpreter (a tiny language compiled
 * to bytecode for a stack machine). */
#ifndef STK_COMMON_H
#define STK_COMMON_H

#include <stddef.h>
#include <stdint.h>

#define STK_MAX_NAME 32
#define STK_MAX_LOCALS 64
#define STK_MAX_GLOBALS 256
#define STK_MAX_FUNCS 128
#define STK_STACK_MAX 4096
#define STK_FRAMES_MAX 256

/* Never returns NULL: exits on exhaustion. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrndup(const char *s, size_t n);

#endif
