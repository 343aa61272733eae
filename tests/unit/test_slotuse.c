/*
 * test_slotuse.c - telling `call *slot(%rip)` / `jmp *slot(%rip)` from every other use of a
 * GOT slot (src/x86/slotuse.c).
 *
 * A fake executable segment of nops (0x90 is no ModRM byte of a rip-relative operand) at SEG;
 * GOT slots 64 KiB after it. Each test plants hand-encoded instructions (checked with
 * objdump) whose operands reach the slots, and asserts what the scan says of each slot, with
 * the decoder (Zydis, loaded like the shim does) and without it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "x86/disasm.h"
#include "x86/slotuse.h"

#define SEG UINT64_C(0x7f1234560000)
#define SEG_LEN 0x400
#define SLOT (SEG + 0x10008) /* the slot under test; SLOT - 8 and SLOT + 8 are others */

static uint8_t seg[SEG_LEN];

static void nops(void)
{
	memset(seg, 0x90, sizeof(seg));
}

/*
 * Plant at `at` the bytes op (prefixes, opcode, ModRM), a disp32 aiming at target, then imm
 * (imm_len bytes): the displacement counts from the end of the whole instruction.
 * Returns the address of the displacement.
 */
static uint64_t plant(uint64_t at, const uint8_t *op, size_t op_len, uint64_t target,
		      const uint8_t *imm, size_t imm_len)
{
	size_t off = at - SEG;
	uint64_t end = at + op_len + 4 + imm_len;
	int32_t disp = (int32_t)(int64_t)(target - end);

	assert_true(off + op_len + 4 + imm_len <= SEG_LEN);
	assert_int_equal((int64_t)disp, (int64_t)(target - end));
	memcpy(seg + off, op, op_len);
	memcpy(seg + off + op_len, &disp, 4);
	if (imm_len)
		memcpy(seg + off + op_len + 4, imm, imm_len);
	return at + op_len;
}

static struct tt_slot_use scan_one(uint64_t slot, bool decode)
{
	struct tt_slot_use u = { .slot = slot };

	tt_slotuse_scan(seg, sizeof(seg), SEG, &u, 1, decode);
	return u;
}

static int load_decoder(void **state)
{
	const char *err = tt_disasm_load();

	(void)state;
	if (err)
		fail_msg("tt_disasm_load: %s", err);
	return 0;
}

static const uint8_t CALL[] = { 0xff, 0x15 }, JMP[] = { 0xff, 0x25 },
		     NOTRACK_JMP[] = { 0x3e, 0xff, 0x25 }, BND_CALL[] = { 0xf2, 0xff, 0x15 },
		     MOV_RAX[] = { 0x48, 0x8b, 0x05 }, CMP_RAX[] = { 0x48, 0x3b, 0x05 },
		     PUSH[] = { 0xff, 0x35 }, LCALL[] = { 0xff, 0x1d },
		     LEA_RAX[] = { 0x48, 0x8d, 0x05 }, MOV_EAX[] = { 0x8b, 0x05 },
		     CMPQ_IMM8[] = { 0x48, 0x83, 0x3d }, MOVL_IMM32[] = { 0xc7, 0x05 },
		     MOV_R12[] = { 0x4c, 0x8b, 0x25 }, VMOVQ_XMM0[] = { 0xc5, 0xfa, 0x7e, 0x05 };
static const uint8_t ZERO8[1], IMM32[4] = { 1, 2, 3, 4 };

static void assert_calls_only(const struct tt_slot_use *u, uint32_t calls)
{
	if (u->data)
		fail_msg("data use at 0x%llx; expected calls only", (unsigned long long)u->at);
	assert_int_equal(u->calls, calls);
}

static void assert_data(const struct tt_slot_use *u, uint64_t at, bool unsure)
{
	if (!u->data)
		fail_msg("no data use; expected one at 0x%llx", (unsigned long long)at);
	assert_int_equal(u->at, at);
	assert_int_equal(u->unsure, unsure);
}

/* -fno-plt calls, .plt.got stubs, with the prefixes CET and MPX put there. */
static void calls_and_jumps(void **state)
{
	struct tt_slot_use u;
	int decode;

	(void)state;
	for (decode = 0; decode <= 1; decode++) {
		nops();
		plant(SEG + 0x10, CALL, sizeof(CALL), SLOT, NULL, 0);
		plant(SEG + 0x40, JMP, sizeof(JMP), SLOT, NULL, 0);
		plant(SEG + 0x80, NOTRACK_JMP, sizeof(NOTRACK_JMP), SLOT, NULL, 0);
		plant(SEG + 0xc0, BND_CALL, sizeof(BND_CALL), SLOT, NULL, 0);
		u = scan_one(SLOT, decode);
		assert_calls_only(&u, 4);
	}
}

