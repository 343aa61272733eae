/*
 * ehframe.c - see ehframe.h. The .eh_frame_hdr table (LSB, "Exception Frame Header") lists
 * (initial location, FDE address) pairs sorted by location, both as 4-byte signed offsets
 * from the header (encoding DW_EH_PE_datarel | DW_EH_PE_sdata4). The FDE then gives the
 * range: its pc_begin as a pc-relative sdata4 (what gcc and gas emit for x86-64), checked
 * against the table before its pc_range is believed.
 */
#include <string.h>

#include "elf/ehframe.h"

#define ENC_UDATA4 0x03
#define ENC_DATAREL_SDATA4 0x3b
#define ENC_PCREL_SDATA4 0x1b

static int32_t s32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* o's .eh_frame_hdr and its entry count, when in the encoding every GNU toolchain writes. */
static const uint8_t *eh_table(const struct tt_elf *o, uint32_t *count)
{
	const uint8_t *hdr = NULL;
	size_t i;

	for (i = 0; i < o->phnum; i++)
		if (o->phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr = (const uint8_t *)(o->base + o->phdr[i].p_vaddr);
	/* version 1; eh_frame_ptr any 4-byte encoding; count udata4; table datarel sdata4 */
	if (!hdr || hdr[0] != 1 || (hdr[1] & 0x0f) != 0x0b || hdr[2] != ENC_UDATA4 ||
	    hdr[3] != ENC_DATAREL_SDATA4)
		return NULL;
	memcpy(count, hdr + 8, 4);
	return hdr;
}

/* Length of the FDE of table entry k when it covers code from addr; else 0. */
static size_t fde_len(const uint8_t *hdr, uint32_t k, uintptr_t addr)
{
	const uint8_t *fde = hdr + s32(hdr + 12 + 8 * (size_t)k + 4);

	/* length, CIE pointer, pc_begin, pc_range */
	if ((uintptr_t)(fde + 8 + s32(fde + 8)) != addr || s32(fde + 12) <= 0)
		return 0;
	return (size_t)s32(fde + 12);
}

size_t tt_eh_extent(const struct tt_elf *o, uintptr_t addr)
{
	uint32_t count, lo = 0, hi;
	const uint8_t *hdr = eh_table(o, &count);

	if (!hdr)
		return 0;
	hi = count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		uintptr_t loc = (uintptr_t)(hdr + s32(hdr + 12 + 8 * (size_t)mid));

		if (loc == addr)
			return fde_len(hdr, mid, addr);
		if (loc < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

int tt_eh_each(const struct tt_elf *o, int (*fn)(uintptr_t addr, size_t len, void *ctx), void *ctx)
{
	uint32_t count, k;
	const uint8_t *hdr = eh_table(o, &count);

	if (!hdr)
		return -1;
	for (k = 0; fn && k < count; k++) {
		uintptr_t loc = (uintptr_t)(hdr + s32(hdr + 12 + 8 * (size_t)k));
		size_t len = fde_len(hdr, k, loc);

		if (len && fn(loc, len, ctx))
			break;
	}
	return (int)count;
}

const uint8_t *tt_eh_fde_below(const struct tt_elf *o, uintptr_t pc)
{
	uint32_t count, lo = 0, hi;
	const uint8_t *hdr = eh_table(o, &count);

	if (!hdr || !count)
		return NULL;
	hi = count; /* the answer is entry lo - 1: the last whose location is <= pc */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)(hdr + s32(hdr + 12 + 8 * (size_t)mid)) <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? hdr + s32(hdr + 12 + 8 * (size_t)(lo - 1) + 4) : NULL;
}
