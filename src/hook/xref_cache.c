/*
 * xref_cache.c - see xref_cache.h. Start-up and dlopen bookkeeping only (one thread at a
 * time, under the loader lock), with the shim's guard up. The files are build_id_files.h's
 * (mapped read-only, an index of their pages, written whole); this file says what a record is.
 */
#include <stddef.h>

#include "hook/build_id_files.h"
#include "hook/xref_cache.h"
#include "log/cache_refusal.h"

/* The order of the answers in a file, and their key: the whole question. */
static int cmp(const void *x, const void *y)
{
	const struct tt_xref_answer *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	if (a->own_lo != b->own_lo)
		return a->own_lo < b->own_lo ? -1 : 1;
	if (a->hi != b->hi)
		return a->hi < b->hi ? -1 : 1;
	return (a->own_hi > b->own_hi) - (a->own_hi < b->own_hi);
}

/* The key (lo, hi, own_lo, own_hi) within a record's first 32 bytes: the index entries. */
_Static_assert(offsetof(struct tt_xref_answer, from) == 32, "xref key");
/* The MAC last: build_id_files.h writes and checks it there. */
_Static_assert(offsetof(struct tt_xref_answer, mac) + 8 == sizeof(struct tt_xref_answer), "mac");

/* TTXREF4: each answer ends in its MAC (base/kept_mac.h); TTXREF5: code after function
 * symbols of size 0 decoded, and `unproven` kept; older files are rebuilt. */
static const struct tt_kept_format format = {
	.magic = "TTXREF5",
	.record = sizeof(struct tt_xref_answer),
	.max = 65536, /* per object: a whole library's functions, and more */
	.key = 32,
	.cmp = cmp,
};

static struct tt_build_id_files files = TT_BUILD_ID_FILES(&format, ".xref");

void tt_xref_cache_disable(void)
{
	tt_build_id_files_disable(&files);
}

bool tt_xref_cache_get(const uint8_t *build_id, size_t len, struct tt_xref_answer *a)
{
	bool rejected = false;
	/* Its MAC verified: an answer the shim as this user found for this object. */
	const struct tt_xref_answer *found = tt_build_id_find(&files, build_id, len, a, &rejected);

	tt_cache_refusal_say(); /* the file or its directory may have been refused */
	if (rejected)
		tt_cache_rejected_say();
	if (!found)
		return false;
	a->hit = found->hit;
	a->unproven = found->unproven;
	a->from = found->from;
	return true;
}

void tt_xref_cache_put(const uint8_t *build_id, size_t len, const struct tt_xref_answer *a)
{
	tt_build_id_add(&files, build_id, len, a);
}

void tt_xref_cache_flush(void)
{
	tt_build_id_files_flush(&files);
	tt_cache_refusal_say();
}
