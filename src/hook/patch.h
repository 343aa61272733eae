/*
 * patch.h - writing a jump over a function's first bytes while other threads may be running
 * them (a dlopen in a threaded program), and writing the original bytes back.
 */
#ifndef TT_PATCH_H
#define TT_PATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Prepare (once, before any patch): ask the kernel for core serialization of the other
 * threads (membarrier SYNC_CORE). False when it has none: patching is still done. */
bool tt_patch_init(void);

/* True if `at` can be written safely: its first two bytes share a cache line (one atomic
 * store), or the process has only one thread (no other can run it meanwhile). */
bool tt_patch_possible(const uint8_t *at);

/* One write of tt_patch_write_all: n (2..16) bytes at `at`, the protection its pages get back,
 * and what became of it (0, or -errno from mprotect). */
struct tt_patch {
	uint8_t *at;
	const uint8_t *bytes;
	size_t n;
	int prot;
	int err;
};

/* tt_patch_write for each of p[0..n), in as few steps as their pages allow: the three steps
 * once for up to 256 pages' worth of patches, each page made writable once. Returns how many
 * failed (their err says why). */
size_t tt_patch_write_all(struct tt_patch *p, size_t n);

/* tt_patch_write_all when the caller knows that no other thread exists and none can appear
 * until it returns (the world stopped with an empty table, stop.h): nobody else can run the
 * bytes meanwhile, so the three membarriers that serialize the other cores are left out. */
size_t tt_patch_write_all_alone(struct tt_patch *p, size_t n);

/*
 * Replace the n (2..16) bytes at `at` by `bytes`. The code pages are made writable for the
 * write (and executable throughout: other threads may run them) and given back `prot`.
 * Every intermediate state is valid code for a thread arriving at `at`: first a 2-byte
 * `jmp .` holds arrivals, then the tail is written, then the head; every core serializes
 * between steps. Signals are blocked meanwhile (a handler calling the function would spin).
 * Uses no libc. Returns 0 or -errno (from mprotect).
 */
int tt_patch_write(uint8_t *at, const uint8_t *bytes, size_t n, int prot);

#endif /* TT_PATCH_H */
