/* vm.c: the interpreter loop.  One switch over opcodes; arithmetic checks
 * operand types; calls push a frame whose slots start at the first argument;
 * returns drop the callee and its arguments and push the result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "vm.h"

void vm_init(struct vm *vm, struct program *prog)
{
	memset(vm, 0, sizeof *vm);
	vm->prog = prog;
	for (int i = 0; i < STK_MAX_GLOBALS; i++)
		vm->globals[i] = v_nil();
	for (int i = 0; i < builtin_count(); i++) {
		vm->globals[i].t = V_BUILTIN;
		vm->globals[i].u.bi = i;
	}
}

void vm_free(struct vm *vm)
{
	free(vm->out);
	vm->out = NULL;
	vm->outlen = vm->outcap = 0;
}

void vm_error(struct vm *vm, const char *msg, const char *arg)
{
	if (vm->error[0])
		return;
	snprintf(vm->error, sizeof vm->error, msg, arg ? arg : "");
	if (vm->nframes > 0) {
		struct frame *fr = &vm->frames[vm->nframes - 1];
		int at = fr->ip > 0 ? fr->ip - 1 : 0;
		vm->error_line = fr->fn->chunk.lines[at];
	}
}

void vm_write(struct vm *vm, const char *s, size_t n)
{
	while (vm->outlen + n + 1 > vm->outcap) {
		vm->outcap = vm->outcap ? vm->outcap * 2 : 256;
		vm->out = xrealloc(vm->out, vm->outcap);
	}
	memcpy(vm->out + vm->outlen, s, n);
	vm->outlen += n;
	vm->out[vm->outlen] = 0;
}

static int push(struct vm *vm, struct value v)
{
	if (vm->sp == STK_STACK_MAX) {
		vm_error(vm, "stack overflow%s", NULL);
		return 0;
	}
	vm->stack[vm->sp++] = v;
	if (vm->sp > vm->stats.max_stack)
		vm->stats.max_stack = vm->sp;
	return 1;
}

static struct value pop(struct vm *vm)
{
	return vm->stack[--vm->sp];
}

static struct value peek(struct vm *vm, int back)
{
	return vm->stack[vm->sp - 1 - back];
}

static int read16(struct frame *fr)
{
	int v = (fr->fn->chunk.code[fr->ip] << 8) | fr->fn->chunk.code[fr->ip + 1];
	fr->ip += 2;
	return v;
}

static int arith(struct vm *vm, enum op o)
{
	struct value b = pop(vm), a = pop(vm);
	if (o == OP_ADD && (a.t == V_STR || b.t == V_STR))
		return push(vm, v_str(str_concat(value_to_str(a), value_to_str(b))));
	if (o == OP_ADD && a.t == V_ARR && b.t == V_ARR) {
		struct arr *r = arr_new(a.u.a->n + b.u.a->n);
		for (int i = 0; i < a.u.a->n; i++)
			arr_push(r, a.u.a->items[i]);
		for (int i = 0; i < b.u.a->n; i++)
			arr_push(r, b.u.a->items[i]);
		return push(vm, v_arr(r));
	}
	if (a.t != V_INT || b.t != V_INT) {
		vm_error(vm, "arithmetic on %s", a.t != V_INT ? value_type_name(a) : value_type_name(b));
		return 0;
	}
	long long x = a.u.i, y = b.u.i, r;
	switch (o) {
	case OP_ADD:
		r = x + y;
		break;
	case OP_SUB:
		r = x - y;
		break;
	case OP_MUL:
		r = x * y;
		break;
	case OP_DIV:
	case OP_MOD:
		if (y == 0) {
			vm_error(vm, "division by zero%s", NULL);
			return 0;
		}
		r = o == OP_DIV ? x / y : x % y;
		break;
	default:
		r = 0;
		break;
	}
	return push(vm, v_int(r));
}

static int compare(struct vm *vm, enum op o)
{
	struct value b = pop(vm), a = pop(vm);
	if (o == OP_EQ || o == OP_NE) {
		int eq = value_equal(a, b);
		return push(vm, v_int(o == OP_EQ ? eq : !eq));
	}
	int ok;
	int c = value_compare(a, b, &ok);
	if (!ok) {
		vm_error(vm, "cannot order %s values", value_type_name(a));
		return 0;
	}
	int r;
	if (o == OP_LT)
		r = c < 0;
	else if (o == OP_LE)
		r = c <= 0;
	else if (o == OP_GT)
		r = c > 0;
	else
		r = c >= 0;
	return push(vm, v_int(r));
}

static int index_of(struct vm *vm, struct value container, struct value ix, int *out)
{
	int n;
	if (container.t == V_ARR)
		n = container.u.a->n;
	else if (container.t == V_STR)
		n = container.u.s->len;
	else {
		vm_error(vm, "cannot index a %s", value_type_name(container));
		return 0;
	}
	if (ix.t != V_INT) {
		vm_error(vm, "index is a %s, not an int", value_type_name(ix));
		return 0;
	}
	long long i = ix.u.i;
	if (i < 0)
		i += n;
	if (i < 0 || i >= n) {
		vm_error(vm, "index out of range%s", NULL);
		return 0;
	}
	*out = (int)i;
	return 1;
}

static int call(struct vm *vm, int argc)
{
	struct value callee = peek(vm, argc);
	vm->stats.calls++;
	if (callee.t == V_BUILTIN) {
		struct value result;
		if (!builtin_call(vm, callee.u.bi, argc, &vm->stack[vm->sp - argc], &result))
			return 0;
		vm->sp -= argc + 1;
		return push(vm, result);
	}
	if (callee.t != V_FN) {
		vm_error(vm, "cannot call a %s", value_type_name(callee));
		return 0;
	}
	struct function *fn = &vm->prog->funcs[callee.u.fn];
	if (argc != fn->arity) {
		vm_error(vm, "wrong number of arguments to %s", fn->name);
		return 0;
	}
	if (vm->nframes == STK_FRAMES_MAX) {
		vm_error(vm, "call stack overflow in %s", fn->name);
		return 0;
	}
	struct frame *fr = &vm->frames[vm->nframes++];
	fr->fn = fn;
	fr->ip = 0;
	fr->base = vm->sp - argc;
	if (vm->nframes > vm->stats.max_depth)
		vm->stats.max_depth = vm->nframes;
	return 1;
}

int vm_run(struct vm *vm)
{
	struct frame *fr = &vm->frames[0];
	vm->nframes = 1;
	fr->fn = &vm->prog->funcs[0];
	fr->ip = 0;
	fr->base = 0;
	vm->sp = 0;
	push(vm, v_nil()); /* the top level's callee slot */
	fr->base = 1;
	for (;;) {
		if (vm->fuel > 0 && vm->stats.instructions >= vm->fuel) {
			vm_error(vm, "instruction budget exhausted%s", NULL);
			return 0;
		}
		vm->stats.instructions++;
		struct chunk *c = &fr->fn->chunk;
		enum op o = (enum op)c->code[fr->ip++];
		int ok = 1;
		int k;
		struct value v, w;
		switch (o) {
		case OP_CONST:
			ok = push(vm, c->consts[read16(fr)]);
			break;
		case OP_NIL:
			ok = push(vm, v_nil());
			break;
		case OP_POP:
			vm->sp--;
			break;
		case OP_GETL:
			ok = push(vm, vm->stack[fr->base + c->code[fr->ip++]]);
			break;
		case OP_SETL:
			vm->stack[fr->base + c->code[fr->ip++]] = peek(vm, 0);
			break;
		case OP_GETG:
			ok = push(vm, vm->globals[read16(fr)]);
			break;
		case OP_SETG:
			vm->globals[read16(fr)] = peek(vm, 0);
			break;
		case OP_ADD:
		case OP_SUB:
		case OP_MUL:
		case OP_DIV:
		case OP_MOD:
			ok = arith(vm, o);
			break;
		case OP_NEG:
			v = pop(vm);
			if (v.t != V_INT) {
				vm_error(vm, "cannot negate a %s", value_type_name(v));
				ok = 0;
				break;
			}
			ok = push(vm, v_int(-v.u.i));
			break;
		case OP_NOT:
			v = pop(vm);
			ok = push(vm, v_int(!value_truthy(v)));
			break;
		case OP_EQ:
		case OP_NE:
		case OP_LT:
		case OP_LE:
		case OP_GT:
		case OP_GE:
			ok = compare(vm, o);
			break;
		case OP_JMP:
			k = read16(fr);
			fr->ip += k;
			break;
		case OP_JZ:
			k = read16(fr);
			if (!value_truthy(pop(vm)))
				fr->ip += k;
			break;
		case OP_JZ_KEEP:
			k = read16(fr);
			if (!value_truthy(peek(vm, 0)))
				fr->ip += k;
			else
				vm->sp--;
			break;
		case OP_JNZ_KEEP:
			k = read16(fr);
			if (value_truthy(peek(vm, 0)))
				fr->ip += k;
			else
				vm->sp--;
			break;
		case OP_LOOP:
			k = read16(fr);
			fr->ip -= k;
			break;
		case OP_CALL:
			k = c->code[fr->ip++];
			ok = call(vm, k);
			fr = &vm->frames[vm->nframes - 1];
			break;
		case OP_RET:
			v = pop(vm);
			vm->sp = fr->base - 1;
			vm->nframes--;
			if (vm->nframes == 0)
				return 1;
			fr = &vm->frames[vm->nframes - 1];
			ok = push(vm, v);
			break;
		case OP_ARRAY: {
			k = read16(fr);
			struct arr *a = arr_new(k);
			for (int i = vm->sp - k; i < vm->sp; i++)
				arr_push(a, vm->stack[i]);
			vm->sp -= k;
			ok = push(vm, v_arr(a));
			break;
		}
		case OP_INDEX: {
			int i;
			w = pop(vm);
			v = pop(vm);
			if (!index_of(vm, v, w, &i)) {
				ok = 0;
				break;
			}
			if (v.t == V_ARR)
				ok = push(vm, v.u.a->items[i]);
			else
				ok = push(vm, v_str(str_new(v.u.s->chars + i, 1)));
			break;
		}
		case OP_SETINDEX: {
			int i;
			struct value val = pop(vm);
			w = pop(vm);
			v = pop(vm);
			if (v.t != V_ARR) {
				vm_error(vm, "cannot assign into a %s", value_type_name(v));
				ok = 0;
				break;
			}
			if (!index_of(vm, v, w, &i)) {
				ok = 0;
				break;
			}
			v.u.a->items[i] = val;
			ok = push(vm, val);
			break;
		}
		case OP_INCL: {
			int slot = c->code[fr->ip++];
			int delta = (int8_t)c->code[fr->ip++];
			struct value *p = &vm->stack[fr->base + slot];
			if (p->t != V_INT) {
				vm_error(vm, "loop variable is a %s", value_type_name(*p));
				ok = 0;
				break;
			}
			p->u.i += delta;
			break;
		}
		default:
			vm_error(vm, "bad opcode%s", NULL);
			ok = 0;
			break;
		}
		if (!ok)
			return 0;
	}
}
