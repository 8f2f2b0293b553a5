/*
 * alloc.c: every allocation of the runtime's data structures goes through
 * here (Lua's single allocation hook), so tests can inject failures:
 * with kp_alloc_fail_every = N > 0, every N-th allocation fails.  The
 * runtime must then drop data, count it, and go on (STYLE.md, Memory).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profile_int.h"

unsigned long kp_alloc_fail_every;
static unsigned long kp_alloc_count;

static int fail_now(void)
{
	unsigned long every = __atomic_load_n(&kp_alloc_fail_every, __ATOMIC_RELAXED);
	return every && __atomic_add_fetch(&kp_alloc_count, 1, __ATOMIC_RELAXED) % every == 0;
}

void *kp_malloc(size_t n)
{
	return fail_now() ? NULL : malloc(n);
}

void *kp_calloc(size_t n, size_t m)
{
	return fail_now() ? NULL : calloc(n, m);
}

void *kp_realloc(void *p, size_t n)
{
	return fail_now() ? NULL : realloc(p, n);
}

#if defined(MAP_ANONYMOUS) && defined(MAP_NORESERVE)
void *kp_sparse_alloc(size_t n)
{
	if (fail_now() || n == 0)
		return NULL;
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

void kp_sparse_free(void *p, size_t n)
{
	if (p)
		munmap(p, n);
}

size_t kp_sparse_touched(const void *p, size_t n, unsigned char *touched, size_t cap)
{
	long ps = sysconf(_SC_PAGESIZE);
	if (ps <= 0 || (uintptr_t)p % (size_t)ps)
		return 0;
	size_t npages = (n + (size_t)ps - 1) / (size_t)ps, done = 0;
	if ((npages + 7) / 8 > cap)
		return 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	memset(touched, 0, (npages + 7) / 8);
	while (done < npages) {
		uint64_t e[512];
		size_t want = npages - done < 512 ? npages - done : 512;
		off_t at = (off_t)(((uintptr_t)p / (size_t)ps + done) * sizeof *e);
		ssize_t got = pread(fd, e, want * sizeof *e, at);
		if (got <= 0 || (size_t)got % sizeof *e) {
			close(fd);
			return 0;
		}
		for (size_t i = 0; i < (size_t)got / sizeof *e; i++)
			if (e[i] >> 62) /* present (63) or swapped (62) */
				touched[(done + i) / 8] |= (unsigned char)(1u << ((done + i) % 8));
		done += (size_t)got / sizeof *e;
	}
	close(fd);
	return (size_t)ps;
}
#else
void *kp_sparse_alloc(size_t n)
{
	return fail_now() ? NULL : calloc(n, 1);
}

void kp_sparse_free(void *p, size_t n)
{
	(void)n;
	free(p);
}

size_t kp_sparse_touched(const void *p, size_t n, unsigned char *touched, size_t cap)
{
	(void)p, (void)n, (void)touched, (void)cap;
	return 0;
}
#endif

void *kp_grow(void *arr, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;

	if (need <= *cap)
		return arr;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (elem && c > SIZE_MAX / elem)
		return NULL;
	void *p = kp_realloc(arr, c * elem);
	if (p)
		*cap = c;
	return p;
}
