/*
 * emit.c - see emit.h. The encodings: Intel SDM vol. 2, "REX prefixes" and "ModR/M and SIB";
 * tests/unit/test_x86_emit.c holds each against what the assembler writes.
 */
#include <string.h>

#include "x86/emit.h"

enum { REX_W = 0x48, REX_R = 0x44, REX_B = 0x41, FS = 0x64 };

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
	return p + 4;
}

static uint8_t low3(enum tt_reg r)
{
	return (uint8_t)(r & 7);
}

/* A REX prefix: W for 64-bit operands, R and B extending ModRM's reg and rm; none if empty. */
static uint8_t *rex(uint8_t *p, int wide, unsigned reg, unsigned rm)
{
	uint8_t b = (uint8_t)((wide ? REX_W : 0) | (reg >= 8 ? REX_R : 0) | (rm >= 8 ? REX_B : 0));

	if (b)
		*p++ = (uint8_t)(b | 0x40);
	return p;
}

/* ModRM (and SIB, displacement) for disp(%base), reg field `reg`: no displacement when 0 and
 * the base allows it, else disp8 when it fits, else disp32 (always, with `wide_disp`); rsp and
 * r12 need a SIB. */
static uint8_t *mem_as(uint8_t *p, unsigned reg, enum tt_reg base, int32_t disp, int wide_disp)
{
	int none = !wide_disp && disp == 0 && low3(base) != TT_RBP;
	int byte = !wide_disp && disp >= -128 && disp <= 127;
	uint8_t mod = none ? 0 : byte ? 1 : 2;

	*p++ = (uint8_t)(mod << 6 | (reg & 7) << 3 | low3(base));
	if (low3(base) == TT_RSP)
		*p++ = 0x24;
	if (mod == 1)
		*p++ = (uint8_t)(int8_t)disp;
	else if (mod == 2)
		p = put32(p, (uint32_t)disp);
	return p;
}

static uint8_t *mem(uint8_t *p, unsigned reg, enum tt_reg base, int32_t disp)
{
	return mem_as(p, reg, base, disp, 0);
}

/* op /reg on disp(%base), with a REX as the operands need it. */
static uint8_t *op_mem(uint8_t *p, int wide, uint8_t op, unsigned reg, enum tt_reg base,
		       int32_t disp)
{
	p = rex(p, wide, reg, base);
	*p++ = op;
	return mem(p, reg, base, disp);
}

uint8_t *tt_emit_endbr64(uint8_t *p)
{
	static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

	return tt_emit_bytes(p, endbr64, 4);
}

uint8_t *tt_emit_store(uint8_t *p, enum tt_reg src, enum tt_reg base, int32_t disp)
{
	return op_mem(p, 1, 0x89, src, base, disp);
}

uint8_t *tt_emit_load(uint8_t *p, enum tt_reg dst, enum tt_reg base, int32_t disp)
{
	return op_mem(p, 1, 0x8b, dst, base, disp);
}

uint8_t *tt_emit_load_disp32(uint8_t *p, enum tt_reg dst, enum tt_reg base, int32_t disp)
{
	p = rex(p, 1, dst, base);
	*p++ = 0x8b;
	return mem_as(p, dst, base, disp, 1);
}

uint8_t *tt_emit_load_fs(uint8_t *p, enum tt_reg dst, enum tt_reg base, int32_t disp)
{
	*p++ = FS;
	return tt_emit_load(p, dst, base, disp);
}

uint8_t *tt_emit_mov(uint8_t *p, enum tt_reg dst, enum tt_reg src)
{
	p = rex(p, 1, src, dst);
	*p++ = 0x89;
	*p++ = (uint8_t)(0xc0 | low3(src) << 3 | low3(dst));
	return p;
}

uint8_t *tt_emit_mov_imm32(uint8_t *p, enum tt_reg dst, int32_t imm)
{
	p = rex(p, 1, 0, dst);
	*p++ = 0xc7;
	*p++ = (uint8_t)(0xc0 | low3(dst));
	return put32(p, (uint32_t)imm);
}

uint8_t *tt_emit_movl_imm32(uint8_t *p, enum tt_reg dst, uint32_t imm)
{
	p = rex(p, 0, 0, dst);
	*p++ = (uint8_t)(0xb8 | low3(dst));
	return put32(p, imm);
}

uint8_t *tt_emit_movabs(uint8_t *p, enum tt_reg dst, uint64_t imm)
{
	p = rex(p, 1, 0, dst);
	*p++ = (uint8_t)(0xb8 | low3(dst));
	return tt_emit_bytes(p, &imm, 8);
}

uint8_t *tt_emit_cmpb_fs(uint8_t *p, enum tt_reg base, int32_t disp, uint8_t imm)
{
	*p++ = FS;
	p = op_mem(p, 0, 0x80, 7, base, disp);
	*p++ = imm;
	return p;
}

uint8_t *tt_emit_cmpl_fs(uint8_t *p, enum tt_reg base, int32_t disp, uint32_t imm)
{
	*p++ = FS;
	p = op_mem(p, 0, 0x81, 7, base, disp);
	return put32(p, imm);
}

uint8_t *tt_emit_test(uint8_t *p, enum tt_reg reg)
{
	p = rex(p, 1, reg, reg);
	*p++ = 0x85;
	*p++ = (uint8_t)(0xc0 | low3(reg) << 3 | low3(reg));
	return p;
}

uint8_t *tt_emit_subq_imm8(uint8_t *p, enum tt_reg base, int32_t disp, int8_t imm)
{
	p = op_mem(p, 1, 0x83, 5, base, disp);
	*p++ = (uint8_t)imm;
	return p;
}

uint8_t *tt_emit_incq(uint8_t *p, enum tt_reg base, int32_t disp)
{
	return op_mem(p, 1, 0xff, 0, base, disp);
}

uint8_t *tt_emit_jcc32(uint8_t *p, enum tt_cond cc, const uint8_t *to)
{
	*p++ = 0x0f;
	*p++ = (uint8_t)(0x80 | cc);
	return put32(p, (uint32_t)(int32_t)(to - (p + 4)));
}

uint8_t *tt_emit_jcc8(uint8_t *p, enum tt_cond cc, const uint8_t *to)
{
	*p++ = (uint8_t)(0x70 | cc);
	*p = (uint8_t)(int8_t)(to - (p + 1));
	return p + 1;
}

uint8_t *tt_emit_jmp32(uint8_t *p, uint64_t to)
{
	*p++ = 0xe9;
	return put32(p, (uint32_t)(int32_t)(int64_t)(to - (uint64_t)(uintptr_t)(p + 4)));
}

uint8_t *tt_emit_jmp_mem(uint8_t *p, enum tt_reg base)
{
	return op_mem(p, 0, 0xff, 4, base, 0);
}

uint8_t *tt_emit_jmp_rip(uint8_t *p, const uint8_t *slot)
{
	*p++ = 0xff;
	*p++ = 0x25;
	return put32(p, (uint32_t)(int32_t)(slot - (p + 4)));
}

uint8_t *tt_emit_bytes(uint8_t *p, const void *bytes, uint32_t n)
{
	memcpy(p, bytes, n);
	return p + n;
}
