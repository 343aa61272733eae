/*
 * emit.h - x86-64 instructions written from named operations (pure: bytes only), for the code
 * the shim writes at run time: the inline hooks' slot heads and the GOT hooks' counting stubs
 * (hook/slot_code.c). Each function writes one instruction at p and returns the byte after it.
 *
 * Only the forms that code needs: 64-bit general registers, memory operands as base + disp
 * (a disp8 where it fits, as the assembler chooses), %fs-relative where named so.
 */
#ifndef TT_X86_EMIT_H
#define TT_X86_EMIT_H

#include <stdint.h>

/* Register numbers as the encoding has them. */
enum tt_reg {
	TT_RAX,
	TT_RCX,
	TT_RDX,
	TT_RBX,
	TT_RSP,
	TT_RBP,
	TT_RSI,
	TT_RDI,
	TT_R8,
	TT_R9,
	TT_R10,
	TT_R11,
	TT_R12,
	TT_R13,
	TT_R14,
	TT_R15,
};

/* Condition codes (the low nibble of jcc). */
enum tt_cond { TT_CC_B = 0x2, TT_CC_E = 0x4, TT_CC_NE = 0x5, TT_CC_BE = 0x6 };

/* endbr64 */
uint8_t *tt_emit_endbr64(uint8_t *p);
/* mov %src, disp(%base) */
uint8_t *tt_emit_store(uint8_t *p, enum tt_reg src, enum tt_reg base, int32_t disp);
/* mov disp(%base), %dst */
uint8_t *tt_emit_load(uint8_t *p, enum tt_reg dst, enum tt_reg base, int32_t disp);
/* mov disp(%base), %dst with a disp32 whatever disp is: code of a fixed length */
uint8_t *tt_emit_load_disp32(uint8_t *p, enum tt_reg dst, enum tt_reg base, int32_t disp);
/* mov %fs:disp(%base), %dst */
uint8_t *tt_emit_load_fs(uint8_t *p, enum tt_reg dst, enum tt_reg base, int32_t disp);
/* mov %src, %dst */
uint8_t *tt_emit_mov(uint8_t *p, enum tt_reg dst, enum tt_reg src);
/* mov $imm, %dst (sign-extended imm32) */
uint8_t *tt_emit_mov_imm32(uint8_t *p, enum tt_reg dst, int32_t imm);
/* movl $imm, %dst32 (zero-extends) */
uint8_t *tt_emit_movl_imm32(uint8_t *p, enum tt_reg dst, uint32_t imm);
/* movabs $imm, %dst */
uint8_t *tt_emit_movabs(uint8_t *p, enum tt_reg dst, uint64_t imm);
/* cmpb $imm, %fs:disp(%base) */
uint8_t *tt_emit_cmpb_fs(uint8_t *p, enum tt_reg base, int32_t disp, uint8_t imm);
/* cmpl $imm, %fs:disp(%base) */
uint8_t *tt_emit_cmpl_fs(uint8_t *p, enum tt_reg base, int32_t disp, uint32_t imm);
/* test %reg, %reg */
uint8_t *tt_emit_test(uint8_t *p, enum tt_reg reg);
/* subq $imm, disp(%base) (imm8) */
uint8_t *tt_emit_subq_imm8(uint8_t *p, enum tt_reg base, int32_t disp, int8_t imm);
/* incq disp(%base) */
uint8_t *tt_emit_incq(uint8_t *p, enum tt_reg base, int32_t disp);
/* jcc rel32 to `to` */
uint8_t *tt_emit_jcc32(uint8_t *p, enum tt_cond cc, const uint8_t *to);
/* jcc rel8 to `to`, which must be within reach */
uint8_t *tt_emit_jcc8(uint8_t *p, enum tt_cond cc, const uint8_t *to);
/* jmp rel32 to the address `to` (p runs at its own address) */
uint8_t *tt_emit_jmp32(uint8_t *p, uint64_t to);
/* jmp *(%base) */
uint8_t *tt_emit_jmp_mem(uint8_t *p, enum tt_reg base);
/* jmp *rel32(%rip): through the 8 bytes at `slot` */
uint8_t *tt_emit_jmp_rip(uint8_t *p, const uint8_t *slot);
/* n bytes as they are (data: an address a jmp_rip reads) */
uint8_t *tt_emit_bytes(uint8_t *p, const void *bytes, uint32_t n);

#endif /* TT_X86_EMIT_H */
