/*
 * pool.h - executable memory near patched code, for what an inline hook needs within the
 * ±2 GiB reach of a jmp rel32: the relocated entry instructions of each function and a jump
 * on to its stub (the shim's stubs are usually farther away than that).
 *
 * W^X: slots are handed out from writable pages that become read+execute at tt_pool_seal()
 * and are never written again; a later batch (after a dlopen) gets fresh pages.
 */
#ifndef TT_POOL_H
#define TT_POOL_H

#include <stdint.h>

#define TT_POOL_SLOT 256 /* bytes per function: a head (hook/slot_code.h), the copy after */

/* bytes of fresh writable memory wholly within ±1 GiB of near, or NULL. */
uint8_t *tt_pool_map_near(uintptr_t near, size_t bytes);

/* A writable slot within ±1 GiB of near, or NULL. */
uint8_t *tt_pool_take(uintptr_t near);

/* Make every slot handed out since the last seal read+execute. Returns 0, or -1 (then
 * those slots must not be used). */
int tt_pool_seal(void);

/* Give a slot back (its function's object was unloaded): pages with no slot in use left
 * are unmapped. */
void tt_pool_release(uint8_t *slot);

#endif /* TT_POOL_H */
