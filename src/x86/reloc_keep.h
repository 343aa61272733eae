/*
 * reloc_keep.h - a relocation plan (relocate.h) as a record that can be kept between runs and
 * used again at another load address without decoding: the copy's bytes with its
 * address-dependent fields listed, and the function's first bytes the plan was made from.
 * Pure (unit-tested); hook/plan_cache.h keeps the records in files.
 */
#ifndef TT_RELOC_KEEP_H
#define TT_RELOC_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "x86/relocate.h"

#define TT_KEPT_BYTES 32 /* the most first bytes a plan covers: endbr64, 19 displaced, ... */

/* One plan, as written to the file: (off, size, kind) is its key. */
struct tt_reloc_kept {
	uint64_t off;	/* the function's offset from its object's load address */
	uint64_t size;	/* its length as its symbol or unwind entry says */
	uint32_t kind;	/* the caller's: which planner made it (inline entry, trap, _exit) */
	uint32_t used;	/* bytes the plan took as the function's (with padding after it) */
	uint8_t nbytes; /* its first bytes the copy was made from, kept in bytes[] */
	uint8_t patch_at, displaced, copy_len, call_moved, insns, nfix, pad;
	uint8_t map_at[TT_PATCH_LEN], map_copy[TT_PATCH_LEN];
	uint8_t pad2[6];
	uint8_t bytes[TT_KEPT_BYTES];
	uint8_t copy[TT_COPY_MAX];
	struct tt_reloc_fix fix[TT_RELOC_FIXES];
	/* The MAC of everything above under the cache's key (hook/build_id_files.h writes and
	 * checks it): a record the shim as this user did not write is not used. */
	uint64_t mac;
};

/* Order of the records in a file: by off, size, kind. */
int tt_reloc_kept_cmp(const void *a, const void *b);

/* Make k from the plan r of the function whose first bytes are code (nbytes of them made the
 * copy: patch_at + displaced, or the whole function for a trap). False when r cannot be
 * kept (too many fields, too many bytes). */
bool tt_reloc_keep(const struct tt_reloc *r, const uint8_t *code, size_t nbytes, uint64_t off,
		   uint64_t size, uint32_t kind, uint32_t used, struct tt_reloc_kept *k);

/*
 * The plan of k for the function at addr (whose first avail bytes are readable at code) with
 * its copy at copy_addr, into out. False, out undefined, when k does not hold together, the
 * function's first bytes differ from the kept ones in any byte (a plan made from another
 * build's code, stale), or a rel32 of the copy would not reach from copy_addr: the caller
 * plans with the decoder. k's MAC is the caller's to check first (plan_cache.c).
 */
bool tt_reloc_reuse(const struct tt_reloc_kept *k, const uint8_t *code, size_t avail, uint64_t addr,
		    uint64_t copy_addr, struct tt_reloc *out);

#endif /* TT_RELOC_KEEP_H */
