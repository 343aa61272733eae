/*
 * disasm.h - one x86-64 instruction at a time, as much of it as relocating it needs.
 *
 * The decoding is Zydis's (Debian libzydis4), loaded at run time with dlopen RTLD_LOCAL only
 * when inline hooks are wanted: the shim keeps needing nothing but libc to start, and a
 * program that brings its own Zydis never sees ours.
 */
#ifndef TT_DISASM_H
#define TT_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tt_insn_kind {
	TT_INSN_PLAIN,	      /* falls through to the next instruction */
	TT_INSN_JMP,	      /* jmp rel8/rel32 */
	TT_INSN_JCC,	      /* jcc rel8/rel32 */
	TT_INSN_CALL,	      /* any call (target 0 unless rel32) */
	TT_INSN_BRANCH_OTHER, /* loop*, j*cxz, xbegin: relative, no rel32 form to widen to */
	TT_INSN_INDIRECT,     /* jmp through a register or memory */
	TT_INSN_RET,	      /* ret, and anything else after which the flow does not go on */
};

/* TT_INSN_CALL: how the target is named, which says how a relocated copy can reach it. */
enum tt_call_form {
	TT_CALL_REL32,	 /* call rel32: target is set */
	TT_CALL_RIP_MEM, /* call *[rip + disp32] (a GOT slot, with -fno-plt) */
	TT_CALL_REG,	 /* call *reg, any register but rsp */
	TT_CALL_REG_MEM, /* call *[reg...]: memory addressed through registers */
	TT_CALL_UNUSUAL, /* call *rsp, far calls, 16-bit operand size */
};

struct tt_insn {
	uint8_t len;
	enum tt_insn_kind kind;
	uint8_t cond;		     /* TT_INSN_JCC: the condition, low nibble of the opcode */
	bool rip_relative;	     /* a [rip + disp32] memory operand */
	uint8_t disp_offset;	     /* where disp32 sits in the instruction */
	uint8_t imm_offset;	     /* relative branches: where the displacement sits */
	uint8_t imm_size;	     /* 1 or 4 */
	uint64_t target;	     /* relative branches: absolute destination */
	enum tt_call_form call_form; /* TT_INSN_CALL */
	uint8_t modrm_offset;	     /* TT_INSN_CALL through FF /2: where its ModRM byte sits */
	bool endbr64;
};

/* Load the decoder. Returns NULL, or why it cannot be used (a sentence fragment). */
const char *tt_disasm_load(void);

/* True once tt_disasm_load succeeded. */
bool tt_disasm_ready(void);

/* Decode the instruction at code (avail bytes readable), which runs at address ip.
 * Returns 0, or -1 when the bytes are not a valid instruction. */
int tt_disasm_decode(const uint8_t *code, size_t avail, uint64_t ip, struct tt_insn *out);

#endif /* TT_DISASM_H */
