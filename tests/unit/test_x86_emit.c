/*
 * test_x86_emit.c - each instruction src/x86/emit.c writes, against the bytes GNU as writes
 * for it (the instruction in the comment; checked with `as` and `objdump -d`).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "x86/emit.h"

static uint8_t buf[64];

/* What was written from buf to end, against `want`. */
static void expect(const uint8_t *end, const uint8_t *want, size_t n)
{
	assert_int_equal(end - buf, n);
	assert_memory_equal(buf, want, n);
}

#define EXPECT(end, ...)                                        \
	do {                                                    \
		static const uint8_t want_[] = { __VA_ARGS__ }; \
		expect(end, want_, sizeof(want_));              \
	} while (0)

static void test_moves_on_the_stack(void **state)
{
	(void)state;
	EXPECT(tt_emit_endbr64(buf), 0xf3, 0x0f, 0x1e, 0xfa); /* endbr64 */
	/* mov %r11,-112(%rsp) */
	EXPECT(tt_emit_store(buf, TT_R11, TT_RSP, -112), 0x4c, 0x89, 0x5c, 0x24, 0x90);
	/* mov %rax,-8(%rsp) */
	EXPECT(tt_emit_store(buf, TT_RAX, TT_RSP, -8), 0x48, 0x89, 0x44, 0x24, 0xf8);
	/* mov %rcx,-16(%rsp) */
	EXPECT(tt_emit_store(buf, TT_RCX, TT_RSP, -16), 0x48, 0x89, 0x4c, 0x24, 0xf0);
	/* mov %rdx,-24(%rsp) */
	EXPECT(tt_emit_store(buf, TT_RDX, TT_RSP, -24), 0x48, 0x89, 0x54, 0x24, 0xe8);
	/* mov -8(%rsp),%rax */
	EXPECT(tt_emit_load(buf, TT_RAX, TT_RSP, -8), 0x48, 0x8b, 0x44, 0x24, 0xf8);
	/* mov -24(%rsp),%rdx */
	EXPECT(tt_emit_load(buf, TT_RDX, TT_RSP, -24), 0x48, 0x8b, 0x54, 0x24, 0xe8);
}

static void test_memory_forms(void **state)
{
	(void)state;
	/* mov %rax,0x200(%rbx): disp32 */
	EXPECT(tt_emit_store(buf, TT_RAX, TT_RBX, 0x200), 0x48, 0x89, 0x83, 0x00, 0x02, 0x00, 0x00);
	/* mov (%r12),%rsi: SIB, no displacement */
	EXPECT(tt_emit_load(buf, TT_RSI, TT_R12, 0), 0x49, 0x8b, 0x34, 0x24);
	/* mov 0(%rbp),%rdi: rbp takes a disp8 of 0 */
	EXPECT(tt_emit_load(buf, TT_RDI, TT_RBP, 0), 0x48, 0x8b, 0x7d, 0x00);
	/* mov 8(%r13),%r9 */
	EXPECT(tt_emit_load(buf, TT_R9, TT_R13, 8), 0x4d, 0x8b, 0x4d, 0x08);
	/* mov %fs:40(%rax),%rdx */
	EXPECT(tt_emit_load_fs(buf, TT_RDX, TT_RAX, 40), 0x64, 0x48, 0x8b, 0x50, 0x28);
	/* mov %fs:40(%rax),%r11 */
	EXPECT(tt_emit_load_fs(buf, TT_R11, TT_RAX, 40), 0x64, 0x4c, 0x8b, 0x58, 0x28);
	/* mov 0x48d158(%rdx),%rdx */
	EXPECT(tt_emit_load(buf, TT_RDX, TT_RDX, 0x48d158), 0x48, 0x8b, 0x92, 0x58, 0xd1, 0x48,
	       0x00);
	/* mov 0x48d158(%r11),%r11 */
	EXPECT(tt_emit_load(buf, TT_R11, TT_R11, 0x48d158), 0x4d, 0x8b, 0x9b, 0x58, 0xd1, 0x48,
	       0x00);
}

static void test_fixed_displacement(void **state)
{
	(void)state;
	/* mov.d32 0x18(%rdx),%rdx */
	EXPECT(tt_emit_load_disp32(buf, TT_RDX, TT_RDX, 0x18), 0x48, 0x8b, 0x92, 0x18, 0x00, 0x00,
	       0x00);
	/* mov.d32 0x18(%r11),%r11 */
	EXPECT(tt_emit_load_disp32(buf, TT_R11, TT_R11, 0x18), 0x4d, 0x8b, 0x9b, 0x18, 0x00, 0x00,
	       0x00);
}

