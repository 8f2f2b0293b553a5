/*
 * abi_prog.c: a program "instrumented by hand" against kpath_rt.h: fixed
 * descriptors (abi_desc.h), enter/emit/leave including recursion, an
 * invalid ID, 4 threads running the same function, a function registered
 * but never called, and kpath_rt_count (valid and invalid IDs, 5 threads).  With argument "dump" it calls kpath_dump() halfway; with "dump_exit",
 * after the first loop(), then ends with _exit (as dash ends every process).
 */
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "abi_desc.h"

static struct kpath_rt_func loop_f = ABI_FUNC("loop", 10, loop_lines, "00000000000000a1");
static struct kpath_rt_func rec_f = ABI_FUNC("rec", 30, rec_lines, "00000000000000b2");
static struct kpath_rt_func work_f = ABI_FUNC("work", 50, work_lines, "00000000000000c3");
static struct kpath_rt_func never_f = ABI_FUNC("never", 70, never_lines, "00000000000000d4");
static struct kpath_rt_func leaf_f = ABI_FUNC("leaf", 90, leaf_lines, "00000000000000e5");

static void loop(void)
{
	struct kpath_rt_cursor c;
	size_t n = sizeof S_LOOP / sizeof *S_LOOP;
	kpath_rt_enter(&loop_f, &c);
	for (size_t i = 0; i + 1 < n; i++)
		kpath_rt_emit(&c, S_LOOP[i]);
	kpath_rt_leave(&c, S_LOOP[n - 1]);
}

static void rec(int d)
{
	struct kpath_rt_cursor c;
	kpath_rt_enter(&rec_f, &c);
	kpath_rt_emit(&c, S_REC[0]);
	if (d > 0)
		rec(d - 1);
	kpath_rt_emit(&c, S_REC[1]);
	kpath_rt_emit(&c, 99);
	kpath_rt_leave(&c, S_REC[2]);
}

static void never(void)
{
	struct kpath_rt_cursor c;
	kpath_rt_enter(&never_f, &c);
	kpath_rt_leave(&c, 0);
}

static void work(int t)
{
	struct kpath_rt_cursor c;
	const kpath_rt_u64 *s = S_WORK[t % 2];
	kpath_rt_enter(&work_f, &c);
	for (int i = 0; i < 6; i++)
		kpath_rt_emit(&c, s[i]);
	kpath_rt_leave(&c, s[6]);
}

/* An acyclic function's whole activation: its one path. */
static void leaf(kpath_rt_u64 id)
{
	kpath_rt_count(&leaf_f, id, 8);
}

static void *thread_main(void *arg)
{
	int t = (int)(long)arg;
	for (int i = 0; i < WORK_CALLS; i++) {
		work(t);
		leaf(S_LEAF[t % 4][0]);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int dump = argc > 1 && strcmp(argv[1], "dump") == 0;
	pthread_t th[NTHREADS];
	kpath_rt_register(&never_f);
	loop();
	if (dump)
		kpath_dump();
	if (argc > 1 && strcmp(argv[1], "dump_exit") == 0) {
		kpath_dump();
		_exit(0);
	}
	for (long t = 0; t < NTHREADS; t++)
		pthread_create(&th[t], NULL, thread_main, (void *)t);
	rec(REC_D);
	for (int r = 0; r < LEAF_REPS; r++) {
		for (int i = 0; i < 4; i++)
			leaf(S_LEAF[i][0]);
		leaf(99);
	}
	for (int i = 1; i < LOOP_CALLS; i++) {
		loop();
		if (dump && i == 1)
			kpath_dump();
	}
	for (int t = 0; t < NTHREADS; t++)
		pthread_join(th[t], NULL);
	if (argc > 2)
		never(); /* not reached in the tests */
	return 0;
}
