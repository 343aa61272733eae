/*
 * ehframe.h - a function's length from the unwind tables, for code whose symbol does not say
 * (an IFUNC's implementation in a stripped libc has no symbol at all).
 */
#ifndef TT_EHFRAME_H
#define TT_EHFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "elf/elfdyn.h"

/*
 * Length of the code whose unwind entry (FDE) starts exactly at addr in o, from the binary
 * search table of PT_GNU_EH_FRAME; 0 when no FDE starts there or the table's encoding is
 * not the one every GNU toolchain writes.
 */
size_t tt_eh_extent(const struct tt_elf *o, uintptr_t addr);

/* fn(start, length, ctx) for every FDE of o's table (the code it covers), in address order;
 * fn returns nonzero to stop (fn NULL: none is). Returns the table's entry count, or -1
 * without a usable one. */
int tt_eh_each(const struct tt_elf *o, int (*fn)(uintptr_t addr, size_t len, void *ctx), void *ctx);

/* The FDE of o's table whose code starts at or below pc, the nearest one (the caller checks
 * that its range holds pc); NULL without a usable table or below its first entry. */
const uint8_t *tt_eh_fde_below(const struct tt_elf *o, uintptr_t pc);

#endif /* TT_EHFRAME_H */
