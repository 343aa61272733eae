/*
 * slot_code.c - see slot_code.h. The instructions are written by x86/emit.h; the red-zone
 * slots and the offsets are hot/tramp_layout.h's, as the bodies read them
 * (tests/unit/test_slot_code.c runs the code and compares its bytes).
 */
#include <string.h>

#include "hook/slot_code.h"
#include "hot/tramp_layout.h"
#include "x86/emit.h"

_Static_assert(TT_TLS_IN_SHIM < 128 && TT_TLS_STATS < 128 && TT_TLS_NSTATS < 128 &&
		       TT_FUNC_STATS_SKIP < 128 && TT_FUNC_STATS_PASSED < 128 &&
		       TT_FUNC_STATS_CALLS == 0,
	       "the counting head uses 8-bit displacements (and none for calls)");
_Static_assert(TT_SLOT_COUNT_TAIL >= TT_SLOT_COUNT_COPY + 80, "room for TT_COPY_MAX (relocate.h)");

/* Lengths of what the ways on to the body write, where one path's end places the next. */
enum {
	STORE_RED_ZONE = 5, /* mov %reg, disp8(%rsp) */
	MOVL_R11 = 6,	    /* movl $imm32, %r11d */
	JMP_RIP = 6,	    /* jmp *rel32(%rip) */
	TO_BODY = MOVL_R11 + JMP_RIP,
	MOV_REGS = 3, /* mov %r11, %rdx */
	JMP_REL32 = 5,
	STUB_COUNTED = 84, /* the counting stub's path up to its own indirect jump */
};

/* movl $index, %r11d; jmp *abs(%rip), where abs is 8 bytes at `abs`. */
static uint8_t *to_body(uint8_t *p, uint32_t index, const uint8_t *abs)
{
	p = tt_emit_movl_imm32(p, TT_R11, index);
	return tt_emit_jmp_rip(p, abs);
}

bool tt_slot_can_count(uint32_t index)
{
	return index < (1u << 28); /* index * 8 in a signed disp32 */
}

void tt_slot_write_plain(uint8_t *slot, const struct tt_slot_head *h)
{
	uint8_t *p = tt_emit_store(slot, TT_R11, TT_RSP, TT_RZ_R11);

	p = to_body(p, h->index, p + TO_BODY);
	tt_emit_bytes(p, &h->body, 8);
}

void tt_slot_write_counting(uint8_t *slot, const struct tt_slot_head *h)
{
	uint8_t *timed = slot + TT_SLOT_COUNT_TAIL, *general = timed + 2 * STORE_RED_ZONE + TO_BODY;
	uint8_t *abs_timed = slot + TT_SLOT_COUNT_END - 16, *abs_body = abs_timed + 8;
	uint8_t *p = slot;

	/* rax and rdx into the red zone, the TLS offset into rax (the body's PROLOGUE keeps
	 * them at the same places, so that its timed entry can be taken from here). */
	p = tt_emit_store(p, TT_RAX, TT_RSP, TT_RZ_RAX);
	p = tt_emit_store(p, TT_RDX, TT_RSP, TT_RZ_RDX);
	p = tt_emit_mov_imm32(p, TT_RAX, h->tls_offset);
	/* The guard up (the shim's own call, or a handler that interrupted it): the body. */
	p = tt_emit_cmpb_fs(p, TT_RAX, TT_TLS_IN_SHIM, 0);
	p = tt_emit_jcc32(p, TT_CC_NE, general);
	/* No thread setup, or the function added since: the body (its slow path). */
	p = tt_emit_cmpl_fs(p, TT_RAX, TT_TLS_NSTATS, h->index);
	p = tt_emit_jcc32(p, TT_CC_BE, general); /* nstats <= index */
	p = tt_emit_load_fs(p, TT_RDX, TT_RAX, TT_TLS_STATS);
	p = tt_emit_load_disp32(p, TT_RDX, TT_RDX, (int32_t)(h->index * 8u));
	p = tt_emit_test(p, TT_RDX);				 /* the first call in this thread */
	p = tt_emit_jcc32(p, TT_CC_E, general);			 /* jz */
	p = tt_emit_subq_imm8(p, TT_RDX, TT_FUNC_STATS_SKIP, 1); /* the countdown, as the body's */
	p = tt_emit_jcc32(p, TT_CC_B, timed);			 /* it was zero: time this call */
	p = tt_emit_incq(p, TT_RDX, TT_FUNC_STATS_CALLS);
	p = tt_emit_incq(p, TT_RDX, TT_FUNC_STATS_PASSED);
	p = tt_emit_load(p, TT_RAX, TT_RSP, TT_RZ_RAX);
	p = tt_emit_load(p, TT_RDX, TT_RSP, TT_RZ_RDX);
	/* p == slot + TT_SLOT_COUNT_COPY: on into the relocated entry, written there. */

	/* Timed: as the body's PROLOGUE leaves it (rax = TLS offset, rdx = the counters, rax,
	 * rcx, rdx saved at -8, -16, -24), the caller's r11 where the plain head keeps it. */
	p = tt_emit_store(timed, TT_RCX, TT_RSP, TT_RZ_RCX);
	p = tt_emit_store(p, TT_R11, TT_RSP, TT_RZ_R11);
	p = to_body(p, h->index, abs_timed);
	/* Anything else: the body from its start, every register as the caller left it. */
	p = tt_emit_load(general, TT_RAX, TT_RSP, TT_RZ_RAX);
	p = tt_emit_load(p, TT_RDX, TT_RSP, TT_RZ_RDX);
	p = tt_emit_store(p, TT_R11, TT_RSP, TT_RZ_R11);
	to_body(p, h->index, abs_body);
	tt_emit_bytes(abs_timed, &h->timed, 8);
	tt_emit_bytes(abs_body, &h->body, 8);
}

