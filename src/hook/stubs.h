/*
 * stubs.h - the entry stubs: one per traced function, written at run time (stubs.c).
 */
#ifndef TT_STUBS_H
#define TT_STUBS_H

#include <stdbool.h>
#include <stdint.h>

/* Stubs from now on jump to `body` (the chosen variant's), or its `timed` entry, and, with
 * `count`, count the calls sampling passes over themselves (slot_code.h); makes the first page
 * of stubs (index 0: the calibration function). 0, or -1 when no memory could be mapped near
 * it. */
int tt_stubs_start(void *body, void *timed, bool count);

/* tt_tls's offset from the thread pointer, which the stubs hold as an immediate (valid once
 * tt_stubs_start succeeded). */
int32_t tt_stubs_tls_offset(void);

/* Make sure stub `index` exists (before the index is published). 0 or -1. */
int tt_stubs_make(uint32_t index);

/* Stub `index`, which tt_stubs_make made; NULL otherwise. */
void *tt_stubs_at(uint32_t index);

/* True if addr is one of the stubs; then *index says whose. */
bool tt_stubs_index(const void *addr, uint32_t *index);

#endif /* TT_STUBS_H */
