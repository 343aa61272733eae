/*
 * test_reloc_keep.c - relocation plans kept between runs (src/x86/reloc_keep.c, the fields of
 * src/x86/relocate.c): a plan made for one load address, kept as a record, copied as bytes
 * (what the file holds) and used at another address must equal the plan the decoder makes
 * there, byte for byte; a record whose function bytes differ, that does not hold together, or whose
 * rel32 would not reach from the new copy is not used.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "x86/disasm.h"
#include "x86/reloc_keep.h"
#include "x86/relocate.h"

#define ADDR UINT64_C(0x555555561130)
#define NEAR (ADDR + 0x10000)
/* Another run: the object elsewhere (ASLR), its copy in a pool page near it, below it. */
#define ADDR2 UINT64_C(0x7f12345678a0)
#define NEAR2 (ADDR2 - 0x3f000)
#define FAR2 (ADDR2 + UINT64_C(0xc0000000)) /* 3 GiB away: no rel32 reaches */

static void need_zydis(void)
{
	const char *err = tt_disasm_load();

	if (err)
		fail_msg("tt_disasm_load: %s", err);
}

enum planner { ENTRY, WHOLE };

static void make(enum planner p, const uint8_t *code, size_t size, uint64_t addr, uint64_t copy,
		 struct tt_reloc *r)
{
	char why[160];
	const char *err;

	need_zydis();
	err = p == ENTRY ? tt_reloc_plan(code, size, addr, copy, r, why, sizeof(why))
			 : tt_reloc_whole(code, size, addr, copy, r, why, sizeof(why));
	if (err)
		fail_msg("refused: %s", err);
}

static void keep(enum planner p, const uint8_t *code, size_t size, const struct tt_reloc *r,
		 struct tt_reloc_kept *k)
{
	size_t nbytes = p == ENTRY ? r->patch_at + r->displaced : size;

	assert_true(tt_reloc_keep(r, code, nbytes, 0x1130, size, p, (uint32_t)size, k));
}

static void assert_same_plan(const struct tt_reloc *a, const struct tt_reloc *b)
{
	assert_int_equal(a->patch_at, b->patch_at);
	assert_int_equal(a->displaced, b->displaced);
	assert_int_equal(a->call_moved, b->call_moved);
	assert_int_equal(a->copy_len, b->copy_len);
	assert_memory_equal(a->copy, b->copy, a->copy_len);
	assert_int_equal(a->map.insns, b->map.insns);
	assert_memory_equal(a->map.at, b->map.at, a->map.insns);
	assert_memory_equal(a->map.copy, b->map.copy, a->map.insns);
}

/* Plan at (ADDR, NEAR), keep, copy the record as bytes, use at (addr2, copy2): the decoder's
 * plan there. */
static void round_trip(enum planner p, const uint8_t *code, size_t size, uint64_t addr2,
		       uint64_t copy2)
{
	struct tt_reloc first, reused, fresh;
	struct tt_reloc_kept k;
	uint8_t file[sizeof(k)];

	make(p, code, size, ADDR, NEAR, &first);
	keep(p, code, size, &first, &k);
	memcpy(file, &k, sizeof(k));
	memset(&k, 0xa5, sizeof(k));
	memcpy(&k, file, sizeof(k));
	assert_true(tt_reloc_reuse(&k, code, size, addr2, copy2, &reused));
	make(p, code, size, addr2, copy2, &fresh);
	assert_same_plan(&reused, &fresh);
	/* and back at the first addresses */
	assert_true(tt_reloc_reuse(&k, code, size, ADDR, NEAR, &reused));
	assert_same_plan(&reused, &first);
}

static void test_plain_entry(void **state)
{
	/* endbr64 | push rbp; mov rbp,rsp; push rbx | xor eax,eax; pop rbx; pop rbp; ret */
	static const uint8_t code[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89,
					0xe5, 0x53, 0x31, 0xc0, 0x5b, 0x5d, 0xc3 };

	(void)state;
	round_trip(ENTRY, code, sizeof(code), ADDR2, NEAR2);
}

static void test_rip_relative_with_immediate(void **state)
{
	/* cmpl $0x7,0x2f0b(%rip) (an immediate after the disp32) | jne +0x10 | ret ... */
	static const uint8_t code[] = {
		0x83, 0x3d, 0x0b, 0x2f, 0x00, 0x00, 0x07, 0x75, 0x10, 0xc3,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90,
		0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xc3
	};

	(void)state;
	round_trip(ENTRY, code, sizeof(code), ADDR2, NEAR2);
}

static void test_jcc_and_mov(void **state)
{
	/* test edi,edi; je +0x20 (rel8, widened) | mov rax,[rip+0x1000] | ret */
	static const uint8_t code[] = { 0x85,
					0xff,
					0x74,
					0x20,
					0x48,
					0x8b,
					0x05,
					0x00,
					0x10,
					0x00,
					0x00,
					0xc3,
					[12 ... 0x30] = 0x90 };

	(void)state;
	round_trip(ENTRY, code, sizeof(code), ADDR2, NEAR2);
}

