/*
 * disasm.c - see disasm.h. Only the instruction's own fields are decoded (no operand
 * decoding): the length, the category, the raw displacement and immediate positions, and
 * the ModRM byte, which together say whether an instruction is position-dependent.
 */
#include <dlfcn.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "elf/real.h"
#include "x86/disasm.h"

#define ZYDIS_SONAME "libZydis.so.4.0"

static struct {
	ZyanStatus (*init)(ZydisDecoder *d, ZydisMachineMode mode, ZydisStackWidth width);
	ZyanStatus (*decode)(const ZydisDecoder *d, ZydisDecoderContext *ctx, const void *buf,
			     ZyanUSize len, ZydisDecodedInstruction *insn);
	ZydisDecoder decoder;
	bool ready;
} zy;

static void *real_dlopen, *real_dlsym, *real_dlclose;

const char *tt_disasm_load(void)
{
	void *h;

	if (zy.ready)
		return NULL;
	h = TT_REAL(dlopen)(ZYDIS_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return ZYDIS_SONAME " cannot be loaded (Debian package libzydis4)";
	*(void **)&zy.init = TT_REAL(dlsym)(h, "ZydisDecoderInit");
	*(void **)&zy.decode = TT_REAL(dlsym)(h, "ZydisDecoderDecodeInstruction");
	if (!zy.init || !zy.decode) {
		TT_REAL(dlclose)(h);
		return ZYDIS_SONAME " lacks the decoder functions of Zydis 4";
	}
	if (!ZYAN_SUCCESS(zy.init(&zy.decoder, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64))) {
		TT_REAL(dlclose)(h);
		return "Zydis refused to decode 64-bit code";
	}
	zy.ready = true;
	return NULL;
}

bool tt_disasm_ready(void)
{
	return zy.ready;
}

static enum tt_insn_kind kind_of(const ZydisDecodedInstruction *z)
{
	bool relative = (z->attributes & ZYDIS_ATTRIB_IS_RELATIVE) && z->raw.imm[0].is_relative;

	switch (z->meta.category) {
	case ZYDIS_CATEGORY_UNCOND_BR: return relative ? TT_INSN_JMP : TT_INSN_INDIRECT;
	case ZYDIS_CATEGORY_CALL:
		return TT_INSN_CALL; /* direct or not: target is 0 when not relative */
	case ZYDIS_CATEGORY_COND_BR:
		/* jcc has rel8 (7x) and rel32 (0F 8x) forms; loop and j*cxz have only rel8, and
		 * xbegin (C7 F8, which Zydis files here) is no jcc at all. */
		if (z->mnemonic == ZYDIS_MNEMONIC_XBEGIN || z->mnemonic == ZYDIS_MNEMONIC_LOOP ||
		    z->mnemonic == ZYDIS_MNEMONIC_LOOPE || z->mnemonic == ZYDIS_MNEMONIC_LOOPNE ||
		    z->mnemonic == ZYDIS_MNEMONIC_JCXZ || z->mnemonic == ZYDIS_MNEMONIC_JECXZ ||
		    z->mnemonic == ZYDIS_MNEMONIC_JRCXZ)
			return TT_INSN_BRANCH_OTHER;
		return TT_INSN_JCC;
	case ZYDIS_CATEGORY_RET: return TT_INSN_RET;
	default: break;
	}
	if (z->mnemonic == ZYDIS_MNEMONIC_XBEGIN)
		return TT_INSN_BRANCH_OTHER;
	if (z->mnemonic == ZYDIS_MNEMONIC_UD2 || z->mnemonic == ZYDIS_MNEMONIC_HLT ||
	    z->mnemonic == ZYDIS_MNEMONIC_INT3)
		return TT_INSN_RET;
	if (relative) /* any other relative immediate we do not know how to move */
		return TT_INSN_BRANCH_OTHER;
	return TT_INSN_PLAIN;
}

/* The form of a call; its ModRM position for the FF /2 forms, whose reg field names the
 * operation (2 call, 4 jmp), so a copy can turn one into the other. */
static enum tt_call_form call_form_of(const ZydisDecodedInstruction *z, uint8_t *modrm_offset)
{
	if (z->raw.imm[0].is_relative)
		return z->raw.imm[0].size == 32 ? TT_CALL_REL32 : TT_CALL_UNUSUAL;
	if (z->opcode_map != ZYDIS_OPCODE_MAP_DEFAULT || z->opcode != 0xff ||
	    !(z->attributes & ZYDIS_ATTRIB_HAS_MODRM) || z->raw.modrm.reg != 2 ||
	    z->operand_width != 64 || z->address_width != 64)
		return TT_CALL_UNUSUAL;
	*modrm_offset = z->raw.modrm.offset;
	if (z->raw.modrm.mod == 3)
		return z->raw.modrm.rm == 4 && !z->raw.rex.B ? TT_CALL_UNUSUAL : TT_CALL_REG;
	if (z->raw.modrm.mod == 0 && z->raw.modrm.rm == 5)
		return TT_CALL_RIP_MEM;
	return TT_CALL_REG_MEM;
}

int tt_disasm_decode(const uint8_t *code, size_t avail, uint64_t ip, struct tt_insn *out)
{
	ZydisDecoderContext ctx;
	ZydisDecodedInstruction z;

	memset(out, 0, sizeof(*out));
	if (!zy.ready || !ZYAN_SUCCESS(zy.decode(&zy.decoder, &ctx, code, avail, &z)))
		return -1;
	out->len = z.length;
	out->kind = kind_of(&z);
	out->endbr64 = z.mnemonic == ZYDIS_MNEMONIC_ENDBR64;
	/* mod 00, rm 101 without SIB is [rip + disp32] in 64-bit mode, for every encoding. */
	if ((z.attributes & ZYDIS_ATTRIB_HAS_MODRM) && z.raw.modrm.mod == 0 &&
	    z.raw.modrm.rm == 5 && z.raw.disp.size == 32) {
		out->rip_relative = true;
		out->disp_offset = z.raw.disp.offset;
	}
	if (out->kind == TT_INSN_JMP || out->kind == TT_INSN_JCC || out->kind == TT_INSN_CALL ||
	    out->kind == TT_INSN_BRANCH_OTHER) {
		if (z.raw.imm[0].is_relative) {
			out->imm_offset = z.raw.imm[0].offset;
			out->imm_size = z.raw.imm[0].size / 8;
			out->target = ip + z.length + (uint64_t)z.raw.imm[0].value.s;
		}
		if (out->kind == TT_INSN_JCC)
			out->cond = z.opcode & 0x0f; /* 7x rel8 and 0F 8x rel32 alike */
		if (out->kind == TT_INSN_CALL)
			out->call_form = call_form_of(&z, &out->modrm_offset);
	}
	return 0;
}
