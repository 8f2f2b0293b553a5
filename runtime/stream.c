/*
 * stream.c: the whole-stream consumers (struct kp_stream, kp_internal.h)
 * and the one place that calls their hooks.  The runtime's hook sites
 * (registration, thread start and end, the library's enter and item,
 * kpath_dump, fork, exit) call kp_streams_*, never a consumer by name.
 */
#include "kp_internal.h"

static const struct kp_stream *const kp_streams[] = { &kp_stream_trace, &kp_stream_wpp };
#define NSTREAMS (sizeof kp_streams / sizeof kp_streams[0])

/* Calls HOOK(ARGS) on every stream that has it. */
#define EACH(hook, args) \
	do { \
		for (unsigned i_ = 0; i_ < NSTREAMS; i_++) \
			if (kp_streams[i_]->hook) \
				kp_streams[i_]->hook args; \
	} while (0)

void kp_streams_open(void) { EACH(open, ()); }
void kp_streams_func(const struct kpath_rt_func *f, uint32_t index) { EACH(func, (f, index)); }
void kp_streams_thread_new(struct kp_thread *th) { EACH(thread_new, (th)); }
void kp_streams_thread_free(struct kp_thread *th) { EACH(thread_free, (th)); }
void kp_streams_enter(struct kp_thread *th, uint32_t index, struct kp_cursor *c) { EACH(enter, (th, index, c)); }
void kp_streams_flush(struct kp_thread *th) { EACH(flush, (th)); }
void kp_streams_thread_end(struct kp_thread *th) { EACH(thread_end, (th)); }
void kp_streams_fork_child(struct kp_thread *self) { EACH(fork_child, (self)); }
void kp_streams_write_locked(void) { EACH(write_locked, ()); }
void kp_streams_sync(void) { EACH(sync, ()); }
void kp_streams_close(void) { EACH(close, ()); }

void kp_streams_item(struct kp_thread *th, int kind, uint32_t index, const struct kp_cursor *c, uint64_t id)
{
	EACH(item, (th, kind, index, c, id));
}
