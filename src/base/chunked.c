/*
 * chunked.c - see chunked.h.
 */
#include <sys/mman.h>

#include "base/chunked.h"
#include "base/sys.h"

int tt_chunked_reserve(struct tt_chunked *t, uint64_t n, size_t size)
{
	uint64_t c, last = n ? (n - 1) >> TT_CHUNK_BITS : 0;

	if (n == 0)
		return 0;
	if (last >= TT_CHUNK_DIR)
		return -1;
	for (c = 0; c <= last; c++) {
		void *p;

		if (__atomic_load_n(&t->chunk[c], __ATOMIC_RELAXED))
			continue;
		p = tt_sys_mmap(NULL, (size_t)TT_CHUNK_LEN * size, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (!p)
			return -1;
		__atomic_store_n(&t->chunk[c], p, __ATOMIC_RELEASE);
	}
	return 0;
}

void tt_chunked_release(struct tt_chunked *t, size_t size)
{
	uint32_t c;

	for (c = 0; c < TT_CHUNK_DIR; c++) {
		if (t->chunk[c])
			tt_sys_munmap(t->chunk[c], (size_t)TT_CHUNK_LEN * size);
		t->chunk[c] = NULL;
	}
}
