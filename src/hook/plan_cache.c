/*
 * plan_cache.c - see plan_cache.h. Start-up and dlopen bookkeeping only (one thread at a
 * time, under the loader lock), with the shim's guard up. The files are build_id_files.h's
 * (mapped read-only, an index of their pages, written whole); this file says what a record is.
 */
#include <stddef.h>

#include "hook/build_id_files.h"
#include "hook/plan_cache.h"
#include "log/cache_refusal.h"

/* The key (off, size, kind) within a record's first 24 bytes: the index entries. */
_Static_assert(offsetof(struct tt_reloc_kept, kind) + sizeof(uint32_t) <= 24, "plan key");
/* The MAC last: build_id_files.h writes and checks it there. */
_Static_assert(offsetof(struct tt_reloc_kept, mac) + 8 == sizeof(struct tt_reloc_kept), "mac");

/* TTPLAN3: each record ends in its MAC (base/kept_mac.h); older files are rebuilt. */
static const struct tt_kept_format format = {
	.magic = "TTPLAN3",
	.record = sizeof(struct tt_reloc_kept),
	.max = 65536, /* per object */
	.key = 24,    /* off, size, kind */
	.cmp = tt_reloc_kept_cmp,
};

static struct tt_build_id_files files = TT_BUILD_ID_FILES(&format, ".plan");

void tt_plan_cache_disable(void)
{
	tt_build_id_files_disable(&files);
}

bool tt_plan_cache_get(const uint8_t *build_id, size_t len, uint64_t off, uint64_t size,
		       uint32_t kind, const uint8_t *code, size_t avail, uint64_t copy_addr,
		       struct tt_reloc *out, uint32_t *used)
{
	struct tt_reloc_kept key = { .off = off, .size = size, .kind = kind };
	const struct tt_reloc_kept *found;
	bool rejected = false;

	/* Its MAC verified: made by the shim as this user, from these bytes (kept in it). */
	found = tt_build_id_find(&files, build_id, len, &key, &rejected);
	tt_cache_refusal_say(); /* the file or its directory may have been refused */
	if (rejected)
		tt_cache_rejected_say();
	if (!found ||
	    !tt_reloc_reuse(found, code, avail, (uint64_t)(uintptr_t)code, copy_addr, out))
		return false;
	*used = found->used;
	return true;
}

void tt_plan_cache_put(const uint8_t *build_id, size_t len, const struct tt_reloc_kept *k)
{
	tt_build_id_add(&files, build_id, len, k);
}

void tt_plan_cache_flush(void)
{
	tt_build_id_files_flush(&files);
	tt_cache_refusal_say();
}