void tt_stub_write_counting(uint8_t *stub, const struct tt_stub_head *h)
{
	/* The timed path after the counted one, then the general one: all within a rel8. */
	uint8_t *timed = stub + STUB_COUNTED,
		*general = timed + 2 * STORE_RED_ZONE + MOV_REGS + MOVL_R11 + JMP_REL32;
	uint8_t *p = stub;

	memset(stub, 0xcc, TT_STUB_COUNT_SIZE);
	p = tt_emit_endbr64(p); /* reached by indirect calls and jumps */
	p = tt_emit_store(p, TT_RAX, TT_RSP, TT_RZ_RAX);
	p = tt_emit_mov_imm32(p, TT_RAX, h->tls_offset);
	p = tt_emit_cmpb_fs(p, TT_RAX, TT_TLS_IN_SHIM, 0);
	p = tt_emit_jcc8(p, TT_CC_NE, general);
	p = tt_emit_cmpl_fs(p, TT_RAX, TT_TLS_NSTATS, h->index);
	p = tt_emit_jcc8(p, TT_CC_BE, general);
	p = tt_emit_load_fs(p, TT_R11, TT_RAX, TT_TLS_STATS);
	p = tt_emit_load_disp32(p, TT_R11, TT_R11, (int32_t)(h->index * 8u));
	p = tt_emit_test(p, TT_R11);
	p = tt_emit_jcc8(p, TT_CC_E, general);
	p = tt_emit_subq_imm8(p, TT_R11, TT_FUNC_STATS_SKIP, 1);
	p = tt_emit_jcc8(p, TT_CC_B, timed);
	p = tt_emit_incq(p, TT_R11, TT_FUNC_STATS_CALLS);
	p = tt_emit_incq(p, TT_R11, TT_FUNC_STATS_PASSED);
	p = tt_emit_movabs(p, TT_R11, h->target);
	p = tt_emit_load(p, TT_RAX, TT_RSP, TT_RZ_RAX);
	tt_emit_jmp_mem(p, TT_R11); /* this function's own indirect jump */

	/* Timed: rdx = the counters, rcx and rdx saved, as the body's PROLOGUE leaves them. */
	p = tt_emit_store(timed, TT_RCX, TT_RSP, TT_RZ_RCX);
	p = tt_emit_store(p, TT_RDX, TT_RSP, TT_RZ_RDX);
	p = tt_emit_mov(p, TT_RDX, TT_R11);
	p = tt_emit_movl_imm32(p, TT_R11, h->index);
	tt_emit_jmp32(p, h->timed);
	/* Anything else: the body, as from the plain stub (rax still the TLS offset). */
	p = tt_emit_movl_imm32(general, TT_R11, h->index);
	tt_emit_jmp32(p, h->body);
}
