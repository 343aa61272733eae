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

#include "elf/coderange.h"

struct tt_xref_range {
	uint64_t lo, hi;	 /* forbidden targets: lo <= t < hi */
	uint64_t own_lo, own_hi; /* the function itself, whose jumps relocate.c decodes
					 * exactly: byte patterns there are not looked at */
	bool hit;
	bool unproven; /* that jump was read from bytes no table says are code (no symbol or
			* unwind entry starts before it in reach): maybe no jump at all */
	uint64_t from; /* where the first jump found comes from */
};

/*
 * Mark each range that a relative jump or call of the len bytes of code (running at addr)
 * targets. Candidates are found by trying every byte offset for the encodings of such
 * branches (E8/E9 rel32, 0F 8x rel32, EB/7x/E0-E3 rel8), which finds every real one; a
 * candidate aimed at a range is then checked by decoding: inside one of the known ranges
 * (from each instruction start the tables prove: function symbols, of any size, and unwind
 * entries; sorted by lo, as tt_code_ranges_of makes them) the instructions are followed from
 * the range's start, and only a real branch with that target counts (bytes of a ModRM,
 * displacement or immediate do not). Conservative where decoding cannot tell: a candidate in
 * no known range (a gap), or past bytes that do not decode, or with no decoder loaded, counts
 * as the byte scan reads it, with `unproven` set (a needless refusal at worst, never a missed
 * jump).
 */
void tt_xref_scan(const uint8_t *code, size_t len, uint64_t addr, const struct tt_code_range *known,
		  size_t nknown, struct tt_xref_range *r, size_t n);

#endif /* TT_XREF_H */
