/*
 * coderange.h - the stretches of a loaded object's code that its own tables say begin with an
 * instruction: function symbols (dynamic and .symtab, of any size) and unwind entries (FDEs,
 * present even in stripped libraries). Decoding one from its start follows the instructions
 * the CPU runs; between them (padding, data, code no table names) nothing is known.
 */
#ifndef TT_CODERANGE_H
#define TT_CODERANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/elfdyn.h"

struct tt_code_range {
	uint64_t lo, hi; /* run-time addresses, lo < hi */
};

struct tt_code_ranges {
	struct tt_code_range *r; /* sorted by lo, each lo once (with the largest hi) */
	size_t n;
	size_t bytes; /* mapped for r */
};

/*
 * The ranges of o inside [seg_lo, seg_hi) (one executable segment). Reads o's .symtab from
 * its file when it has one. A range ends where its symbol's size or its FDE's length says;
 * one whose symbol has size 0 (the C runtime's crtstuff functions) where the next symbol of
 * any kind (a function, data in .text) or FDE starts, or the segment ends. Returns 0, or -1
 * when no memory could be mapped (out empty).
 */
int tt_code_ranges_of(const struct tt_elf *o, uintptr_t seg_lo, uintptr_t seg_hi,
		      struct tt_code_ranges *out);

/*
 * The start of every symbol of o in [seg_lo, seg_hi), code or data, dynamic or in its file's
 * .symtab, each once (hi = lo + 1): what tells a constant in .text from padding. Returns 0,
 * or -1 when no memory could be mapped (out empty).
 */
int tt_symbol_starts_of(const struct tt_elf *o, uintptr_t seg_lo, uintptr_t seg_hi,
			struct tt_code_ranges *out);

/* True when an entry of c starts within [lo, hi) (binary search). */
bool tt_code_ranges_start_within(const struct tt_code_ranges *c, uintptr_t lo, uintptr_t hi);

void tt_code_ranges_free(struct tt_code_ranges *c);

#endif /* TT_CODERANGE_H */
