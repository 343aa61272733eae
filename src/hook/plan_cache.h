/*
 * plan_cache.h - the relocation plans of inline hooks (x86/reloc_keep.h), kept between runs.
 *
 * How many bytes a function's entry jump displaces and what their relocated copy is depend
 * only on the object's code: an object with a GNU build ID gets the same plan in every run,
 * but at another load address. Kept in $XDG_CACHE_HOME/tsctrace/<build-id>.plan (beside the
 * jump checks' .xref, xref_cache.h), a plan is made again for this run's addresses from its
 * listed fields, after its function's first bytes were compared with the kept ones: a
 * process whose every inline hook (and _exit's detour) has one never loads the decoder
 * (libZydis, ~0.3 ms here). A file from another version of the shim, or one that does not
 * read back whole, is ignored; a record that does not match is planned again and replaced;
 * failing to read or write a file only costs the decoder.
 */
#ifndef TT_PLAN_CACHE_H
#define TT_PLAN_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "x86/reloc_keep.h"

/* Which planner made a plan: part of its key. */
enum tt_plan_kind { TT_PLAN_ENTRY = 1, TT_PLAN_TRAP, TT_PLAN_EXIT };

/* The kept plan of the function at code (its offset off in the object with that build ID,
 * its length size), for the function at addr and its copy at copy_addr, into out, with how
 * many bytes of it the plan used into *used. False when none is kept or it does not match. */
bool tt_plan_cache_get(const uint8_t *build_id, size_t len, uint64_t off, uint64_t size,
		       uint32_t kind, const uint8_t *code, size_t avail, uint64_t copy_addr,
		       struct tt_reloc *out, uint32_t *used);

/* Keep a plan (written out by tt_plan_cache_flush); it replaces one of the same key. */
void tt_plan_cache_put(const uint8_t *build_id, size_t len, const struct tt_reloc_kept *k);

/* TSC_CACHE=0: neither read nor write any file (start-up, before the first hook). */
void tt_plan_cache_disable(void);

/* Write the files of objects that got new plans (temporary file, then rename). */
void tt_plan_cache_flush(void);

#endif /* TT_PLAN_CACHE_H */
