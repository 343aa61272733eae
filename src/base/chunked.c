/*
 * chunked.c - see chunked.h.
 */
#include <sys/mman.h>

#include "base/chunked.h"
#include "base/sys.h"

/* LeakSanitizer sees no pointer kept in memory mapped by a raw system call: a chunk holding
 * the only pointer to a malloc'd string would make it a leak. Chunks are roots for it. */
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define LSAN_ROOT(p, n) __lsan_register_root_region(p, n)
#define LSAN_UNROOT(p, n) __lsan_unregister_root_region(p, n)
#else
#define LSAN_ROOT(p, n) ((void)(p), (void)(n))
#define LSAN_UNROOT(p, n) ((void)(p), (void)(n))
#endif

int tt_chunked_reserve(struct tt_chunked *t, uint64_t n, size_t size)
{
	uint64_t c, last = n ? (n - 1) >> TT_CHUNK_BITS : 0;

	if (n == 0)
		return 0;
	if (last >= TT_CHUNK_DIR)
		return -1;
	for (c = 0; c <= last; c++) {
		void *p;

		/* Asked with a write (an add of 0, which readers never see): the directory's page,
		 * never touched before the first reserve, is then faulted in once, writable, where a
		 * read would map the zero page and the store below fault again to copy it. */
		if (__atomic_fetch_add((uintptr_t *)(void *)&t->chunk[c], 0, __ATOMIC_RELAXED))
			continue;
		p = tt_sys_mmap(NULL, (size_t)TT_CHUNK_LEN * size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (!p)
			return -1;
		LSAN_ROOT(p, (size_t)TT_CHUNK_LEN * size);
		/* Its first page written now, before anyone reads it: one fault, where a first
		 * read (the zero page) and then a first write would take two. */
		*(volatile char *)p = 0;
		__atomic_store_n(&t->chunk[c], p, __ATOMIC_RELEASE);
	}
	return 0;
}

void tt_chunked_release(struct tt_chunked *t, size_t size)
{
	uint32_t c;

	for (c = 0; c < TT_CHUNK_DIR; c++) {
		if (!t->chunk[c])
			continue;
		LSAN_UNROOT(t->chunk[c], (size_t)TT_CHUNK_LEN * size);
		tt_sys_munmap(t->chunk[c], (size_t)TT_CHUNK_LEN * size);
		t->chunk[c] = NULL;
	}
}