static void test_registers_and_immediates(void **state)
{
	(void)state;
	EXPECT(tt_emit_mov(buf, TT_RDX, TT_R11), 0x4c, 0x89, 0xda); /* mov %r11,%rdx */
	EXPECT(tt_emit_mov(buf, TT_R11, TT_RDX), 0x49, 0x89, 0xd3); /* mov %rdx,%r11 */
	/* mov $-424,%rax */
	EXPECT(tt_emit_mov_imm32(buf, TT_RAX, -424), 0x48, 0xc7, 0xc0, 0x58, 0xfe, 0xff, 0xff);
	/* mov $0x123456,%r11d */
	EXPECT(tt_emit_movl_imm32(buf, TT_R11, 0x123456), 0x41, 0xbb, 0x56, 0x34, 0x12, 0x00);
	/* mov $0x123456,%eax */
	EXPECT(tt_emit_movl_imm32(buf, TT_RAX, 0x123456), 0xb8, 0x56, 0x34, 0x12, 0x00);
	/* movabs $0x0102030405060708,%r11 */
	EXPECT(tt_emit_movabs(buf, TT_R11, 0x0102030405060708ull), 0x49, 0xbb, 0x08, 0x07, 0x06,
	       0x05, 0x04, 0x03, 0x02, 0x01);
	/* movabs $0x0102030405060708,%rcx */
	EXPECT(tt_emit_movabs(buf, TT_RCX, 0x0102030405060708ull), 0x48, 0xb9, 0x08, 0x07, 0x06,
	       0x05, 0x04, 0x03, 0x02, 0x01);
	EXPECT(tt_emit_test(buf, TT_RDX), 0x48, 0x85, 0xd2); /* test %rdx,%rdx */
	EXPECT(tt_emit_test(buf, TT_R11), 0x4d, 0x85, 0xdb); /* test %r11,%r11 */
}

static void test_arithmetic(void **state)
{
	(void)state;
	/* cmpb $0,%fs:16(%rax) */
	EXPECT(tt_emit_cmpb_fs(buf, TT_RAX, 16, 0), 0x64, 0x80, 0x78, 0x10, 0x00);
	/* cmpl $0x123456,%fs:48(%rax) */
	EXPECT(tt_emit_cmpl_fs(buf, TT_RAX, 48, 0x123456), 0x64, 0x81, 0x78, 0x30, 0x56, 0x34, 0x12,
	       0x00);
	/* cmpl $0x123456,%fs:48(%r8): the REX after the segment prefix */
	EXPECT(tt_emit_cmpl_fs(buf, TT_R8, 48, 0x123456), 0x64, 0x41, 0x81, 0x78, 0x30, 0x56, 0x34,
	       0x12, 0x00);
	/* subq $1,40(%rdx) */
	EXPECT(tt_emit_subq_imm8(buf, TT_RDX, 40, 1), 0x48, 0x83, 0x6a, 0x28, 0x01);
	/* subq $1,40(%r11) */
	EXPECT(tt_emit_subq_imm8(buf, TT_R11, 40, 1), 0x49, 0x83, 0x6b, 0x28, 0x01);
	EXPECT(tt_emit_incq(buf, TT_RDX, 0), 0x48, 0xff, 0x02);	       /* incq (%rdx) */
	EXPECT(tt_emit_incq(buf, TT_RDX, 56), 0x48, 0xff, 0x42, 0x38); /* incq 56(%rdx) */
	EXPECT(tt_emit_incq(buf, TT_R11, 0), 0x49, 0xff, 0x03);	       /* incq (%r11) */
	EXPECT(tt_emit_incq(buf, TT_R11, 56), 0x49, 0xff, 0x43, 0x38); /* incq 56(%r11) */
}

/* The jumps, laid out as in this listing (as, objdump -d):
 *    0: 0f 85 20 00 00 00   jne.d32 b
 *    6: 0f 86 f4 ff ff ff   jbe.d32 a
 *    c: 74 18               je b
 *    e: 72 f0               jb a
 *   10: ff 25 15 00 00 00   jmp *c(%rip)
 *   26: e9 d5 ff ff ff      jmp.d32 a        (b at 0x26, c at 0x2b) */
static void test_jumps(void **state)
{
	uint8_t *a = buf, *b = buf + 0x26, *c = buf + 0x2b;

	(void)state;
	EXPECT(tt_emit_jcc32(buf, TT_CC_NE, b), 0x0f, 0x85, 0x20, 0x00, 0x00, 0x00);
	assert_memory_equal(tt_emit_jcc32(buf + 6, TT_CC_BE, a) - 6,
			    ((const uint8_t[]){ 0x0f, 0x86, 0xf4, 0xff, 0xff, 0xff }), 6);
	assert_memory_equal(tt_emit_jcc8(buf + 0xc, TT_CC_E, b) - 2,
			    ((const uint8_t[]){ 0x74, 0x18 }), 2);
	assert_memory_equal(tt_emit_jcc8(buf + 0xe, TT_CC_B, a) - 2,
			    ((const uint8_t[]){ 0x72, 0xf0 }), 2);
	assert_memory_equal(tt_emit_jmp_rip(buf + 0x10, c) - 6,
			    ((const uint8_t[]){ 0xff, 0x25, 0x15, 0x00, 0x00, 0x00 }), 6);
	assert_memory_equal(tt_emit_jmp32(b, (uint64_t)(uintptr_t)a) - 5,
			    ((const uint8_t[]){ 0xe9, 0xd5, 0xff, 0xff, 0xff }), 5);
	EXPECT(tt_emit_jmp_mem(buf, TT_R11), 0x41, 0xff, 0x23); /* jmp *(%r11) */
	EXPECT(tt_emit_jmp_mem(buf, TT_RAX), 0xff, 0x20);	/* jmp *(%rax) */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_moves_on_the_stack),
		cmocka_unit_test(test_memory_forms),
		cmocka_unit_test(test_fixed_displacement),
		cmocka_unit_test(test_registers_and_immediates),
		cmocka_unit_test(test_arithmetic),
		cmocka_unit_test(test_jumps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
