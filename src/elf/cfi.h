/*
 * cfi.h - how to find a frame's caller at one code address, from the object's .eh_frame call
 * frame information (DWARF CFI): the rule the fast walk of call paths caches per return
 * address (hot/frame_rules.h). Only the rules that a frame walk with two registers can follow
 * are answered: the canonical frame address (CFA) at %rsp or %rbp plus a constant, the return
 * address at CFA - 8, %rbp kept or saved at CFA plus a constant. Anything else (expressions,
 * registers other than those, signal frames) is TT_CFI_OTHER: libunwind takes those frames.
 */
#ifndef TT_CFI_H
#define TT_CFI_H

#include <stdint.h>

#include "elf/elfdyn.h"

enum tt_cfi_kind {
	TT_CFI_NONE,  /* no unwind entry covers the address */
	TT_CFI_OTHER, /* covered, by rules the walk does not follow */
	TT_CFI_RSP,   /* CFA = %rsp + cfa_off */
	TT_CFI_RBP,   /* CFA = %rbp + cfa_off */
	TT_CFI_END,   /* the return address is undefined: the outermost frame (_start) */
};

struct tt_cfi_rule {
	enum tt_cfi_kind kind;
	int64_t cfa_off;
	int rbp_saved; /* 1: the caller's %rbp is at CFA + rbp_off; 0: %rbp unchanged */
	int64_t rbp_off;
};

/*
 * The rule at code address pc of object o (an address inside an instruction: for a return
 * address, pass it less 1, the call's last byte). Reads the object's PT_GNU_EH_FRAME table
 * and the entries it points at, in place.
 */
void tt_cfi_rule_at(const struct tt_elf *o, uintptr_t pc, struct tt_cfi_rule *r);

#endif /* TT_CFI_H */
