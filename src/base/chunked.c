/*
 * chunked.c - see chunked.h.
 */
#include <stdbool.h>
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

/*
 * Chunks are carved from one reservation while it lasts, then mapped one by one: a short
 * process gets the first chunks of its tables (entries, words, stubs, pool pages: ~20 MiB of
 * address space, touched a page at a time) with one mmap instead of one each. Lock-free:
 * tables of different owners may grow at once. A chunk released (tt_chunked_release) is
 * unmapped where it lies; its range is not carved again.
 */
#define ARENA_BYTES (32ul << 20)
#define ARENA_NONE ((char *)-1) /* the reservation could not be made */

static char *arena;
static size_t arena_used;

static void *chunk_map(size_t len)
{
	char *a = __atomic_load_n(&arena, __ATOMIC_ACQUIRE), *expected = NULL;
	size_t at;

	len = (len + 4095) & ~(size_t)4095;
	if (!a) {
		a = tt_sys_mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (!a)
			a = ARENA_NONE;
		if (!__atomic_compare_exchange_n(&arena, &expected, a, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE)) {
			if (a != ARENA_NONE)
				tt_sys_munmap(a, ARENA_BYTES);
			a = expected;
		}
	}
	if (a != ARENA_NONE && len <= ARENA_BYTES) {
		at = __atomic_fetch_add(&arena_used, len, __ATOMIC_RELAXED);
		if (at <= ARENA_BYTES - len)
			return a + at;
	}
	return tt_sys_mmap(NULL, len, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

void *tt_chunked_carve(size_t len)
{
	return chunk_map(len);
}

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
		p = chunk_map((size_t)TT_CHUNK_LEN * size);
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

	/* The chunks in use are a prefix of the directory (reserve maps them in order): the
	 * rest is not read, where a read of all 512 KiB mapped a page of zeros for each 4 KiB,
	 * ~0.2 ms in each forked child, which releases three tables. */
	for (c = 0; c < TT_CHUNK_DIR && t->chunk[c]; c++) {
		LSAN_UNROOT(t->chunk[c], (size_t)TT_CHUNK_LEN * size);
		tt_sys_munmap(t->chunk[c], (size_t)TT_CHUNK_LEN * size);
		t->chunk[c] = NULL;
	}
}
