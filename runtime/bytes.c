/*
 * bytes.c: the growable byte buffer the runtime's binary writers share
 * (trace.c's 'F' chunks, wpp.c's whole file), and the function descriptor
 * record both files carry (docs/trace-format.md, "F"; docs/wpp-format.md).
 *
 * Invariant: once oom is set the buffer takes nothing more, so a writer
 * puts everything and checks oom once at the end.
 */
#include <stdlib.h>
#include <string.h>

#include "kp_internal.h"

void kp_bytes_need(struct kp_bytes *b, size_t n)
{
	if (b->oom || b->len + n <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	unsigned char *p = realloc(b->p, cap);
	if (!p) {
		b->oom = 1;
		return;
	}
	b->p = p;
	b->cap = cap;
}

void kp_bytes_put(struct kp_bytes *b, const void *s, size_t n)
{
	kp_bytes_need(b, n);
	if (!b->oom && n) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

void kp_bytes_varint(struct kp_bytes *b, uint64_t v)
{
	kp_bytes_need(b, 10);
	if (!b->oom)
		b->len += kp_varint_put(b->p + b->len, v);
}

void kp_bytes_str(struct kp_bytes *b, const char *s)
{
	size_t n = strlen(s);

	kp_bytes_varint(b, n);
	kp_bytes_put(b, s, n);
}

/* The descriptor of f, function index `index` of the file: index, name,
 * file, line, checksum, paths, the blocks' first lines, the edges (src, dst,
 * val), then, when the instrumented source gave them, the blocks' last
 * lines and the source hash.  wpp/wpp_read.c reads it back. */
void kp_bytes_func_desc(struct kp_bytes *b, const struct kpath_rt_func *f, uint32_t index)
{
	kp_bytes_varint(b, index);
	kp_bytes_str(b, f->name);
	kp_bytes_str(b, f->file);
	kp_bytes_varint(b, f->line);
	kp_bytes_str(b, f->checksum);
	kp_bytes_varint(b, f->num_paths);
	kp_bytes_varint(b, f->num_blocks);
	for (unsigned i = 0; i < f->num_blocks; i++)
		kp_bytes_varint(b, f->block_line[i]);
	kp_bytes_varint(b, f->num_edges);
	for (unsigned i = 0; i < f->num_edges; i++) {
		kp_bytes_varint(b, f->edges[i].src);
		kp_bytes_varint(b, f->edges[i].dst);
		kp_bytes_varint(b, f->edges[i].val);
	}
	if (f->block_last_line) {
		for (unsigned i = 0; i < f->num_blocks; i++)
			kp_bytes_varint(b, f->block_last_line[i]);
		if (f->source_hash)
			kp_bytes_str(b, f->source_hash);
	}
}
