/*
 * slotuse.h - how an object's code uses a GOT slot: only as the target of `call *slot(%rip)`
 * and `jmp *slot(%rip)` (a -fno-plt call, a .plt.got stub), or also as data (`mov slot(%rip),
 * %rax` then compared, stored, passed on). Pointing a slot of the second kind at a stub
 * changes the function's address as that code sees it: OpenSSL's
 * `if (malloc_impl != CRYPTO_malloc) return malloc_impl(n);` then compares the real address
 * (relocated into .data) with the stub and calls itself forever. Such slots keep the real one.
 */
#ifndef TT_SLOTUSE_H
#define TT_SLOTUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tt_slot_use {
	uint64_t slot;	/* in: run-time address of an 8-byte GOT slot */
	uint32_t tag;	/* in: the caller's, kept with the slot (s is sorted) */
	uint32_t calls; /* out: near calls and jumps through it found */
	bool data;	/* out: another use found, or one that could not be ruled out */
	bool unsure;	/* out: of those, one only the decoder could have ruled out */
	uint64_t at;	/* out: where the first such use's displacement sits */
};

/*
 * Add to s[0..n) (sorted here by slot; slots 8 bytes apart at least) what the len bytes of
 * code running at addr do with each slot. Every rip-relative operand that can reach a slot is
 * found (a byte pre-filter on the ModRM byte, then the displacement's target); `call`/`jmp`
 * through the slot are told from the rest by their bytes, which settle every operand aimed
 * at the slot itself. One aimed near it (inside it, or at the next slot and followed by an
 * immediate) needs the immediate's size: with decode (Zydis loaded) the instruction is
 * decoded, without it counts as data (and unsure). Not looked for: code that reaches a
 * slot otherwise than rip-relative (absolute addresses, the large code model's GOT-relative
 * offsets) or with one access spanning two slots; compilers reach each GOT slot through its
 * own relocation, one 8-byte load, rip-relative.
 */
void tt_slotuse_scan(const uint8_t *code, size_t len, uint64_t addr, struct tt_slot_use *s,
		     size_t n, bool decode);

#endif /* TT_SLOTUSE_H */