static void test_moved_calls(void **state)
{
	/* call rel32 at the entry: push of its return address and a jmp */
	static const uint8_t call[] = { 0xe8, 0x00, 0x01, 0x00, 0x00, 0xc3 };
	/* call *[rip+0x2000] (a -fno-plt call through the GOT) */
	static const uint8_t got[] = { 0xff, 0x15, 0x00, 0x20, 0x00, 0x00, 0xc3 };

	(void)state;
	round_trip(ENTRY, call, sizeof(call), ADDR2, NEAR2);
	round_trip(ENTRY, got, sizeof(got), ADDR2, NEAR2);
}

/* A call whose callee no rel32 reaches from the copy jumps through an 8-byte literal: that
 * form is right at any address, and is used as it is. */
static void test_absolute_jump_kept(void **state)
{
	static const uint8_t call[] = { 0xe8, 0x00, 0x01, 0x00, 0x00, 0xc3 };
	struct tt_reloc far, reused;
	struct tt_reloc_kept k;
	uint64_t target;

	(void)state;
	make(ENTRY, call, sizeof(call), ADDR, ADDR + UINT64_C(0xc0000000), &far);
	keep(ENTRY, call, sizeof(call), &far, &k);
	assert_true(tt_reloc_reuse(&k, call, sizeof(call), ADDR2, NEAR2, &reused));
	assert_int_equal(reused.copy_len, far.copy_len);
	memcpy(&target, reused.copy + reused.copy_len - 8, 8);
	assert_int_equal(target, ADDR2 + 5 + 0x100);
}

static void test_whole_function(void **state)
{
	/* xor eax,eax; ret (a trap's copy) and mov eax,[rip+0x40]; ret */
	static const uint8_t xr[] = { 0x31, 0xc0, 0xc3 };
	static const uint8_t mv[] = { 0x8b, 0x05, 0x40, 0x00, 0x00, 0x00, 0xc3 };

	(void)state;
	round_trip(WHOLE, xr, sizeof(xr), ADDR2, NEAR2);
	round_trip(WHOLE, mv, sizeof(mv), ADDR2, NEAR2);
}

static void test_not_used(void **state)
{
	static const uint8_t code[] = { 0x85,
					0xff,
					0x74,
					0x20,
					0x48,
					0x8b,
					0x05,
					0x00,
					0x10,
					0x00,
					0x00,
					0xc3,
					[12 ... 0x30] = 0x90 };
	uint8_t other[sizeof(code)];
	struct tt_reloc r, out;
	struct tt_reloc_kept k, bad;

	(void)state;
	make(ENTRY, code, sizeof(code), ADDR, NEAR, &r);
	keep(ENTRY, code, sizeof(code), &r, &k);
	assert_true(tt_reloc_reuse(&k, code, sizeof(code), ADDR2, NEAR2, &out));
	/* one displaced byte differs (a rebuilt body: the jump's displacement) */
	memcpy(other, code, sizeof(code));
	other[3] = 0x21;
	assert_false(tt_reloc_reuse(&k, other, sizeof(other), ADDR2, NEAR2, &out));
	/* a byte after the displaced ones may differ: not part of the plan */
	memcpy(other, code, sizeof(code));
	other[20] = 0xcc;
	assert_true(tt_reloc_reuse(&k, other, sizeof(other), ADDR2, NEAR2, &out));
	/* fewer readable bytes than the plan covers */
	assert_false(tt_reloc_reuse(&k, code, 4, ADDR2, NEAR2, &out));
	/* a record that does not hold together (an altered one fails its MAC first:
	 * test_kept_mac.c) */
	memcpy(&bad, &k, sizeof(k));
	bad.nbytes = 0;
	assert_false(tt_reloc_reuse(&bad, code, sizeof(code), ADDR2, NEAR2, &out));
	memcpy(&bad, &k, sizeof(k));
	bad.call_moved = 2;
	assert_false(tt_reloc_reuse(&bad, code, sizeof(code), ADDR2, NEAR2, &out));
	/* the copy out of rel32 reach of the function */
	assert_false(tt_reloc_reuse(&k, code, sizeof(code), ADDR2, FAR2, &out));
}

static void test_rebase_refuses_out_of_reach_untouched(void **state)
{
	static const uint8_t code[] = { 0x48, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00, 0xc3 };
	struct tt_reloc r, before;

	(void)state;
	make(ENTRY, code, sizeof(code), ADDR, NEAR, &r);
	before = r;
	assert_int_equal(tt_reloc_rebase(&r, ADDR, ADDR + UINT64_C(0xc0000000)), -1);
	assert_memory_equal(r.copy, before.copy, r.copy_len);
	assert_int_equal(tt_reloc_rebase(&r, ADDR, NEAR), 0);
	assert_memory_equal(r.copy, before.copy, r.copy_len);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_entry),
		cmocka_unit_test(test_rip_relative_with_immediate),
		cmocka_unit_test(test_jcc_and_mov),
		cmocka_unit_test(test_moved_calls),
		cmocka_unit_test(test_absolute_jump_kept),
		cmocka_unit_test(test_whole_function),
		cmocka_unit_test(test_not_used),
		cmocka_unit_test(test_rebase_refuses_out_of_reach_untouched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
