/*
 * zstd_run.c: the workload of zstd in scripts/realcode-run.  For each file
 * named: one-shot compression at several levels (each strategy from fast
 * to btultra2), streaming compression with small buffers, a checksum and
 * long-distance matching, two worker threads, and a raw-content
 * dictionary; every frame is decompressed again (one-shot and streaming)
 * and must give the input back.  Prints sizes and an FNV-1a hash of each
 * frame, so instrumented and native builds must print the same bytes.
 * usage: zstd_run FILE...
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zstd.h"

static unsigned long long fnv(const void *p, size_t n)
{
	const unsigned char *s = p;
	unsigned long long h = 14695981039346656037ull;
	while (n--)
		h = (h ^ *s++) * 1099511628211ull;
	return h;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "zstd_run: out of memory\n");
		exit(2);
	}
	return p;
}

static void check(size_t r, const char *what)
{
	if (ZSTD_isError(r)) {
		printf("%s: error %s\n", what, ZSTD_getErrorName(r));
		exit(1);
	}
}

/* The frame [z, zn) must decompress to [in, n), one-shot and streaming. */
static void round_trip(const char *what, const void *in, size_t n, const void *z, size_t zn, const ZSTD_DDict *dd)
{
	char *out = xmalloc(n);
	ZSTD_DCtx *d = ZSTD_createDCtx();
	size_t r = dd ? ZSTD_decompress_usingDDict(d, out, n, z, zn, dd) : ZSTD_decompressDCtx(d, out, n, z, zn);
	check(r, what);
	if (r != n || memcmp(out, in, n)) {
		printf("%s: one-shot round trip differs\n", what);
		exit(1);
	}
	memset(out, 0, n);
	ZSTD_DCtx_reset(d, ZSTD_reset_session_and_parameters);
	if (dd)
		check(ZSTD_DCtx_refDDict(d, dd), what);
	ZSTD_inBuffer ib = {z, 0, 0};
	ZSTD_outBuffer ob = {out, 0, 0};
	size_t more = 1;
	while (more && ib.pos < zn) { /* 97-byte input and 301-byte output steps */
		ib.size = ib.pos + 97 < zn ? ib.pos + 97 : zn;
		ob.size = ob.pos + 301 < n ? ob.pos + 301 : n;
		more = ZSTD_decompressStream(d, &ob, &ib);
		check(more, what);
	}
	while (more) {
		ob.size = ob.pos + 301 < n ? ob.pos + 301 : n;
		size_t before = ob.pos;
		more = ZSTD_decompressStream(d, &ob, &ib);
		check(more, what);
		if (ob.pos == before && more)
			break;
	}
	if (ob.pos != n || memcmp(out, in, n)) {
		printf("%s: streaming round trip differs\n", what);
		exit(1);
	}
	ZSTD_freeDCtx(d);
	free(out);
}

static void report(const char *name, const char *what, const void *in, size_t n, const void *z, size_t zn,
                   const ZSTD_DDict *dd)
{
	round_trip(what, in, n, z, zn, dd);
	printf("%s %s: %zu -> %zu bytes, frame %016llx\n", name, what, n, zn, fnv(z, zn));
}

/* Streaming compression of in with cctx's parameters, in steps of 1000
 * bytes of input and 257 bytes of output. */
static size_t stream(ZSTD_CCtx *c, const char *in, size_t n, char *z, size_t cap)
{
	ZSTD_inBuffer ib = {in, 0, 0};
	ZSTD_outBuffer ob = {z, 0, 0};
	size_t left;
	do {
		ib.size = ib.pos + 1000 < n ? ib.pos + 1000 : n;
		ob.size = ob.pos + 257 < cap ? ob.pos + 257 : cap;
		left = ZSTD_compressStream2(c, &ob, &ib, ib.size == n ? ZSTD_e_end : ZSTD_e_continue);
		check(left, "stream");
	} while (ib.pos < n || left);
	return ob.pos;
}

static void one_file(const char *path)
{
	static const int levels[] = {-5, 1, 3, 5, 7, 12, 16, 19, 22};
	const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	FILE *f = fopen(path, "rb");
	if (!f) {
		printf("%s: cannot open\n", name);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	size_t n = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	char *in = xmalloc(n);
	if (fread(in, 1, n, f) != n) {
		printf("%s: short read\n", name);
		exit(1);
	}
	fclose(f);
	size_t cap = ZSTD_compressBound(n);
	char *z = xmalloc(cap), what[64];
	ZSTD_CCtx *c = ZSTD_createCCtx();
	for (size_t i = 0; i < sizeof levels / sizeof *levels; i++) {
		size_t zn = ZSTD_compressCCtx(c, z, cap, in, n, levels[i]);
		check(zn, "compress");
		snprintf(what, sizeof what, "level %d", levels[i]);
		report(name, what, in, n, z, zn, NULL);
	}
	ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
	check(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 6), "param");
	check(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1), "param");
	check(ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1), "param");
	report(name, "stream ldm checksum", in, n, z, stream(c, in, n, z, cap), NULL);
	ZSTD_CCtx_reset(c, ZSTD_reset_session_and_parameters);
	check(ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 4), "param");
	check(ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, 2), "param");
	check(ZSTD_CCtx_setParameter(c, ZSTD_c_jobSize, 1 << 20), "param");
	report(name, "two workers", in, n, z, stream(c, in, n, z, cap), NULL);
	/* a raw-content dictionary: the file's first 4 KiB */
	size_t dn = n < 4096 ? n : 4096;
	ZSTD_CDict *cd = ZSTD_createCDict(in, dn, 9);
	ZSTD_DDict *dd = ZSTD_createDDict(in, dn);
	size_t zn = ZSTD_compress_usingCDict(c, z, cap, in, n, cd);
	check(zn, "dict");
	report(name, "dictionary", in, n, z, zn, dd);
	ZSTD_freeCDict(cd);
	ZSTD_freeDDict(dd);
	ZSTD_freeCCtx(c);
	free(z);
	free(in);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		one_file(argv[i]);
	return 0;
}
