/*
 * reloc_keep.c - see reloc_keep.h.
 */
#include <string.h>

#include "x86/reloc_keep.h"

_Static_assert(TT_COPY_MAX <= 255 && TT_RELOC_FIXES <= 255, "kept in a byte");
/* The file's layout, which tests/prog/cases_inline.sh forges records at. */
_Static_assert(offsetof(struct tt_reloc_kept, bytes) == 48 &&
		       offsetof(struct tt_reloc_kept, copy) == 80 &&
		       sizeof(struct tt_reloc_kept) == 360,
	       "record layout");

int tt_reloc_kept_cmp(const void *a, const void *b)
{
	const struct tt_reloc_kept *x = a, *y = b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return (x->kind > y->kind) - (x->kind < y->kind);
}

bool tt_reloc_keep(const struct tt_reloc *r, const uint8_t *code, size_t nbytes, uint64_t off,
		   uint64_t size, uint32_t kind, uint32_t used, struct tt_reloc_kept *k)
{
	size_t i;

	if (!nbytes || nbytes > TT_KEPT_BYTES || r->nfix > TT_RELOC_FIXES ||
	    r->copy_len > TT_COPY_MAX || r->map.insns > TT_PATCH_LEN || r->patch_at > 255 ||
	    r->displaced > 255)
		return false;
	memset(k, 0, sizeof(*k)); /* the padding too: the MAC covers it */
	k->off = off;
	k->size = size;
	k->kind = kind;
	k->used = used;
	k->nbytes = (uint8_t)nbytes;
	k->patch_at = (uint8_t)r->patch_at;
	k->displaced = (uint8_t)r->displaced;
	k->copy_len = (uint8_t)r->copy_len;
	k->call_moved = r->call_moved;
	k->insns = (uint8_t)r->map.insns;
	k->nfix = (uint8_t)r->nfix;
	for (i = 0; i < r->map.insns; i++) {
		k->map_at[i] = r->map.at[i];
		k->map_copy[i] = r->map.copy[i];
	}
	memcpy(k->bytes, code, nbytes);
	memcpy(k->copy, r->copy, r->copy_len);
	for (i = 0; i < r->nfix; i++) {
		k->fix[i] = r->fix[i];
		memset(k->fix[i].pad, 0, sizeof(k->fix[i].pad));
	}
	return true;
}

bool tt_reloc_reuse(const struct tt_reloc_kept *k, const uint8_t *code, size_t avail, uint64_t addr,
		    uint64_t copy_addr, struct tt_reloc *out)
{
	size_t i;

	if (!k->nbytes || k->nbytes > TT_KEPT_BYTES || k->nbytes > avail ||
	    k->copy_len > TT_COPY_MAX || k->insns > TT_PATCH_LEN || k->nfix > TT_RELOC_FIXES ||
	    k->call_moved > 1 || (size_t)k->patch_at + k->displaced > k->used ||
	    k->used > k->size + TT_KEPT_BYTES || memcmp(code, k->bytes, k->nbytes) != 0)
		return false;
	memset(out, 0, sizeof(*out));
	out->patch_at = k->patch_at;
	out->displaced = k->displaced;
	out->copy_len = k->copy_len;
	out->call_moved = k->call_moved;
	out->map.insns = k->insns;
	for (i = 0; i < k->insns; i++) {
		out->map.at[i] = k->map_at[i];
		out->map.copy[i] = k->map_copy[i];
	}
	memcpy(out->copy, k->copy, k->copy_len);
	out->nfix = k->nfix;
	memcpy(out->fix, k->fix, k->nfix * sizeof(k->fix[0]));
	return tt_reloc_rebase(out, addr, copy_addr) == 0;
}
