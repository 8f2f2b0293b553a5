/* builtins.h: functions every program can call (print, len, push, ...). */
#ifndef STK_BUILTINS_H
#define STK_BUILTINS_H

#include "value.h"

struct vm;

int builtin_count(void);
const char *builtin_name(int i);
/* Calls builtin i with argc arguments; 1 on success (result in *out), 0
 * with vm's error set. */
int builtin_call(struct vm *vm, int i, int argc, struct value *args, struct value *out);

#endif
