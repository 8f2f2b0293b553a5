/*
 * image_end.c: calls that replace the process's image (the exec family),
 * after which the exit handlers never run, so neither does the runtime's
 * write at exit: a process that did its work and then exec'd another
 * program (a wrapper, a shell's exec, a forked child's exec) lost its whole
 * profile.  Each such call spelled in the file is wrapped so that the
 * runtime writes first: "(kpath_rt_dump_now(), execv(p, argv))"
 * (runtime/dump.c says what it writes; an exec that fails returns to a
 * process that goes on and writes again at exit, adding what it records
 * after).  The wrap keeps the call itself a direct call.  gcov does the
 * same (gcc's __gcov_execve and friends).  daemon() too: it forks, and
 * its parent ends with _exit inside the C library, so what the process
 * recorded before it was lost (the child starts empty, as after any
 * fork).  And _exit, _Exit and quick_exit, after which the exit handlers do
 * not run either (dash ends every process with _exit: none of its 380
 * processes in hunt E wrote a profile).  Signal handlers end processes
 * with them too (they are async-signal-safe, the write is not: a handler
 * that interrupted malloc or the runtime would wait for itself), so the
 * runtime writes nothing where the thread may be running a handler (a
 * signal that has one is blocked) or is inside the library
 * (runtime/dump.c, kpath_rt_dump_now).
 *
 * Only a call whose name and parentheses are the file's own tokens is
 * wrapped: inside a macro's arguments the text may be stringified
 * (assert), and a call a macro spells has no place in the file.  The
 * callee must be the function itself, not a pointer or a macro that
 * expands to another name.
 */
#include <string.h>

#include "build_internal.h"

static const char *const image_end[] = {"execl",   "execle",   "execlp",  "execv",  "execve",     "execvp",
                                        "execvpe", "execveat", "fexecve", "daemon", "_exit", "_Exit", "quick_exit"};
static const char open_text[] = "(kpath_rt_dump_now(), ";

static bool ends_image(const char *n)
{
	for (size_t i = 0; i < sizeof image_end / sizeof *image_end; i++)
		if (!strcmp(n, image_end[i]))
			return true;
	return false;
}

void image_end_note(struct builder *b, uint32_t c)
{
	CXCursor ref = clang_getCursorReferenced(cursor_of(b, c));
	if (clang_getCursorKind(ref) != CXCursor_FunctionDecl)
		return;
	CXString s = clang_getCursorSpelling(ref);
	const char *n = clang_getCString(s);
	bool want = n && ends_image(n);
	const struct ast_node *x = want ? extent(b, c) : NULL;
	uint32_t i = x && x->s_in && x->e_in ? tok_at(b, x->s) : CFG_NONE;
	want = i != CFG_NONE && i + 1 < b->ntoks && b->toks[i].kind == CXToken_Identifier && !strcmp(b->toks[i].sp, n) &&
	       tok_is(b, i + 1, "(");
	clang_disposeString(s);
	if (!want)
		return;
	uint32_t close = match_close(b, i + 1);
	if (close == CFG_NONE || tok_end(b, close) != x->e)
		return;
	const struct fn_plan *p = b->plan;
	for (uint32_t k = 0; k < p->nsites; k++) /* check_expr may see a statement twice (setjmp_restart) */
		if (p->sites[k].kind == SITE_TEXT && p->sites[k].text == open_text && p->sites[k].off == b->toks[i].off)
			return;
	/* the innermost construct at both ends: its "(" after every other
	 * opening text at the call's start, its ")" before every closing one
	 * at its end (build.h: sites in (phase, seq) order) */
	add_text(b, b->toks[i].off, 1, open_text);
	b->plan->sites[b->plan->nsites - 1].seq = UINT32_MAX - 1;
	add_text(b, x->e, 0, ")");
	b->plan->sites[b->plan->nsites - 1].seq = 0;
}