/* The function's address loaded, compared, pushed, the slot's address taken, a far call
 * (which reads 10 bytes as a far pointer), an SSE load: all data, with or without decoder. */
static void data_uses(void **state)
{
	static const struct {
		const uint8_t *op;
		size_t len;
	} ops[] = {
		{ MOV_RAX, sizeof(MOV_RAX) },
		{ CMP_RAX, sizeof(CMP_RAX) },
		{ PUSH, sizeof(PUSH) },
		{ LCALL, sizeof(LCALL) },
		{ LEA_RAX, sizeof(LEA_RAX) },
		{ MOV_R12, sizeof(MOV_R12) },
		{ VMOVQ_XMM0, sizeof(VMOVQ_XMM0) },
	};
	struct tt_slot_use u;
	uint64_t at;
	size_t i;
	int decode;

	(void)state;
	for (decode = 0; decode <= 1; decode++)
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
			nops();
			plant(SEG + 0x10, CALL, sizeof(CALL), SLOT, NULL, 0);
			at = plant(SEG + 0x100, ops[i].op, ops[i].len, SLOT, NULL, 0);
			u = scan_one(SLOT, decode);
			assert_data(&u, at, false);
			assert_int_equal(u.calls, 1);
		}
}

/* OpenSSL's CRYPTO_malloc: `jmp *slot` in .plt.got, `cmp slot(%rip), %rax` in the body. */
static void openssl_pattern(void **state)
{
	struct tt_slot_use u;
	uint64_t at;

	(void)state;
	nops();
	plant(SEG + 0x20, JMP, sizeof(JMP), SLOT, NULL, 0);
	at = plant(SEG + 0x207, CMP_RAX, sizeof(CMP_RAX), SLOT, NULL, 0);
	u = scan_one(SLOT, true);
	assert_data(&u, at, false);
}

/* Uses of the slots next to it are not uses of it, even with an immediate after the operand
 * (the test of a weak symbol: `cmpq $0, next@GOTPCREL(%rip)`), which only the decoder can
 * tell: without it they count as data, unsure. */
static void neighbours(void **state)
{
	struct tt_slot_use u;
	uint64_t at;

	(void)state;
	nops();
	plant(SEG + 0x10, MOV_RAX, sizeof(MOV_RAX), SLOT - 8, NULL, 0);
	plant(SEG + 0x20, MOV_RAX, sizeof(MOV_RAX), SLOT + 8, NULL, 0);
	plant(SEG + 0x30, CMPQ_IMM8, sizeof(CMPQ_IMM8), SLOT - 8, ZERO8, 1);
	plant(SEG + 0x40, PUSH, sizeof(PUSH), SLOT + 8, NULL, 0);
	plant(SEG + 0x50, CALL, sizeof(CALL), SLOT, NULL, 0);
	u = scan_one(SLOT, false);
	assert_calls_only(&u, 1);
	u = scan_one(SLOT, true);
	assert_calls_only(&u, 1);

	at = plant(SEG + 0x60, CMPQ_IMM8, sizeof(CMPQ_IMM8), SLOT + 8, ZERO8, 1);
	plant(SEG + 0x70, MOVL_IMM32, sizeof(MOVL_IMM32), SLOT + 8, IMM32, 4);
	u = scan_one(SLOT, true);
	assert_calls_only(&u, 1);
	u = scan_one(SLOT, false);
	assert_data(&u, at, true);
}

/* An immediate after an operand that does reach the slot, or inside it: data. */
static void inside_the_slot(void **state)
{
	struct tt_slot_use u;
	uint64_t at;
	int decode;

	(void)state;
	for (decode = 0; decode <= 1; decode++) {
		nops();
		at = plant(SEG + 0x30, CMPQ_IMM8, sizeof(CMPQ_IMM8), SLOT, ZERO8, 1);
		u = scan_one(SLOT, decode);
		assert_data(&u, at, !decode);

		nops();
		at = plant(SEG + 0x30, MOV_EAX, sizeof(MOV_EAX), SLOT + 4, NULL, 0);
		u = scan_one(SLOT, decode);
		assert_data(&u, at, !decode);

		nops(); /* call through a pointer half in this slot: data too */
		at = plant(SEG + 0x30, CALL, sizeof(CALL), SLOT + 4, NULL, 0);
		u = scan_one(SLOT, decode);
		assert_data(&u, at, !decode);
	}
}

