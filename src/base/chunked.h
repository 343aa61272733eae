/*
 * chunked.h - a table indexed by a 32-bit number that grows without moving: a directory of
 * chunks of TT_CHUNK_LEN elements, each chunk mapped (zeroed, MAP_NORESERVE) when an index in
 * it is first reserved and never moved or unmapped, so a pointer to an element stays valid
 * for the life of the process and readers need no lock. Only the pages touched become
 * resident; the directory is .bss, also untouched until used.
 *
 * Writers that reserve (tt_chunked_reserve) must be serialised by the caller; readers may
 * run at any time, in any thread, in a signal handler: an element is reached by two loads.
 * No libc (raw mmap): usable from the hot path's first-call code and the report.
 */
#ifndef TT_CHUNKED_H
#define TT_CHUNKED_H

#include <stddef.h>
#include <stdint.h>

#define TT_CHUNK_BITS 16
#define TT_CHUNK_LEN (1u << TT_CHUNK_BITS)
#define TT_CHUNK_MASK (TT_CHUNK_LEN - 1)
#define TT_CHUNK_DIR (1u << (32 - TT_CHUNK_BITS)) /* chunks: every 32-bit index */

struct tt_chunked {
	void *chunk[TT_CHUNK_DIR]; /* NULL until reserved */
};

/* Element i (of `size` bytes), or NULL when its chunk was never reserved. */
static inline void *tt_chunked_at(const struct tt_chunked *t, uint32_t i, size_t size)
{
	char *c = __atomic_load_n(&t->chunk[i >> TT_CHUNK_BITS], __ATOMIC_ACQUIRE);

	return c ? c + (size_t)(i & TT_CHUNK_MASK) * size : NULL;
}

/* Map the chunks that hold indices [0, n). 0, or -1 when out of memory (the chunks mapped
 * so far stay). Writers serialised by the caller. */
int tt_chunked_reserve(struct tt_chunked *t, uint64_t n, size_t size);

/* len bytes (rounded up to pages) of zeroed, MAP_NORESERVE memory for the life of the
 * process, carved from the tables' reservation while it lasts (no system call), else mapped;
 * NULL out of memory. Lock-free. */
void *tt_chunked_carve(size_t len);

/* Unmap every chunk (only where no reader can be left: a table of the caller's own). Reads
 * the directory only as far as chunks were reserved. */
void tt_chunked_release(struct tt_chunked *t, size_t size);

#endif /* TT_CHUNKED_H */
