/*
 * relocate.h - planning an inline patch: which instructions at a function's entry the 5-byte
 * jump displaces, their position-independent copy, and whether patching is safe at all.
 * Pure: works on a copy of the function's bytes and two addresses (unit-tested).
 */
#ifndef TT_RELOCATE_H
#define TT_RELOCATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_PATCH_LEN 5 /* jmp rel32 */
#define TT_COPY_MAX 80 /* endbr64, up to 19 displaced bytes widened, jmp back */

/* Where each displaced instruction starts, in the function (from its first byte) and in the
 * copy: a thread stopped inside the displaced bytes resumes at the same instruction of the
 * copy (hook/stop.c). */
struct tt_reloc_map {
	size_t insns;
	uint8_t at[TT_PATCH_LEN], copy[TT_PATCH_LEN];
};

/*
 * What in a copy depends on where the function and the copy run: each field written from an
 * address, the address given relative to the function's first byte (`target`), so that the
 * copy can be made again for another load address without decoding (tt_reloc_rebase).
 */
enum tt_reloc_fix_kind {
	TT_FIX_REL32 = 1, /* target - (copy_addr + end): a rel32 or [rip + disp32] */
	TT_FIX_ABS64,	  /* target as 8 bytes: an absolute jump's literal */
	TT_FIX_ABS_LO32,  /* its low, then high half: a pushed return address */
	TT_FIX_ABS_HI32,
};

#define TT_RELOC_FIXES 12 /* up to 5 instructions, 3 fields for a moved call, the jump back */

struct tt_reloc_fix {
	uint8_t kind; /* enum tt_reloc_fix_kind */
	uint8_t at;   /* where the field is in the copy */
	uint8_t end;  /* REL32: where the instruction holding it ends, which it counts from */
	uint8_t pad[5];
	int64_t target; /* from the function's first byte */
};

struct tt_reloc {
	size_t patch_at;	   /* where the jump goes: 4 after an endbr64, which stays first */
	size_t displaced;	   /* bytes of whole instructions the jump overwrites (>= 5) */
	uint8_t copy[TT_COPY_MAX]; /* to run at copy_addr: endbr64, the displaced
					 * instructions relocated, a jump back */
	size_t copy_len;
	bool call_moved; /* the copy ends with a call turned into push + jmp */
	struct tt_reloc_map map;
	struct tt_reloc_fix fix[TT_RELOC_FIXES];
	size_t nfix;
};

/*
 * Write the copy's address-dependent fields again for the function at addr and the copy at
 * copy_addr. -1, r unchanged in its fields, when a rel32 no longer reaches (the planner
 * would have chosen another form, or refused).
 */
int tt_reloc_rebase(struct tt_reloc *r, uint64_t addr, uint64_t copy_addr);

/* The offset in the copy of the displaced instruction that starts `off` bytes into the
 * function, or -1 when none starts there (off is the entry, or not an instruction start). */
long tt_reloc_copy_offset(const struct tt_reloc_map *m, size_t off);

/*
 * Plan the patch of the function whose `size` bytes are `code`, running at `addr`, with its
 * relocated entry instructions placed at `copy_addr`. Returns NULL, or why the function may
 * not be patched, written into why (e.g. "a jump at +0x1c goes back into the patched
 * bytes"). Refused: a function shorter than patch_at + 5 bytes; bytes that do not decode;
 * any jump of the function into [0, patch_at + displaced) (other than a call of its entry);
 * a loop, j*cxz or xbegin among the displaced instructions; a call among them that would
 * return into them (a 2- or 3-byte call *reg), or calls through memory addressed by
 * registers, far, 16-bit or through %rsp; a relative operand that no longer fits 32 bits
 * from copy_addr. A call rel32, *[rip+disp32] or *reg is moved as a push of its original
 * return address and a jump to its callee (call_moved).
 */
const char *tt_reloc_plan(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
			  struct tt_reloc *out, char *why, size_t why_size);

/*
 * tt_reloc_plan in two parts, for a caller that may know the second one's answer already
 * (hook/xref_cache.h keeps it between runs): the entry's plan alone, everything above but
 * the jumps of the function back into its first patch_at + displaced bytes; then that scan,
 * which decodes the whole function (most of the cost), and the refusal it implies.
 */
const char *tt_reloc_plan_entry(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
				struct tt_reloc *out, char *why, size_t why_size);

enum tt_scan_what { TT_SCAN_NONE, TT_SCAN_JUMP, TT_SCAN_CALL, TT_SCAN_UNDECODABLE };

struct tt_reloc_scan {
	uint32_t what; /* enum tt_scan_what */
	uint64_t off;  /* where in the function that jump, call or undecodable byte is */
};

void tt_reloc_scan(const uint8_t *code, size_t size, uint64_t addr, size_t end, size_t patch_at,
		   struct tt_reloc_scan *out);

/* NULL for TT_SCAN_NONE, else why the function is refused (into why). */
const char *tt_reloc_scan_why(const struct tt_reloc_scan *s, size_t end, char *why,
			      size_t why_size);

/*
 * A function too short for the jump (TSC_HOOK's trap route): all of its instructions
 * relocated to run at copy_addr, after an endbr64; one int3 byte goes at out->patch_at (4
 * after an endbr64, else 0; out->displaced is 1). The copy ends with the function's own
 * ret or jmp, a call moved as in tt_reloc_plan (the callee returns into the original code
 * after it, which the int3 leaves alone), or a jump back to addr + size when the last
 * instruction falls through. Refused: bytes that do not decode, instructions running past
 * size, a jump into the function itself, a loop, j*cxz or xbegin, a call that cannot be moved,
 * an operand that no longer reaches. Returns NULL or why (written into why).
 */
const char *tt_reloc_whole(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
			   struct tt_reloc *out, char *why, size_t why_size);

#endif /* TT_RELOCATE_H */
