/*
 * xref.h - jumps from anywhere in an object's code into bytes an inline patch replaces.
 * glibc's assembly shares code between entry points (mempcpy sets up its result, then jumps
 * past memmove's first instruction): such a jump would land inside the patch's jmp.
 */
#ifndef TT_XREF_H
#define TT_XREF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tt_xref_range {
	uint64_t lo, hi;	 /* forbidden targets: lo <= t < hi */
	uint64_t own_lo, own_hi; /* the function itself, whose jumps relocate.c decodes
					 * exactly: byte patterns there are not looked at */
	bool hit;
	uint64_t from; /* where the first jump found comes from */
};

/*
 * Scan len bytes of code (running at addr) at every byte offset for the encodings of
 * relative jumps and calls (E8/E9 rel32, 0F 8x rel32, EB/7x/E0-E3 rel8) and mark each range
 * that one of them targets. Every real branch is found, since every offset is tried; bytes
 * that only look like one may refuse a patch needlessly, never allow a wrong one.
 */
void tt_xref_scan(const uint8_t *code, size_t len, uint64_t addr, struct tt_xref_range *r,
		  size_t n);

#endif /* TT_XREF_H */