/* Every byte offset, the SSE2 blocks' and the tail's, at the start and the end of the code. */
static void every_offset(void **state)
{
	uint64_t at, off;

	(void)state;
	for (off = 0; off + 7 <= SEG_LEN; off++) {
		struct tt_slot_use u;

		if (off > 48 && off < SEG_LEN - 48)
			continue;
		nops();
		at = plant(SEG + off, MOV_RAX, sizeof(MOV_RAX), SLOT, NULL, 0);
		u = scan_one(SLOT, true);
		assert_data(&u, at, false);
		nops();
		plant(SEG + off, CALL, sizeof(CALL), SLOT, NULL, 0);
		u = scan_one(SLOT, true);
		assert_calls_only(&u, 1);
	}
}

/* Several slots in one scan: each gets its own answer, and keeps its tag through the sort. */
static void several_slots(void **state)
{
	struct tt_slot_use u[4] = {
		{ .slot = SLOT + 32, .tag = 0 },
		{ .slot = SLOT, .tag = 1 },
		{ .slot = SLOT + 8, .tag = 2 },
		{ .slot = SLOT + 80, .tag = 3 },
	};
	uint64_t at;
	size_t i;

	(void)state;
	nops();
	plant(SEG + 0x10, CALL, sizeof(CALL), SLOT, NULL, 0);
	plant(SEG + 0x20, JMP, sizeof(JMP), SLOT + 8, NULL, 0);
	at = plant(SEG + 0x30, MOV_RAX, sizeof(MOV_RAX), SLOT + 8, NULL, 0);
	plant(SEG + 0x40, CALL, sizeof(CALL), SLOT + 80, NULL, 0);
	plant(SEG + 0x50, CALL, sizeof(CALL), SLOT + 80, NULL, 0);
	tt_slotuse_scan(seg, sizeof(seg), SEG, u, 4, true);
	for (i = 0; i < 4; i++)
		switch (u[i].tag) {
		case 0:
			assert_int_equal(u[i].slot, SLOT + 32);
			assert_calls_only(&u[i], 0);
			break;
		case 1:
			assert_int_equal(u[i].slot, SLOT);
			assert_calls_only(&u[i], 1);
			break;
		case 2:
			assert_int_equal(u[i].slot, SLOT + 8);
			assert_data(&u[i], at, false);
			assert_int_equal(u[i].calls, 1);
			break;
		default:
			assert_int_equal(u[i].slot, SLOT + 80);
			assert_calls_only(&u[i], 2);
			break;
		}
}

/* Slots beyond a disp32's reach of the code are not looked for. */
static void out_of_reach(void **state)
{
	struct tt_slot_use u;

	(void)state;
	nops();
	u = scan_one(SEG + (UINT64_C(1) << 33), true);
	assert_calls_only(&u, 0);
	u = scan_one(SEG - (UINT64_C(1) << 33), false);
	assert_calls_only(&u, 0);
}

/* A displacement whose bytes hit the slot with no instruction around it that the decoder
 * can place (no opcode before the ModRM byte: the code's first byte) counts as data. */
static void undecodable(void **state)
{
	struct tt_slot_use u;
	uint64_t at;

	(void)state;
	nops();
	seg[0] = 0x05; /* a "ModRM" at offset 0; its displacement reaches SLOT + 2 */
	{
		int32_t disp = (int32_t)(int64_t)(SLOT + 2 - (SEG + 5));

		memcpy(seg + 1, &disp, 4);
	}
	at = SEG + 1;
	u = scan_one(SLOT, true);
	assert_data(&u, at, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(calls_and_jumps), cmocka_unit_test(data_uses),
		cmocka_unit_test(openssl_pattern), cmocka_unit_test(neighbours),
		cmocka_unit_test(inside_the_slot), cmocka_unit_test(every_offset),
		cmocka_unit_test(several_slots),   cmocka_unit_test(out_of_reach),
		cmocka_unit_test(undecodable),
	};

	return cmocka_run_group_tests(tests, load_decoder, NULL);
}
